import type { BleObservationStore } from './observations.ts';
import { selectKth } from './quickselect.ts';

/**
 * Per-address profiles derived from the store's events grouped by address in time order: lifetime,
 * per-receiver RSSI at the start and end of the address's life, payload signatures, the
 * advertising interval and activity segments. Work is linear in the events.
 */

export interface BleReceiverProfile {
  receiver: number;
  count: number;
  meanRssi: number;
  /** Mean RSSI of the first / last few packets on this receiver (NaN without RSSI). */
  headRssi: number;
  tailRssi: number;
}

export interface BleSegment {
  startMs: number;
  endMs: number;
  count: number;
  /** Distinct whole seconds with at least one packet. */
  occupiedSeconds: number;
}

export interface BleAddressProfile {
  id: number;
  count: number;
  firstMs: number;
  lastMs: number;
  receivers: BleReceiverProfile[];
  /** Estimated advertising interval in seconds (NaN when too few packets). */
  advIntervalS: number;
  /** The most frequent payload over the whole life, and over its first and last packets (-1 for none). */
  dominantPayload: number;
  headPayload: number;
  tailPayload: number;
  /** Share of packets that carry the dominant payload. */
  dominantShare: number;
  distinctPayloads: number;
  segments: BleSegment[];
}

/** Packets on each receiver that make up the "head" and "tail" of an address's life. */
const EDGE_PACKETS = 12;
/** Packets closer than this are one advertising event (several channels, several receivers). */
const SAME_EVENT_MS = 15;
/** Gaps longer than this are not advertising intervals (the spec's maximum is 10.24 s). */
const MAX_INTERVAL_MS = 12_000;

/** Segment gap: activity pauses longer than this split an address's timeline. */
export function bleSegmentGapMs(advIntervalS: number): number {
  const interval = Number.isFinite(advIntervalS) ? advIntervalS * 1000 : 1000;
  return Math.max(30_000, 20 * interval);
}

