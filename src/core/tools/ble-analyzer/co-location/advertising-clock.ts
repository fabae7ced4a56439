import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';
import { lowerBoundFloat64 } from '../shared/sorted-search.ts';

/**
 * The advertising clock: whether two chains are scheduled by one link layer.
 *
 * A controller starts every advertising event of every set it runs on its native clock's 625 µs
 * slot grid, so the gap between two packets of one device, modulo 625 µs, is a fixed value plus
 * a few µs of jitter (arXiv 2403.19833 measured it on 25 Apple and 23 Android devices). Two
 * sets of one phone share the grid; a watch, earbuds or a stranger sit at their own phase. The
 * device's and the sniffer's clocks differ by tens of ppm, so the phase drifts: only packets
 * within PAIR_WINDOW_MS of each other are compared (drift under ~15 % of a slot), and only on
 * one receiver and one channel (the PDU on channel 38 or 39 follows the one on 37 by the
 * set's own air time, so each channel has its own fixed offset, learned from the data).
 *
 * It takes sub-millisecond timestamps (nRF Sniffer, Sniffle, SDRs). Each chain first shows it
 * has them: its own packets must line up on the grid (`chainTiming`); chains that do not — HCI
 * logs stamped by the host, whole-millisecond clocks — give no evidence either way.
 *
 * Two separate clocks keep nearly one phase for as long as their relative drift takes to turn it
 * by a slot (about COHERENCE_MS at a typical relative error), so packet pairs closer together
 * than that are one look at the same phase, not independent ones. A receiver that scans 20–30 s
 * every 15 minutes gives one look per burst however many pairs it holds, and across a gap the
 * drift turns the phase of separate clocks by many slots: each burst lands at a fresh, random
 * phase. "Separate clocks" is therefore weighed over the looks (their effective number), and the
 * three channels, which see the same looks, count as one.
 */

export const BLE_SLOT_MS = 0.625;
/** Packets of two chains this close (ms) are compared: 40 ppm of drift moves the phase 80 µs in 2 s. */
const PAIR_WINDOW_MS = 2_000;
/**
 * A chain's own packets this close (ms) are compared with each other. Its gaps are whole
 * advertising intervals, all about alike, so drift turns them all by about the same angle and
 * leaves their alignment (the resultant length) intact.
 */
const SELF_WINDOW_MS = 5_000;
/** Packets of one chain sampled per pair (the work per pair stays bounded). */
const MAX_SAMPLES = 32;
/** Pairs after which the sampling stops: a handful per channel already tell one grid from two. */
const ENOUGH_PAIRS = 18;
/** Packets of a chain that start its own-alignment check (enough to tell µs from ms timestamps). */
const MAX_SELF_SAMPLES = 192;
/** Pairs a channel needs before its phases are read. */
const MIN_CHANNEL_PAIRS = 4;
/** A chain's own packets line up when their mean resultant length is at least this. */
const PRECISE_RESULTANT = 0.6;
/** …over at least this many pairs of its own packets. */
const MIN_SELF_PAIRS = 8;
/** Mean resultant length of one device's phase differences (drift and jitter spread them a little). */
const SAME_RESULTANT = 0.85;
/** Slack of that expectation (clock errors differ from device to device). */
const SAME_RESULTANT_SD = 0.12;
/**
 * Two separate clocks whose rates happen to agree keep one phase for a while: relative crystal
 * errors spread over about ±20 ppm, so over a span D the phase stays within a quarter slot with
 * probability ≈ (slot / 4) / (D · 40 ppm). That chance caps the evidence for one controller.
 */
const RELATIVE_CLOCK_SPREAD = 40e-6;
/**
 * Packet pairs closer in time than this (ms) are one look at the phase of two separate clocks:
 * at a typical relative error (half the spread, 20 ppm) their phase turns by one slot in
 * 625 µs / 20 ppm = 31.25 s.
 */
export const COHERENCE_MS = BLE_SLOT_MS / (RELATIVE_CLOCK_SPREAD / 2);
/** Looks the clock needs before it says anything: within one look separate clocks line up as often as not. */
const MIN_LOOKS = 2;
const LLR_MIN = -12;
const LLR_MAX = 12;
const CHANNELS = 3;
const FIRST_CHANNEL = 37;

