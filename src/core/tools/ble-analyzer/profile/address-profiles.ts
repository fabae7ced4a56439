import type { BleObservationStore } from '../scan/observation-store.ts';
import type { BleReceiverIds, BleRssiValues } from '../scan/event-columns.ts';
import { BleGrowableFloat64, BleGrowableInt32 } from '../shared/growable.ts';
import { selectKth } from '../shared/quickselect.ts';

/**
 * Per-address profiles derived from the store's events grouped by address in time order: lifetime,
 * per-receiver RSSI at the start and end of the address's life, payload signatures, the
 * advertising interval and activity segments. Work is linear in the events. The results are
 * columns by address id (a profile object is a view on them): they live to the end of the
 * analysis, and objects with boxed doubles were copied by every scavenge on the way to old space.
 */

export interface BleReceiverProfile {
  receiver: number;
  count: number;
  /** Mean RSSI of the first / last few packets on this receiver (NaN without RSSI). */
  headRssi: number;
  tailRssi: number;
  /** How many packets those means took. */
  headCount: number;
  tailCount: number;
}

export interface BleSegment {
  startMs: number;
  endMs: number;
  count: number;
  /** Distinct whole seconds with at least one packet. */
  occupiedSeconds: number;
}

export interface BleAddressProfile {
  readonly id: number;
  readonly count: number;
  readonly firstMs: number;
  readonly lastMs: number;
  /** Estimated advertising interval in seconds (NaN when too few packets). */
  readonly advIntervalS: number;
  /** The most frequent payload over the whole life, and over its first and last packets (-1 for none). */
  readonly dominantPayload: number;
  readonly headPayload: number;
  readonly tailPayload: number;
  /** Share of packets that carry the dominant payload. */
  readonly dominantShare: number;
  readonly distinctPayloads: number;
}

/** The profiles' values by address id (meaningful for the addresses that have a profile). */
interface BleProfileColumns {
  count: Int32Array;
  firstMs: Float64Array;
  lastMs: Float64Array;
  advIntervalS: Float64Array;
  dominantPayload: Int32Array;
  headPayload: Int32Array;
  tailPayload: Int32Array;
  dominantShare: Float64Array;
  distinctPayloads: Int32Array;
}

function profileColumns(addresses: number): BleProfileColumns {
  return {
    count: new Int32Array(addresses),
    firstMs: new Float64Array(addresses),
    lastMs: new Float64Array(addresses),
    advIntervalS: new Float64Array(addresses),
    dominantPayload: new Int32Array(addresses),
    headPayload: new Int32Array(addresses),
    tailPayload: new Int32Array(addresses),
    dominantShare: new Float64Array(addresses),
    distinctPayloads: new Int32Array(addresses),
  };
}

/**
 * One address's profile read from the columns: two fields instead of ten, four of them boxed
 * doubles. Profiles live to the end of the analysis, so every scavenge on the way copied them
 * (176 bytes each on a 64-bit heap without pointer compression, 40 as a view).
 */
class BleProfileView implements BleAddressProfile {
  constructor(
    private readonly columns: BleProfileColumns,
    readonly id: number,
  ) {}
  get count(): number {
    return this.columns.count[this.id];
  }
  get firstMs(): number {
    return this.columns.firstMs[this.id];
  }
  get lastMs(): number {
    return this.columns.lastMs[this.id];
  }
  get advIntervalS(): number {
    return this.columns.advIntervalS[this.id];
  }
  get dominantPayload(): number {
    return this.columns.dominantPayload[this.id];
  }
  get headPayload(): number {
    return this.columns.headPayload[this.id];
  }
  get tailPayload(): number {
    return this.columns.tailPayload[this.id];
  }
  get dominantShare(): number {
    return this.columns.dominantShare[this.id];
  }
  get distinctPayloads(): number {
    return this.columns.distinctPayloads[this.id];
  }
}

