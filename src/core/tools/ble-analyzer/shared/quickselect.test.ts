import { describe, expect, it } from 'vitest';
import { selectKth } from './quickselect.ts';

/** A small deterministic generator, so failures reproduce. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('selectKth', () => {
  it('returns what a full sort puts at k, for every k, sizes around the sampling threshold and heavy duplicates', () => {
    const random = generator(7);
    for (const length of [1, 2, 3, 5, 17, 48, 49, 50, 64, 175, 600, 1500]) {
      for (const distinct of [2, 10, 1e9]) {
        const data = Float64Array.from({ length }, () => Math.floor(random() * distinct) + random() * (distinct > 100 ? 1 : 0));
        const sorted = [...data].sort((a, b) => a - b);
        const ks = length <= 64 ? Array.from({ length }, (_, k) => k) : [0, 1, Math.floor(0.2 * (length - 1)), length >> 1, length - 2, length - 1];
        for (const k of ks) {
          const values = Float64Array.from(data);
          expect(selectKth(values, 0, length, k)).toBe(sorted[k]);
          // The same multiset is left behind (only reordered).
          expect([...values].sort((a, b) => a - b)).toEqual(sorted);
        }
      }
    }
  });

  it('works on a window of a larger array and leaves the rest alone', () => {
    const values = Float64Array.from([9, 9, 5, 1, 4, 3, 2, 9, 9]);
    expect(selectKth(values, 2, 5, 0)).toBe(1);
    expect(selectKth(values, 2, 5, 4)).toBe(5);
    expect(selectKth(values, 2, 5, 2)).toBe(3);
    expect([values[0], values[1], values[7], values[8]]).toEqual([9, 9, 9, 9]);
  });

  it('handles sorted, reversed and constant inputs', () => {
    const length = 1000;
    const ascending = Float64Array.from({ length }, (_, index) => index);
    const descending = Float64Array.from({ length }, (_, index) => length - index);
    const constant = new Float64Array(length).fill(3);
    expect(selectKth(ascending, 0, length, 200)).toBe(200);
    expect(selectKth(descending, 0, length, 200)).toBe(201);
    expect(selectKth(constant, 0, length, 999)).toBe(3);
  });

  it('selects right of a pivot buried in a long run of equal values, with or without the gathering pass', () => {
    // A few smaller values, a long run of one value, a few larger: pivots land in the run, and the
    // search must get past it whether the left side is a large or a small share of the range.
    for (const smaller of [1, 3, 40, 300]) {
      const data = Float64Array.from([...Array.from({ length: smaller }, (_, index) => index - smaller), ...new Array<number>(2000).fill(5), 9, 7, 8]);
      const sorted = [...data].sort((a, b) => a - b);
      for (const k of [0, smaller - 1, smaller, smaller + 1000, data.length - 4, data.length - 3, data.length - 2, data.length - 1]) {
        const values = Float64Array.from(data);
        expect(selectKth(values, 0, values.length, k)).toBe(sorted[k]);
        expect([...values].sort((a, b) => a - b)).toEqual(sorted);
      }
    }
  });
});
