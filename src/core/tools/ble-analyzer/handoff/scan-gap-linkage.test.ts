import { describe, expect, it } from 'vitest';
import type { BleAnalysisOptions } from '../shared/analysis-types.ts';
import { analyzeBle } from '../analyze.ts';
import { bleAnalysisOptions, bleTestStream, bleTestTable, selectAllRows, type BleTestRow } from '../shared/test-support.ts';

const T0 = 1_712_131_200_000;
const S = 1000;
const options = bleAnalysisOptions({ includeCandidates: true, minObservationCount: 5 });

function analyze(rows: BleTestRow[], overrides: Partial<BleAnalysisOptions> = {}) {
  const sorted = [...rows].sort((a, b) => a.ts - b.ts);
  return analyzeBle(selectAllRows('test', bleTestTable(sorted)), { ...options, ...overrides });
}

function candidate(analysis: ReturnType<typeof analyze>, earlier: string, later: string) {
  return analysis.candidates.find((entry) => entry.earlier === earlier && entry.later === later);
}

/** A phone-side observer: 25 s of scanning every 900 s. */
const BURSTS = [0, 900, 1800, 2700];
const inBurst = (burst: number, rows: BleTestRow[]) => rows.filter((row) => row.ts >= T0 + BURSTS[burst] * S && row.ts <= T0 + (BURSTS[burst] + 25) * S);

describe('hand-offs across scan pauses', () => {
  // Two phones, each a new address per burst (they rotated while nobody listened); each keeps a
  // vendor token and its RSSI level, the evidence that survives the pause.
  const x = ['7A:4C:21:9D:10:E1', '61:D2:88:3C:A4:12', '5B:0E:B3:28:5D:C3', '48:BE:D5:A3:56:34'];
  const y = ['6C:39:A8:8C:6D:61', '45:E1:27:71:D7:A2', '72:05:34:24:DD:D3', '53:10:D9:3F:F0:04'];
  const rows: BleTestRow[] = [];
  for (let burst = 0; burst < BURSTS.length; burst++) {
    const from = T0 + BURSTS[burst] * S;
    rows.push(...bleTestStream('00:1A:7D:DA:71:13', from, from + 25 * S, 1000, { txAdd: 0, rssi: -70, payload: 'beacon-a' }));
    rows.push(...inBurst(burst, bleTestStream(x[burst], from, from + 25 * S, 500, { rssi: -55, payload: 'token-x' })));
    rows.push(...inBurst(burst, bleTestStream(y[burst], from + 100, from + 25 * S, 500, { rssi: -80, payload: 'token-y' })));
  }

  it('links them with the default window, says the hand-off was not seen, and warns with the numbers', () => {
    const analysis = analyze(rows, { linkageWindowS: 180 });
    expect(analysis.warnings.find((warning) => warning.code === 'SCAN_DUTY_CYCLE')?.message).toMatch(
      /^every one of the 3 gaps between scan bursts is 875 s, longer than the linkage window of 180 s/,
    );
    for (let burst = 0; burst + 1 < BURSTS.length; burst++) {
      const same = candidate(analysis, x[burst], x[burst + 1]);
      expect(same?.probability).toBeGreaterThan(0.8);
      expect(same?.factors.find((factor) => factor.startsWith('handoff_gap'))).toMatch(/hand-off not seen: .* so the gap says nothing \(\+0\.0\)/);
      expect(candidate(analysis, x[burst], y[burst + 1])?.probability ?? 0).toBeLessThan(0.2);
      expect(candidate(analysis, y[burst], y[burst + 1])?.probability).toBeGreaterThan(0.8);
    }
    const clusters = analysis.clusters.map((cluster) => [...cluster.addresses].sort());
    expect(clusters).toContainEqual([...x].sort());
    expect(clusters).toContainEqual([...y].sort());
  });

  it('a lone silence nobody spans stays a silence: the window counts clock time there', () => {
    const lone = [...inBurst(0, rows), ...inBurst(1, rows)].filter((row) => row.addr !== '00:1A:7D:DA:71:13');
    const analysis = analyze(lone, { linkageWindowS: 180 });
    expect(analysis.warnings.some((warning) => warning.code === 'SCAN_DUTY_CYCLE')).toBe(false);
    expect(analysis.candidates).toEqual([]);
  });
});

describe('contradictions', () => {
  it('never links two addresses alive together on one receiver beyond the tolerance', () => {
    const rows = [
      ...bleTestStream('00:1A:7D:DA:71:13', T0, T0 + 1800 * S, 2000, { txAdd: 0, rssi: -70, payload: 'beacon-a' }),
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 905 * S, 1000, { rssi: -62, payload: 'p' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 900 * S, T0 + 1790 * S, 1000, { rssi: -62, payload: 'p' }),
    ];
    const analysis = analyze(rows, { minObservationCount: 25 });
    const pair = candidate(analysis, '7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19');
    // Ruled out (not the small base rate of its calibration bin), so not described either.
    expect(pair?.probability).toBe(0);
    expect(pair?.factors).toEqual([]);
    expect(analysis.clusters).toEqual([]);
  });
});

describe('receivers whose clocks disagree', () => {
  /** Rows as two receivers hear them: rx-2's clock runs `skewMs` ahead of rx-1's. */
  const heardByBoth = (addr: string, from: number, to: number, extra: Partial<BleTestRow>, skewMs: number): BleTestRow[] => [
    ...bleTestStream(addr, from, to, 1000, { ...extra, receiver: 'rx-1' }),
    ...bleTestStream(addr, from + skewMs + 300, to + skewMs + 300, 1000, { ...extra, receiver: 'rx-2' }),
  ];

  it('measures the skew from addresses both heard and tolerates that much overlap in a hand-off', () => {
    const skewMs = 3000;
    const rows: BleTestRow[] = [];
    for (let beacon = 0; beacon < 6; beacon++) rows.push(...heardByBoth(`00:1A:7D:DA:71:1${beacon}`, T0, T0 + 1800 * S, { txAdd: 0, rssi: -60 - 3 * beacon, payload: `beacon-${beacon}` }, skewMs));
    rows.push(...heardByBoth('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 900 * S, { rssi: -62, payload: 'p' }, skewMs));
    rows.push(...heardByBoth('61:D2:88:3C:A4:19', T0 + 901 * S, T0 + 1790 * S, { rssi: -62, payload: 'p' }, skewMs));
    const analysis = analyze(rows, { minObservationCount: 25 });
    expect(analysis.warnings.find((warning) => warning.code === 'RECEIVER_CLOCK_SKEW')?.message).toBe(
      'receiver clocks disagree by up to 3.3 s (measured from addresses several receivers heard): hand-offs tolerate 4.3 s of overlap instead of 1 s',
    );
    // rx-2 hears the old address 3.3 s after rx-1 hears the new one: an overlap the skew explains.
    expect(candidate(analysis, '7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19')?.probability).toBeGreaterThan(0.9);
  });
});