/**
 * The receivers that heard each address, as columns: address id a's rows are
 * `from[a]` … `from[a + 1] − 1`, by receiver index (none for an address without packets).
 * Columns rather than an object per receiver and address: they live to the end of the analysis,
 * and every scavenge copied those objects (two doubles each, boxed) on their way to old space.
 */
export interface BleProfileReceivers {
  from: Int32Array;
  receiver: Int32Array;
  count: Int32Array;
  /** Mean RSSI of the first / last few packets on this receiver (NaN without RSSI). */
  headRssi: Float64Array;
  tailRssi: Float64Array;
  /** How many packets those means took (at most EDGE_PACKETS, within EDGE_SPAN_MS). */
  headCount: Int32Array;
  tailCount: Int32Array;
}

/** The activity segments of each address, as columns indexed like `BleProfileReceivers`. */
export interface BleProfileSegments {
  from: Int32Array;
  startMs: Float64Array;
  endMs: Float64Array;
  count: Int32Array;
  /** Distinct whole seconds with at least one packet. */
  occupiedSeconds: Int32Array;
}

export interface BleAddressProfiles {
  /** By address id; undefined for an address without packets of its own. */
  byAddress: Array<BleAddressProfile | undefined>;
  receivers: BleProfileReceivers;
  segments: BleProfileSegments;
  /**
   * Each receiver's floor, about its sensitivity: the weakest RSSI among all its events (+Infinity
   * for a receiver without RSSI). Co-location censors levels near it; it is gathered here because
   * this pass reads every event's receiver and RSSI anyway (a pass of its own cost ~2 ms per 1M events).
   */
  receiverFloors: Float64Array;
}

/** The receiver rows of address `id` as objects (for tests and one-off readers; loops read the columns). */
export function receiversOf(receivers: BleProfileReceivers, id: number): BleReceiverProfile[] {
  const rows: BleReceiverProfile[] = [];
  for (let row = receivers.from[id]; row < receivers.from[id + 1]; row++) {
    rows.push({
      receiver: receivers.receiver[row],
      count: receivers.count[row],
      headRssi: receivers.headRssi[row],
      tailRssi: receivers.tailRssi[row],
      headCount: receivers.headCount[row],
      tailCount: receivers.tailCount[row],
    });
  }
  return rows;
}

/** The segments of address `id` as objects (for tests and one-off readers; loops read the columns). */
export function segmentsOf(segments: BleProfileSegments, id: number): BleSegment[] {
  const rows: BleSegment[] = [];
  for (let row = segments.from[id]; row < segments.from[id + 1]; row++) {
    rows.push({ startMs: segments.startMs[row], endMs: segments.endMs[row], count: segments.count[row], occupiedSeconds: segments.occupiedSeconds[row] });
  }
  return rows;
}

/** Packets on each receiver that make up the "head" and "tail" of an address's life. */
export const EDGE_PACKETS = 12;
/**
 * …at most this long after its first (before its last) packet with RSSI on the receiver, ms: the level a
 * hand-off compares is the level at its edge. An address heard every 25 s spans five minutes
 * with twelve packets, and a walker's level moves 10 dB in that time (the generated `trackers`
 * phones): its mean then reads far from where it was when it rotated.
 */
export const EDGE_SPAN_MS = 120_000;
/** …but never fewer than this many packets where the receiver heard that many: one packet's level is its fading's. */
export const MIN_EDGE_PACKETS = 4;

/** Whether an edge of `packets` packets so far takes one more `spanMs` from its first: up to EDGE_PACKETS within EDGE_SPAN_MS, but at least MIN_EDGE_PACKETS. */
export function withinEdge(packets: number, spanMs: number): boolean {
  return packets < EDGE_PACKETS && (packets < MIN_EDGE_PACKETS || spanMs <= EDGE_SPAN_MS);
}
/** Packets closer than this are one advertising event (several channels, several receivers). */
const SAME_EVENT_MS = 15;
/** Gaps longer than this are not advertising intervals (the spec's maximum is 10.24 s). */
const MAX_INTERVAL_MS = 12_000;

