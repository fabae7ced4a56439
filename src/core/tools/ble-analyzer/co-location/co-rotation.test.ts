import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../demo/seeded-random.ts';
import { BleHandoffCrowd, coRotationLogOddsOf, coRotationQuickRange, coRotationRange, HandoffSearch, type BleHandoffChain } from './co-rotation.ts';

const FIXED_PERIOD_MS = [885_000, 915_000] as const;
const T0 = 1_712_131_200_000;

/**
 * A random crowd of chains over two hours: some follow a shared timer (their hand-offs within a
 * few seconds of each other, sometimes repeated one fixed period later), the others hand off on
 * their own; tolerances differ from chain to chain; a few chains' hand-offs do not ascend.
 */
function randomCrowd(seed: number): BleHandoffChain[] {
  const random = seededRandom(seed);
  const shared: number[] = [];
  for (let t = T0 + 60_000 * random.uniform(); t < T0 + 7_200_000; t += 300_000 + 600_000 * random.uniform()) shared.push(t);
  const chains: BleHandoffChain[] = [];
  for (let index = 0; index < 40; index++) {
    const times: number[] = [];
    if (random.uniform() < 0.4) {
      for (const t of shared) if (random.uniform() < 0.8) times.push(t + 4_000 * (random.uniform() - 0.5));
      if (times.length > 0 && random.uniform() < 0.5) times.push(times[times.length - 1] + 900_000);
    } else {
      for (let t = T0 + 900_000 * random.uniform(); t < T0 + 7_200_000; t += 200_000 + 900_000 * random.uniform()) times.push(t);
    }
    times.sort((x, y) => x - y);
    const ascending = random.uniform() < 0.9;
    if (!ascending && times.length > 2) [times[0], times[1]] = [times[1], times[0]];
    const boundaries = Float64Array.from(times);
    chains.push({ index, boundaries, toleranceMs: 2_500 + 2_500 * random.uniform(), ascending: !ascending && times.length > 2 ? false : true });
  }
  return chains;
}

describe('co-rotation term bounds', () => {
  it('enclose the exact term, and are the exact term when they say so (with coincidences counted or not)', () => {
    const range = new Float64Array(2);
    const quick = new Float64Array(2);
    const reused = new Float64Array(2);
    const searched = new Int32Array(HandoffSearch.Size);
    let bounded = 0;
    let tight = 0;
    let exact = 0;
    let coincident = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const random = seededRandom(1000 + seed);
      const chains = randomCrowd(seed);
      const concurrent = Int32Array.from(chains, () => 5 + Math.floor(60 * random.uniform()));
      const crowd = new BleHandoffCrowd(chains, concurrent);
      for (const a of chains) {
        for (const b of chains) {
          if (a === b) continue;
          const fromMs = T0 + 3_600_000 * random.uniform();
          const toMs = fromMs + 60_000 + 3_600_000 * random.uniform();
          const term = coRotationLogOddsOf(a, b, fromMs, toMs, FIXED_PERIOD_MS, crowd);
          const overlapMs = Float64Array.of(fromMs, toMs);
          coRotationQuickRange(a, b, overlapMs, crowd, quick, searched);
          expect(quick[0]).toBeLessThanOrEqual(term + 1e-12);
          expect(quick[1]).toBeGreaterThanOrEqual(term - 1e-12);
          if (quick[1] < 1) tight++;
          // The quick bounds' searches, reused, give the same answer as searching again.
          const reusedExact = coRotationRange(a, b, overlapMs, FIXED_PERIOD_MS, crowd, reused, searched);
          const isExact = coRotationRange(a, b, overlapMs, FIXED_PERIOD_MS, crowd, range);
          expect(reusedExact).toBe(isExact);
          expect(Array.from(reused)).toEqual(Array.from(range));
          if (isExact) {
            expect(range[0]).toBe(term);
            expect(range[1]).toBe(term);
            exact++;
          } else {
            expect(range[0]).toBeLessThanOrEqual(term + 1e-12);
            expect(range[1]).toBeGreaterThanOrEqual(term - 1e-12);
            bounded++;
          }
          if (term > 0) coincident++;
        }
      }
    }
    // Every kind of pair occurs: exact, bounded, and with coincidences that count for one device.
    expect(exact).toBeGreaterThan(500);
    expect(bounded).toBeGreaterThan(500);
    expect(coincident).toBeGreaterThan(100);
    // The quick bounds say something of some pairs (at most 1 nat for "one device").
    expect(tight).toBeGreaterThan(100);
  });

  it('counts coincidences within the wider tolerance and not a repeat one fixed period later', () => {
    const a: BleHandoffChain = { index: 0, boundaries: Float64Array.from([T0 + 600_000, T0 + 1_500_000, T0 + 2_400_000]), toleranceMs: 2_000, ascending: true };
    const b: BleHandoffChain = { index: 1, boundaries: Float64Array.from([T0 + 603_000, T0 + 1_503_000, T0 + 2_100_000]), toleranceMs: 4_000, ascending: true };
    const crowd = new BleHandoffCrowd([a, b], Int32Array.from([1, 1]));
    // Two coincidences at 4 s tolerance, the second one period (900 s) after the first: one counts.
    const once = coRotationLogOddsOf(a, b, T0, T0 + 3_000_000, FIXED_PERIOD_MS, crowd);
    const apart: BleHandoffChain = { ...b, boundaries: Float64Array.from([T0 + 603_000, T0 + 1_800_000, T0 + 2_100_000]) };
    const none = coRotationLogOddsOf(a, apart, T0, T0 + 3_000_000, FIXED_PERIOD_MS, new BleHandoffCrowd([a, apart], Int32Array.from([1, 1])));
    expect(once).toBeGreaterThan(none);
    const range = new Float64Array(2);
    coRotationRange(a, b, Float64Array.of(T0, T0 + 3_000_000), FIXED_PERIOD_MS, crowd, range);
    expect(range[0]).toBeLessThanOrEqual(once);
    expect(range[1]).toBeGreaterThanOrEqual(once);
  });
});

