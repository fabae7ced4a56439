/**
 * Scan pauses: stretches of the capture in which no receiver heard any packet at all, longer
 * than a device's advertising can explain, and which were the scanner's rather than the devices'.
 * A phone-side observer that scans 20–30 s every 15 minutes makes one per cycle; an outage of
 * every receiver makes one too. A single silence may instead be every device leaving, so it
 * counts only when an address was heard on both sides of it (it was alive throughout, so the
 * scanner was not listening), or when the capture has DUTY_CYCLE_SILENCES silences or more. The hand-off linkage
 * reads them to know which hand-offs it could not have seen (handoff-model.ts), and the scan
 * warns when every one of them is longer than the linkage window (scan-warnings.ts).
 */

/** A silence shorter than this is advertising (the spec's longest interval is 10.24 s), not a pause. */
export const SCAN_PAUSE_MIN_MS = 12_000;

/** Silences that make a duty cycle by themselves, witnessed or not. */
export const DUTY_CYCLE_SILENCES = 3;

/** An address's first and last packet (an address profile). */
export interface BleHeardSpan {
  readonly firstMs: number;
  readonly lastMs: number;
}

/** Most bins the silence search uses: 4 MB of first/last times; a longer capture gets wider bins. */
const MAX_BINS = 1 << 18;

export class BleScanPauses {
  /** Time of the last packet before each pause and of the first after it (ms), ascending. */
  readonly startMs: Float64Array;
  readonly endMs: Float64Array;
  /** Total length of the pauses before pause i (i = 0…count): scanning time is clock time less these. */
  private readonly pausedBefore: Float64Array;

  constructor(startMs: Float64Array, endMs: Float64Array) {
    this.startMs = startMs;
    this.endMs = endMs;
    this.pausedBefore = new Float64Array(startMs.length + 1);
    for (let i = 0; i < startMs.length; i++) this.pausedBefore[i + 1] = this.pausedBefore[i] + (endMs[i] - startMs[i]);
  }

  get count(): number {
    return this.startMs.length;
  }

  /**
   * Scanning time at clock time `t` (ms): `t` less every pause that ended by then. Packets are
   * never inside a pause, so for a packet's time this is exact; with no pause it is `t` itself.
   */
  scanningMs(t: number): number {
    if (this.startMs.length === 0) return t;
    // Pauses that ended at or before t.
    let low = 0;
    let high = this.endMs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.endMs[mid] <= t) low = mid + 1;
      else high = mid;
    }
    return t - this.pausedBefore[low];
  }

  /** Length (ms) of the pause that begins within `marginMs` after a packet at `t`, or 0. */
  pauseAfter(t: number, marginMs: number): number {
    const i = this.firstStartingAtOrAfter(t);
    return i < this.startMs.length && this.startMs[i] - t <= marginMs ? this.endMs[i] - this.startMs[i] : 0;
  }

  /** Length (ms) of the pause that ends within `marginMs` before a packet at `t`, or 0. */
  pauseBefore(t: number, marginMs: number): number {
    // The last pause ending at or before t.
    let low = 0;
    let high = this.endMs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.endMs[mid] <= t) low = mid + 1;
      else high = mid;
    }
    const i = low - 1;
    return i >= 0 && t - this.endMs[i] <= marginMs ? this.endMs[i] - this.startMs[i] : 0;
  }

  private firstStartingAtOrAfter(t: number): number {
    let low = 0;
    let high = this.startMs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.startMs[mid] < t) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * The scan pauses of a capture from its packet times (any order) and its addresses' spans. A
 * first pass marks the bins (at least a second wide) that hold a packet; runs of empty bins long
 * enough to hold a silence of SCAN_PAUSE_MIN_MS are the candidates, and only when there are any
 * does a second pass find the exact last packet before each and first after it. Linear in the
 * packets, no sort: a dense capture pays one pass of a compare, a multiply and a byte store per
 * packet. The candidates are kept as the file's header says.
 */
export function findScanPauses(times: Float64Array, spans: ReadonlyArray<BleHeardSpan | undefined>): BleScanPauses {
  const none = new BleScanPauses(new Float64Array(0), new Float64Array(0));
  let first = Infinity;
  let last = -Infinity;
  for (const span of spans) {
    if (!span) continue;
    if (span.firstMs < first) first = span.firstMs;
    if (span.lastMs > last) last = span.lastMs;
  }
  if (spans.length === 0) {
    for (let i = 0; i < times.length; i++) {
      if (times[i] < first) first = times[i];
      if (times[i] > last) last = times[i];
    }
  }
  if (!(last - first >= SCAN_PAUSE_MIN_MS)) return none;
  const binMs = Math.max(1000, Math.ceil((last - first) / (MAX_BINS - 1)));
  const perMs = 1 / binMs;
  const bins = Math.floor((last - first) * perMs) + 1;
  const occupied = new Uint8Array(bins);
  for (let i = 0; i < times.length; i++) {
    const bin = ((times[i] - first) * perMs) | 0;
    if (bin >= 0 && bin < bins) occupied[bin] = 1;
  }
  // A silence of SCAN_PAUSE_MIN_MS leaves at least this many whole bins empty.
  const emptyBins = Math.max(1, Math.floor(SCAN_PAUSE_MIN_MS / binMs) - 1);
  const before: number[] = [];
  const after: number[] = [];
  let run = 0;
  for (let bin = 0; bin < bins; bin++) {
    if (!occupied[bin]) {
      run++;
      continue;
    }
    if (run >= emptyBins && bin - run - 1 >= 0) {
      before.push(bin - run - 1);
      after.push(bin);
    }
    run = 0;
  }
  if (before.length === 0) return none;
  // Exact edges: the last packet of each bin before a run and the first of each bin after it (one
  // bin can be both: a short burst between two runs).
  const endsRun = new Int32Array(bins).fill(-1);
  const startsRun = new Int32Array(bins).fill(-1);
  for (let k = 0; k < before.length; k++) {
    endsRun[before[k]] = k;
    startsRun[after[k]] = k;
  }
  const lastBefore = new Float64Array(before.length).fill(-Infinity);
  const firstAfter = new Float64Array(before.length).fill(Infinity);
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    const bin = ((t - first) * perMs) | 0;
    if (bin < 0 || bin >= bins) continue;
    const k = endsRun[bin];
    if (k >= 0 && t > lastBefore[k]) lastBefore[k] = t;
    const j = startsRun[bin];
    if (j >= 0 && t < firstAfter[j]) firstAfter[j] = t;
  }
  const starts: number[] = [];
  const ends: number[] = [];
  for (let k = 0; k < before.length; k++) {
    if (firstAfter[k] - lastBefore[k] < SCAN_PAUSE_MIN_MS) continue;
    starts.push(lastBefore[k]);
    ends.push(firstAfter[k]);
  }
  if (starts.length === 0 || starts.length >= DUTY_CYCLE_SILENCES) return new BleScanPauses(Float64Array.from(starts), Float64Array.from(ends));
  // Few silences: keep those an address spans (its first packet before, its last after).
  const witnessed = new Uint8Array(starts.length);
  for (const span of spans) {
    if (!span) continue;
    for (let i = 0; i < starts.length; i++) if (span.firstMs <= starts[i] && span.lastMs >= ends[i]) witnessed[i] = 1;
  }
  const keptStarts: number[] = [];
  const keptEnds: number[] = [];
  for (let i = 0; i < starts.length; i++) {
    if (!witnessed[i]) continue;
    keptStarts.push(starts[i]);
    keptEnds.push(ends[i]);
  }
  return new BleScanPauses(Float64Array.from(keptStarts), Float64Array.from(keptEnds));
}
