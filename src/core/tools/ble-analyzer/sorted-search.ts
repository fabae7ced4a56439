/** Binary searches over a sorted range [from, to) of an array (the whole array by default). */

/** Index of the first value not less than `value`. */
export function lowerBound(values: ArrayLike<number>, value: number, from = 0, to = values.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Index of the first value greater than `value`. */
export function upperBound(values: ArrayLike<number>, value: number, from = 0, to = values.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
