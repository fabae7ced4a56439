import { describe, expect, it } from 'vitest';
import { findScanPauses } from './scan-pauses.ts';
import { scanPauseWarnings } from './scan-warnings.ts';

const S = 1000;

/** Packet times every `everyMs` over each [from, to] burst (s). */
function bursts(spans: Array<[number, number]>, everyMs = 200): Float64Array {
  const times: number[] = [];
  for (const [from, to] of spans) for (let t = from * S; t <= to * S; t += everyMs) times.push(t);
  // Any order: the search does not sort.
  return Float64Array.from(times.reverse());
}

describe('scan pauses', () => {
  it('finds every silence of a duty-cycled scan and measures scanning time without them', () => {
    const pauses = findScanPauses(bursts([[0, 25], [900, 925], [1800, 1830], [2700, 2720]]), []);
    expect(pauses.count).toBe(3);
    expect([...pauses.startMs]).toEqual([25 * S, 925 * S, 1830 * S]);
    expect([...pauses.endMs]).toEqual([900 * S, 1800 * S, 2700 * S]);
    expect(pauses.scanningMs(10 * S)).toBe(10 * S);
    // Past the first pause (875 s) and the second (875 s).
    expect(pauses.scanningMs(1805 * S)).toBe((1805 - 1750) * S);
    expect(pauses.pauseAfter(24 * S, 2 * S)).toBe(875 * S);
    expect(pauses.pauseAfter(20 * S, 2 * S)).toBe(0);
    expect(pauses.pauseBefore(901 * S, 2 * S)).toBe(875 * S);
    expect(pauses.pauseBefore(910 * S, 2 * S)).toBe(0);
  });

  it('finds both edges of a burst shorter than a bin (an HCI log of instant scan reports)', () => {
    const pauses = findScanPauses(bursts([[0, 25], [900.2, 900.4], [1800, 1825], [2700, 2720]]), []);
    expect([...pauses.startMs]).toEqual([25 * S, 900.4 * S, 1825 * S]);
    expect([...pauses.endMs]).toEqual([900.2 * S, 1800 * S, 2700 * S]);
  });

  it('ignores silences a slow advertiser explains and counts a lone silence only when an address spans it', () => {
    // 10 s between packets (the longest advertising interval is 10.24 s): no pause.
    expect(findScanPauses(bursts([[0, 600]], 10_000), []).count).toBe(0);
    const times = bursts([[0, 100], [300, 400]]);
    // Every device may have left: not a pause of the scanner.
    expect(findScanPauses(times, [{ firstMs: 0, lastMs: 100 * S }, { firstMs: 300 * S, lastMs: 400 * S }]).count).toBe(0);
    // An address heard on both sides was alive throughout: the scanner was not listening.
    expect(findScanPauses(times, [{ firstMs: 50 * S, lastMs: 350 * S }]).count).toBe(1);
  });

  it('warns with the numbers when every gap between bursts is longer than the linkage window', () => {
    const pauses = findScanPauses(bursts([[0, 25], [900, 925], [1795, 1820], [2700, 2720]]), []);
    const [warning] = scanPauseWarnings(pauses, 180);
    expect(warning.code).toBe('SCAN_DUTY_CYCLE');
    expect(warning.message).toMatch(/^every one of the 3 gaps between scan bursts is 870–880 s, longer than the linkage window of 180 s: /);
    expect(warning.message).toMatch(/window counts scanning time/);
    expect(scanPauseWarnings(pauses, 900)).toEqual([]);
    // Two bursts only: no duty cycle to speak of.
    expect(scanPauseWarnings(findScanPauses(bursts([[0, 25], [900, 925]]), [{ firstMs: 0, lastMs: 925 * S }]), 180)).toEqual([]);
  });
});
