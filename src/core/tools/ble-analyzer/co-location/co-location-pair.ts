import { clockRateText, memberClockRateEvidence, NO_CLOCK_RATES, type BleClockRates, type ClockRateEvidence } from './clock-rate.ts';
import { advertisingClockEvidence, advertisingClockScratch, COHERENCE_MS, type AdvertisingClockEvidence, type AdvertisingClockScratch } from './advertising-clock.ts';
import { channelSignatureEvidence, channelSignatureScratch, type ChannelSignatureEvidence, type ChannelSignatureScratch } from './channel-signature.ts';
import { type BleMaskedBins } from './co-location-candidates.ts';
import { backgroundBound, backgroundBoundAmong, binCorrelation, channelAlikeness, BIN_MS, BLIND_SPOT_LLR, CENSOR_MARGIN_DB, CO_LOCATION_SCREEN_MODEL, COMFORTABLE_DBM, correlationLogOdds, coRotationChance, coRotationLogOdds, coRotationRate, COVARIATION_MAX, differenceNoise, FIXED_PERIOD_MS, isMoving, LEVEL_FLOOR_DB, LEVEL_SD, levelLogDensity, MAX_BINS_SPARSE, MOVING_SD_DB, scoredBins, OFFSET_LOG_SD, OFFSET_SD, offsetLogDensity, oneMovingLogOdds, sameDeviceEvidence } from './co-location-model.ts';
import { type BleHandoffCrowd } from './co-rotation.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import type { BleCoLocationTerm, BleCoLocationTermName } from './co-location-types.ts';
import { type ChainSeries } from './co-location-series.ts';
import { selectKth } from '../shared/quickselect.ts';
import { lowerBoundFloat64, upperBoundFloat64 } from '../shared/sorted-search.ts';

/**
 * One pair of concurrent chains: its evidence term by term (`scorePair`, written into a
 * `PairWork` made once per analysis) and, for a reported pair, the terms in words
 * (`describePair`). The analysis around it (screen, background, prior fit, reporting) is
 * co-location.ts's; the terms' constants and formulas are co-location-model.ts's.
 */

export const DESCRIBE_ABOVE = 0.01;
const COHERENCE_S = Math.round(COHERENCE_MS / 1000);
/**
 * Pairs whose other evidence is this far against "one device" (log-odds, before the prior of
 * about −3.5) skip the channel pattern and the advertising clock: together those add at most
 * about +8 for a pair that needs them, not enough to lift such a pair to a probability that
 * changes a cluster.
 */
export const LATE_TERMS_SCREEN_LOG_ODDS = -6;
/** Per-bin differences kept per receiver (a pair's sampled bins: fewer than 2 · scoredBins ≤ 2 · MAX_BINS_SPARSE). */
const SCRATCH_PER_RECEIVER = 2 * MAX_BINS_SPARSE;

/**
 * Per-receiver working arrays of `scorePair`, made once per analysis and reused for every pair
 * (every field is written for every receiver before it is read). `diffVar` is each receiver's
 * measurement noise.
 */
function perReceiverScratch(receivers: number) {
  return {
    receivers,
    diff: new Float64Array(receivers),
    diffVar: new Float64Array(receivers),
    common: new Int32Array(receivers),
    /** Common bins where both chains are comfortably above the receiver's sensitivity (their differences are in `differences`). */
    clean: new Int32Array(receivers),
    comfortable: new Uint8Array(receivers),
    onlyA: new Int32Array(receivers),
    onlyB: new Int32Array(receivers),
    levelA: new Float64Array(receivers),
    levelB: new Float64Array(receivers),
    /** The plain-variance floor of each receiver's `diffVar`. */
    plainVar: new Float64Array(receivers),
    /** receivers × SCRATCH_PER_RECEIVER per-bin differences. */
    differences: new Float64Array(receivers * SCRATCH_PER_RECEIVER),
    /** What the co-variation term read on each receiver (for the rationale): none, both moving or one. */
    motion: new Uint8Array(receivers),
    rho: new Float64Array(receivers),
    bins: new Int32Array(receivers),
    varianceA: new Float64Array(receivers),
    varianceB: new Float64Array(receivers),
    /** Receivers that heard one chain well and never the other (for the rationale): none, a or b. */
    blindTo: new Uint8Array(receivers),
  };
}
export type PerReceiverScratch = ReturnType<typeof perReceiverScratch>;

