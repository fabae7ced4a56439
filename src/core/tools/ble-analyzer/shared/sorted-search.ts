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

/**
 * `lowerBound` over a Float64Array. The generic searches serve `number[]` and typed-array callers
 * alike, so their loads are polymorphic; hot loops over one Float64Array use these instead.
 */
export function lowerBoundFloat64(values: Float64Array, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** `upperBound` over a Float64Array (see lowerBoundFloat64). */
export function upperBoundFloat64(values: Float64Array, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid] <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
