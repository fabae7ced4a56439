/**
 * The indices 0 … keys.length − 1 ordered by ascending key, equal keys by `before(x, y)` (true when
 * index x goes first; it must order every pair of distinct indices with equal keys, consistently).
 * Keys must not be NaN. The same order as `Int32Array.sort` with the comparator
 * `compareAscending(keys[x], keys[y]) || (before(x, y) ? -1 : 1)`, several times faster: the sort
 * builtin calls a comparator without inlining it (tens of ns per comparison), while this bottom-up
 * merge sort compares keys inline and calls `before` only for ties.
 */
export function indicesByKey(keys: Float64Array, before: (x: number, y: number) => boolean): Int32Array {
  const length = keys.length;
  let from = new Int32Array(length);
  let into = new Int32Array(length);
  for (let index = 0; index < length; index++) from[index] = index;
  // Short runs by insertion sort, then merges of neighbouring runs, doubling their width.
  for (let start = 0; start < length; start += RUN) {
    const end = Math.min(length, start + RUN);
    for (let index = start + 1; index < end; index++) {
      const held = from[index];
      let at = index;
      while (at > start && goesFirst(keys, held, from[at - 1], before)) {
        from[at] = from[at - 1];
        at--;
      }
      from[at] = held;
    }
  }
  for (let width = RUN; width < length; width *= 2) {
    for (let start = 0; start < length; start += 2 * width) {
      const middle = Math.min(length, start + width);
      const end = Math.min(length, start + 2 * width);
      let left = start;
      let right = middle;
      let out = start;
      while (left < middle && right < end) {
        // The right run's head goes first only when strictly before: equal ones keep their order.
        if (goesFirst(keys, from[right], from[left], before)) into[out++] = from[right++];
        else into[out++] = from[left++];
      }
      while (left < middle) into[out++] = from[left++];
      while (right < end) into[out++] = from[right++];
    }
    const swap = from;
    from = into;
    into = swap;
  }
  return from;
}

/** Width of the runs sorted by insertion before merging. */
const RUN = 8;

/** Whether index x goes before index y. */
function goesFirst(keys: Float64Array, x: number, y: number, before: (x: number, y: number) => boolean): boolean {
  const kx = keys[x];
  const ky = keys[y];
  return kx < ky || (kx === ky && before(x, y));
}

/**
 * `items` in a new array ordered by ascending `keys[i]` (the key of items[i]), equal keys by
 * `before` (stable where it orders neither first): the order of a stable sort by the comparator
 * `compareAscending(key x, key y) || (before(x, y) ? -1 : before(y, x) ? 1 : 0)`, with the keys
 * compared inline (see indicesByKey). Undefined when a key is NaN, which such a comparator does
 * not order consistently: the caller sorts as before.
 */
export function itemsByKey<T>(items: ReadonlyArray<T>, keys: Float64Array, before: (x: T, y: T) => boolean): T[] | undefined {
  for (let index = 0; index < keys.length; index++) if (Number.isNaN(keys[index])) return undefined;
  const order = indicesByKey(keys, (x, y) => before(items[x], items[y]));
  const sorted = new Array<T>(items.length);
  for (let index = 0; index < items.length; index++) sorted[index] = items[order[index]];
  return sorted;
}
