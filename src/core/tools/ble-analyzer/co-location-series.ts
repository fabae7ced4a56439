import { chainTimingIsPrecise } from './advertising-clock.ts';
import { binEdgesExact } from './bin-runs.ts';
import { CHANNEL_BLOCK_MS, type ChannelSignatureBuilder, type ChannelSignatures } from './channel-signature.ts';
import type { BleChain } from './co-location.ts';
import type { BleLinkableAddress } from './linkage.ts';
import type { BleReceiverIds, BleRssiValues } from './event-columns.ts';
import type { BleEventGroups } from './observation-store.ts';

/**
 * What co-location compares, per chain: its RSSI on every receiver in BIN_MS bins, its
 * whole-life level per receiver, its hand-off times, its channel sums and whether its own
 * timestamps are precise; and each receiver's floor (its weakest packets).
 */

/** Width of the RSSI bins the series are built from, ms (a whole number of them make a channel-sum block, CHANNEL_BLOCK_MS). */
export const BIN_MS = 10_000;
if (CHANNEL_BLOCK_MS % BIN_MS !== 0) throw new Error('co-location: a channel-sum block must be a whole number of RSSI bins');

/** One chain's series, as `buildSeries` makes them. */
export interface ChainSeries {
  bin0: number;
  bins: number;
  /** receivers × bins mean RSSI (NaN where not heard). */
  mean: Float32Array;
  /** Hand-off and edge times (ms) in time order. */
  boundaries: Float64Array;
  /** Whether `boundaries` is ascending (hand-offs of overlapping members can make it not), so it can be searched. */
  ascending: boolean;
  /** Coincidence tolerance from the advertising interval, ms. */
  toleranceMs: number;
  /** Mean level per receiver over the chain's whole life (NaN where never heard). */
  level: Float64Array;
  /** Per-channel RSSI sums per receiver in blocks, for the channel signature; undefined without channel data. */
  channels: ChannelSignatures | undefined;
  /** The chain's event groups (its members' address ids) in time order, and each one's first and last time. */
  groups: Int32Array;
  spans: Float64Array;
  /** Whether the chain's own packets line up on a slot grid (sub-millisecond timestamps). */
  preciseTiming: boolean;
}

/** Per-chain working arrays of `buildSeries` (RSSI sums and counts per receiver and bin), grown as needed and reused. */
let SERIES_SUM = new Float32Array(0);
let SERIES_COUNT = new Uint16Array(0);

