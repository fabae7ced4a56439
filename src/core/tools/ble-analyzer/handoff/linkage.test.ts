import { describe, expect, it } from 'vitest';
import type { BleAnalysisOptions } from '../shared/analysis-types.ts';
import { ah, formatBleAddress } from '../shared/ah.ts';
import { buildAddressProfiles, type BleAddressProfile } from '../profile/address-profiles.ts';
import { analyzeBle } from '../analyze.ts';
import { linkAddresses, sweepCandidates } from './linkage.ts';
import type { BleLinkableAddress } from './handoff-types.ts';
import { BleHandoffTexts } from './handoff-description.ts';
import { BleScanner } from '../scan/observations.ts';
import { bleRotationModel } from '../classify/rotation-model.ts';
import { bleAnalysisOptions, bleTestStream, bleTestTable, selectAllRows, type BleTestRow } from '../shared/test-support.ts';

const T0 = 1_712_131_200_000;
const S = 1000;
const options = bleAnalysisOptions({ includeCandidates: true });

function analyze(rows: BleTestRow[], overrides: Partial<BleAnalysisOptions> = {}) {
  const sorted = [...rows].sort((a, b) => a.ts - b.ts);
  return analyzeBle(selectAllRows('test', bleTestTable(sorted)), { ...options, ...overrides });
}

function probability(analysis: ReturnType<typeof analyze>, earlier: string, later: string): number {
  return analysis.candidates.find((candidate) => candidate.earlier === earlier && candidate.later === later)?.probability ?? 0;
}

// A background of unrelated public beacons, so the run has a realistic mix.
const background: BleTestRow[] = [
  ...bleTestStream('00:1A:7D:DA:71:13', T0, T0 + 1800 * S, 2000, { txAdd: 0, rssi: -70, payload: 'beacon-a' }),
  ...bleTestStream('00:1A:7D:DA:71:14', T0, T0 + 1800 * S, 2000, { txAdd: 0, rssi: -50, payload: 'beacon-b' }),
];

