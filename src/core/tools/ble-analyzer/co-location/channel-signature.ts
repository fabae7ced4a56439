import { BLE_NO_CHANNEL } from '../scan/observation-store.ts';

/**
 * The channel signature of a chain: how its RSSI at each receiver differs between the three
 * primary advertising channels (37, 38, 39).
 *
 * Indoors every spot has its own frequency-selective multipath: the channels are 24–78 MHz apart,
 * wider than the coherence bandwidth, so at one spot a receiver may hear channel 37 a few dB
 * above channel 39, and half a wavelength (6 cm) away the pattern is a new one. The sets of one
 * device leave one antenna, so they share the pattern exactly (their own TX-power offsets shift
 * all three channels alike and drop out once each chain's mean is removed); a watch or tag half
 * a metre away, or a stranger, has its own. While a device walks, the pattern changes at every
 * step and averages out: a moving chain has a flat signature and the term says nothing.
 *
 * Per chain, per receiver and channel, counts, sums and sums of squares of RSSI are kept per
 * BLOCK_MS block as prefix sums, so the signature over any overlap costs O(receivers) per pair.
 * Captures that do not say the channel (HCI logs) give no signature.
 */

const CHANNELS = 3;
const FIRST_CHANNEL = 37;
/** Block width of the prefix sums, ms: overlaps are read to the nearest block. */
export const CHANNEL_BLOCK_MS = 60_000;
const BLOCK_MS = CHANNEL_BLOCK_MS;
/** Packets a chain needs on a channel at a receiver for that channel to be compared. */
const MIN_PACKETS = 5;
/** Within-channel RSSI variance is at least this, dB² (whole-dB readings, receiver noise). */
const VARIANCE_FLOOR_DB2 = 1;
/** Slack of "one spot": the pattern drifts a little as people move around, dB². */
const SLACK_DB2 = 0.5;
/** Spread between two spots' patterns below which the chains have no signature to compare, dB². */
const MIN_SPREAD_DB2 = 0.5;
/** Bounds of the term's log-odds: a pattern mismatch is strong evidence, not proof. */
const LLR_MIN = -12;
const LLR_MAX = 10;
/** Statistics per cell: count, sum, sum of squares. */
const STATS = 3;

/**
 * Prefix sums of one chain: index (block · receivers · 3 + r · 3 + channel) · 3 + stat, block-major
 * (an event's cell is then its block's offset plus a small one, and the prefix sums run over
 * contiguous memory).
 */
export interface ChannelSignatures {
  /** Receivers of the capture (the cells of a block are receivers × 3). */
  receivers: number;
  block0: number;
  blocks: number;
  stats: Float64Array;
}

/** Collects one chain's per-channel sums at a time (reused from chain to chain). */
export class ChannelSignatureBuilder {
  private block0 = 0;
  private blocks = 0;
  private stats = new Float64Array(0);
  private any = false;

  constructor(private readonly receivers: number) {}

  start(firstMs: number, lastMs: number): void {
    this.block0 = Math.floor(firstMs / BLOCK_MS);
    this.blocks = Math.floor(lastMs / BLOCK_MS) - this.block0 + 1;
    const size = this.receivers * CHANNELS * (this.blocks + 1) * STATS;
    if (this.stats.length < size) this.stats = new Float64Array(Math.max(size, 2 * this.stats.length));
    this.stats.fill(0, 0, size);
    this.any = false;
  }

  add(receiver: number, channelIndex: number, timeMs: number, rssi: number): void {
    if (channelIndex === BLE_NO_CHANNEL) return;
    const channel = channelIndex - FIRST_CHANNEL;
    if (channel < 0 || channel >= CHANNELS) return;
    const block = Math.floor(timeMs / BLOCK_MS) - this.block0;
    if (block < 0 || block >= this.blocks) return;
    // Stored one block up: the prefix sums below make entry b the total of blocks before b.
    const at = ((block + 1) * this.receivers * CHANNELS + receiver * CHANNELS + channel) * STATS;
    this.stats[at] += 1;
    this.stats[at + 1] += rssi;
    this.stats[at + 2] += rssi * rssi;
    this.any = true;
  }

  /**
   * For callers that walk their events a run at a time, where every event of a run lies in the
   * block of `timeMs`: where that block's sums start, or −1 when it is outside the chain's span
   * (`add` skips those events). Then `addAt` adds each event of the run.
   */
  blockAt(timeMs: number): number {
    const block = Math.floor(timeMs / BLOCK_MS) - this.block0;
    return block < 0 || block >= this.blocks ? -1 : (block + 1) * this.receivers * CHANNELS * STATS;
  }