/** How well a chain's own packets line up on a slot grid. */
export interface ChainTiming {
  pairs: number;
  resultant: number;
}

function phaseAngle(gapMs: number): number {
  const cycles = gapMs / BLE_SLOT_MS;
  return 2 * Math.PI * (cycles - Math.floor(cycles));
}

/**
 * The unit circle at QUICK_STEPS even steps of a turn (cos, sin interleaved), the starting points
 * of the quick phase vectors of `chainTimingIsPrecise` (a constant of the code, like a polynomial's
 * coefficients: the same for every capture).
 */
const QUICK_STEPS = 256;
const QUICK_CIRCLE = Float64Array.from({ length: 2 * QUICK_STEPS }, (_, at) => (at % 2 === 0 ? Math.cos : Math.sin)((2 * Math.PI * (at >> 1)) / QUICK_STEPS));
/**
 * How far the quick resultant may be from the exact one. Each quick vector is the table's point
 * turned by less than 2π/256 ≈ 0.025 rad with a Taylor polynomial whose remainder is under
 * d⁶/720 ≈ 3e-13; sums of a few hundred of them add rounding of the order of 1e-13. A resultant
 * this close to the threshold is recomputed exactly.
 */
const QUICK_MARGIN = 1e-9;

/**
 * A chain's own packets, each against its next packet on the same receiver and channel within
 * SELF_WINDOW_MS; `quick` reads the phase vectors from QUICK_CIRCLE instead of Math.cos/sin.
 */
function selfAlignment(groups: ArrayLike<number>, events: BleEventGroups, quick: boolean): ChainTiming {
  const { start, time, receiver, channel } = events;
  let total = 0;
  for (let m = 0; m < groups.length; m++) total += start[groups[m] + 1] - start[groups[m]];
  const stride = Math.max(1, Math.floor(total / MAX_SELF_SAMPLES));
  let pairs = 0;
  let cos = 0;
  let sin = 0;
  for (let m = 0; m < groups.length; m++) {
    const group = groups[m];
    const end = start[group + 1];
    for (let i = start[group]; i < end; i += stride) {
      if (channel[i] === BLE_NO_CHANNEL) continue;
      const ownReceiver = receiver[i];
      const ownChannel = channel[i];
      const ownTime = time[i];
      for (let j = i + 1; j < end && time[j] - ownTime <= SELF_WINDOW_MS; j++) {
        // One test for "same receiver and channel" (not two): its branch then goes one way until
        // the match, where two tests would branch on a coin toss at every other event.
        if (((receiver[j] ^ ownReceiver) | (channel[j] ^ ownChannel)) !== 0) continue;
        if (quick) {
          const cycles = (time[j] - ownTime) / BLE_SLOT_MS;
          const steps = (cycles - Math.floor(cycles)) * QUICK_STEPS;
          const step = Math.floor(steps);
          const d = (steps - step) * ((2 * Math.PI) / QUICK_STEPS);
          const d2 = d * d;
          const cosD = 1 - (d2 / 2) * (1 - d2 / 12);
          const sinD = d * (1 - (d2 / 6) * (1 - d2 / 20));
          const cosStep = QUICK_CIRCLE[2 * step];
          const sinStep = QUICK_CIRCLE[2 * step + 1];
          cos += cosStep * cosD - sinStep * sinD;
          sin += sinStep * cosD + cosStep * sinD;
        } else {
          const angle = phaseAngle(time[j] - ownTime);
          cos += Math.cos(angle);
          sin += Math.sin(angle);
        }
        pairs++;
        break;
      }
    }
  }
  return { pairs, resultant: pairs > 0 ? Math.hypot(cos, sin) / pairs : 0 };
}

/** Each of a chain's packets against its own next packet on the same receiver and channel within SELF_WINDOW_MS. */
export function chainTiming(groups: ArrayLike<number>, events: BleEventGroups): ChainTiming {
  return selfAlignment(groups, events, false);
}

/**
 * `timingIsPrecise(chainTiming(groups, events))`, read from quick phase vectors (a table and a
 * short polynomial instead of Math.cos and Math.sin, which cost most of the check); only a
 * resultant within QUICK_MARGIN of the threshold is recomputed exactly, so the answer is the same.
 */
