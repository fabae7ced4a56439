import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitLinearRegression, type LinearRegressionFit, type LinearRegressionOptions, type RegressionBatch } from './linear-regression.ts';
import { seededRandom } from '../../demo/seeded-random.ts';

/** The project's seeded generator (mulberry32), as a uniform sequence. */
const random = (seed: number): (() => number) => seededRandom(seed).uniform;

function batch(features: number[][], target: number[], mask?: number[]): RegressionBatch {
  return {
    features: features.map((column) => Float64Array.from(column)),
    target: Float64Array.from(target),
    mask: mask ? Uint8Array.from(mask) : undefined,
  };
}

function fit(batches: RegressionBatch[], options: LinearRegressionOptions): LinearRegressionFit {
  const result = fitLinearRegression(batches, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('fitLinearRegression', () => {
  it('matches a hand-computed simple regression', () => {
    // x = 1…5, y = 2 4 5 4 5: b = 2.2 + 0.6x, RSS = 2.4, Sxx = 10, MSE = 0.8.
    const result = fit([batch([[1, 2, 3, 4, 5]], [2, 4, 5, 4, 5])], { featureNames: ['x'] });
    expect(result.terms).toEqual(['intercept', 'x']);
    expect(result.coefficients[0]).toBeCloseTo(2.2, 13);
    expect(result.coefficients[1]).toBeCloseTo(0.6, 13);
    expect(result.stdErrors[0]).toBeCloseTo(Math.sqrt(0.88), 13);
    expect(result.stdErrors[1]).toBeCloseTo(Math.sqrt(0.08), 13);
    expect(result.tStatistics[1]).toBeCloseTo(2.1213203435596424, 12);
    expect(result.pValues[1]).toBeCloseTo(0.12402706265755463, 12);
    expect(result.pValues[0]).toBeCloseTo(0.10074345608542004, 12);
    expect(result.rSquared).toBeCloseTo(0.6, 13);
    expect(result.adjustedRSquared).toBeCloseTo(1 - (0.4 * 4) / 3, 13);
    expect(result.fStatistic).toBeCloseTo(4.5, 12);
    expect(result.fPValue).toBeCloseTo(0.12402706265755463, 12);
    expect(result.residualStdError).toBeCloseTo(Math.sqrt(0.8), 13);
    expect(result.residualSumOfSquares).toBeCloseTo(2.4, 13);
    expect(result.dfModel).toBe(1);
    expect(result.dfResidual).toBe(3);
    expect(result.sampleCount).toBe(5);
    const t = 3.1824463052837095;
    expect(result.tCritical).toBeCloseTo(t, 12);
    expect(result.ciLow[1]).toBeCloseTo(0.6 - t * Math.sqrt(0.08), 12);
    expect(result.ciHigh[1]).toBeCloseTo(0.6 + t * Math.sqrt(0.08), 12);
    expect(result.confidenceLevel).toBeCloseTo(0.95, 15);
    expect(result.diagnostics.sample.map((point) => point.residual)).toEqual(
      [-0.8, 0.6, 1.0, -0.6, -0.2].map((value) => expect.closeTo(value, 12)),
    );
  });

  it('streams over several batches with masks exactly like one batch of the selected rows', () => {
    const x1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const x2 = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const y = [2, 3, 7, 5, 11, 17, 9, 15, 14, 12];
    const mask = [1, 1, 0, 1, 1, 1, 1, 0, 1, 1];
    const split = [batch([x1.slice(0, 4), x2.slice(0, 4)], y.slice(0, 4), mask.slice(0, 4)), batch([x1.slice(4), x2.slice(4)], y.slice(4), mask.slice(4))];
    const keep = (values: number[]): number[] => values.filter((_, index) => mask[index] === 1);
    const whole = fit([batch([keep(x1), keep(x2)], keep(y))], { featureNames: ['a', 'b'] });
    const streamed = fit(split, { featureNames: ['a', 'b'], blockRows: 2 });
    expect(streamed.sampleCount).toBe(8);
    streamed.coefficients.forEach((value, index) => expect(value).toBeCloseTo(whole.coefficients[index], 12));
    streamed.stdErrors.forEach((value, index) => expect(value).toBeCloseTo(whole.stdErrors[index], 12));
  });

  it('reports a duplicated column as aliased and fits the rest', () => {
    const x = [1, 2, 3, 4, 5, 6, 7];
    const z = [2, 1, 4, 3, 6, 5, 8];
    const y = [3.1, 3.9, 7.2, 7.8, 11.1, 10.9, 15.2];
    const result = fit([batch([x, z, x.map((value) => value * 2)], y)], { featureNames: ['x', 'z', 'x2'] });
    expect(result.aliasedTerms).toEqual(['x2']);
    expect(result.aliased).toEqual([false, false, false, true]);
    expect(result.coefficients[3]).toBeNaN();
    expect(result.stdErrors[3]).toBeNaN();
    expect(result.pValues[3]).toBeNaN();
    expect(result.dfResidual).toBe(4);
    const reduced = fit([batch([x, z], y)], { featureNames: ['x', 'z'] });
    for (let index = 0; index < 3; index++) {
      expect(result.coefficients[index]).toBeCloseTo(reduced.coefficients[index], 11);
      expect(result.stdErrors[index]).toBeCloseTo(reduced.stdErrors[index], 11);
    }
    expect(result.rSquared).toBeCloseTo(reduced.rSquared, 13);
  });

  it('drops a dependent column in the middle and re-triangularizes for the later ones', () => {
    const next = random(11);
    const a = Array.from({ length: 40 }, () => next());
    const b = Array.from({ length: 40 }, () => next());
    const combo = a.map((value, index) => 3 * value - 2 * b[index]);
    const c = Array.from({ length: 40 }, () => next());
    const y = a.map((value, index) => 1 + 2 * value - b[index] + 0.5 * c[index] + 0.01 * (next() - 0.5));
    const result = fit([batch([a, b, combo, c], y)], { featureNames: ['a', 'b', 'combo', 'c'] });
    expect(result.aliasedTerms).toEqual(['combo']);
    const reduced = fit([batch([a, b, c], y)], { featureNames: ['a', 'b', 'c'] });
    expect(result.coefficients[4]).toBeCloseTo(reduced.coefficients[3], 10);
    expect(result.stdErrors[4]).toBeCloseTo(reduced.stdErrors[3], 10);
    expect(result.residualSumOfSquares).toBeCloseTo(reduced.residualSumOfSquares, 12);
  });

  it('treats a constant column as aliased with the intercept, and as a regressor without one', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const constant = [7, 7, 7, 7, 7, 7];
    const y = [2.1, 3.9, 6.2, 7.8, 10.1, 12.2];
    const withIntercept = fit([batch([x, constant], y)], { featureNames: ['x', 'k'] });
    expect(withIntercept.aliasedTerms).toEqual(['k']);
    expect(withIntercept.constantTerms).toEqual(['k']);
    const withoutIntercept = fit([batch([x, constant], y)], { featureNames: ['x', 'k'], fitIntercept: false });
    expect(withoutIntercept.aliasedTerms).toEqual([]);
    // k·7 plays the intercept's role: the same slope, intercept/7.
    expect(withoutIntercept.coefficients[0]).toBeCloseTo(withIntercept.coefficients[1], 12);
    expect(withoutIntercept.coefficients[1] * 7).toBeCloseTo(withIntercept.coefficients[0], 12);
    const normalized = fit([batch([x, constant], y)], { featureNames: ['x', 'k'], normalize: true });
    expect(normalized.aliasedTerms).toEqual(['k']);
  });

  it('keeps a column whose independent part is tiny but real (below R’s 1e-7, above 1e-10)', () => {
    const next = random(5);
    const x = Array.from({ length: 30 }, () => next());
    const w = x.map((value) => value + 1e-8 * (next() - 0.5));
    const y = x.map((value, index) => value + 1e6 * (w[index] - value) + 0.001 * next());
    const result = fit([batch([x, w], y)], { featureNames: ['x', 'w'] });
    expect(result.aliasedTerms).toEqual([]);
  });

  it('skips and counts non-finite rows', () => {
    const x = [1, 2, Number.NaN, 3, 4, 5, Number.POSITIVE_INFINITY];
    const y = [2, 4, 1, 6, Number.NaN, 10, 3];
    const result = fit([batch([x], y)], { featureNames: ['x'] });
    expect(result.rowsSkippedNonFinite).toBe(3);
    expect(result.sampleCount).toBe(4);
    expect(result.coefficients[1]).toBeCloseTo(2, 13);
    expect(result.coefficients[0]).toBeCloseTo(0, 13);
  });

  it('returns INSUFFICIENT_DATA with the observed count when rows ≤ parameters', () => {
    const result = fitLinearRegression([batch([[1, 2, 3], [3, 1, 2], [5, 5, 1]], [1, 2, 3])], { featureNames: ['a', 'b', 'c'] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INSUFFICIENT_DATA');
    if (result.error.code !== 'INSUFFICIENT_DATA') return;
    expect(result.error.required).toBe(5);
    expect(result.error.observed).toBe(3);
  });

  it('normalize reports standardized coefficients and the same model on the data scale', () => {
    const next = random(9);
    const a = Array.from({ length: 200 }, () => 1000 + 50 * next());
    const b = Array.from({ length: 200 }, () => -3 + 0.01 * next());
    const y = a.map((value, index) => 4 + 0.2 * value - 300 * b[index] + next());
    const raw = fit([batch([a, b], y)], { featureNames: ['a', 'b'] });
    const scaled = fit([batch([a, b], y)], { featureNames: ['a', 'b'], normalize: true });
    for (let index = 0; index < 3; index++) {
      expect(scaled.coefficients[index]).toBeCloseTo(raw.coefficients[index], 8);
      expect(scaled.stdErrors[index] / raw.stdErrors[index]).toBeCloseTo(1, 10);
      expect(scaled.pValues[index]).toBeCloseTo(raw.pValues[index], 10);
    }
    expect(scaled.rSquared).toBeCloseTo(raw.rSquared, 12);
    expect(scaled.standardizedCoefficients).toHaveLength(2);
    scaled.standardizedCoefficients!.forEach((value, index) => {
      expect(value).toBeCloseTo(raw.coefficients[index + 1] * scaled.featureScales![index], 8);
    });
    const throughOrigin = fit([batch([a, b], y)], { featureNames: ['a', 'b'], normalize: true, fitIntercept: false });
    const rawOrigin = fit([batch([a, b], y)], { featureNames: ['a', 'b'], fitIntercept: false });
    throughOrigin.coefficients.forEach((value, index) => expect(value).toBeCloseTo(rawOrigin.coefficients[index], 8));
  });

  it('draws a bounded, evenly spaced diagnostics sample in data order', () => {
    const n = 10_000;
    const x = Array.from({ length: n }, (_, index) => index);
    const y = x.map((value) => 3 + 2 * value + (value % 7) - 3);
    const mask = x.map((value) => (value % 10 === 0 ? 0 : 1));
    const result = fit([batch([x.slice(0, 5000)], y.slice(0, 5000), mask.slice(0, 5000)), batch([x.slice(5000)], y.slice(5000), mask.slice(5000))], {
      featureNames: ['x'],
      maxSampleSize: 900,
    });
    const { sample, sampleSize, sampledFrom } = result.diagnostics;
    expect(sampleSize).toBe(900);
    expect(sample).toHaveLength(900);
    expect(sampledFrom).toBe(9000);
    // Every 10th used row: the last used row is always taken.
    expect(sample[sample.length - 1].actual).toBe(y[n - 1]);
    for (const point of sample) expect(point.residual).toBeCloseTo(point.actual - point.fitted, 9);
  });

  it('reports exact fits with infinite F and zero residual error', () => {
    const x = [1, 2, 3, 4, 5, 6];
    const y = x.map((value) => 1 + 2 * value);
    const result = fit([batch([x], y)], { featureNames: ['x'] });
    expect(result.residualStdError).toBeLessThan(1e-14);
    expect(result.rSquared).toBeCloseTo(1, 15);
    expect(result.fStatistic).toBeGreaterThan(1e25);
  });

  it('property: recovers the coefficients of noiseless linear data', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer(),
        fc.boolean(),
        (p, extraRows, seed, fitIntercept) => {
          const n = p + 2 + extraRows;
          const next = random(seed);
          const features = Array.from({ length: p }, () => Array.from({ length: n }, () => 200 * next() - 100));
          const beta = Array.from({ length: p + 1 }, () => 20 * next() - 10);
          const y = Array.from({ length: n }, (_, row) => (fitIntercept ? beta[p] : 0) + features.reduce((sum, column, j) => sum + beta[j] * column[row], 0));
          const result = fit([batch(features, y)], { featureNames: features.map((_, j) => `x${j}`), fitIntercept, blockRows: 4 });
          const offset = fitIntercept ? 1 : 0;
          expect(result.aliasedTerms).toEqual([]);
          for (let j = 0; j < p; j++) expect(Math.abs(result.coefficients[j + offset] - beta[j])).toBeLessThan(1e-9 * (1 + Math.abs(beta[j])));
          if (fitIntercept) expect(Math.abs(result.coefficients[0] - beta[p])).toBeLessThan(1e-8 * (1 + Math.abs(beta[p])));
        },
      ),
      { seed: 20240611, numRuns: 200 },
    );
  });

  it('property: residuals are orthogonal to every design column', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 60 }), fc.integer(), (p, extraRows, seed) => {
        const n = p + 2 + extraRows;
        const next = random(seed);
        const features = Array.from({ length: p }, () => Array.from({ length: n }, () => 10 * next() - 5 + 100));
        const y = Array.from({ length: n }, () => 50 * next());
        const result = fit([batch(features, y)], { featureNames: features.map((_, j) => `x${j}`) });
        const residuals = y.map((value, row) => value - result.coefficients[0] - features.reduce((sum, column, j) => sum + result.coefficients[j + 1] * column[row], 0));
        const norm = (values: number[]): number => Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
        const yNorm = norm(y);
        const design = [Array.from({ length: n }, () => 1), ...features];
        for (const column of design) {
          const dot = column.reduce((sum, value, row) => sum + value * residuals[row], 0);
          expect(Math.abs(dot)).toBeLessThan(1e-10 * norm(column) * yNorm);
        }
        const rss = residuals.reduce((sum, value) => sum + value * value, 0);
        expect(result.residualSumOfSquares).toBeCloseTo(rss, 8);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
