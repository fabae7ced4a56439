import { describe, expect, it } from 'vitest';
import { toFixedOne } from './fixed-one.ts';

describe('toFixedOne', () => {
  it('is toFixed(1) on values at and around every rounding half, of both signs', () => {
    let state = 99;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    const mismatches: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const value = (next() - 0.5) * 10 ** (next() * 9 - 3);
      // Exact hundredths and x.x5 are where float products land near a half.
      const hundredths = Math.round(value * 100) / 100;
      for (const x of [value, hundredths, hundredths + 0.05, Math.round(value * 10) / 10 + 0.05, -hundredths]) {
        if (toFixedOne(x) !== x.toFixed(1)) mismatches.push(`${x}: ${toFixedOne(x)} vs ${x.toFixed(1)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('keeps toFixed on edge cases', () => {
    for (const x of [0, -0, -0.04, 0.05, 0.15, 0.25, 1.45, 2.5, -2.55, 999_999.95, 1e6, 1e21, -1e22, Number.NaN, Infinity, -Infinity, Number.MIN_VALUE, 4.35, 1.005]) {
      expect(toFixedOne(x)).toBe(x.toFixed(1));
    }
  });
});