export function buildAddressProfiles(store: BleObservationStore): Array<BleAddressProfile | undefined> {
  const { start, time, receiver: receiverOf, rssi: rssiOf, payload: payloadOf } = store.events;
  const receivers = store.receiverNames.length;
  const perReceiverCount = new Int32Array(receivers);
  const headSum = new Float64Array(receivers);
  const headN = new Int32Array(receivers);
  const tailSum = new Float64Array(receivers);
  const tailN = new Int32Array(receivers);
  const rssiSum = new Float64Array(receivers);
  const rssiN = new Int32Array(receivers);
  const lastOnReceiver = new Float64Array(receivers);
  // Payload counts per address: a dense array over payload ids (+1, so "no payload" is slot 0).
  const payloadCounts = new Int32Array(store.payloadCount + 1);
  const touchedPayloads: number[] = [];
  // Receivers that heard the current address, kept sorted (there are few receivers).
  const touched = new Int32Array(receivers);
  let scratch = new Float64Array(1024);
  const profiles: Array<BleAddressProfile | undefined> = new Array(store.addressCount);

  for (let a = 0; a < store.addressCount; a++) {
    const from = start[a];
    const to = start[a + 1];
    if (to === from) continue;
    let touchedCount = 0;
    touchedPayloads.length = 0;
    let gaps = 0;
    if (scratch.length < to - from) scratch = new Float64Array(Math.max(to - from, scratch.length * 2));
    // Advertising interval: gaps between packets on the same receiver (receiver clocks differ
    // by up to hundreds of ms, so packets of different receivers are never compared).
    for (let index = from; index < to; index++) lastOnReceiver[receiverOf[index]] = Number.NaN;
    for (let index = from; index < to; index++) {
      const receiver = receiverOf[index];
      if (perReceiverCount[receiver]++ === 0) {
        let at = touchedCount++;
        while (at > 0 && touched[at - 1] > receiver) {
          touched[at] = touched[at - 1];
          at--;
        }
        touched[at] = receiver;
      }
      const rssi = rssiOf[index];
      if (!Number.isNaN(rssi)) {
        rssiSum[receiver] += rssi;
        rssiN[receiver]++;
        if (headN[receiver] < EDGE_PACKETS) {
          headSum[receiver] += rssi;
          headN[receiver]++;
        }
      }
      const payload = payloadOf[index];
      if (payloadCounts[payload + 1]++ === 0) touchedPayloads.push(payload);
      const ts = time[index];
      const previous = lastOnReceiver[receiver];
      if (Number.isNaN(previous)) lastOnReceiver[receiver] = ts;
      else if (ts - previous >= SAME_EVENT_MS) {
        if (ts - previous <= MAX_INTERVAL_MS) scratch[gaps++] = ts - previous;
        lastOnReceiver[receiver] = ts;
      }
    }
    for (let index = to - 1; index >= from; index--) {
      const receiver = receiverOf[index];
      const rssi = rssiOf[index];
      if (!Number.isNaN(rssi) && tailN[receiver] < EDGE_PACKETS) {
        tailSum[receiver] += rssi;
        tailN[receiver]++;
      }
    }
    const receiverProfiles: BleReceiverProfile[] = new Array(touchedCount);
    for (let index = 0; index < touchedCount; index++) {
      const receiver = touched[index];
      receiverProfiles[index] = {
        receiver,
        count: perReceiverCount[receiver],
        meanRssi: rssiN[receiver] > 0 ? rssiSum[receiver] / rssiN[receiver] : Number.NaN,
        headRssi: headN[receiver] > 0 ? headSum[receiver] / headN[receiver] : Number.NaN,
        tailRssi: tailN[receiver] > 0 ? tailSum[receiver] / tailN[receiver] : Number.NaN,
      };
      perReceiverCount[receiver] = 0;
      headSum[receiver] = headN[receiver] = tailSum[receiver] = tailN[receiver] = rssiSum[receiver] = rssiN[receiver] = 0;
    }
    const advIntervalS = gaps >= 4 ? lowerQuantile(scratch, gaps, 0.2) / 1000 : Number.NaN;

    let dominantPayload = -1;
    let dominantCount = -1;
    for (const payload of touchedPayloads) {
      const count = payloadCounts[payload + 1];
      payloadCounts[payload + 1] = 0;
      if (count > dominantCount || (count === dominantCount && payload < dominantPayload)) {
        dominantPayload = payload;
        dominantCount = count;
      }
    }
    const edge = Math.min(EDGE_PACKETS, to - from);
    profiles[a] = {
      id: a,
      count: to - from,
      firstMs: time[from],
      lastMs: time[to - 1],
      receivers: receiverProfiles,
      advIntervalS,
      dominantPayload,
      headPayload: modeOf(payloadOf, from, from + edge),
      tailPayload: modeOf(payloadOf, to - edge, to),
      dominantShare: dominantCount / (to - from),
      distinctPayloads: touchedPayloads.length,
      segments: segmentsOf(time, from, to, bleSegmentGapMs(advIntervalS)),
    };
  }
  return profiles;
}

/** The q-quantile (lower) of `values[0 .. length)` by quickselect: linear on average, reorders them. */
function lowerQuantile(values: Float64Array, length: number, q: number): number {
  return selectKth(values, 0, length, Math.min(length - 1, Math.floor(q * (length - 1))));
}

/** The most frequent value of `values[i]` for i in [from, to); ties go to the smaller value. */
function modeOf(values: Int32Array, from: number, to: number): number {
  let best = -1;
  let bestCount = 0;
  for (let i = from; i < to; i++) {
    const candidate = values[i];
    let count = 0;
    for (let j = from; j < to; j++) if (values[j] === candidate) count++;
    if (count > bestCount || (count === bestCount && candidate < best)) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

function segmentsOf(time: Float64Array, from: number, to: number, gapMs: number): BleSegment[] {
  const segments: BleSegment[] = [];
  let segmentStart = time[from];
  let previous = segmentStart;
  let count = 0;
  let occupied = 0;
  let lastSecond = Number.NaN;
  for (let index = from; index < to; index++) {
    const ts = time[index];
    if (ts - previous > gapMs) {
      segments.push({ startMs: segmentStart, endMs: previous, count, occupiedSeconds: occupied });
      segmentStart = ts;
      count = 0;
      occupied = 0;
      lastSecond = Number.NaN;
    }
    const second = Math.floor(ts / 1000);
    if (second !== lastSecond) {
      occupied++;
      lastSecond = second;
    }
    count++;
    previous = ts;
  }
  segments.push({ startMs: segmentStart, endMs: previous, count, occupiedSeconds: occupied });
  return segments;
}