export function chainTimingIsPrecise(groups: ArrayLike<number>, events: BleEventGroups): boolean {
  const quick = selfAlignment(groups, events, true);
  if (quick.pairs < MIN_SELF_PAIRS) return false;
  if (Math.abs(quick.resultant - PRECISE_RESULTANT) > QUICK_MARGIN) return quick.resultant >= PRECISE_RESULTANT;
  return timingIsPrecise(chainTiming(groups, events));
}

/** Whether a chain's timestamps are precise enough for the clock evidence. */
export function timingIsPrecise(timing: ChainTiming): boolean {
  return timing.pairs >= MIN_SELF_PAIRS && timing.resultant >= PRECISE_RESULTANT;
}

export interface AdvertisingClockEvidence {
  /** Log-likelihood ratio of one controller vs two. */
  llrSame: number;
  pairs: number;
  /** Independent looks at the phase among those pairs (groups of pairs within COHERENCE_MS). */
  looks: number;
  /** Mean resultant length of the phase differences, weighted over channels (1 = one grid, ≈ 1/√looks = unrelated). */
  resultant: number;
}

/** Steps `lowerBoundFromGuess` walks from its guess before it searches the rest by halves. */
const GUESS_WALK = 8;

/**
 * `lowerBound(time, value, from, to)` over one group's times (in time order), started where the
 * value would sit if the group's packets were spread evenly over its span and walked from there:
 * the same index, found with a cache line or two instead of the eight or so a search by halves
 * touches (each pair reads a few groups it has not read before, so those are cache misses).
 */
export function lowerBoundFromGuess(time: Float64Array, value: number, from: number, to: number): number {
  if (from >= to || !(value > time[from])) return from;
  const last = time[to - 1];
  if (!(value <= last)) return to;
  // time[from] < value ≤ time[to − 1]: the index is in (from, to − 1].
  const first = time[from];
  let at = from + Math.floor(((value - first) / (last - first)) * (to - 1 - from));
  if (!(at > from)) at = from + 1;
  if (at > to - 1) at = to - 1;
  if (time[at] >= value) {
    for (let step = 0; step < GUESS_WALK; step++) {
      if (time[at - 1] < value) return at;
      at--;
    }
    return lowerBoundFloat64(time, value, from + 1, at);
  }
  for (let step = 0; step < GUESS_WALK; step++) {
    if (time[at + 1] >= value) return at + 1;
    at++;
  }
  return lowerBoundFloat64(time, value, at + 1, to);
}

/** Working arrays of `advertisingClockEvidence`, made once per analysis and reused for every pair. */
export function advertisingClockScratch() {
  return {
    /** Per channel: pair count, Σcos, Σsin. */
    sums: new Float64Array(CHANNELS * 3),
    /**
     * Per member of chain A: its first packet in the overlap and the one after its last (found
     * once, when the packets are counted, and read again when they are sampled); grown as needed.
     */
    memberBounds: new Int32Array(64),
    /** The paired samples in the order taken: time (ms), channel slot, cos, sin. */
    samples: new Float64Array(ENOUGH_PAIRS * 4),
    /** The samples' order by time. */
    order: new Int32Array(ENOUGH_PAIRS),
    /** Per channel: pairs in the current look, Σ of squared pairs per look (Kish's effective number of looks). */
    looks: new Float64Array(CHANNELS * 2),
    /** Per channel: pairs in the look being counted. */
    inLook: new Float64Array(CHANNELS),
  };
}
export type AdvertisingClockScratch = ReturnType<typeof advertisingClockScratch>;

/**
 * Samples up to MAX_SAMPLES packets of chain A in [fromMs, toMs]; pairs each with chain B's
 * nearest packet on the same receiver and channel within PAIR_WINDOW_MS; per channel, weighs the
 * mean resultant length of their phase differences as "one grid" (≈ SAME_RESULTANT) against
 * "independent grids" (uniform phases: n·R² is exponential). `groupsA/B` are the chains' event
 * groups in time order, `spanA/B` each group's first and last time (ms), in pairs.
 */