describe('linkage on hand-built scenarios', () => {
  it('links a clean RPA hand-off and chains three addresses into one cluster', () => {
    const rows = [
      ...background,
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 910 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 911 * S, T0 + 1790 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
    ];
    const analysis = analyze(rows);
    expect(probability(analysis, '7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19')).toBeGreaterThan(0.9);
    expect(analysis.clusters).toHaveLength(1);
    expect(analysis.clusters[0].addresses).toEqual(['7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19']);
    expect(analysis.clusters[0].clusterId).toBe('cluster_rpa_7A4C219D10EF');
    expect(analysis.clusters[0].rationale.join('\n')).toMatch(/rotation_interval_fit[\s\S]*rssi_continuity[\s\S]*payload_signature_match/);
  });

  it('gives the same clusters without the candidate list, which describes only the factors clusters read', () => {
    // Rotating payloads (a template match, not an exact signature) so the rationale quotes the payload texts too.
    const rows = [
      ...background,
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 910 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 911 * S, T0 + 1790 * S, 1000, { rssi: -63, payload: 'phone-token-2' }),
      ...bleTestStream('4E:05:B7:12:6C:D8', T0 + 1791 * S, T0 + 2700 * S, 1000, { rssi: -61, payload: 'phone-token-3' }),
    ];
    const listed = analyze(rows);
    const lean = analyze(rows, { includeCandidates: false });
    expect(listed.clusters).toHaveLength(1);
    expect(listed.clusters[0].rationale.join('\n')).toMatch(/rssi_continuity: 2 of 2[\s\S]*payload_signature_match: same AD template[\s\S]*adv_interval_similarity: advertising interval 1000 → 1000 ms/);
    expect(lean.clusters).toEqual(listed.clusters);
    expect({ ...lean, candidates: listed.candidates }).toEqual(listed);
  });

  it('does not link addresses active at the same time on the same receiver', () => {
    const rows = [
      ...background,
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 910 * S, 1000, { rssi: -62, payload: 'p' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 890 * S, T0 + 1790 * S, 1000, { rssi: -62, payload: 'p' }),
    ];
    const analysis = analyze(rows);
    expect(probability(analysis, '7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19')).toBeLessThan(0.5);
    expect(analysis.clusters).toHaveLength(0);
  });

  it('never links across a gap longer than linkage_window_s', () => {
    const rows = [
      ...bleTestStream('7A:4C:21:9D:10:EF', T0, T0 + 900 * S, 1000, { payload: 'p' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 1100 * S, T0 + 1800 * S, 1000, { payload: 'p' }),
    ];
    const analysis = analyze(rows, { linkageWindowS: 180 });
    expect(analysis.candidates).toEqual([]);
    expect(analysis.clusters).toEqual([]);
    // A wider window makes the same pair a candidate.
    expect(analyze(rows, { linkageWindowS: 300 }).candidates).toHaveLength(1);
  });

  it('gives each of k identical twins rotating at once about 1/k (the matching model, before calibration)', () => {
    for (const k of [2, 3, 4]) {
      const rows: BleTestRow[] = [];
      const before = Array.from({ length: k }, (_, i) => `4${i}:11:22:33:44:55`);
      const after = Array.from({ length: k }, (_, i) => `5${i}:66:77:88:99:AA`);
      for (let i = 0; i < k; i++) {
        // Interleaved in time so no twin is favoured by its gap.
        rows.push(...bleTestStream(before[i], T0 + 100 * S + i * 10, T0 + 1000 * S + i * 10, 1000, { rssi: -60, payload: 'tracker' }));
        rows.push(...bleTestStream(after[i], T0 + 1001 * S + i * 10, T0 + 1800 * S + i * 10, 1000, { rssi: -60, payload: 'tracker' }));
      }
      const analysis = analyze(rows, { uncalibrated: true });
      for (let i = 0; i < k; i++) {
        expect(probability(analysis, before[i], after[i])).toBeGreaterThan(0.7 / k);
        expect(probability(analysis, before[i], after[i])).toBeLessThan(1.3 / k);
      }
      expect(analysis.clusters).toHaveLength(0);
      // Calibrated, the twins stay interchangeable (one value for all) and below certainty.
      const calibratedRun = analyze(rows);
      const values = before.map((address, i) => probability(calibratedRun, address, after[i]));
      for (const value of values) expect(value).toBeCloseTo(values[0], 3);
      expect(values[0]).toBeLessThan(0.9);
    }
  });

  it('links RPAs that resolve under a supplied IRK with probability 1, naming the key', () => {
    // 70:81:94:0D:FB:AA is the Core specification's sample RPA of this IRK.
    const irk = Uint8Array.from([0xec, 0x02, 0x34, 0xa3, 0x57, 0xc8, 0xad, 0x05, 0x34, 0x10, 0x10, 0xa6, 0x0a, 0x39, 0x7d, 0x9b]);
    const rows = [
      ...background,
      ...bleTestStream('70:81:94:0D:FB:AA', T0 + 10 * S, T0 + 600 * S, 1000, { rssi: -80, payload: 'x' }),
      // Different RSSI and payload: only the key links them.
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 700 * S, T0 + 1700 * S, 1000, { rssi: -40, payload: 'y' }),
    ];
    const without = analyze(rows);
    expect(without.clusters).toHaveLength(0);
    const withKey = analyze(rows, { irks: [{ label: 'spec-sample', irk }] });
    expect(withKey.classification.find((item) => item.address === '70:81:94:0D:FB:AA')!.evidence.join(' ')).toMatch(/IRK 'spec-sample'/);
    expect(withKey.clusters).toHaveLength(0);
    // A second resolving address (of the same key) joins it with probability 1, even far apart in time.
    const second = ah2(irk);
    const linked = analyze([...rows, ...bleTestStream(second, T0 + 1200 * S, T0 + 1790 * S, 1000, { rssi: -90, payload: 'z' })], { irks: [{ label: 'spec-sample', irk }] });
    const cluster = linked.clusters.find((item) => item.addresses.includes('70:81:94:0D:FB:AA'))!;
    expect(cluster.addresses).toContain(second);
    const i = cluster.addresses.indexOf('70:81:94:0D:FB:AA');
    const j = cluster.addresses.indexOf(second);
    expect(cluster.matrix[i][j]).toBe(1);
    expect(cluster.rationale[0]).toMatch(/^irk_resolution: 2 addresses resolve under IRK 'spec-sample'/);
  });
});


/** Another RPA of the key: prand 0x5A1234 with its hash. */
function ah2(irk: Uint8Array): string {
  const prand = 0x5a1234;
  return formatBleAddress(prand * 2 ** 24 + ah(irk, prand));
}

describe('candidate sweep', () => {
  /** The documented rule, pair by pair: every address against every other, nearest 16 by (distance, index). */
  function bruteForce(addresses: BleLinkableAddress[], windowS: number): Array<[number, number]> {
    const byFirst = addresses.map((_, index) => index).sort((x, y) => addresses[x].profile.firstMs - addresses[y].profile.firstMs || (addresses[x].address < addresses[y].address ? -1 : 1));
    const pairs: Array<[number, number]> = [];
    addresses.forEach(({ profile: a }, ai) => {
      const found = byFirst.filter((bi) => {
        const b = addresses[bi].profile;
        return bi !== ai && b.firstMs >= a.lastMs - 30_000 && b.firstMs <= a.lastMs + windowS * 1000 && b.firstMs > a.firstMs && b.lastMs > a.lastMs;
      });
      const distance = (bi: number): number => Math.abs(addresses[bi].profile.firstMs - a.lastMs);
      const kept = found.length <= 16 ? found : [...found].sort((x, y) => distance(x) - distance(y) || x - y).slice(0, 16);
      for (const bi of kept) pairs.push([ai, bi]);
    });
    return pairs;
  }

  it('keeps the 16 nearest successors by (gap, index), ties included, in the documented order', () => {
    let state = 12345;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    // Whole-second starts and ends: many addresses start together, so gaps tie. Dense enough for
    // most addresses to have more than 16 candidates, sparse enough for many to have about 16.
    for (const count of [400, 90, 60]) {
      const addresses: BleLinkableAddress[] = Array.from({ length: count }, (_, index) => {
        const firstMs = T0 + Math.floor(next() * 600) * S;
        const lastMs = firstMs + Math.floor(10 + next() * 120) * S;
        return { profile: { firstMs, lastMs } as BleAddressProfile, address: `addr-${(index * 7919) % count}`, type: 'rpa', irk: -1 };
      });
      const pairs = sweepCandidates(addresses, 180);
      const expected = bruteForce(addresses, 180);
      expect(expected.length).toBeGreaterThan(count * 5);
      expect(Array.from(pairs.earlier, (ai, e) => [ai, pairs.later[e]])).toEqual(expected);
    }
  });
});

