import { chainTimingIsPrecise } from './advertising-clock.ts';
import { binEdgesExact } from './bin-runs.ts';
import { BIN_MS } from './co-location-model.ts';
import { CHANNEL_BLOCK_MS, type ChannelSignatureBuilder, type ChannelSignatures } from './channel-signature.ts';
import type { BleChain } from './co-location-types.ts';
import type { BleMaskedBins } from './co-location-candidates.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';

/**
 * What co-location compares, per chain: its RSSI on every receiver in BIN_MS bins, its
 * whole-life level per receiver, its hand-off times, its channel sums and whether its own
 * timestamps are precise. (Each receiver's floor, its weakest packets, comes with the address
 * profiles: buildAddressProfiles reads every event anyway.)
 */

if (CHANNEL_BLOCK_MS % BIN_MS !== 0) throw new Error('co-location: a channel-sum block must be a whole number of RSSI bins');

/** One chain's series, as `buildSeries` makes them (its bin means are in the chains' `BleMaskedBins`). */
export interface ChainSeries {
  bin0: number;
  bins: number;
  /** Hand-off and edge times (ms) in time order. */
  boundaries: Float64Array;
  /** Whether `boundaries` is ascending (hand-offs of overlapping members can make it not), so it can be searched. */
  ascending: boolean;
  /** Coincidence tolerance from the advertising interval, ms. */
  toleranceMs: number;
  /** Mean level per receiver over the chain's whole life (NaN where never heard). */
  level: Float64Array;
  /** Per receiver: the share of the chain's bins it heard the chain in (the score reads more bins of rarely heard chains). */
  heardShare: Float64Array;
  /** Per-channel RSSI sums per receiver in blocks, for the channel signature; undefined without channel data. */
  channels: ChannelSignatures | undefined;
  /** The chain's event groups (its members' address ids) in time order, and each one's first and last time. */
  groups: Int32Array;
  spans: Float64Array;
  /** Whether the chain's own packets line up on a slot grid (sub-millisecond timestamps). */
  preciseTiming: boolean;
}

/** The first bin and the number of bins of a chain's series. */
function binsOf(chain: BleChain): { bin0: number; bins: number } {
  const bin0 = Math.floor(chain.firstMs / BIN_MS);
  return { bin0, bins: Math.floor(chain.lastMs / BIN_MS) - bin0 + 1 };
}

/**
 * Room for every chain's bin means with "heard" flags (BleMaskedBins, all zero: nothing heard),
 * which `buildSeries` fills: one array for all chains, and the screen and the score read the bins
 * from it (a mean array per chain as well was 0.7 MB and ~270 allocations per 1M analysis).
 */
export function maskedBinsFor(chains: ReadonlyArray<BleChain>, receivers: number): BleMaskedBins {
  const at = new Int32Array(chains.length);
  let size = 0;
  for (let chain = 0; chain < chains.length; chain++) {
    at[chain] = size;
    size += 2 * receivers * binsOf(chains[chain]).bins;
  }
  return { values: new Float32Array(size), at };
}

/** Per-chain working arrays of `buildSeries` (RSSI sums and counts per receiver and bin), made once per analysis, grown as needed and reused for every chain. */
export function seriesScratch() {
  return { sum: new Float32Array(0), count: new Uint16Array(0) };
}
export type BleSeriesScratch = ReturnType<typeof seriesScratch>;

/**
 * The series of chain `chainIndex` of `chains`; its bin means and "heard" flags go into `masked`
 * (made by `maskedBinsFor` for these chains and receivers).
 */
export function buildSeries(chains: ReadonlyArray<BleChain>, chainIndex: number, addresses: ReadonlyArray<BleLinkableAddress>, events: BleEventGroups, receivers: number, dataStartMs: number, dataEndMs: number, channelBuilder: ChannelSignatureBuilder, masked: BleMaskedBins, scratch: BleSeriesScratch = seriesScratch()): ChainSeries {
  const chain = chains[chainIndex];
  const { bin0, bins } = binsOf(chain);
  const cells = receivers * bins;
  if (scratch.sum.length < cells) {
    scratch.sum = new Float32Array(Math.max(cells, 2 * scratch.sum.length));
    scratch.count = new Uint16Array(scratch.sum.length);
  }
  const sum = scratch.sum;
  const count = scratch.count;
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
  // Bin means (with "heard" flags; the bins not heard stay 0, 0) and each receiver's whole-life
  // level in one pass over the sums.
  const values = masked.values;
  const maskedAt = masked.at[chainIndex];
  const level = new Float64Array(receivers);
  const heardShare = new Float64Array(receivers);
  for (let r = 0; r < receivers; r++) {
    let total = 0;
    let n = 0;
    let heard = 0;
    for (let slot = r * bins; slot < (r + 1) * bins; slot++) {
      const binCount = count[slot];
      const binSum = sum[slot];
      if (binCount > 0) {
        values[maskedAt + 2 * slot] = binSum / binCount;
        values[maskedAt + 2 * slot + 1] = 1;
        heard++;
      }
      total += binSum;
      n += binCount;
    }
    level[r] = n > 0 ? total / n : Number.NaN;
    heardShare[r] = heard / bins;
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
  return { bin0, bins, boundaries: Float64Array.from(boundaries), ascending, toleranceMs: Math.max(2_000, 2500 * interval), level, heardShare, channels: channelBuilder.finish(), groups, spans, preciseTiming };
}
