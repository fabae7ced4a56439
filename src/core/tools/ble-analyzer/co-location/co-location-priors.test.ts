import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../demo/seeded-random.ts';
import { CO_LOCATION_PRIOR_MAX, fitPriorRates, posteriorsOf } from './co-location-priors.ts';
import { CO_LOCATION_COMPANIONS_MAX } from './co-location-model.ts';

describe('co-location posteriors', () => {
  it('weigh one device, travelled together and unrelated by their evidence and the prior rates', () => {
    const out = new Float64Array(2);
    // No evidence and a crowd of as many chains as the rates: the three hypotheses alike.
    posteriorsOf(0, 0, 1, 1, 1, out);
    expect(out[0]).toBeCloseTo(1 / 3, 12);
    expect(out[1]).toBeCloseTo(1 / 3, 12);
    // Evidence for one device wins over the prior; the two probabilities never sum past 1.
    posteriorsOf(12, -3, 40, 1, 1, out);
    expect(out[0]).toBeGreaterThan(0.99);
    expect(out[0] + out[1]).toBeLessThanOrEqual(1);
    // Very large evidence does not overflow.
    posteriorsOf(800, 790, 2, 1, 1, out);
    expect(out[0] + out[1]).toBeCloseTo(1, 12);
    expect(out[0]).toBeGreaterThan(out[1]);
  });
});

describe('the fitted prior rates', () => {
  it('stay at their start without scored pairs, and are clamped to their bounds', () => {
    const rates = new Float64Array(2);
    fitPriorRates(new Float64Array(0), new Float64Array(0), new Float64Array(0), 0, 1, rates);
    expect(Array.from(rates)).toEqual([1, 1]);
    // Two pairs certainly one device (crowd 4 each), two more compared and screened out: the
    // sibling rate would be 2 / (4 × 1/4) = 2 at most, companions none (their floor).
    fitPriorRates(Float64Array.of(40, 40), Float64Array.of(-40, -40), Float64Array.of(4, 4), 2, 1, rates);
    expect(rates[0]).toBeCloseTo(Math.min(CO_LOCATION_PRIOR_MAX, 2), 6);
    expect(rates[1]).toBe(0.05);
  });

  it('let a walking group have dozens of companions per chain, while sibling sets stay a phone\'s few', () => {
    // 40 chains walking together: each of the 40 · 39 / 2 pairs certainly travelled together, with
    // evidence against one radio (−6), and one pair in 20 with +4 of it.
    const chains = 40;
    const count = (chains * (chains - 1)) / 2;
    const crowd = new Float64Array(count).fill(chains - 1);
    const logS = Float64Array.from({ length: count }, (_, pair) => (pair % 20 === 0 ? 24 : 14));
    const rates = new Float64Array(2);
    fitPriorRates(logS, new Float64Array(count).fill(20), crowd, count, count / (chains - 1), rates);
    expect(rates[1]).toBeGreaterThan(CO_LOCATION_PRIOR_MAX);
    expect(rates[1]).toBeLessThanOrEqual(CO_LOCATION_COMPANIONS_MAX);
    expect(rates[0]).toBeLessThanOrEqual(CO_LOCATION_PRIOR_MAX);
    // A pair's +4 of one-radio evidence then weighs against the crowd of companions, not two.
    const out = new Float64Array(2);
    posteriorsOf(24, 20, chains - 1, rates[0], rates[1], out);
    const capped = new Float64Array(2);
    posteriorsOf(24, 20, chains - 1, rates[0], CO_LOCATION_PRIOR_MAX, capped);
    expect(out[0]).toBeLessThan(capped[0] - 0.2);
  });

  it('make the prior mass the expected posterior mass (a fixed point of the fit)', () => {
    const random = seededRandom(5);
    const count = 300;
    const logS = Float64Array.from({ length: count }, () => 10 * random.uniform() - 6);
    const logT = Float64Array.from({ length: count }, () => 10 * random.uniform() - 6);
    const crowd = Float64Array.from({ length: count }, () => 3 + Math.floor(20 * random.uniform()));
    let inverseCrowd = 0;
    for (const one of crowd) inverseCrowd += 1.5 / one;
    const rates = new Float64Array(2);
    fitPriorRates(logS, logT, crowd, count, inverseCrowd, rates);
    expect(rates[0]).toBeGreaterThan(0.05);
    expect(rates[0]).toBeLessThan(CO_LOCATION_PRIOR_MAX);
    expect(rates[1]).toBeGreaterThan(0.05);
    expect(rates[1]).toBeLessThan(CO_LOCATION_PRIOR_MAX);
    const posterior = new Float64Array(2);
    let massS = 0;
    let massT = 0;
    for (let entry = 0; entry < count; entry++) {
      posteriorsOf(logS[entry], logT[entry], crowd[entry], rates[0], rates[1], posterior);
      massS += posterior[0];
      massT += posterior[1];
    }
    expect(Math.abs(massS / inverseCrowd - rates[0])).toBeLessThan(2e-3);
    expect(Math.abs(massT / inverseCrowd - rates[1])).toBeLessThan(2e-3);
  });
});