describe('hand-off factors for clusters', () => {
  it('collects on request the texts of the factors the candidate list carries, without the payload factor when asked', () => {
    const rows = [
      ...bleTestStream('7A:4C:21:9D:10:EF', T0 + 10 * S, T0 + 910 * S, 1000, { rssi: -62, payload: 'phone-token-1' }),
      ...bleTestStream('61:D2:88:3C:A4:19', T0 + 911 * S, T0 + 1790 * S, 1000, { rssi: -63, payload: 'phone-token-2' }),
      ...bleTestStream('4E:05:B7:12:6C:D8', T0 + 1791 * S, T0 + 2700 * S, 1000, { rssi: -61, payload: 'phone-token-2' }),
      ...bleTestStream('5B:11:22:33:44:55', T0 + 905 * S, T0 + 1700 * S, 2000, { rssi: -80, payload: 'watch', receiver: 'rx-2' }),
    ].sort((a, b) => a.ts - b.ts);
    const scanner = new BleScanner({ columns: options.addressColumns, includeCrcBad: false });
    for (const batch of selectAllRows('test', bleTestTable(rows)).batches) scanner.add(batch);
    const store = scanner.finish();
    const profiles = buildAddressProfiles(store);
    const linkable: BleLinkableAddress[] = store.addressTexts.map((address, id) => ({ profile: profiles.byAddress[id]!, address, type: 'rpa', irk: -1 }));
    const context = {
      linkageWindowS: 180,
      model: bleRotationModel('spec_default'),
      payloads: store,
      receiverNames: store.receiverNames,
      receivers: profiles.receivers,
      dataStartMs: T0,
      dataEndMs: T0 + 2700 * S,
      irkLabels: [],
    };
    const listed = linkAddresses(linkable, { ...context, describeCandidates: true });
    const lean = linkAddresses(linkable, context);
    expect(lean.factors).toEqual([]);
    expect(listed.earlier.length).toBeGreaterThan(2);
    // The pieces clusters collect, joined, for the pairs so far: as the listed factors' texts.
    const collected = (handoffs: typeof lean.handoffs, upTo: number, payloadText: boolean): string[] => {
      const texts = new BleHandoffTexts();
      for (let e = 0; e <= upTo; e++) handoffs.appendClusterTexts(e, payloadText, texts);
      return [texts.rssi.join(''), String(texts.rssiCount), String(texts.rssiPositive), texts.payload.join(''), texts.interval.join(''), String(texts.intervalCount)];
    };
    const expected = (upTo: number, payloadText: boolean): string[] => {
      const named = (name: string) => listed.factors.slice(0, upTo + 1).flatMap((factors) => (factors ?? []).filter((factor) => factor.name === name));
      const rssi = named('rssi_continuity');
      const interval = named('adv_interval_similarity');
      return [
        rssi.map((factor) => factor.text).join('; '),
        String(rssi.length),
        String(rssi.filter((factor) => factor.llr > 0).length),
        payloadText ? named('payload_signature_match').map((factor) => factor.text).join('; ') : '',
        interval.map((factor) => factor.text).join('; '),
        String(interval.length),
      ];
    };
    let described = 0;
    for (let e = 0; e < listed.earlier.length; e++) {
      const all = listed.factors[e];
      expect(lean.handoffs.described(e)).toBe(all !== undefined);
      if (all) described++;
      for (const payloadText of [true, false]) {
        expect(collected(lean.handoffs, e, payloadText)).toEqual(expected(e, payloadText));
        // With the candidate list they are picked out of its factors: the same.
        expect(collected(listed.handoffs, e, payloadText)).toEqual(expected(e, payloadText));
      }
    }
    expect(described).toBeGreaterThan(0);
    const all = collected(lean.handoffs, listed.earlier.length - 1, true);
    expect(all[0]).toContain('RSSI rx-');
    expect(all[3]).toContain('payload');
    expect(all[4]).toContain('advertising interval');
  });
});
