import { describe, expect, it } from 'vitest';
import { quantileSorted, summarizeColumns } from './summary-stats.ts';

describe('summarizeColumns', () => {
  it('matches hand-computed statistics, column by column, over selected rows', () => {
    const a = Float64Array.from([4, 1, 3, Number.NaN, 2, 100]);
    const b = Float64Array.from([10, 10, Number.POSITIVE_INFINITY, 20, 30, 40]);
    const mask = Uint8Array.from([1, 1, 1, 1, 1, 0]);
    const [first, second] = summarizeColumns([{ columns: [a.subarray(0, 3), b.subarray(0, 3)], mask: mask.subarray(0, 3) }, { columns: [a.subarray(3), b.subarray(3)], mask: mask.subarray(3) }], ['a', 'b']);
    // a over selected rows: 4 1 3 NaN 2 → values 1 2 3 4.
    expect(first).toEqual({ name: 'a', count: 4, missing: 1, mean: 2.5, sd: expect.closeTo(Math.sqrt(5 / 3), 14), min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4 });
    // b over selected rows: 10 10 Inf 20 30 → values 10 10 20 30.
    expect(second).toEqual({ name: 'b', count: 4, missing: 1, mean: 17.5, sd: expect.closeTo(Math.sqrt(275 / 3), 12), min: 10, q1: 10, median: 15, q3: 22.5, max: 30 });
  });

  it('keeps digits when the mean dwarfs the spread', () => {
    const values = Float64Array.from([1e9 + 1, 1e9 + 2, 1e9 + 3]);
    const [summary] = summarizeColumns([{ columns: [values] }], ['x']);
    expect(summary.mean).toBe(1e9 + 2);
    expect(summary.sd).toBe(1);
  });

  it('gives NaN statistics for an empty column and NaN sd for one value', () => {
    const [empty, single] = summarizeColumns([{ columns: [Float64Array.from([Number.NaN, Number.NaN]), Float64Array.from([5, Number.NaN])] }], ['e', 's']);
    expect(empty.count).toBe(0);
    expect(empty.missing).toBe(2);
    expect(empty.mean).toBeNaN();
    expect(single.mean).toBe(5);
    expect(single.sd).toBeNaN();
    expect(single.median).toBe(5);
  });

  it('interpolates quantiles like R type 7', () => {
    const sorted = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(quantileSorted(sorted, 0.25)).toBe(3.25);
    expect(quantileSorted(sorted, 0.5)).toBe(5.5);
    expect(quantileSorted(sorted, 0.75)).toBe(7.75);
    expect(quantileSorted(sorted, 1)).toBe(10);
  });
});