/** Segment gap: activity pauses longer than this split an address's timeline. */
export function bleSegmentGapMs(advIntervalS: number): number {
  const interval = Number.isFinite(advIntervalS) ? advIntervalS * 1000 : 1000;
  return Math.max(30_000, 20 * interval);
}

/** The smallest segment gap (`bleSegmentGapMs` never returns less): pauses this long are split candidates. */
const MIN_SEGMENT_GAP_MS = 30_000;

/**
 * One forward pass per address collects everything but the tail RSSI: receivers, head RSSI,
 * payload counts, advertising gaps, and the pauses longer than the smallest possible segment gap
 * (with the packet and occupied-second counts before each), so segments are cut afterwards without
 * reading the events again. The tail RSSI is read backwards and stops once every receiver has
 * its last EDGE_PACKETS values or has reached EDGE_SPAN_MS before its last.
 */
export function buildAddressProfiles(store: BleObservationStore): BleAddressProfiles {
  const start = store.events.start;
  const profiler = new AddressProfiler(store);
  const byAddress: Array<BleAddressProfile | undefined> = new Array(store.addressCount);
  for (let a = 0; a < store.addressCount; a++) {
    if (start[a + 1] > start[a]) byAddress[a] = profiler.profile(a, start[a], start[a + 1]);
    profiler.endAddress(a);
  }
  return { byAddress, receivers: profiler.receiverColumns(), segments: profiler.segmentColumns(), receiverFloors: profiler.floors };
}

/**
 * The per-address work of buildAddressProfiles, with its scratch arrays made once per analysis
 * and reset per address. A method called once per address rather than one loop over all of them:
 * V8 optimizes a small function called thousands of times within the first analysis, while one
 * long loop waits for on-stack replacement of a large function (slow to compile, and dropped
 * again when the next analysis reaches code without type feedback) and meanwhile boxes every
 * double it computes.
 */
class AddressProfiler {
  private readonly time: Float64Array;
  private readonly receiverOf: BleReceiverIds;
  private readonly rssiOf: BleRssiValues;
  private readonly payloadOf: Int32Array;
  private readonly perReceiverCount: Int32Array;
  private readonly headSum: Float64Array;
  private readonly headN: Int32Array;
  private readonly tailSum: Float64Array;
  private readonly tailN: Int32Array;
  /** Per receiver: the time of the address's first and last packet with RSSI there, and whether the tail is complete. */
  private readonly headFrom: Float64Array;
  private readonly tailFrom: Float64Array;
  private readonly tailClosed: Uint8Array;
  private readonly lastOnReceiver: Float64Array;
  /** The weakest RSSI of each receiver so far (NaN never lowers it). */
  readonly floors: Float64Array;
  /** Payload counts of the address: a dense array over payload ids (+1, so "no payload" is slot 0). */
  private readonly payloadCounts: Int32Array;
  private readonly touchedPayloads: Int32Array;
  private readonly windowCounts: Int32Array;
  /** Receivers that heard the current address, kept sorted (there are few receivers). */
  private readonly touched: Int32Array;
  private gapScratch = new Float64Array(1024);
  private readonly pauses = new BlePauses();
  /** The output columns, filled address by address. */
  private readonly receiversFrom: Int32Array;
  private readonly receiverIds = new BleGrowableInt32();
  private readonly receiverCounts = new BleGrowableInt32();
  private readonly headRssi = new BleGrowableFloat64();
  private readonly tailRssi = new BleGrowableFloat64();
  private readonly headCounts = new BleGrowableInt32();
  private readonly tailCounts = new BleGrowableInt32();
  private readonly segments: BleSegmentColumns;
  private readonly values: BleProfileColumns;

