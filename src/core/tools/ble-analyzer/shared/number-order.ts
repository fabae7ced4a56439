/**
 * -1, 0 or 1 as `a` sorts before, with or after `b`; NaN ties with everything, as `a - b` does at
 * the head of a comparator's `||` chain (NaN is falsy). For comparators: `a - b` of fractional
 * values is a double, and the sort builtin calls the comparator without inlining it, so every
 * comparison returned a freshly boxed number; a small integer is not boxed.
 */
export function compareAscending(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
