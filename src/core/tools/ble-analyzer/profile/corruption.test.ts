import { describe, expect, it } from 'vitest';
import { foldCorruptedAddresses } from './corruption.ts';

const PARENT = 0x7a4c219d10ef;

/** `value` with the given bits (0 = least significant) flipped; 48-bit values do not fit JS bit operators. */
function flip(value: number, ...bits: number[]): number {
  for (const bit of bits) value += Math.floor(value / 2 ** bit) % 2 === 1 ? -(2 ** bit) : 2 ** bit;
  return value;
}

function fold(list: Array<[value: number, count: number]>, minParentCount = 25, minObservationCount = 25): Map<number, number> {
  const values = Float64Array.from(list.map(([value]) => value));
  const counts = Int32Array.from(list.map(([, count]) => count));
  return foldCorruptedAddresses(values, counts, list.length, minParentCount, minObservationCount);
}

describe('foldCorruptedAddresses', () => {
  it('folds sparse addresses one or two bit flips from a well-observed one, in every 16-bit block', () => {
    const folded = fold([
      [PARENT, 1000],
      [flip(PARENT, 0), 3], // one flip, low block
      [flip(PARENT, 20, 3), 2], // two flips, two blocks
      [flip(PARENT, 47), 1], // one flip, high block
      [flip(PARENT, 0, 1, 2), 1], // three flips: a device of its own
      [Number.NaN, 1], // not an address
    ]);
    expect([...folded]).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
  });

  it('keeps a neighbour seen as often as min_observation_count and 5% of the parent', () => {
    // Parents need 60 observations here, so the neighbours below are candidates.
    expect(fold([[PARENT, 1000], [flip(PARENT, 0), 49]], 60).size).toBe(1);
    expect(fold([[PARENT, 1000], [flip(PARENT, 0), 50]], 60).size).toBe(0);
    expect(fold([[PARENT, 100], [flip(PARENT, 0), 25]], 60).size).toBe(0);
    // A neighbour with enough observations to be a parent itself is never folded.
    expect(fold([[PARENT, 1000], [flip(PARENT, 0), 30]]).size).toBe(0);
  });

  it('picks the most observed parent, then the lowest id', () => {
    expect(fold([[flip(PARENT, 1), 500], [flip(PARENT, 0), 900], [PARENT, 3]]).get(2)).toBe(1);
    expect(fold([[flip(PARENT, 1), 900], [flip(PARENT, 0), 900], [PARENT, 3]]).get(2)).toBe(0);
  });

  it('tries single flips only when there are too many children for two', () => {
    const list: Array<[number, number]> = [[PARENT, 1_000_000]];
    // 3,500 distinct sparse children × 1,176 two-flip neighbours is over the lookup budget.
    for (let index = 0; index < 3500; index++) list.push([2 ** 40 + index * 2 ** 20, 1]);
    list.push([flip(PARENT, 0), 1], [flip(PARENT, 0, 1), 1]);
    const folded = fold(list);
    expect(folded.get(3501)).toBe(0);
    expect(folded.has(3502)).toBe(false);
  });

  it('matches a brute-force search over all pairs, with parents crowding the block buckets', () => {
    let state = 5;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    // 1,000 parents whose 16-bit blocks collide in the hash buckets (values spread over few high
    // bits), and sparse children near some of them or anywhere.
    const list: Array<[number, number]> = [];
    for (let index = 0; index < 1000; index++) list.push([Math.floor(random() * 2 ** 12) * 2 ** 36 + Math.floor(random() * 2 ** 12) * 2 ** 20 + Math.floor(random() * 2 ** 12) * 2 ** 4, 30 + Math.floor(random() * 2000)]);
    for (let index = 0; index < 1000; index++) {
      const near = list[Math.floor(random() * 1000)][0];
      const bits = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 48));
      list.push([random() < 0.2 ? Math.floor(random() * 2 ** 48) : flip(near, ...new Set(bits)), 1 + Math.floor(random() * 24)]);
    }
    const bitCount = (bits: number) => {
      let count = 0;
      for (; bits !== 0; bits &= bits - 1) count++;
      return count;
    };
    const flips = (x: number, y: number) => bitCount((x % 2 ** 24) ^ (y % 2 ** 24)) + bitCount(Math.floor(x / 2 ** 24) ^ Math.floor(y / 2 ** 24));
    const parentOf = new Map<number, number>();
    list.forEach(([value, count], id) => {
      if (count >= 25) parentOf.set(value, id);
    });
    const expected = new Map<number, number>();
    list.forEach(([value, count], id) => {
      if (parentOf.has(value)) return;
      let best = -1;
      for (const parent of parentOf.values()) {
        const [parentValue, parentCount] = list[parent];
        if (flips(value, parentValue) > 2 || count >= Math.max(25, 0.05 * parentCount)) continue;
        if (best < 0 || parentCount > list[best][1] || (parentCount === list[best][1] && parent < best)) best = parent;
      }
      if (best >= 0) expected.set(id, best);
    });
    const folded = fold(list);
    expect(expected.size).toBeGreaterThan(200);
    expect([...folded]).toEqual([...expected]);
  });
});