  constructor(store: BleObservationStore) {
    const receivers = store.receiverNames.length;
    this.time = store.events.time;
    this.receiverOf = store.events.receiver;
    this.rssiOf = store.events.rssi;
    this.payloadOf = store.events.payload;
    this.perReceiverCount = new Int32Array(receivers);
    this.headSum = new Float64Array(receivers);
    this.headN = new Int32Array(receivers);
    this.tailSum = new Float64Array(receivers);
    this.tailN = new Int32Array(receivers);
    this.headFrom = new Float64Array(receivers);
    this.tailFrom = new Float64Array(receivers);
    this.tailClosed = new Uint8Array(receivers);
    this.lastOnReceiver = new Float64Array(receivers);
    this.floors = new Float64Array(receivers).fill(Infinity);
    this.payloadCounts = new Int32Array(store.payloadCount + 1);
    this.touchedPayloads = new Int32Array(store.payloadCount + 1);
    this.windowCounts = new Int32Array(store.payloadCount + 1);
    this.touched = new Int32Array(receivers);
    this.receiversFrom = new Int32Array(store.addressCount + 1);
    this.segments = new BleSegmentColumns(store.addressCount);
    this.values = profileColumns(store.addressCount);
  }

  /** Closes the rows of address `a` (called for every address in order, profiled or not). */
  endAddress(a: number): void {
    this.receiversFrom[a + 1] = this.receiverIds.length;
    this.segments.endAddress(a);
  }

  receiverColumns(): BleProfileReceivers {
    return { from: this.receiversFrom, receiver: this.receiverIds.view(), count: this.receiverCounts.view(), headRssi: this.headRssi.view(), tailRssi: this.tailRssi.view(), headCount: this.headCounts.view(), tailCount: this.tailCounts.view() };
  }

  segmentColumns(): BleProfileSegments {
    return this.segments.columns();
  }