export function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)}`;
}


const enum Motion {
  None,
  Both,
  One,
}

const enum Blind {
  None,
  HeardA,
  HeardB,
}

/**
 * The evidence of the pair `scorePair` read last, term by term: the two sums, and what the
 * rationale of a reported pair says (`describePair`), kept as numbers so that scoring a pair
 * builds no strings (and the score's code has no paths that only the few reported pairs take).
 * One per analysis, written over by each pair.
 */
function pairEvidence() {
  return {
    logS: 0,
    logT: 0,
    /** The co-movement terms' sum for "one device" (before the rule takes the lower of it and travelled together's). */
    coMovementS: 0,
    /** The one-radio terms' sum after the background bound, and how many were estimable. */
    oneRadio: 0,
    oneRadioTerms: 0,
    rotation: { k: 0, m: 0, toleranceMs: 0, chance: 0, llr: 0, bounded: 0 },
    signatureBounded: 0,
    clockBounded: 0,
    /** What the clock rate added to the one-radio sum beyond the advertising clock's share (both read one property: the rate). */
    rateCounted: 0,
    consistency: { heard: 0, offset: 0, squares: 0, llrSame: 0, llrTravel: 0 },
    level: { heard: 0, offset: 0, llrSame: 0, llrTravel: 0 },
    covariation: { receivers: 0, llr: 0 },
    blind: { count: 0, llrSame: 0, llrTravel: 0 },
    signature: undefined as ChannelSignatureEvidence | undefined,
    clock: undefined as AdvertisingClockEvidence | undefined,
    rate: undefined as ClockRateEvidence | undefined,
  };
}
export type PairEvidence = ReturnType<typeof pairEvidence>;

/**
 * The one-radio terms' alikeness over this capture's unrelated pairs (co-location-candidates.ts
 * samples them), each ascending but the clock's: what `backgroundBound` weighs a pair's value against (co-rotation
 * by its log-odds, the channel pattern by `channelAlikeness`, the clock by its resultant length among pairs with no more looks).
 */
export interface OneRadioBackground {
  pairs: number;
  rotation: Float64Array;
  signature: Float64Array;
  /** The clock's resultant lengths and, aligned, their looks (in sampling order: read by `backgroundBoundAmong`). */
  clock: Float64Array;
  clockLooks: Float64Array;
}

const NO_BACKGROUND: OneRadioBackground = { pairs: 0, rotation: new Float64Array(0), signature: new Float64Array(0), clock: new Float64Array(0), clockLooks: new Float64Array(0) };

/** What `scorePair` works in and writes to: made once per analysis (`scoreChainPairs`), written over by each pair. */
export interface PairWork {
  perReceiver: PerReceiverScratch;
  evidence: PairEvidence;
  channels: ChannelSignatureScratch;
  clock: AdvertisingClockScratch;
  background: OneRadioBackground;
  /** The addresses' clock rates (clock-rate.ts), read once per analysis. */
  rates: BleClockRates;
}

export function pairWork(receivers: number): PairWork {
  return { perReceiver: perReceiverScratch(receivers), evidence: pairEvidence(), channels: channelSignatureScratch(receivers), clock: advertisingClockScratch(), background: NO_BACKGROUND, rates: NO_CLOCK_RATES };
}

/**
 * The evidence of one chain pair into `work.evidence`, with the rest of `work` as working space;
 * false when no receiver heard both in the overlap (the pair is not compared).
 */
export function scorePair(
  sa: ChainSeries,
  sb: ChainSeries,
  /** The chains' places among the chains (the crowd's and the masked bins' index). */
  chainA: number,
  chainB: number,
  /** Every chain's bin means with "heard" flags (co-location-candidates.ts made them for its screen). */
  masked: BleMaskedBins,
  events: BleEventGroups,
  receivers: number,
  fromMs: number,
  toMs: number,
  floors: Float64Array,
  crowd: BleHandoffCrowd,
  work: PairWork,
): boolean {
  const fromBin = Math.floor(fromMs / BIN_MS);
  const toBin = Math.floor(toMs / BIN_MS);
  // Long overlaps (chains alive together for an hour) are read at evenly spaced bins: about
  // MAX_BINS heard by both, plenty for a median and a correlation, and the work per pair stays
  // bounded (co-location-model.ts `scoredBins`).
  const step = Math.max(1, Math.floor((toBin - fromBin + 1) / scoredBins(sa.heardShare, sb.heardShare, receivers)));
  const samples = Math.floor((toBin - fromBin) / step) + 1;
  // The sums below read each chain's bins from fromBin on without bounds of their own.
  if (fromBin < Math.max(sa.bin0, sb.bin0) || toBin >= Math.min(sa.bin0 + sa.bins, sb.bin0 + sb.bins)) throw new Error('co-location: a pair is scored over its overlap, which lies inside both chains');
  // Per receiver: common bins, mean difference, correlation and motion of both series.
  const scratch = work.perReceiver;
  if (scratch.receivers < receivers) throw new Error('co-location: the scratch arrays are made for fewer receivers');
  const { diff, diffVar, common, clean, comfortable, onlyA, onlyB, levelA, levelB, plainVar, differences, motion, rho: rhoOf, bins: binsOf, varianceA, varianceB, blindTo } = scratch;
  const evidence = work.evidence;
  const background = work.background;
  // The co-movement terms' sums (one device, travelled together) and the one-radio terms' (co-location-model.ts).
  let logS = 0;
  let logT = 0;
  let oneRadio = 0;
  let oneRadioTerms = 0;
  let covariationS = 0;
  let covariationT = 0;
  let covariationReceivers = 0;
  for (let r = 0; r < receivers; r++) {
    motion[r] = Motion.None;
    let n = 0;
    let sumA = 0;
    let sumB = 0;
    let sumAA = 0;
    let sumBB = 0;
    let sumAB = 0;
    let cleanCount = 0;
    let sumCD = 0;
    let sumCDD = 0;
    // Near the receiver's sensitivity the weaker chain loses its weak packets and its bin mean
    // reads high: only bins where both are comfortably above it say anything about the offset
    // (a walker's chains are near the edge of a far receiver only part of the time). Bins are
    // chosen by the pair's mean level less half their usual difference, not by each level:
    // the mean's noise is independent of the difference's, so choosing by it does not bias the
    // difference (choosing bins where the weaker chain happened to read high would).
    const levelGap = Math.abs(sa.level[r] - sb.level[r]);
    const comfortableLevel = floors[r] + CENSOR_MARGIN_DB + (Number.isNaN(levelGap) ? 0 : levelGap / 2);
    let aOnly = 0;
    let bOnly = 0;
    let aOnlyLevel = 0;
    let bOnlyLevel = 0;
    // The overlap lies inside both chains (it starts and ends with one of them, checked above),
    // so each sampled bin is one of each chain's. The sums take masked bins (a bin not heard reads 0 with
    // flag 0): products with the flags add exact zeros where the old branches added nothing, so
    // the loop has no branch on the data (whether a bin is heard, or clean, is not predictable),
    // and a clean bin's difference is written in any case and kept by moving on by its flag.
    const { values } = masked;
    const stride = 2 * step;
    let ia = (masked.at[chainA] + 2 * (r * sa.bins + fromBin - sa.bin0)) | 0;
    let ib = (masked.at[chainB] + 2 * (r * sb.bins + fromBin - sb.bin0)) | 0;
    const base = r * SCRATCH_PER_RECEIVER;
    for (let sample = 0; sample < samples; sample++, ia += stride, ib += stride) {
      const va = values[ia];
      const heardA = values[ia + 1];
      const vb = values[ib];
      const heardB = values[ib + 1];
      const both = heardA * heardB;
      n += both;
      // va · heardB is va or a zero, and times va the same as va · va · heardB (a bin B missed adds +0 either way).
      const aWhereB = va * heardB;
      const bWhereA = vb * heardA;
      sumA += aWhereB;
      sumB += bWhereA;
      sumAA += aWhereB * va;
      sumBB += bWhereA * vb;
      sumAB += va * vb;
      // 0 or 1, an integer (the store's index below stays one).
      const isClean = +(both > 0) & +((va + vb) / 2 >= comfortableLevel);
      const d = va - vb;
      differences[base + cleanCount] = d;
      cleanCount += isClean;
      sumCD += d * isClean;
      sumCDD += d * d * isClean;
      aOnly += heardA - both;
      aOnlyLevel += va * (heardA - both);
      bOnly += heardB - both;
      bOnlyLevel += vb * (heardB - both);
    }
    common[r] = n;
    clean[r] = cleanCount;
    diff[r] = 0;
    diffVar[r] = 0;
    comfortable[r] = 0;
    onlyA[r] = aOnly;
    onlyB[r] = bOnly;
    levelA[r] = aOnly > 0 ? aOnlyLevel / aOnly : Number.NaN;
    levelB[r] = bOnly > 0 ? bOnlyLevel / bOnly : Number.NaN;
    if (n === 0) continue;
    const meanA = sumA / n;
    const meanB = sumB / n;
    // The median difference and its noise are computed below, for the receivers that use them.
    plainVar[r] = cleanCount > 0 ? 0.25 * Math.max(0, sumCDD / cleanCount - (sumCD / cleanCount) ** 2) : 0;
    comfortable[r] = cleanCount >= 3 ? 1 : 0;
    if (n < 6) continue;
    const varA = Math.max(0, sumAA / n - meanA * meanA);
    const varB = Math.max(0, sumBB / n - meanB * meanB);
    const movingA = isMoving(varA, MOVING_SD_DB);
    const movingB = isMoving(varB, MOVING_SD_DB);
    if (!movingA && !movingB) continue;
    let llr: number;
    if (movingA && movingB) {
      const rho = binCorrelation(sumAB, n, meanA, meanB, varA, varB);
      llr = correlationLogOdds(rho, n, COVARIATION_MAX);
      motion[r] = Motion.Both;
      rhoOf[r] = rho;
    } else {
      llr = oneMovingLogOdds(varA, varB, n, CO_LOCATION_SCREEN_MODEL);
      motion[r] = Motion.One;
    }
    binsOf[r] = n;
    varianceA[r] = varA;
    varianceB[r] = varB;
    covariationS += llr;
    covariationT += llr;
    covariationReceivers++;
  }
  let heard = 0;
  let weightSum = 0;
  let weighted = 0;
  let anyCommon = false;
  for (let r = 0; r < receivers; r++) if (common[r] >= 3) anyCommon = true;
  if (!anyCommon) return false;
  for (let r = 0; r < receivers; r++) {
    if (comfortable[r] === 0) continue;
    // The offset on this receiver: the median per-bin difference (robust to the moments a walker
    // passes right by one receiver). Only receivers that hear both comfortably use it.
    diff[r] = selectKth(differences, r * SCRATCH_PER_RECEIVER, Math.min(clean[r], SCRATCH_PER_RECEIVER), Math.min(clean[r], SCRATCH_PER_RECEIVER) >> 1);
    heard++;
    weightSum += clean[r];
    weighted += clean[r] * diff[r];
  }
  if (heard >= 2) {
    // Its noise, from the median absolute deviation: only the consistency term (two or more
    // such receivers) reads it.
    for (let r = 0; r < receivers; r++) {
      if (comfortable[r] === 0) continue;
      const start = r * SCRATCH_PER_RECEIVER;
      const used = Math.min(clean[r], SCRATCH_PER_RECEIVER);
      const median = diff[r];
      for (let index = start; index < start + used; index++) differences[index] = Math.abs(differences[index] - median);
      const mad = 1.4826 * selectKth(differences, start, used, used >> 1);
      // Variance of a median ≈ (π/2)·σ²; Math.max with the plain variance's floor keeps tiny MADs honest.
      diffVar[r] = Math.max((Math.PI / 2) * mad * mad, plainVar[r]);
    }
  }
  const offset = heard > 0 ? weighted / weightSum : 0;

  // Co-rotation: hand-offs of both chains within the tolerance of each other.
  const tolerance = Math.max(sa.toleranceMs, sb.toleranceMs);
  let inA = 0;
  let inB = 0;
  let matched = 0;
  let crowdShare = 0;
  let previousMatch = Number.NaN;
  const bBoundaries = sb.boundaries;
  // When both chains' hand-offs ascend, the other chain's first one at or after t − tolerance
  // only moves forward with t: found by stepping on from the last one, not by bisection.
  let next = 0;
  const low = fromMs - tolerance;
  const high = toMs + tolerance;
  // Hand-offs that ascend have those in range in one run, found by bisection; others are all read.
  if (sb.ascending) inB = upperBoundFloat64(bBoundaries, high, 0, bBoundaries.length) - lowerBoundFloat64(bBoundaries, low, 0, bBoundaries.length);
  else for (let index = 0; index < bBoundaries.length; index++) if (bBoundaries[index] >= low && bBoundaries[index] <= high) inB++;
  const firstInRange = sa.ascending ? lowerBoundFloat64(sa.boundaries, low, 0, sa.boundaries.length) : 0;
  const endOfRange = sa.ascending ? upperBoundFloat64(sa.boundaries, high, 0, sa.boundaries.length) : sa.boundaries.length;
  for (let boundary = firstInRange; boundary < endOfRange; boundary++) {
    const t = sa.boundaries[boundary];
    if (t < low || t > high) continue;
    inA++;
    crowdShare += crowd.shareAt(chainA, boundary, tolerance);
    // The first hand-off of the other chain (in its order) within the tolerance; when its
    // hand-offs ascend, that is the first one at or after t − tolerance, found by bisection.
    let first = 0;
    if (sb.ascending) {
      if (sa.ascending) {
        while (next < bBoundaries.length && bBoundaries[next] < t - tolerance) next++;
        first = next;
      } else first = lowerBoundFloat64(bBoundaries, t - tolerance, 0, bBoundaries.length);
      if (first < bBoundaries.length && bBoundaries[first] - t > tolerance) first = bBoundaries.length;
    }
    for (let index = first; index < bBoundaries.length; index++) {
      const u = bBoundaries[index];
      if (Math.abs(u - t) > tolerance) continue;
      // A repeat exactly one 15-minute period later is what any two devices on the
      // specification's fixed timer produce: it is not counted again.
      const interval = t - previousMatch;
      if (!(interval >= FIXED_PERIOD_MS[0] && interval <= FIXED_PERIOD_MS[1])) matched++;
      else inA--;
      previousMatch = t;
      break;
    }
  }
  const k = Math.min(inA, inB);
  if (k > 0) {
    const m = Math.min(matched, k);
    // Chance of a coincidence: the other chain's hand-off rate, or how many chains hand off at
    // that moment anyway (a crowd rotating at once makes one more coincidence unremarkable).
    const rate = coRotationRate(Math.max(inA, inB), tolerance, fromMs, toMs);
    const chance = coRotationChance(rate, inA > 0 ? crowdShare / inA : 0);
    const llr = coRotationLogOdds(m, k, chance);
    const bounded = backgroundBound(llr, llr, background.rotation);
    oneRadio += bounded;
    oneRadioTerms++;
    evidence.rotation.m = m;
    evidence.rotation.chance = chance;
    evidence.rotation.llr = llr;
    evidence.rotation.bounded = bounded;
  }
  evidence.rotation.k = k;
  evidence.rotation.toleranceMs = tolerance;

  if (heard >= 2) {
    // One radio: each receiver's difference departs from the common offset only by its own
    // measurement noise (the standard error of its mean, at least LEVEL_FLOOR_DB).
    let llrSame = 0;
    let llrTravel = 0;
    let squares = 0;
    const scale = heard / (heard - 1);
    for (let r = 0; r < receivers; r++) {
      if (comfortable[r] === 0) continue;
      const e2 = (diff[r] - offset) ** 2 * scale;
      squares += e2;
      const noise2 = differenceNoise(diffVar[r] / clean[r], LEVEL_FLOOR_DB);
      const share = (heard - 1) / heard;
      const llU = levelLogDensity(e2, noise2, LEVEL_SD.U);
      llrSame += share * (levelLogDensity(e2, noise2, LEVEL_SD.S) - llU);
      llrTravel += share * (levelLogDensity(e2, noise2, LEVEL_SD.T) - llU);
    }
    logS += llrSame;
    logT += llrTravel;
    evidence.consistency.offset = offset;
    evidence.consistency.squares = squares;
    evidence.consistency.llrSame = llrSame;
    evidence.consistency.llrTravel = llrTravel;
  }
  evidence.consistency.heard = heard;
  evidence.level.heard = heard;
  if (heard > 0) {
    const llrSame = offsetLogDensity(offset, OFFSET_SD.S, OFFSET_LOG_SD.S) - offsetLogDensity(offset, OFFSET_SD.U, OFFSET_LOG_SD.U);
    const llrTravel = offsetLogDensity(offset, OFFSET_SD.T, OFFSET_LOG_SD.T) - offsetLogDensity(offset, OFFSET_SD.U, OFFSET_LOG_SD.U);
    logS += llrSame;
    logT += llrTravel;
    evidence.level.offset = offset;
    evidence.level.llrSame = llrSame;
    evidence.level.llrTravel = llrTravel;
  }

  evidence.covariation.receivers = covariationReceivers;
  if (covariationReceivers > 0) {
    logS += covariationS;
    logT += covariationT;
    evidence.covariation.llr = covariationS;
  }

  let blind = 0;
  for (let r = 0; r < receivers; r++) {
    blindTo[r] = Blind.None;
    if (common[r] > 0) continue;
    // Heard one well and never the other, where the other's level would be comfortable.
    if (heard === 0) break;
    if (onlyA[r] >= 4 && levelA[r] - offset >= COMFORTABLE_DBM) {
      blind++;
      blindTo[r] = Blind.HeardA;
    } else if (onlyB[r] >= 4 && levelB[r] + offset >= COMFORTABLE_DBM) {
      blind++;
      blindTo[r] = Blind.HeardB;
    }
  }
  evidence.blind.count = blind;
  if (blind > 0) {
    const llrSame = blind * BLIND_SPOT_LLR.S;
    const llrTravel = blind * BLIND_SPOT_LLR.T;
    logS += llrSame;
    logT += llrTravel;
    evidence.blind.llrSame = llrSame;
    evidence.blind.llrTravel = llrTravel;
  }
  // The channel pattern and the clock are read last, and only while "one device" is still in
  // play: they cost the most per pair, and a pair already far below is not changed by them.
  evidence.signature = undefined;
  if (sa.channels && sb.channels && sameDeviceEvidence(logS, logT, oneRadio) > LATE_TERMS_SCREEN_LOG_ODDS) {
    evidence.signature = channelSignatureEvidence(sa.channels, sb.channels, receivers, fromMs, toMs, work.channels);
    if (evidence.signature) {
      evidence.signatureBounded = backgroundBound(evidence.signature.llrSame, channelAlikeness(evidence.signature.excessDb2, evidence.signature.spreadDb), background.signature);
      oneRadio += evidence.signatureBounded;
      oneRadioTerms++;
    }
  }
  evidence.clock = undefined;
  if (sa.preciseTiming && sb.preciseTiming && sameDeviceEvidence(logS, logT, oneRadio) > LATE_TERMS_SCREEN_LOG_ODDS) {
    evidence.clock = advertisingClockEvidence(sa.groups, sa.spans, sb.groups, sb.spans, events, fromMs, toMs, work.clock);
    if (evidence.clock) {
      evidence.clockBounded = backgroundBoundAmong(evidence.clock.llrSame, evidence.clock.resultant, evidence.clock.looks, background.clock, background.clockLooks);
      oneRadio += evidence.clockBounded;
      oneRadioTerms++;
    }
  }
  // The clock rate reads the property the advertising clock's phases read coarsely (whether the
  // two run at one rate), from each chain's own packets: the more precise of the two counts.
  evidence.rate = undefined;
  evidence.rateCounted = 0;
  if (work.rates.background.length > 0 && sameDeviceEvidence(logS, logT, oneRadio) > LATE_TERMS_SCREEN_LOG_ODDS) {
    evidence.rate = memberClockRateEvidence(sa, sb, fromMs, toMs, work.rates);
    if (evidence.rate) {
      const clockPart = evidence.clock ? evidence.clockBounded : 0;
      const combined = evidence.rate.llrSame > 0 ? Math.max(clockPart, evidence.rate.llrSame) : evidence.rate.llrSame;
      evidence.rateCounted = combined - clockPart;
      oneRadio += evidence.rateCounted;
      if (!evidence.clock) oneRadioTerms++;
    }
  }
  evidence.coMovementS = logS;
  evidence.oneRadio = oneRadio;
  evidence.oneRadioTerms = oneRadioTerms;
  evidence.logS = sameDeviceEvidence(logS, logT, oneRadio);
  evidence.logT = logT;
  return true;
}

/** The named terms of the pair `scorePair` read last (`evidence`, `scratch`), with their rationale, in the order they were added up. */
/** What the background bound did to a term's value, for its rationale (nothing when it left the value as it was). */
function boundText(value: number, bounded: number, background: OneRadioBackground): string {
  return bounded < value ? `; ${signed(value)} alone, at most ${signed(bounded)} here: ${background.pairs} unrelated pairs of this capture come as close` : '';
}

export function describePair(receivers: number, names: ReadonlyArray<string>, evidence: PairEvidence, scratch: PerReceiverScratch, background: OneRadioBackground): BleCoLocationTerm[] {
  const { rotation, consistency, level, covariation, blind, signature, clock, rate } = evidence;
  const { motion, rho, bins, varianceA, varianceB, blindTo, levelA, levelB } = scratch;
  const terms: BleCoLocationTerm[] = [];
  const add = (name: BleCoLocationTermName, llrSame: number, llrTravel: number, text: string): void => {
    terms.push({ name, llrSame, llrTravel, text: `${text} (same device ${signed(llrSame)}, travelled together ${signed(llrTravel)})` });
  };
  if (rotation.k > 0) add('co_rotation', rotation.bounded, 0, `${rotation.m} of ${rotation.k} hand-offs within ${(rotation.toleranceMs / 1000).toFixed(1)} s of each other (chance ${rotation.chance.toFixed(2)} each)${boundText(rotation.llr, rotation.bounded, background)}`);
  if (consistency.heard >= 2) {
    add('tx_offset_consistency', consistency.llrSame, consistency.llrTravel, `RSSI difference ${consistency.offset.toFixed(1)} dB on ${consistency.heard} receivers, spread ${Math.sqrt(consistency.squares / consistency.heard).toFixed(1)} dB`);
  }
  if (level.heard > 0) add('tx_offset_level', level.llrSame, level.llrTravel, `mean RSSI difference ${level.offset.toFixed(1)} dB`);
  if (covariation.receivers > 0) {
    const parts: string[] = [];
    for (let r = 0; r < receivers; r++) {
      if (motion[r] === Motion.Both) parts.push(`${names[r]} r=${rho[r].toFixed(2)} over ${bins[r]} bins`);
      else if (motion[r] === Motion.One) parts.push(`${names[r]} only one of them moves (SD ${Math.sqrt(varianceA[r]).toFixed(1)} vs ${Math.sqrt(varianceB[r]).toFixed(1)} dB over ${bins[r]} bins)`);
    }
    add('rssi_covariation', covariation.llr, covariation.llr, `RSSI co-variation ${parts.join(', ')}`);
  }
  if (blind.count > 0) {
    const parts: string[] = [];
    for (let r = 0; r < receivers; r++) {
      if (blindTo[r] === Blind.HeardA) parts.push(`${names[r]} hears one at ${levelA[r].toFixed(0)} dBm, never the other`);
      else if (blindTo[r] === Blind.HeardB) parts.push(`${names[r]} hears one at ${levelB[r].toFixed(0)} dBm, never the other`);
    }
    add('blind_spot', blind.llrSame, blind.llrTravel, parts.join(', '));
  }
  if (signature) {
    const where = signature.receivers.map((r) => names[r]).join(', ');
    add('channel_signature', evidence.signatureBounded, 0, `RSSI pattern over channels 37–39 on ${where}: the two differ by ${signature.mismatchDb.toFixed(1)} dB rms where two spots differ by ${signature.spreadDb.toFixed(1)} dB${boundText(signature.llrSame, evidence.signatureBounded, background)}`);
  }
  if (clock) add('advertising_clock', evidence.clockBounded, 0, `${clock.pairs} packet pairs within 2 s in ${clock.looks} looks ${COHERENCE_S} s or more apart line up modulo 625 µs with resultant ${clock.resultant.toFixed(2)} (one controller ≈ 0.85, separate clocks ≈ ${(1 / Math.sqrt(clock.looks)).toFixed(2)})${boundText(clock.llrSame, evidence.clockBounded, background)}`);
  if (rate) add('clock_rate', evidence.rateCounted, 0, clockRateText(rate, names));
  return terms;
}
