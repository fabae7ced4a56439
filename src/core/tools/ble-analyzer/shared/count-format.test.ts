import { describe, expect, it } from 'vitest';
import { formatBleCount } from './count-format.ts';

describe('formatBleCount', () => {
  it('prints what toLocaleString("en-US") prints', () => {
    const values = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10_000, 12_345, 99_999, 100_000, 123_456, 999_999, 1_000_000, 1_234_567, 2 ** 31, 2 ** 53 - 1];
    for (let value = 1; value < 1e15; value = value * 7 + 3) values.push(value);
    // Outside the fast path: negatives, fractions, -0, non-finite and unsafe integers.
    values.push(-1, -1234, 0.5, 1234.5678, -0, Number.NaN, Infinity, -Infinity, 2 ** 60);
    for (const value of values) expect(formatBleCount(value)).toBe(value.toLocaleString('en-US'));
  });
});
