// Order statistics without sorting, shared by the address profiles and the co-location scores.

/**
 * The `k`-th smallest (0-based) of `values[start..start + length)`, which it reorders: the value a full
 * ascending sort would put at index `k` (Hoare's selection with a middle pivot, deterministic).
 * Written by hand because the analyzer needs single order statistics (medians, MADs, quantiles)
 * on hot paths where a full sort per call was most of the cost; callers never pass NaN.
 */
export function selectKth(values: Float64Array, start: number, length: number, k: number): number {
  let low = start;
  let high = start + length - 1;
  k += start;
  while (low < high) {
    const pivot = values[(low + high) >> 1];
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const swap = values[i];
        values[i] = values[j];
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return values[k];
  }
  return values[k];
}