describe('the crowd around a hand-off', () => {
  it('is the share of the chains active with it that hand off within the tolerance, at its own tolerance and at others', () => {
    const chains = randomCrowd(9);
    const concurrent = Int32Array.from(chains, (_, index) => 5 + ((7 * index) % 50));
    const crowd = new BleHandoffCrowd(chains, concurrent);
    const all = chains.flatMap((one) => Array.from(one.boundaries));
    let checked = 0;
    for (const one of chains) {
      for (let boundary = 0; boundary < one.boundaries.length; boundary++) {
        const t = one.boundaries[boundary];
        for (const tolerance of [one.toleranceMs, 2_000, 6_000]) {
          // Every hand-off within the tolerance, less the hand-off itself.
          const around = all.filter((u) => u > t - tolerance && u <= t + tolerance).length - 1;
          expect(crowd.shareAt(one.index, boundary, tolerance)).toBe(Math.min(0.9, Math.max(0, around) / Math.max(1, concurrent[one.index])));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('chains that may coincide', () => {
  it('are those with a hand-off each within the widest tolerance of each other (so the others never coincide)', () => {
    for (const seed of [3, 4]) {
      const chains = randomCrowd(seed);
      const crowd = new BleHandoffCrowd(chains, Int32Array.from(chains, () => 10));
      const widest = Math.max(...chains.map((one) => one.toleranceMs));
      let near = 0;
      let apart = 0;
      for (const x of chains) {
        for (const y of chains) {
          if (x === y) continue;
          const closest = Math.min(...Array.from(x.boundaries).flatMap((t) => Array.from(y.boundaries, (u) => Math.abs(u - t))));
          if (closest <= widest) {
            expect(crowd.mayCoincide(x.index, y.index)).toBe(true);
            near++;
          } else if (closest > widest + 1) {
            expect(crowd.mayCoincide(x.index, y.index)).toBe(false);
            apart++;
          }
        }
      }
      expect(near).toBeGreaterThan(100);
      expect(apart).toBeGreaterThan(100);
    }
  });
});
