import { describe, expect, it } from 'vitest';
import { applyCalibration, calibrateInPlace, calibrated, fitIsotonic } from './calibration.ts';

describe('isotonic calibration', () => {
  it('pools adjacent violators into a monotone curve of observed rates', () => {
    const curve = fitIsotonic([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [false, true, false, false, true, true]);
    for (let index = 1; index < curve.y.length; index++) expect(curve.y[index]).toBeGreaterThanOrEqual(curve.y[index - 1]);
    // 0.2 (true) and 0.3, 0.4 (false) violate the order: they pool into one block at rate 1/3.
    expect(curve.y).toEqual([0, 0.333333, 1]);
    expect(curve.x).toEqual([0.1, 0.3, 0.55]);
  });

  it('pools tied raw probabilities into one knot and keeps tiny ones apart', () => {
    // Three pairs at exactly 0 (one true) are one block, not three knots of the same x.
    const tied = fitIsotonic([0, 0, 0, 0.5], [false, true, false, true]);
    expect(tied.x).toEqual([0, 0.5]);
    expect(tied.y).toEqual([0.333333, 1]);
    // Raw probabilities of 1e-9 and 1e-7 are distinct knots (six decimals made both 0).
    const tiny = fitIsotonic([1e-9, 1e-9, 1e-7, 1e-7], [false, false, false, true]);
    expect(tiny.x).toEqual([1e-9, 1e-7]);
    expect(applyCalibration(tiny, 1e-9)).toBe(0);
    expect(applyCalibration(tiny, 1e-7)).toBe(0.5);
  });

  it('interpolates between knots and clamps outside them; an empty curve is the identity', () => {
    const curve = { x: [0.2, 0.6], y: [0.1, 0.9] };
    expect(applyCalibration(curve, 0.4)).toBeCloseTo(0.5, 10);
    expect(applyCalibration(curve, 0)).toBe(0.1);
    expect(applyCalibration(curve, 1)).toBe(0.9);
    expect(applyCalibration({ x: [], y: [] }, 0.37)).toBe(0.37);
  });

  it('merges down to the knot budget and stays monotone', () => {
    const p = Array.from({ length: 500 }, (_, index) => index / 500);
    const y = p.map((value, index) => (index * 7919) % 100 < value * 100);
    const curve = fitIsotonic(p, y, 10);
    expect(curve.x.length).toBeLessThanOrEqual(10);
    for (let index = 1; index < curve.y.length; index++) expect(curve.y[index]).toBeGreaterThanOrEqual(curve.y[index - 1]);
  });

  it('calibrates an array in place exactly as value by value', () => {
    const raw = [0, 1e-9, 0.003, 0.2, 0.5, 0.77, 0.999, 1, Number.NaN];
    for (const relation of ['handoff', 'co_location'] as const) {
      const values = Float64Array.from(raw);
      calibrateInPlace(relation, values);
      expect([...values]).toEqual(raw.map((p) => calibrated(relation, p)));
    }
    const table = { handoff: { x: [0.2, 0.6], y: [0.1, 0.9] }, co_location: { x: [], y: [] } };
    const values = Float64Array.from([0, 0.4, 1]);
    calibrateInPlace('handoff', values, table);
    expect(values[0]).toBe(0.1);
    expect(values[1]).toBeCloseTo(0.5, 10);
    expect(values[2]).toBe(0.9);
  });
});