  /** The profile of address `a`, whose events are [from, to) (at least one). */
  profile(a: number, from: number, to: number): BleAddressProfile {
    const { time, receiverOf, rssiOf, payloadOf, perReceiverCount, headSum, headN, tailSum, tailN, headFrom, tailFrom, tailClosed, lastOnReceiver, floors, payloadCounts, touchedPayloads, windowCounts, touched, pauses } = this;
    let touchedCount = 0;
    let distinctPayloads = 0;
    let gaps = 0;
    if (this.gapScratch.length < to - from) this.gapScratch = new Float64Array(Math.max(to - from, this.gapScratch.length * 2));
    const gapScratch = this.gapScratch;
    pauses.clear();
    let previousTs = time[from];
    let lastSecond = Number.NaN;
    let occupied = 0;
    let runSlot = payloadOf[from] + 1;
    let runLength = 0;
    for (let index = from; index < to; index++) {
      const receiver = receiverOf[index];
      const ts = time[index];
      // Advertising interval: gaps between packets on the same receiver (receiver clocks differ
      // by up to hundreds of ms, so packets of different receivers are never compared).
      if (perReceiverCount[receiver]++ === 0) {
        let at = touchedCount++;
        while (at > 0 && touched[at - 1] > receiver) {
          touched[at] = touched[at - 1];
          at--;
        }
        touched[at] = receiver;
        lastOnReceiver[receiver] = ts;
      } else {
        const gap = ts - lastOnReceiver[receiver];
        if (gap >= SAME_EVENT_MS) {
          if (gap <= MAX_INTERVAL_MS) gapScratch[gaps++] = gap;
          lastOnReceiver[receiver] = ts;
        }
      }
      const rssi = rssiOf[index];
      if (rssi === rssi && headN[receiver] < EDGE_PACKETS) {
        if (headN[receiver] === 0) headFrom[receiver] = ts;
        if (withinEdge(headN[receiver], ts - headFrom[receiver])) {
          headSum[receiver] += rssi;
          headN[receiver]++;
        }
      }
      if (rssi < floors[receiver]) floors[receiver] = rssi;
      // Payload counts a run at a time: consecutive packets mostly repeat the payload (99.5% on the
      // bench input), and counting each in memory made every packet wait for the previous one's store.
      const slot = payloadOf[index] + 1;
      if (slot !== runSlot) {
        if (payloadCounts[runSlot] === 0) touchedPayloads[distinctPayloads++] = runSlot;
        payloadCounts[runSlot] += runLength;
        runSlot = slot;
        runLength = 0;
      }
      runLength++;
      // Segments: a pause longer than the smallest gap may split; the whole seconds with a packet
      // add up across a split (a pause of 30 s always starts a new second).
      if (ts - previousTs > MIN_SEGMENT_GAP_MS) pauses.push(index - from, ts - previousTs, occupied);
      const second = Math.floor(ts / 1000);
      occupied += +(second !== lastSecond);
      lastSecond = second;
      previousTs = ts;
    }
    if (payloadCounts[runSlot] === 0) touchedPayloads[distinctPayloads++] = runSlot;
    payloadCounts[runSlot] += runLength;
    let tailDone = 0;
    for (let index = to - 1; index >= from && tailDone < touchedCount; index--) {
      const receiver = receiverOf[index];
      const rssi = rssiOf[index];
      if (rssi !== rssi || tailClosed[receiver] === 1) continue;
      if (tailN[receiver] === 0) tailFrom[receiver] = time[index];
      const within = tailN[receiver] < MIN_EDGE_PACKETS || tailFrom[receiver] - time[index] <= EDGE_SPAN_MS;
      if (within) tailSum[receiver] += rssi;
      if (!within || ++tailN[receiver] === EDGE_PACKETS) {
        tailClosed[receiver] = 1;
        tailDone++;
      }
    }
    for (let index = 0; index < touchedCount; index++) {
      const receiver = touched[index];
      this.receiverIds.push(receiver);
      this.receiverCounts.push(perReceiverCount[receiver]);
      this.headRssi.push(headN[receiver] > 0 ? headSum[receiver] / headN[receiver] : Number.NaN);
      this.tailRssi.push(tailN[receiver] > 0 ? tailSum[receiver] / tailN[receiver] : Number.NaN);
      this.headCounts.push(headN[receiver]);
      this.tailCounts.push(tailN[receiver]);
      perReceiverCount[receiver] = 0;
      headSum[receiver] = tailSum[receiver] = 0;
      headN[receiver] = tailN[receiver] = 0;
      tailClosed[receiver] = 0;
    }
    const advIntervalS = gaps >= 4 ? lowerQuantile(gapScratch, gaps, 0.2) / 1000 : Number.NaN;

    let dominantSlot = 0;
    let dominantCount = -1;
    for (let index = 0; index < distinctPayloads; index++) {
      const slot = touchedPayloads[index];
      const count = payloadCounts[slot];
      payloadCounts[slot] = 0;
      if (count > dominantCount || (count === dominantCount && slot < dominantSlot)) {
        dominantSlot = slot;
        dominantCount = count;
      }
    }
    const edge = Math.min(EDGE_PACKETS, to - from);
    pauses.cut(this.segments, time, from, to, occupied, bleSegmentGapMs(advIntervalS));
    const values = this.values;
    values.count[a] = to - from;
    values.firstMs[a] = time[from];
    values.lastMs[a] = time[to - 1];
    values.advIntervalS[a] = advIntervalS;
    values.dominantPayload[a] = dominantSlot - 1;
    values.headPayload[a] = modeOf(payloadOf, from, from + edge, windowCounts);
    values.tailPayload[a] = modeOf(payloadOf, to - edge, to, windowCounts);
    values.dominantShare[a] = dominantCount / (to - from);
    values.distinctPayloads[a] = distinctPayloads;
    return new BleProfileView(values, a);
  }
}

