import { describe, expect, it } from 'vitest';
import { BleClusterMatrices, BleLinkForest, groupByKey, MAX_UNPROVEN_PROBABILITY } from './cluster-links.ts';

/** A small deterministic generator, so failures reproduce. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The path product from `from` to every node of a tree given as edges, by brute force (multiplied outwards from `from`). */
function pathProducts(size: number, edges: Array<[number, number, number]>, from: number): number[] {
  const product = new Array<number>(size).fill(-1);
  product[from] = 1;
  for (let changed = true; changed; ) {
    changed = false;
    for (const [x, y, p] of edges) {
      if (product[x] >= 0 && product[y] < 0) {
        product[y] = product[x] * p;
        changed = true;
      } else if (product[y] >= 0 && product[x] < 0) {
        product[x] = product[y] * p;
        changed = true;
      }
    }
  }
  return product;
}

describe('groupByKey', () => {
  it('groups items by key, each group in the order given, with values in place of indices when asked', () => {
    const keys = Int32Array.of(2, 0, 2, 1, 0, 2);
    const groups = groupByKey(keys, 6, 4);
    expect([...groups.from]).toEqual([0, 2, 3, 6, 6]);
    expect([...groups.items]).toEqual([1, 4, 3, 0, 2, 5]);
    const valued = groupByKey(keys, 5, 3, [10, 11, 12, 13, 14]);
    expect([...valued.items]).toEqual([11, 14, 13, 10, 12]);
  });
});

describe('cluster matrices', () => {
  it('gives every cell the rounded path product of the link tree, capped below certainty, and 1 on the diagonal', () => {
    const random = generator(5);
    const matrices = new BleClusterMatrices(60, 60);
    for (const size of [2, 3, 7, 30, 60]) {
      // A random tree over addresses 0 … size − 1, whose members are listed in a shuffled order.
      const edges: Array<[number, number, number]> = [];
      for (let node = 1; node < size; node++) edges.push([Math.floor(random() * node), node, random() < 0.2 ? 1 : 0.5 + random() / 2]);
      const forest = new BleLinkForest(size);
      for (const [x, y, p] of edges) forest.add(x, y, p);
      const members = Array.from({ length: size }, (_, index) => index).sort(() => random() - 0.5);
      const tree = groupByKey(new Int32Array(forest.length), forest.length, 1);
      const rows = matrices.matrix(members, forest, tree, 0, forest.length, new Int32Array(size).fill(-1));
      members.forEach((member, i) => {
        const products = pathProducts(size, edges, member);
        members.forEach((other, j) => {
          const expected = i === j ? 1 : Math.min(MAX_UNPROVEN_PROBABILITY, Math.round(products[other] * 1000) / 1000);
          expect(rows[i][j]).toBe(expected);
        });
      });
    }
  });

  it('proves links only by a shared IRK', () => {
    const forest = new BleLinkForest(3);
    forest.add(0, 1, 1);
    forest.add(1, 2, 0.8);
    const tree = groupByKey(new Int32Array(2), 2, 1);
    const rows = new BleClusterMatrices(3, 2).matrix([0, 1, 2], forest, tree, 0, 2, Int32Array.of(4, 4, -1));
    expect(rows).toEqual([
      [1, 1, 0.8],
      [1, 1, 0.8],
      [0.8, 0.8, 1],
    ]);
  });

  it('reads only the edges of its own tree', () => {
    const forest = new BleLinkForest(3);
    forest.add(5, 6, 0.3);
    forest.add(0, 1, 0.9);
    forest.add(7, 8, 0.4);
    const tree = groupByKey(Int32Array.of(1, 0, 1), 3, 2);
    expect(new BleClusterMatrices(9, 3).matrix([1, 0], forest, tree, tree.from[0], tree.from[1], new Int32Array(9).fill(-1))).toEqual([
      [1, 0.9],
      [0.9, 1],
    ]);
  });
});