  /** What `add` does for an event in the block at `blockAt` (≥ 0). */
  addAt(blockAt: number, receiver: number, channelIndex: number, rssi: number): void {
    // Channels other than 37–39 (BLE_NO_CHANNEL among them) fall outside [0, CHANNELS).
    const channel = channelIndex - FIRST_CHANNEL;
    if (!(channel >= 0 && channel < CHANNELS)) return;
    const at = blockAt + (receiver * CHANNELS + channel) * STATS;
    const stats = this.stats;
    stats[at] += 1;
    stats[at + 1] += rssi;
    stats[at + 2] += rssi * rssi;
    this.any = true;
  }

  /** The chain's prefix sums, or undefined when none of its packets had an advertising channel. */
  finish(): ChannelSignatures | undefined {
    if (!this.any) return undefined;
    const stride = this.receivers * CHANNELS * STATS;
    const stats = this.stats.slice(0, (this.blocks + 1) * stride);
    for (let at = stride; at < stats.length; at++) stats[at] += stats[at - stride];
    return { receivers: this.receivers, block0: this.block0, blocks: this.blocks, stats };
  }
}

export interface ChannelSignatureEvidence {
  /** Log-likelihood ratio of "one device" (one spot) vs two devices (two spots). */
  llrSame: number;
  /** Receivers compared. */
  receivers: number[];
  /** Root mean square difference of the two chains' patterns, dB. */
  mismatchDb: number;
  /** Expected root mean square difference of two spots' patterns (from both chains' own patterns), dB. */
  spreadDb: number;
  /**
   * The mean squared difference of the two patterns beyond what the means' noise explains, dB²:
   * about 0 for one spot, about spreadDb² for two (how alike the pair is, free of how many packets it had).
   */
  excessDb2: number;
}

/** Per receiver and channel working arrays of `channelSignatureEvidence`, made once per analysis and reused for every pair. */
export function channelSignatureScratch(receivers: number) {
  const cells = receivers * CHANNELS;
  return {
    receivers,
    compared: new Int32Array(receivers),
    countA: new Float64Array(cells),
    meanA: new Float64Array(cells),
    countB: new Float64Array(cells),
    meanB: new Float64Array(cells),
    difference: new Float64Array(cells),
    noise: new Float64Array(cells),
    weight: new Float64Array(cells),
    /** One channel's packet count, sum and sum of squares, of each chain. */
    cellA: new Float64Array(STATS),
    cellB: new Float64Array(STATS),
  };
}
export type ChannelSignatureScratch = ReturnType<typeof channelSignatureScratch>;

/** Count, sum and sum of squares of one cell over blocks [from, to) of a chain (to ≤ blocks). */
function cell(signatures: ChannelSignatures, receiver: number, channel: number, from: number, to: number, out: Float64Array): void {
  const offset = (receiver * CHANNELS + channel) * STATS;
  const stride = signatures.receivers * CHANNELS * STATS;
  const low = from * stride + offset;
  const high = to * stride + offset;
  const stats = signatures.stats;
  out[0] = stats[high] - stats[low];
  out[1] = stats[high + 1] - stats[low + 1];
  out[2] = stats[high + 2] - stats[low + 2];
}


function gaussianLogDensity(e2: number, variance: number): number {
  return -0.5 * Math.log(variance) - e2 / (2 * variance);
}

/**
 * Compares two chains' channel patterns over the blocks of [fromMs, toMs]. Per receiver, the
 * channels both chains were heard on at least MIN_PACKETS times are centred on their mean (the
 * pattern, free of TX power and shadowing); their differences are weighed as "one spot" (only
 * the means' noise, from the within-channel variance) against "two spots" (plus the spread of
 * two independent patterns, estimated from how strong each chain's own pattern is beyond its
 * noise). Undefined when no receiver has two channels to compare or neither chain has a pattern.
 */