export function advertisingClockEvidence(
  groupsA: ArrayLike<number>,
  spanA: Float64Array,
  groupsB: ArrayLike<number>,
  spanB: Float64Array,
  events: BleEventGroups,
  fromMs: number,
  toMs: number,
  scratch: AdvertisingClockScratch = advertisingClockScratch(),
): AdvertisingClockEvidence | undefined {
  const { start, time, receiver, channel } = events;
  if (scratch.memberBounds.length < 2 * groupsA.length) scratch.memberBounds = new Int32Array(Math.max(2 * groupsA.length, 2 * scratch.memberBounds.length));
  const bounds = scratch.memberBounds;
  const { sums, samples } = scratch;
  let total = 0;
  for (let m = 0; m < groupsA.length; m++) {
    if (spanA[2 * m + 1] < fromMs || spanA[2 * m] > toMs) continue;
    const group = groupsA[m];
    const first = lowerBoundFromGuess(time, fromMs, start[group], start[group + 1]);
    const last = lowerBoundFromGuess(time, toMs + 1e-9, start[group], start[group + 1]);
    bounds[2 * m] = first;
    bounds[2 * m + 1] = last;
    total += last - first;
  }
  if (total === 0) return undefined;
  const stride = Math.max(1, Math.floor(total / MAX_SAMPLES));
  sums.fill(0);
  let paired = 0;
  // Samples are every `stride`-th packet of A in the overlap, across its members.
  let carry = 0;
  let firstPaired = Infinity;
  let lastPaired = -Infinity;
  // B's members are in time order and A's samples nearly so: the first member that can still
  // hold a packet near the sample only moves forward (it restarts if a sample goes back in time).
  let firstMember = 0;
  let previous = -Infinity;
  for (let m = 0; m < groupsA.length && paired < ENOUGH_PAIRS; m++) {
    if (spanA[2 * m + 1] < fromMs || spanA[2 * m] > toMs) continue;
    const last = bounds[2 * m + 1];
    let i = bounds[2 * m] + carry;
    for (; i < last && paired < ENOUGH_PAIRS; i += stride) {
      const slot = channel[i] - FIRST_CHANNEL;
      if (channel[i] === BLE_NO_CHANNEL || slot < 0 || slot >= CHANNELS) continue;
      const t = time[i];
      if (t < previous) firstMember = 0;
      previous = t;
      while (firstMember < groupsB.length && spanB[2 * firstMember + 1] < t - PAIR_WINDOW_MS) firstMember++;
      let best = Number.NaN;
      const ownReceiver = receiver[i];
      const ownChannel = channel[i];
      for (let n = firstMember; n < groupsB.length; n++) {
        if (spanB[2 * n] > t + PAIR_WINDOW_MS) break;
        if (spanB[2 * n + 1] < t - PAIR_WINDOW_MS) continue;
        const other = groupsB[n];
        const end = start[other + 1];
        for (let j = lowerBoundFromGuess(time, t - PAIR_WINDOW_MS, start[other], end); j < end && time[j] <= t + PAIR_WINDOW_MS; j++) {
          // One test for "same receiver and channel", as in `chainTiming`.
          if (((receiver[j] ^ ownReceiver) | (channel[j] ^ ownChannel)) !== 0) continue;
          if (Number.isNaN(best) || Math.abs(time[j] - t) < Math.abs(best - t)) best = time[j];
        }
      }
      if (Number.isNaN(best)) continue;
      const angle = phaseAngle(t - best);
      if (t < firstPaired) firstPaired = t;
      if (t > lastPaired) lastPaired = t;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      samples[4 * paired] = t;
      samples[4 * paired + 1] = slot;
      samples[4 * paired + 2] = cos;
      samples[4 * paired + 3] = sin;
      paired++;
      sums[slot * 3] += 1;
      sums[slot * 3 + 1] += cos;
      sums[slot * 3 + 2] += sin;
    }
    carry = Math.max(0, i - last);
  }
  const looks = countLooks(scratch, paired);
  const effective = scratch.looks;
  let channelLooks = 0;
  for (let c = 0; c < CHANNELS; c++) channelLooks += effective[c * 2];
  if (channelLooks === 0 || looks < MIN_LOOKS) return undefined;
  // The channels see the same looks: their log-likelihoods together count as `looks` looks.
  const shared = Math.min(1, looks / channelLooks);
  let logSameTotal = 0;
  let logApartTotal = 0;
  let pairs = 0;
  let weighted = 0;
  for (let c = 0; c < CHANNELS; c++) {
    const n = sums[c * 3];
    if (n < MIN_CHANNEL_PAIRS) continue;
    const seen = effective[c * 2];
    const resultant = Math.hypot(sums[c * 3 + 1], sums[c * 3 + 2]) / n;
    // One grid: R near SAME_RESULTANT with the sampling spread of n pairs' jitter; independent
    // grids: the Rayleigh density of R over the channel's effective looks, 2kR·exp(−kR²).
    const variance = (1 - SAME_RESULTANT ** 2) / (2 * n) + SAME_RESULTANT_SD ** 2;
    const logSame = -0.5 * Math.log(2 * Math.PI * variance) - (resultant - SAME_RESULTANT) ** 2 / (2 * variance);
    const logApart = Math.log(2 * seen * Math.max(resultant, 1e-6)) - seen * resultant * resultant;
    logSameTotal += shared * logSame;
    logApartTotal += shared * logApart;
    pairs += n;
    weighted += n * resultant;
  }
  // Separate clocks: independent phases, or (with chance `coincide`) rates close enough to look like one.
  const span = Math.max(PAIR_WINDOW_MS, lastPaired - firstPaired);
  const coincide = Math.min(0.5, BLE_SLOT_MS / 4 / (span * RELATIVE_CLOCK_SPREAD));
  const top = Math.max(logApartTotal + Math.log(1 - coincide), logSameTotal + Math.log(coincide));
  const logSeparate = top + Math.log(Math.exp(logApartTotal + Math.log(1 - coincide) - top) + Math.exp(logSameTotal + Math.log(coincide) - top));
  const llr = logSameTotal - logSeparate;
  const resultant = weighted / pairs;
  return { llrSame: Math.max(LLR_MIN, Math.min(LLR_MAX, llr)), pairs, looks, resultant };
}

