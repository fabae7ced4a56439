/**
 * Runs of consecutive events that fall in one fixed-width time bin, found by comparing each time
 * with the bin's edges instead of dividing it by the width (the per-chain passes of the
 * co-location series read hundreds of thousands of events, and the bin changes only every ten or
 * so of them).
 *
 * Exactness: the bin of `t` is `Math.floor(t / width)`, with a rounded division. For an integer
 * bin b ≥ 0 whose edges L = b·width and H = (b + 1)·width are exact doubles (integers up to
 * 2^53, with an integer width), every double t with L ≤ t < H has Math.floor(t / width) === b:
 *   - L ≤ t gives t / width ≥ b exactly, and rounding is monotonic, so the quotient is ≥ b;
 *   - t < H means t ≤ H − g(H), with g(x) the gap from x down to the next double. The quotient
 *     would round up to b + 1 only if g(H) / width < g(b + 1) / 2. Writing g(x) = 2^(⌈log2 x⌉ − 53)
 *     and ⌈log2(b+1) + log2 width⌉ ≥ ⌈log2(b+1)⌉ + ⌈log2 width⌉ − 1, g(H) / width ≥
 *     g(b + 1) · 2^(⌈log2 width⌉ − 1) / width ≥ g(b + 1) / 2, with equality only for a power-of-two
 *     width, whose division is exact anyway. So it rounds to at most the double below b + 1.
 * Outside that range (negative or huge times, NaN) runs are one event long, and the caller's
 * division decides each event, as before.
 */

/** Largest integer below which every integer is an exact double. */
const EXACT_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * The index after the run of events from `from` (below `end`) whose times share the bin of
 * `time[from]` (`Math.floor(time[from] / widthMs)`); at least `from + 1`. Needs no sorting: the run
 * ends at the first event outside the bin.
 */
export function binRunEnd(time: ArrayLike<number>, from: number, end: number, widthMs: number): number {
  const bin = Math.floor(time[from] / widthMs);
  const low = bin * widthMs;
  const high = low + widthMs;
  let index = from + 1;
  if (!binEdgesExact(bin, widthMs)) return index;
  while (index < end && time[index] < high && time[index] >= low) index++;
  return index;
}

/**
 * Whether bin `bin` (a `Math.floor(t / widthMs)`) holds exactly the times t with
 * bin·widthMs ≤ t < (bin + 1)·widthMs, so that a caller walking its events can tell whether an
 * event stays in the bin by comparing its time with those edges (as `binRunEnd` does).
 */
export function binEdgesExact(bin: number, widthMs: number): boolean {
  const low = bin * widthMs;
  return low >= 0 && low + widthMs <= EXACT_LIMIT && Number.isInteger(widthMs);
}