export function channelSignatureEvidence(a: ChannelSignatures, b: ChannelSignatures, receivers: number, fromMs: number, toMs: number, scratch: ChannelSignatureScratch = channelSignatureScratch(receivers)): ChannelSignatureEvidence | undefined {
  const firstBlock = Math.floor(fromMs / BLOCK_MS);
  const lastBlock = Math.floor(toMs / BLOCK_MS);
  const fromA = Math.max(0, firstBlock - a.block0);
  const toA = Math.min(a.blocks, lastBlock - a.block0 + 1);
  const fromB = Math.max(0, firstBlock - b.block0);
  const toB = Math.min(b.blocks, lastBlock - b.block0 + 1);
  if (toA <= fromA || toB <= fromB) return undefined;
  if (scratch.receivers < receivers) throw new Error('channel signature: the scratch arrays are made for fewer receivers');
  const { compared, countA, meanA, countB, meanB, difference, noise, weight, cellA, cellB } = scratch;
  let comparedCount = 0;
  // Each chain's pattern strength beyond its noise, pooled over the receivers compared.
  let patternA = 0;
  let patternB = 0;
  let noiseA = 0;
  let noiseB = 0;
  let freedom = 0;
  for (let r = 0; r < receivers; r++) {
    let used = 0;
    let squaresA = 0;
    let squaresB = 0;
    let dofA = 0;
    let dofB = 0;
    let centreA = 0;
    let centreB = 0;
    for (let c = 0; c < CHANNELS; c++) {
      const at = r * CHANNELS + c;
      cell(a, r, c, fromA, toA, cellA);
      cell(b, r, c, fromB, toB, cellB);
      weight[at] = 0;
      if (cellA[0] < MIN_PACKETS || cellB[0] < MIN_PACKETS) continue;
      used++;
      weight[at] = 1;
      countA[at] = cellA[0];
      countB[at] = cellB[0];
      meanA[at] = cellA[1] / cellA[0];
      meanB[at] = cellB[1] / cellB[0];
      centreA += meanA[at];
      centreB += meanB[at];
      squaresA += Math.max(0, cellA[2] - cellA[1] * meanA[at]);
      squaresB += Math.max(0, cellB[2] - cellB[1] * meanB[at]);
      dofA += cellA[0] - 1;
      dofB += cellB[0] - 1;
    }
    if (used < 2) {
      for (let c = 0; c < CHANNELS; c++) weight[r * CHANNELS + c] = 0;
      continue;
    }
    compared[comparedCount++] = r;
    centreA /= used;
    centreB /= used;
    const varianceA = Math.max(VARIANCE_FLOOR_DB2, squaresA / dofA);
    const varianceB = Math.max(VARIANCE_FLOOR_DB2, squaresB / dofB);
    // Centring on the mean of `used` channels leaves used − 1 degrees of freedom.
    const share = (used - 1) / used;
    for (let c = 0; c < CHANNELS; c++) {
      const at = r * CHANNELS + c;
      if (weight[at] === 0) continue;
      const sigA = meanA[at] - centreA;
      const sigB = meanB[at] - centreB;
      const noiseOfA = varianceA / countA[at];
      const noiseOfB = varianceB / countB[at];
      difference[at] = sigA - sigB;
      noise[at] = noiseOfA + noiseOfB;
      weight[at] = share;
      patternA += sigA * sigA;
      patternB += sigB * sigB;
      noiseA += share * noiseOfA;
      noiseB += share * noiseOfB;
    }
    freedom += used - 1;
  }
  if (freedom === 0) return undefined;
  // Variance of one chain's pattern per channel beyond noise; two spots differ by both.
  const spread = Math.max(0, (patternA - noiseA) / freedom) + Math.max(0, (patternB - noiseB) / freedom);
  if (spread < MIN_SPREAD_DB2) return undefined;
  let llr = 0;
  let mismatch = 0;
  let cells = 0;
  let excess = 0;
  let weights = 0;
  for (let index = 0; index < comparedCount; index++) {
    const r = compared[index];
    for (let c = 0; c < CHANNELS; c++) {
      const at = r * CHANNELS + c;
      if (weight[at] === 0) continue;
      const e2 = difference[at] * difference[at];
      const base = noise[at] + SLACK_DB2;
      llr += weight[at] * (gaussianLogDensity(e2, base) - gaussianLogDensity(e2, base + spread));
      mismatch += e2;
      cells++;
      excess += weight[at] * (e2 - noise[at]);
      weights += weight[at];
    }
  }
  return { llrSame: Math.max(LLR_MIN, Math.min(LLR_MAX, llr)), receivers: Array.from(compared.subarray(0, comparedCount)), mismatchDb: Math.sqrt(mismatch / cells), spreadDb: Math.sqrt(spread), excessDb2: excess / weights };
}
