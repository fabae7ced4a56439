// Order statistics without sorting, shared by the address profiles and the co-location scores.

/**
 * The `k`-th smallest (0-based) of `values[start..start + length)`, which it reorders: the value a full
 * ascending sort would put at index `k`. Written by hand because the analyzer needs single order
 * statistics (medians, MADs, quantiles) on hot paths where a full sort per call was most of the
 * cost; callers never pass NaN.
 *
 * Quickselect with a deterministic median-of-three pivot and branch-free partitions: every element
 * is swapped into place and the boundary moves by the comparison's 0 or 1, so the loop has no
 * data-dependent branch to mispredict (with a middle pivot, about half of them were). Values equal
 * to the pivot are gathered next to it when the search goes right after a pivot that split off
 * less than an eighth of the range, so runs of equal values (integer RSSI differences) cannot make
 * it quadratic; after a better split the gathering pass (a second pass over the right side) is
 * skipped, since the range shrinks by an eighth anyway.
 */
export function selectKth(values: Float64Array, start: number, length: number, k: number): number {
  let low = start;
  let high = start + length - 1;
  k += start;
  while (low < high) {
    if (high === low + 1) {
      // Two left (median-of-three needs three distinct positions).
      if (values[high] < values[low]) {
        const held = values[low];
        values[low] = values[high];
        values[high] = held;
      }
      break;
    }
    const pivot = medianOfThree(values, low, (low + high) >> 1, high);
    // The pivot now sits at `high`; smaller values are moved to the front. Two values per turn:
    // the optimized code checks the array (map, length, storage) once per turn of a loop, so
    // that work is shared by both values.
    let less = low;
    let index = low;
    for (; index + 1 < high; index += 2) {
      const first = values[index];
      values[index] = values[less];
      values[less] = first;
      less += +(first < pivot);
      const second = values[index + 1];
      values[index + 1] = values[less];
      values[less] = second;
      less += +(second < pivot);
    }
    if (index < high) {
      const value = values[index];
      values[index] = values[less];
      values[less] = value;
      less += +(value < pivot);
    }
    values[high] = values[less];
    values[less] = pivot;
    if (k < less) {
      high = less - 1;
      continue;
    }
    if (k === less) return pivot;
    // Going right. When the left side took a fair share (an eighth) of the range, the range
    // shrinks enough without the pass below; otherwise the pivot may be one of many equal values,
    // which are gathered next to it so they cannot keep the range from shrinking.
    if (less - low >= (high - low) >> 3) {
      low = less + 1;
      continue;
    }
    // values[less] is the pivot; gather the other copies of it right after.
    let equal = less + 1;
    for (let index = equal; index <= high; index++) {
      const value = values[index];
      values[index] = values[equal];
      values[equal] = value;
      equal += +(value === pivot);
    }
    if (k < equal) return pivot;
    low = equal;
  }
  return values[k];
}

/** Orders values[a], values[b], values[c] around their median, moves it to `c` and returns it. */
function medianOfThree(values: Float64Array, a: number, b: number, c: number): number {
  // Plain temporaries rather than destructuring swaps: no array is made before the code is optimized.
  const x = values[a];
  const y = values[b];
  const z = values[c];
  const low = Math.min(x, y);
  const high = Math.max(x, y);
  const median = z < low ? low : z > high ? high : z;
  values[a] = Math.min(low, z);
  values[b] = Math.max(high, z);
  values[c] = median;
  return median;
}
