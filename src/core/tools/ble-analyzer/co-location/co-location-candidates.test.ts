import { describe, expect, it } from 'vitest';
import { screenChainPairs, type BleChainSeriesView, type BleMaskedBins, type BleScreenedPairs } from './co-location-candidates.ts';
import { oneMovingLogOdds, type BleCoLocationScreenModel } from './co-location-model.ts';
import { seededRandom } from '../../../demo/seeded-random.ts';

const MODEL: BleCoLocationScreenModel = {
  binMs: 10_000,
  minOverlapMs: 60_000,
  screenSpreadDb: 25,
  censorMarginDb: 6,
  levelSd: { S: 0.3, T: 6, U: 10 },
  levelFloorDb: 0.4,
  offsetSd: { S: 6, T: 10, U: 12 },
  movingSdDb: 3,
  priorMax: 2,
  maxBins: 60,
  oneMovingLogOdds: -0.7,
  spreadContrastLogOdds: -2,
  covariationMax: 2.5,
  fixedPeriodMs: [885_000, 915_000],
};
const RECEIVERS = 3;
const BINS = 90;
const FLOORS = new Float64Array(RECEIVERS).fill(-100);

/** A chain's series with its receivers × bins means (NaN where not heard), as the tests make them. */
type SeriesWithMeans = BleChainSeriesView & { mean: Float32Array };

/** The chains' means as the screen reads them: value and "heard" flag per bin, 0 and 0 where not heard. */
function maskedBinsOf(series: SeriesWithMeans[]): BleMaskedBins {
  const at = new Int32Array(series.length);
  let size = 0;
  series.forEach((one, chain) => {
    at[chain] = size;
    size += 2 * one.mean.length;
  });
  const values = new Float32Array(size);
  series.forEach((one, chain) => {
    one.mean.forEach((value, cell) => {
      if (Number.isNaN(value)) return;
      values[at[chain] + 2 * cell] = value;
      values[at[chain] + 2 * cell + 1] = 1;
    });
  });
  return { values, at };
}

function screen(spans: ReadonlyArray<{ firstMs: number; lastMs: number }>, series: SeriesWithMeans[], floors: Float64Array = FLOORS, exhaustive = false): BleScreenedPairs {
  return screenChainPairs(spans, series, maskedBinsOf(series), RECEIVERS, floors, MODEL, exhaustive);
}

/** A small deterministic jitter (±1 dB), different per chain, receiver and bin. */
function jitter(seed: number, r: number, bin: number): number {
  const x = Math.sin(seed * 12.9898 + r * 78.233 + bin * 37.719) * 43758.5453;
  return 2 * (x - Math.floor(x)) - 1;
}

/** A chain heard for BINS bins from t = 0 at `level(r, bin)` on every receiver. */
function chain(seed: number, level: (r: number, bin: number) => number): SeriesWithMeans {
  const mean = new Float32Array(RECEIVERS * BINS);
  const levels = new Float64Array(RECEIVERS);
  for (let r = 0; r < RECEIVERS; r++) {
    for (let bin = 0; bin < BINS; bin++) {
      mean[r * BINS + bin] = level(r, bin) + jitter(seed, r, bin);
      levels[r] += mean[r * BINS + bin] / BINS;
    }
  }
  return { bin0: 0, bins: BINS, mean, level: levels, boundaries: new Float64Array(0), toleranceMs: 2_000 };
}

const SPAN = { firstMs: 0, lastMs: BINS * 10_000 - 1 };
const ROOM = [-60, -70, -80];

function screened(series: SeriesWithMeans[]): Array<[number, number]> {
  const result = screen(series.map(() => SPAN), series);
  return Array.from(result.a, (a, index) => [a, result.b[index]]);
}

describe('co-location candidate screen', () => {
  it('keeps two sets of one standing radio (same per-receiver difference everywhere) and drops a stranger elsewhere in the room', () => {
    const set1 = chain(1, (r) => ROOM[r]);
    const set2 = chain(2, (r) => ROOM[r] - 4);
    // A stranger elsewhere: its levels differ by receiver (±12 dB), not by a constant; close
    // enough to be compared at all (whole-life levels within 25 dB of each other's shape).
    const stranger = chain(3, (r) => [-72, -70, -68][r]);
    expect(screened([set1, set2, stranger])).toEqual([[0, 1]]);
  });

  it('keeps chains that move together and drops a walker whose RSSI does not follow theirs', () => {
    const walk = (bin: number) => 12 * Math.sin(bin / 8);
    const phone = chain(4, (r, bin) => ROOM[r] + (r === 0 ? walk(bin) : -walk(bin)));
    const watch = chain(5, (r, bin) => ROOM[r] - 6 + [3, -4, 5][r] + (r === 0 ? walk(bin) : -walk(bin)));
    const otherWalker = chain(6, (r, bin) => [-75, -62, -70][r] + 12 * Math.cos(bin / 5 + r));
    const pairs = screened([phone, watch, otherWalker]);
    expect(pairs).toContainEqual([0, 1]);
    expect(pairs).not.toContainEqual([0, 2]);
    expect(pairs).not.toContainEqual([1, 2]);
  });

  it('counts every compared pair in the prior denominator, screened in or not', () => {
    const near = [chain(1, (r) => ROOM[r]), chain(2, (r) => ROOM[r] - 4), chain(3, (r) => [-72, -70, -68][r])];
    const result = screen(near.map(() => SPAN), near);
    expect(result.a).toHaveLength(1);
    expect(result.concurrentPairs).toBe(3);
    expect(Array.from(result.concurrent)).toEqual([2, 2, 2]);
    // Three compared pairs, each with crowd max(2, (2 + 2) / 2) = 2.
    expect(result.inverseCrowd).toBeCloseTo(1.5, 10);
    // A chain whose levels disagree across receivers by more than 25 dB is not compared at all.
    const far = [near[0], near[1], chain(3, (r) => [-82, -70, -58][r])];
    expect(screen(far.map(() => SPAN), far).inverseCrowd).toBeCloseTo(0.5, 10);
  });
});

