import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../demo/seeded-random.ts';
import { CO_LOCATION_PRIOR_MAX, fitPriorRates, posteriorsOf } from './co-location-priors.ts';

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
