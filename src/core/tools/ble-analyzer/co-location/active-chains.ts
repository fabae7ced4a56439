/**
 * How many chains are active at once, averaged over a time range: the co-location prior's crowd
 * (co-location.ts). Counting every chain ever concurrent with a pair's two instead makes a long
 * chain's crowd the whole day's traffic (a tracker tag's 26 h chain overlaps hundreds of short
 * phone-chain fragments, while a score or so are active at any moment), which buries a carried
 * tag's co-movement evidence under the prior.
 *
 * The count of active chains is a step function of time (up by one at each chain's first
 * packet, down at its last); its running integral at every step gives the average over any range
 * with two searches.
 */
import { lowerBoundFloat64 } from '../shared/sorted-search.ts';

export class ActiveChains {
  /** Step times, ascending, and the integral of the active count up to each (chain·ms) and the count after it. */
  private readonly times: Float64Array;
  private readonly integral: Float64Array;
  private readonly active: Float64Array;

  constructor(spans: ReadonlyArray<{ firstMs: number; lastMs: number }>) {
    const steps = spans.length * 2;
    const time = new Float64Array(steps);
    const change = new Float64Array(steps);
    spans.forEach((span, index) => {
      time[2 * index] = span.firstMs;
      change[2 * index] = 1;
      time[2 * index + 1] = span.lastMs;
      change[2 * index + 1] = -1;
    });
    const order = Int32Array.from({ length: steps }, (_, index) => index).sort((x, y) => time[x] - time[y] || x - y);
    this.times = new Float64Array(steps);
    this.integral = new Float64Array(steps);
    this.active = new Float64Array(steps);
    let count = 0;
    let area = 0;
    for (let k = 0; k < steps; k++) {
      const at = time[order[k]];
      if (k > 0) area += count * (at - this.times[k - 1]);
      count += change[order[k]];
      this.times[k] = at;
      this.integral[k] = area;
      this.active[k] = count;
    }
  }

  /** The integral of the active count from the first step to `atMs`. */
  private areaTo(atMs: number): number {
    const steps = this.times.length;
    if (steps === 0 || atMs <= this.times[0]) return 0;
    let k = lowerBoundFloat64(this.times, atMs, 0, steps);
    if (k === steps || this.times[k] > atMs) k--;
    else while (k + 1 < steps && this.times[k + 1] === atMs) k++;
    return this.integral[k] + this.active[k] * (atMs - this.times[k]);
  }

  /** The mean number of chains active over [fromMs, toMs] (the count just after fromMs for an empty range). */
  averageOver(fromMs: number, toMs: number): number {
    if (toMs > fromMs) return (this.areaTo(toMs) - this.areaTo(fromMs)) / (toMs - fromMs);
    return this.areaTo(fromMs + 1) - this.areaTo(fromMs);
  }
}

/** The prior's crowd of a pair of chains active together over [fromMs, toMs]: chains active alongside, averaged over that time, at least 2. */
export function timeLocalCrowd(active: ActiveChains, fromMs: number, toMs: number): number {
  return Math.max(2, active.averageOver(fromMs, toMs) - 1);
}