export function buildSeries(chain: BleChain, addresses: ReadonlyArray<BleLinkableAddress>, events: BleEventGroups, receivers: number, dataStartMs: number, dataEndMs: number, channelBuilder: ChannelSignatureBuilder): ChainSeries {
  const bin0 = Math.floor(chain.firstMs / BIN_MS);
  const bins = Math.floor(chain.lastMs / BIN_MS) - bin0 + 1;
  const cells = receivers * bins;
  if (SERIES_SUM.length < cells) {
    SERIES_SUM = new Float32Array(Math.max(cells, 2 * SERIES_SUM.length));
    SERIES_COUNT = new Uint16Array(SERIES_SUM.length);
  }
  const sum = SERIES_SUM;
  const count = SERIES_COUNT;
  sum.fill(0, 0, cells);
  count.fill(0, 0, cells);
  channelBuilder.start(chain.firstMs, chain.lastMs);
  let interval = 1;
  const { start, time, receiver, rssi: rssiOf, channel } = events;
  for (let m = 0; m < chain.members.length; m++) {
    const { profile } = addresses[chain.members[m]];
    if (Number.isFinite(profile.advIntervalS)) interval = Math.max(interval, profile.advIntervalS);
    const end = start[profile.id + 1];
    // A member's events are in time order: its bin changes only at bin edges, so an event inside
    // the current bin's edges keeps the bin (bin-runs.ts: exactly the one a division per event
    // gives) and only the others divide. One flat loop per member: its bins hold a few events
    // each, too few to pay for a loop per bin. A bin lies inside one block of the channel sums
    // (the block is a whole number of bins), so the block's place changes with the bin.
    let low = Infinity;
    let high = -Infinity;
    let row = 0;
    let blockAt = -1;
    for (let index = start[profile.id]; index < end; index++) {
      const t = time[index];
      if (!(t >= low && t < high)) {
        const bin = Math.floor(t / BIN_MS);
        row = (bin - bin0) | 0;
        blockAt = channelBuilder.blockAt(t);
        if (binEdgesExact(bin, BIN_MS)) {
          low = bin * BIN_MS;
          high = low + BIN_MS;
        } else {
          low = Infinity;
          high = -Infinity;
        }
      }
      const rssi = rssiOf[index];
      if (!Number.isNaN(rssi)) {
        const r = receiver[index];
        const slot = r * bins + row;
        sum[slot] += rssi;
        count[slot]++;
        if (blockAt >= 0) channelBuilder.addAt(blockAt, r, channel[index], rssi);
      }
    }
  }
  // Bin means and each receiver's whole-life level in one pass over the sums.
  const mean = new Float32Array(cells);
  const level = new Float64Array(receivers);
  for (let r = 0; r < receivers; r++) {
    let total = 0;
    let n = 0;
    for (let slot = r * bins; slot < (r + 1) * bins; slot++) {
      const binCount = count[slot];
      const binSum = sum[slot];
      mean[slot] = binCount > 0 ? binSum / binCount : Number.NaN;
      total += binSum;
      n += binCount;
    }
    level[r] = n > 0 ? total / n : Number.NaN;
  }
  const boundaries: number[] = [];
  const first = addresses[chain.members[0]].profile;
  if (first.firstMs - dataStartMs > 5_000) boundaries.push(first.firstMs);
  for (let index = 1; index < chain.members.length; index++) {
    boundaries.push((addresses[chain.members[index - 1]].profile.lastMs + addresses[chain.members[index]].profile.firstMs) / 2);
  }
  const last = addresses[chain.members[chain.members.length - 1]].profile;
  if (dataEndMs - last.lastMs > 5_000) boundaries.push(last.lastMs);
  let ascending = true;
  for (let index = 1; index < boundaries.length; index++) if (boundaries[index] < boundaries[index - 1]) ascending = false;
  const groups = Int32Array.from(chain.members, (member) => addresses[member].profile.id);
  const spans = new Float64Array(2 * groups.length);
  chain.members.forEach((member, index) => {
    spans[2 * index] = addresses[member].profile.firstMs;
    spans[2 * index + 1] = addresses[member].profile.lastMs;
  });
  const preciseTiming = chainTimingIsPrecise(groups, events);
  return { bin0, bins, mean, boundaries: Float64Array.from(boundaries), ascending, toleranceMs: Math.max(2_000, 2500 * interval), level, channels: channelBuilder.finish(), groups, spans, preciseTiming };
}

/**
 * Each receiver's weakest packets: about its sensitivity. The events are read in blocks by a
 * function of their own (`lowerFloors`): `scoreChainPairs` runs once per analysis, and a loop
 * over every event in a function called once is compiled on the stack, in every analysis anew;
 * a function called per block is compiled once and kept.
 */
export function receiverFloors(events: BleEventGroups, receivers: number): Float64Array {
  const floors = new Float64Array(receivers).fill(Infinity);
  const count = events.rssi.length;
  for (let from = 0; from < count; from += FLOOR_BLOCK) lowerFloors(events.rssi, events.receiver, from, Math.min(count, from + FLOOR_BLOCK), floors);
  return floors;
}

/** Events per call of `lowerFloors`. */
const FLOOR_BLOCK = 8192;

/** Lowers each receiver's floor to the weakest RSSI among events from..to−1 (NaN never lowers it). */
function lowerFloors(rssiOf: BleRssiValues, receiverOf: BleReceiverIds, from: number, to: number, floors: Float64Array): void {
  // Two events per turn: the optimized code checks each array once per turn of the loop.
  let index = from;
  for (; index + 1 < to; index += 2) {
    const first = rssiOf[index];
    const firstReceiver = receiverOf[index];
    if (first < floors[firstReceiver]) floors[firstReceiver] = first;
    const second = rssiOf[index + 1];
    const secondReceiver = receiverOf[index + 1];
    if (second < floors[secondReceiver]) floors[secondReceiver] = second;
  }
  if (index < to) {
    const rssi = rssiOf[index];
    const receiver = receiverOf[index];
    if (rssi < floors[receiver]) floors[receiver] = rssi;
  }
}
