import { describe, expect, it } from 'vitest';
import { fUpperTail, tCriticalValue, tTwoSidedPValue } from './distributions.ts';

/** Reference values computed with mpmath at 30–40 digits (regularized incomplete beta). */
const relative = (actual: number, expected: number): number => Math.abs(actual - expected) / Math.abs(expected);

describe('t and F tails', () => {
  it('keeps far-tail p-values accurate (never 1 − cdf)', () => {
    expect(relative(tTwoSidedPValue(40, 3), 3.4380680789158526e-05)).toBeLessThan(1e-12);
    expect(relative(tTwoSidedPValue(-40, 3), 3.4380680789158526e-05)).toBeLessThan(1e-12);
    expect(relative(tTwoSidedPValue(10, 100), 9.901688984594139e-17)).toBeLessThan(1e-10);
    expect(relative(tTwoSidedPValue(2, 10), 0.07338803477074037)).toBeLessThan(1e-12);
  });

  it('handles infinite and undefined statistics', () => {
    expect(tTwoSidedPValue(Number.POSITIVE_INFINITY, 5)).toBe(0);
    expect(tTwoSidedPValue(Number.NaN, 5)).toBeNaN();
    expect(tTwoSidedPValue(1, 0)).toBeNaN();
    expect(tTwoSidedPValue(0, 5)).toBe(1);
  });

  it('computes F upper tails through the incomplete beta function', () => {
    expect(relative(fUpperTail(5, 3, 20), 0.009510337477233807)).toBeLessThan(1e-12);
    expect(relative(fUpperTail(2162.43954511489, 10, 71), 5.143458438351495e-84)).toBeLessThan(1e-10);
    expect(relative(fUpperTail(330.285339234588, 6, 9), 4.98403052872481e-10)).toBeLessThan(1e-10);
    expect(fUpperTail(0, 2, 5)).toBe(1);
    expect(fUpperTail(Number.POSITIVE_INFINITY, 2, 5)).toBe(0);
  });

  it('inverts the t CDF for critical values', () => {
    expect(relative(tCriticalValue(0.025, 5), 2.5705818356363155)).toBeLessThan(1e-13);
    expect(relative(tCriticalValue(0.025, 1), 12.706204736174705)).toBeLessThan(1e-13);
    expect(relative(tCriticalValue(0.025, 3), 3.1824463052837095)).toBeLessThan(1e-13);
    expect(relative(tCriticalValue(0.5e-6, 3), 130.15458955835794)).toBeLessThan(1e-12);
    expect(tCriticalValue(0.025, 1e6)).toBeCloseTo(1.959966, 5);
    expect(tCriticalValue(0.7, 5)).toBeNaN();
  });
});