/**
 * Groups the `paired` samples of the channels with at least MIN_CHANNEL_PAIRS pairs (the ones
 * read) into looks (in time order, a look starts COHERENCE_MS or more after the previous look's
 * first sample) and writes per channel Kish's effective number of looks, (Σ m)² / Σ m² over the
 * look sizes m, into `scratch.looks[2c]` (0 for a channel not read). Returns the looks.
 */
function countLooks(scratch: AdvertisingClockScratch, paired: number): number {
  const { samples, order, looks: perChannel } = scratch;
  // At most ENOUGH_PAIRS samples, nearly in time order already: insertion sort.
  for (let k = 0; k < paired; k++) {
    let at = k;
    while (at > 0 && samples[4 * order[at - 1]] > samples[4 * k]) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = k;
  }
  // Per channel c: perChannel[2c] its pairs so far, [2c + 1] Σ m² over its closed looks; inLook[c] pairs in the current look.
  const inLook = scratch.inLook;
  perChannel.fill(0);
  inLook.fill(0);
  let looks = 0;
  let lookStart = -Infinity;
  const sums = scratch.sums;
  for (let k = 0; k <= paired; k++) {
    const sample = order[k];
    if (k < paired && sums[3 * samples[4 * sample + 1]] < MIN_CHANNEL_PAIRS) continue;
    if (k === paired || samples[4 * sample] - lookStart >= COHERENCE_MS) {
      for (let c = 0; c < CHANNELS; c++) {
        perChannel[2 * c + 1] += inLook[c] * inLook[c];
        inLook[c] = 0;
      }
      if (k === paired) break;
      looks++;
      lookStart = samples[4 * sample];
    }
    const c = samples[4 * sample + 1];
    inLook[c]++;
    perChannel[2 * c]++;
  }
  for (let c = 0; c < CHANNELS; c++) perChannel[2 * c] = perChannel[2 * c + 1] > 0 ? (perChannel[2 * c] * perChannel[2 * c]) / perChannel[2 * c + 1] : 0;
  return looks;
}
