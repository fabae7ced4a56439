import { describe, expect, it } from 'vitest';
import { compareAscending } from './number-order.ts';

describe('compareAscending', () => {
  it('has the sign of a − b, and ties NaN like a − b does in an || chain', () => {
    const values = [1712131201126.315, 1712131201126.316, -0.5, 0, -0, 3, Infinity, -Infinity];
    for (const a of values) for (const b of values) expect(compareAscending(a, b)).toBe(Math.sign(a - b) || 0);
    expect(compareAscending(Number.NaN, 1)).toBe(0);
    expect(compareAscending(1, Number.NaN)).toBe(0);
  });

  it('sorts like the a − b comparator it replaces, tie-breaks included', () => {
    const rows = [
      { at: 2.5, name: 'b' },
      { at: Number.NaN, name: 'a' },
      { at: 1.25, name: 'c' },
      { at: 2.5, name: 'a' },
      { at: Number.NaN, name: 'c' },
      { at: 1.25, name: 'a' },
    ];
    const byDifference = [...rows].sort((x, y) => x.at - y.at || (x.name < y.name ? -1 : 1));
    const bySign = [...rows].sort((x, y) => compareAscending(x.at, y.at) || (x.name < y.name ? -1 : 1));
    expect(bySign).toEqual(byDifference);
  });
});
