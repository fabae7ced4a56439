import { describe, expect, it } from 'vitest';
import { lowerBound, lowerBoundFloat64, upperBound, upperBoundFloat64 } from './sorted-search.ts';

describe('Float64Array searches', () => {
  it('find what the generic searches find, with repeats and ranges', () => {
    const values = Float64Array.from([1, 2, 2, 2, 5, 8, 8, 13]);
    for (let from = 0; from <= values.length; from++) {
      for (let to = from; to <= values.length; to++) {
        for (const value of [0, 1, 2, 3, 8, 13, 20]) {
          expect(lowerBoundFloat64(values, value, from, to)).toBe(lowerBound(values, value, from, to));
          expect(upperBoundFloat64(values, value, from, to)).toBe(upperBound(values, value, from, to));
        }
      }
    }
  });
});
