import { describe, expect, it } from 'vitest';
import { correlationMatrix } from './correlation.ts';

describe('correlationMatrix', () => {
  const a = [1, 2, 3, 4, 5, 6];
  const b = [2, 1, 4, 3, 7, 5];
  const c = [6, 5, 4, 3, 2, 1.5];

  it('matches hand-computed Pearson r and p-values', () => {
    const matrix = correlationMatrix([{ columns: [a, b, c].map((column) => Float64Array.from(column)) }], ['a', 'b', 'c']);
    expect(matrix.r[0][0]).toBe(1);
    expect(matrix.r[0][1]).toBeCloseTo(0.7917946548886295, 13);
    expect(matrix.r[1][0]).toBe(matrix.r[0][1]);
    expect(matrix.r[0][2]).toBeCloseTo(-0.9960784162656541, 13);
    expect(matrix.r[1][2]).toBeCloseTo(-0.813968077575008, 13);
    expect(matrix.pValues[0][1]).toBeCloseTo(0.06051140336275665, 11);
    expect(matrix.pValues[0][2] / 2.3038073815036313e-05).toBeCloseTo(1, 9);
    expect(matrix.pValues[1][2]).toBeCloseTo(0.04869272937505607, 11);
    expect(matrix.pValues[0][0]).toBeNaN();
    expect(matrix.pairs.map((pair) => [pair.x, pair.y, pair.n])).toEqual([
      ['a', 'b', 6],
      ['a', 'c', 6],
      ['b', 'c', 6],
    ]);
    expect(matrix.rowsWithMissing).toBe(0);
  });

  it('uses pairwise-complete rows and the mask', () => {
    const withGap = [...b.slice(0, 2), Number.NaN, ...b.slice(3)];
    const matrix = correlationMatrix(
      [{ columns: [Float64Array.from([...a, 99]), Float64Array.from([...withGap, 99]), Float64Array.from([...c, 99])], mask: Uint8Array.from([1, 1, 1, 1, 1, 1, 0]) }],
      ['a', 'b', 'c'],
    );
    expect(matrix.selectedRows).toBe(6);
    expect(matrix.rowsWithMissing).toBe(1);
    expect(matrix.counts[0][1]).toBe(5);
    expect(matrix.counts[0][2]).toBe(6);
    expect(matrix.r[0][2]).toBeCloseTo(-0.9960784162656541, 13);
    const reduced = correlationMatrix([{ columns: [Float64Array.from([1, 2, 4, 5, 6]), Float64Array.from([2, 1, 3, 7, 5])] }], ['a', 'b']);
    expect(matrix.r[0][1]).toBeCloseTo(reduced.r[0][1], 14);
  });

  it('is unaffected by a large common offset', () => {
    const shiftedA = Float64Array.from(a, (value) => value + 1e9);
    const shiftedB = Float64Array.from(b, (value) => value * 1e-3 + 5e6);
    const shifted = correlationMatrix([{ columns: [shiftedA, shiftedB] }], ['a', 'b']);
    // Removing the offsets is exact in floating point, so this is the same data near 0.
    const centred = correlationMatrix([{ columns: [shiftedA.map((value) => value - 1e9), shiftedB.map((value) => value - 5e6)] }], ['a', 'b']);
    expect(shifted.r[0][1]).toBeCloseTo(centred.r[0][1], 13);
  });

  it('gives null-like NaN for a constant column and p = 0 for perfect correlation', () => {
    const matrix = correlationMatrix([{ columns: [Float64Array.from(a), Float64Array.from([3, 3, 3, 3, 3, 3]), Float64Array.from(a, (value) => 2 * value + 1)] }], ['a', 'k', 'd']);
    expect(matrix.r[0][1]).toBeNaN();
    expect(matrix.r[1][1]).toBeNaN();
    expect(matrix.r[0][2]).toBeCloseTo(1, 15);
    expect(matrix.pValues[0][2]).toBeLessThan(1e-10);
  });
});