/**
 * The pauses of one address longer than the smallest segment gap: where (packets before it),
 * how long, and the occupied seconds before it. Growable columns, reused across addresses.
 */
class BlePauses {
  private at = new Int32Array(64);
  private gap = new Float64Array(64);
  private occupiedBefore = new Int32Array(64);
  private length = 0;

  clear(): void {
    this.length = 0;
  }

  push(at: number, gap: number, occupiedBefore: number): void {
    if (this.length === this.at.length) this.grow();
    this.at[this.length] = at;
    this.gap[this.length] = gap;
    this.occupiedBefore[this.length] = occupiedBefore;
    this.length++;
  }

  /**
   * Appends to `segments` the segments of events [from, to) split at the pauses longer than
   * `gapMs`; `occupied` is the address's total of occupied seconds.
   */
  cut(segments: BleSegmentColumns, time: Float64Array, from: number, to: number, occupied: number, gapMs: number): void {
    let startAt = 0;
    let occupiedAtStart = 0;
    for (let pause = 0; pause < this.length; pause++) {
      if (!(this.gap[pause] > gapMs)) continue;
      const at = this.at[pause];
      segments.push(time[from + startAt], time[from + at - 1], at - startAt, this.occupiedBefore[pause] - occupiedAtStart);
      startAt = at;
      occupiedAtStart = this.occupiedBefore[pause];
    }
    segments.push(time[from + startAt], time[to - 1], to - from - startAt, occupied - occupiedAtStart);
  }

  private grow(): void {
    const size = this.at.length * 2;
    const at = new Int32Array(size);
    const gap = new Float64Array(size);
    const occupiedBefore = new Int32Array(size);
    at.set(this.at);
    gap.set(this.gap);
    occupiedBefore.set(this.occupiedBefore);
    this.at = at;
    this.gap = gap;
    this.occupiedBefore = occupiedBefore;
  }
}

/** The segment columns being filled (BleProfileSegments), address by address. */
class BleSegmentColumns {
  private readonly from: Int32Array;
  private readonly startMs = new BleGrowableFloat64();
  private readonly endMs = new BleGrowableFloat64();
  private readonly count = new BleGrowableInt32();
  private readonly occupiedSeconds = new BleGrowableInt32();

  constructor(addresses: number) {
    this.from = new Int32Array(addresses + 1);
  }

  push(startMs: number, endMs: number, count: number, occupiedSeconds: number): void {
    this.startMs.push(startMs);
    this.endMs.push(endMs);
    this.count.push(count);
    this.occupiedSeconds.push(occupiedSeconds);
  }

  /** Closes the rows of address `a` (every address, in order). */
  endAddress(a: number): void {
    this.from[a + 1] = this.count.length;
  }

  columns(): BleProfileSegments {
    return { from: this.from, startMs: this.startMs.view(), endMs: this.endMs.view(), count: this.count.view(), occupiedSeconds: this.occupiedSeconds.view() };
  }
}

/** The q-quantile (lower) of `values[0 .. length)` by quickselect: linear on average, reorders them. */
function lowerQuantile(values: Float64Array, length: number, q: number): number {
  return selectKth(values, 0, length, Math.min(length - 1, Math.floor(q * (length - 1))));
}

/**
 * The most frequent value of `values[i]` for i in [from, to); ties go to the smaller value.
 * `counts` (indexed by value + 1, all zero) is scratch and is left all zero.
 */
function modeOf(values: Int32Array, from: number, to: number, counts: Int32Array): number {
  for (let i = from; i < to; i++) counts[values[i] + 1]++;
  let best = -1;
  let bestCount = 0;
  for (let i = from; i < to; i++) {
    const candidate = values[i];
    const count = counts[candidate + 1];
    if (count > bestCount || (count === bestCount && candidate < best)) {
      best = candidate;
      bestCount = count;
    }
  }
  for (let i = from; i < to; i++) counts[values[i] + 1] = 0;
  return best;
}
