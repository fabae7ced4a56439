import { describe, expect, it } from 'vitest';
import { compareAscending } from './number-order.ts';
import { indicesByKey, itemsByKey } from './index-order.ts';

/** A small deterministic generator, so failures reproduce. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('indicesByKey', () => {
  it('orders like the comparator sort, ties by the tie order, for sizes around the run width and many ties', () => {
    const random = generator(11);
    for (const length of [0, 1, 2, 7, 8, 9, 16, 17, 100, 1000, 3001]) {
      for (const distinct of [3, 50, 1e9]) {
        const keys = Float64Array.from({ length }, () => Math.floor(random() * distinct) * 0.5);
        const names = Array.from({ length }, () => random().toString(36).slice(2));
        const before = (x: number, y: number) => names[x] < names[y] || (names[x] === names[y] && x < y);
        const expected = Int32Array.from({ length }, (_, index) => index).sort((x, y) => compareAscending(keys[x], keys[y]) || (before(x, y) ? -1 : 1));
        expect([...indicesByKey(keys, before)]).toEqual([...expected]);
      }
    }
  });

  it('calls the tie order only for equal keys', () => {
    const keys = Float64Array.from([5, 1, 4, 1, 3, 9, 2, 8, 7, 6, 0.5, 10]);
    const asked: Array<[number, number]> = [];
    const order = indicesByKey(keys, (x, y) => {
      asked.push([x, y]);
      return x > y;
    });
    expect([...order]).toEqual([10, 3, 1, 6, 4, 2, 0, 9, 8, 7, 5, 11]);
    for (const [x, y] of asked) expect(keys[x]).toBe(keys[y]);
  });
});

describe('itemsByKey', () => {
  it('orders items like a stable comparator sort: by key, then by the tie order, equal ones as given', () => {
    const random = generator(23);
    for (const length of [0, 1, 5, 9, 40, 500, 2001]) {
      const items = Array.from({ length }, (_, index) => ({ index, key: Math.floor(random() * 30), name: String.fromCharCode(97 + Math.floor(random() * 4)) }));
      const keys = Float64Array.from(items, (item) => item.key);
      const expected = [...items].sort((x, y) => compareAscending(x.key, y.key) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
      expect(itemsByKey(items, keys, (x, y) => x.name < y.name)).toEqual(expected);
    }
  });

  it('declines keys with a NaN', () => {
    expect(itemsByKey(['a', 'b'], Float64Array.of(1, Number.NaN), (x, y) => x < y)).toBeUndefined();
  });
});