describe('RSSI co-variation where only one chain moves', () => {
  it('is the small base penalty up to twice the still chain spread, then falls with each further doubling down to the floor', () => {
    expect(oneMovingLogOdds(3.2 ** 2, 2.8 ** 2, 60, MODEL)).toBeCloseTo(-0.7, 6);
    expect(oneMovingLogOdds(4 ** 2, 2 ** 2, 60, MODEL)).toBeCloseTo(-0.7, 6);
    expect(oneMovingLogOdds(2 ** 2, 8 ** 2, 60, MODEL)).toBeCloseTo(-2.7, 6);
    expect(oneMovingLogOdds(1 ** 2, 10 ** 2, 60, MODEL)).toBe(-3);
  });

  it('counts the contrast less when few bins measured the two spreads', () => {
    const few = oneMovingLogOdds(8 ** 2, 2 ** 2, 12, MODEL);
    expect(few).toBeLessThan(-0.7);
    expect(few).toBeGreaterThan(oneMovingLogOdds(8 ** 2, 2 ** 2, 60, MODEL));
  });
});

/**
 * A random crowd of chains over two hours: devices with one to three sets (sets of one device
 * share its levels, shifted by a per-set offset, and often its hand-offs), still or walking,
 * heard in most bins near a receiver, rarely or never far from it, with their own coincidence
 * tolerances and now and then a repeat one fixed period later.
 */
function randomCrowd(seed: number): { spans: Array<{ firstMs: number; lastMs: number }>; series: SeriesWithMeans[]; floors: Float64Array } {
  const random = seededRandom(seed);
  const spans: Array<{ firstMs: number; lastMs: number }> = [];
  const series: SeriesWithMeans[] = [];
  const t0 = 1_712_131_200_000;
  for (let device = 0; device < 24; device++) {
    const firstMs = t0 + random.uniform() * 5_400_000;
    const lastMs = Math.min(t0 + 7_200_000, firstMs + 120_000 + random.uniform() * 3_600_000);
    const place = Array.from({ length: RECEIVERS }, () => -95 + 45 * random.uniform());
    const walking = random.uniform() < 0.5;
    const phase = random.uniform() * 6;
    const handoffs: number[] = [];
    for (let t = firstMs + random.uniform() * 900_000; t < lastMs; t += 600_000 + random.uniform() * 600_000) handoffs.push(t);
    if (handoffs.length > 0 && random.uniform() < 0.3) handoffs.push(handoffs[handoffs.length - 1] + 900_000);
    const sets = 1 + Math.floor(random.uniform() * 3);
    for (let set = 0; set < sets; set++) {
      const setFirst = set === 0 ? firstMs : firstMs + random.uniform() * 300_000;
      const setLast = set === 0 ? lastMs : Math.max(setFirst + 70_000, lastMs - random.uniform() * 300_000);
      const bin0 = Math.floor(setFirst / MODEL.binMs);
      const bins = Math.floor(setLast / MODEL.binMs) - bin0 + 1;
      const offset = set === 0 ? 0 : -8 * random.uniform();
      const coverage = 0.5 + 0.5 * random.uniform();
      const mean = new Float32Array(RECEIVERS * bins).fill(Number.NaN);
      const level = new Float64Array(RECEIVERS);
      for (let r = 0; r < RECEIVERS; r++) {
        let total = 0;
        let heard = 0;
        for (let bin = 0; bin < bins; bin++) {
          const walk = walking ? 10 * Math.sin((bin0 + bin) / 9 + phase + 2 * r) : 0;
          const value = place[r] + offset + walk + (set === 0 ? 1.5 : 2.5) * random.normal();
          if (value < -98 || random.uniform() > coverage) continue;
          mean[r * bins + bin] = Math.round(value * 4) / 4;
          total += mean[r * bins + bin];
          heard++;
        }
        level[r] = heard > 0 ? total / heard : Number.NaN;
      }
      const own = set === 0 || random.uniform() < 0.6 ? handoffs.map((t) => t + (random.uniform() - 0.5) * 3_000) : handoffs.map(() => setFirst + random.uniform() * (setLast - setFirst)).sort((x, y) => x - y);
      const boundaries = Float64Array.from(own.filter((t) => t >= setFirst && t <= setLast));
      spans.push({ firstMs: setFirst, lastMs: setLast });
      series.push({ bin0, bins, mean, level, boundaries, toleranceMs: 2_500 + 2_500 * random.uniform() });
    }
  }
  return { spans, series, floors: new Float64Array(RECEIVERS).fill(-100) };
}

describe('the screen decides early exactly as it decides with every term in full', () => {
  it('keeps and drops the same pairs of random crowds, with the same prior denominator', () => {
    let kept = 0;
    let compared = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { spans, series, floors } = randomCrowd(seed);
      // Bins one chain misses now and then (coverage below 1) and crowds of every size.
      const early = screen(spans, series, floors);
      const full = screen(spans, series, floors, true);
      expect(Array.from(early.a)).toEqual(Array.from(full.a));
      expect(Array.from(early.b)).toEqual(Array.from(full.b));
      expect(early.inverseCrowd).toBe(full.inverseCrowd);
      kept += full.a.length;
      compared += full.concurrentPairs;
    }
    // Both verdicts occur often enough for the comparison to mean something.
    expect(kept).toBeGreaterThan(20);
    expect(compared - kept).toBeGreaterThan(200);
  });
});
