/**
 * The candidate-pair screen of co-location linkage: which pairs of concurrent chains are worth
 * scoring in full (co-location.ts).
 *
 * Every pair of chains active together for at least a minute could be two sets of one phone or
 * a phone and its companion, but in a crowd almost all of them are strangers, and the full score
 * (per-receiver medians and MADs of the per-bin differences, correlations, rationale) costs
 * microseconds a pair while the pairs grow with the square of the chains alive at once. The
 * screen estimates each pair's evidence with little work, from per-chain prefix sums over the
 * same RSSI bins the score reads, term by term:
 *   - co-rotation: exactly the score's term (coincidences of hand-offs against the chance of
 *     one, from the hand-off rate or the crowd handing off at once);
 *   - RSSI co-variation: exactly the score's term, computed only where either chain may be
 *     moving (elsewhere the score gives nothing);
 *   - RSSI difference per receiver (consistency and level): the score's formulas on the two
 *     chains' mean levels over the overlap instead of the median per-bin difference, with the
 *     noise of each receiver's difference from the two series' variances;
 *   - blind spots: left out (the score only lowers the evidence with them);
 *   - "one device" by the model's rule (co-location-model.ts `sameDeviceEvidence`): the
 *     co-movement terms count for it only as far as they count for travelling together, and the
 *     one-radio terms the screen can read (co-rotation) are added; the others (channel pattern,
 *     advertising clock) are read by the score, which is why MIN_EVIDENCE_SAME sits below zero.
 * A pair is scored when its estimated evidence for "one device" or for "travelled together"
 * reaches MIN_EVIDENCE_SAME or MIN_EVIDENCE_TRAVEL against "unrelated" (before the prior):
 * there is some reason in the radio or the timing to think the two chains belong together; in
 * a large crowd also enough to reach MIN_POSTERIOR_ODDS with the prior at its largest rate. The pairs it drops are not
 * candidates (they are not in the `co_location` candidate list); on the evaluation scenarios
 * they are pairs whose full score would have been below 0.1, mostly far below. They still count
 * in the prior's denominator (`inverseCrowd`), as pairs without posterior mass, so the fitted
 * rates keep their meaning. Work: constant per concurrent pair, plus a pass over the sampled
 * bins of a receiver where both chains may be moving, for the pairs whose verdict the other
 * terms leave open (`screenPair` decides as soon as the terms not yet read cannot turn it).
 */

import { BACKGROUND_PAIRS, binCorrelation, correlationLogOdds, COVARIATION_MIN, differenceNoise, isMoving, levelLogDensity, offsetLogDensity, oneMovingLogOdds, sameDeviceEvidence, type BleCoLocationScreenModel } from './co-location-model.ts';
import { ActiveChains, timeLocalCrowd } from './active-chains.ts';
import { BleHandoffCrowd, coRotationLogOddsOf, coRotationQuickRange, coRotationRange, HandoffSearch, type BleHandoffChain } from './co-rotation.ts';

/** What the screen reads of a chain's RSSI series (co-location.ts builds them). */
export interface BleChainSeriesView {
  bin0: number;
  bins: number;
  /** Mean level per receiver over the chain's whole life (NaN where never heard). */
  level: Float64Array;
  /** Hand-off and edge times (ms) in time order. */
  boundaries: Float64Array;
  /** Coincidence tolerance from the advertising interval, ms. */
  toleranceMs: number;
}

export interface BleScreenedPairs {
  /** Screened pairs (a < b), in sweep order. */
  a: Int32Array;
  b: Int32Array;
  /** Per chain: chains active with it for at least minOverlapMs (all of them, screened or not; the co-rotation term's crowd). */
  concurrent: Int32Array;
  /** How many chains are active at once over time (the prior's time-local crowd: active-chains.ts). */
  active: ActiveChains;
  /**
   * Σ 1/crowd over every pair the score would have compared (whole-chain levels within
   * screenSpreadDb and a receiver hearing both), screened in or not: the prior's denominator.
   */
  inverseCrowd: number;
  /** Concurrent pairs considered, for reporting. */
  concurrentPairs: number;
  /** How many chains hand off around each chain's hand-offs (the score's co-rotation term reads it too). */
  handoffCrowd: BleHandoffCrowd;
  /**
   * A sample (at most BACKGROUND_PAIRS, drawn deterministically) of concurrent pairs that cannot
   * be one device: heard in places far apart (whole-chain levels that disagree across receivers
   * by more than screenSpreadDb), or dropped by the screen with their evidence of travelling
   * together below MIN_EVIDENCE_TRAVEL (not together, so not one radio). The score weighs the
   * one-radio terms against them (how alike unrelated chains are in this capture).
   */
  backgroundA: Int32Array;
  backgroundB: Int32Array;
}

/**
 * Every chain's bin means with their "heard" flags side by side: chain c's receiver r and bin i
 * at values[at[c] + (r·bins + i)·2 + 0/1] (the mean, 0 where not heard; 1 where heard, else 0),
 * so sums over the bins two chains were both heard in are products instead of branches: a bin
 * one chain missed adds exact zeros.
 */
export interface BleMaskedBins {
  values: Float32Array;
  at: Int32Array;
}

/**
 * Pairs are scored when their estimated evidence (log-likelihood ratio against "unrelated",
 * before the prior) reaches MIN_EVIDENCE_SAME for "one device" or MIN_EVIDENCE_TRAVEL for
 * "travelled together". Both sit below zero because the screen estimates only the RSSI and
 * rotation terms: the score's `channel_signature` and `advertising_clock` terms, read only on
 * the pairs scored, add several nats for a phone's own sets and must get the chance to. With
 * the thresholds at 0 and 1 nat the screen dropped a sixth of `android_multi_set`'s true links
 * (eval:ble F1 0.980 → 0.910); at −2 and −1 it drops none, for about 4 % of the 1M benchmark's
 * time. The second is higher because the radio tells companions from strangers only weakly
 * unless both move: two strangers standing a few metres apart already come out slightly in
 * favour of travelling together from their levels alone, and in a crowd most pairs are such
 * neighbours.
 */
const MIN_EVIDENCE_SAME = -2;
const MIN_EVIDENCE_TRAVEL = -1;
/**
 * In a large crowd the prior alone rules pairs out: a pair is also dropped when, with the prior
 * at its largest rate (priorMax / crowd), its estimated posterior odds stay below this — below
 * the probability under which the score does not even describe a pair (its DESCRIBE_ABOVE).
 */
const MIN_POSTERIOR_ODDS = 0.01;
/**
 * Relative slack of the bound on a chain's spread over the bins the co-variation term reads: the
 * bound (from prefix sums) and the term's own sums round differently, by far less than this.
 */
const SPREAD_BOUND_MARGIN = 1e-6;
/** A chain whose bins vary by at least MOVING_SD less this (dB) may be moving in the score's sample of bins. */
const MOVING_MARGIN_DB = 0.5;
/**
 * Per chain, bin boundary and receiver: prefix sums of heard bins, bin means and squared bin
 * means, side by side and every receiver's next to each other ([at + (i·receivers + r)·3 + 0/1/2]
 * from the chain's offset `at` in the screen's one array of them), so a pair's overlap is read from
 * two small places per chain, whatever the receiver (most of the screen's time is these reads, and
 * a chain's sums do not stay in the cache from one pair to the next). Entry 0 is all zeros.
 * Read from the chain's masked bins, which start at `maskedAt` in `masked`.
 */
function writePrefixSums(bins: number, receivers: number, masked: Float32Array, maskedAt: number, sums: Float64Array, at: number): void {
  for (let r = 0; r < receivers; r++) {
    let n = 0;
    let s = 0;
    let q = 0;
    for (let bin = 0; bin < bins; bin++) {
      const cell = maskedAt + 2 * (r * bins + bin);
      if (masked[cell + 1] !== 0) {
        const value = masked[cell];
        n++;
        s += value;
        q += value * value;
      }
      const sum = at + ((bin + 1) * receivers + r) * 3;
      sums[sum] = n;
      sums[sum + 1] = s;
      sums[sum + 2] = q;
    }
  }
}

/** Largest minus smallest per-receiver difference of chains x's and y's whole-life levels (0 with fewer than two shared receivers). */
function levelSpread(level: Float64Array, x: number, y: number, receivers: number): number {
  let low = Infinity;
  let high = -Infinity;
  for (let r = 0; r < receivers; r++) {
    const a = level[x * receivers + r];
    const b = level[y * receivers + r];
    if (Number.isNaN(a) || Number.isNaN(b)) continue;
    const d = a - b;
    if (d < low) low = d;
    if (d > high) high = d;
  }
  return high > low ? high - low : 0;
}

/** Per-receiver working arrays of the estimate, made once per call. */
interface Scratch {
  diff: Float64Array;
  /** Variance of the receiver's mean difference (measurement noise). */
  noise: Float64Array;
  common: Float64Array;
  /** 1 where either chain may be moving. */
  moving: Uint8Array;
  /** The pair's first and last overlap bin, and its first and last time (ms; in arrays: times passed to a function that is not inlined are boxed). */
  overlapBins: Float64Array;
  overlapMs: Float64Array;
  /** The co-rotation term's bounds, and where its hand-offs in range are (HandoffSearch). */
  range: Float64Array;
  searched: Int32Array;
  /** The pair's prior crowd: chains active alongside over its overlap (active-chains.ts). */
  crowd: Float64Array;
  /** log of the model's offsetSd S, T and U (the same for every pair). */
  logOffsetSd: Float64Array;
  /** Per receiver: the co-variation term's upper bound, what is known of it (Covariation), and its value once computed. */
  covariationHigh: Float64Array;
  covariationKnown: Uint8Array;
  covariation: Float64Array;
}

/** What the screen knows of a receiver's co-variation term. */
const enum Covariation {
  /** Not computed yet. */
  Open,
  /** Exactly 0 (neither chain moves over the bins the term reads). */
  Zero,
  Computed,
}

/** What the screen makes of a pair. */
const enum Verdict {
  /** No receiver hears both for three bins: the score does not compare the pair either. */
  NotCompared,
  Drop,
  /** Dropped, and its evidence of travelling together is below MIN_EVIDENCE_TRAVEL: the two are not together (a background pair). */
  DropApart,
  Keep,
}

/**
 * What the screen precomputes per chain, in a few flat arrays indexed by chain (one allocation
 * each, and the pair loops read typed arrays, not an object per chain and its arrays).
 */
interface ScreenData {
  /** First and last packet per chain. */
  firstMs: Float64Array;
  lastMs: Float64Array;
  /** First bin and bin count per chain. */
  bin0: Float64Array;
  bins: Int32Array;
  /** Whole-life levels, [chain · receivers + r]. */
  level: Float64Array;
  /** Every chain's prefix sums (`writePrefixSums`), chain c's from `prefixAt[c]`. */
  prefix: Float64Array;
  prefixAt: Int32Array;
  masked: BleMaskedBins;
  handoffs: BleHandoffChain[];
  /** log(MIN_POSTERIOR_ODDS / priorMax): with log crowd, the evidence a pair's crowd asks for at least. */
  logMinimumOdds: number;
}

function screenData(spans: ReadonlyArray<{ firstMs: number; lastMs: number }>, series: ReadonlyArray<BleChainSeriesView>, masked: BleMaskedBins, receivers: number, model: BleCoLocationScreenModel): ScreenData {
  const chains = series.length;
  const firstMs = Float64Array.from(spans, (one) => one.firstMs);
  const lastMs = Float64Array.from(spans, (one) => one.lastMs);
  const bin0 = new Float64Array(chains);
  const bins = new Int32Array(chains);
  const level = new Float64Array(chains * receivers);
  const prefixAt = new Int32Array(chains);
  let prefixSize = 0;
  for (let chain = 0; chain < chains; chain++) {
    const one = series[chain];
    bin0[chain] = one.bin0;
    bins[chain] = one.bins;
    for (let r = 0; r < receivers; r++) level[chain * receivers + r] = one.level[r];
    prefixAt[chain] = prefixSize;
    prefixSize += (one.bins + 1) * receivers * 3;
  }
  const prefix = new Float64Array(prefixSize);
  const handoffs: BleHandoffChain[] = [];
  for (let chain = 0; chain < chains; chain++) {
    const one = series[chain];
    writePrefixSums(one.bins, receivers, masked.values, masked.at[chain], prefix, prefixAt[chain]);
    handoffs.push({ index: chain, boundaries: one.boundaries, toleranceMs: one.toleranceMs, ascending: isAscending(one.boundaries) });
  }
  return { firstMs, lastMs, bin0, bins, level, prefix, prefixAt, masked, handoffs, logMinimumOdds: Math.log(MIN_POSTERIOR_ODDS / model.priorMax) };
}

/**
 * Decisions taken before every co-variation term is known keep this much distance from the
 * thresholds, so that sums of the same terms in another order (rounding) cannot turn them.
 */
const DECISION_MARGIN = 1e-9;

/**
 * Whether a pair's estimated evidence (without the prior) reaches MIN_EVIDENCE_SAME for "one
 * device" or MIN_EVIDENCE_TRAVEL for "travelled together": that of `exhaustive`, which computes
 * every term in full and adds them up. Otherwise the terms are read cheapest first, and the pair
 * is decided as soon as the terms not yet read cannot turn the verdict whatever their values:
 *   - the RSSI difference terms, from prefix sums;
 *   - co-rotation: the coincidences counted, but the crowd's share bounded (co-rotation.ts);
 *   - co-variation per receiver where either chain may move, each between COVARIATION_MIN and
 *     covariationMax; exactly 0 without a pass over the bins where the prefix sums show that
 *     neither chain can move over the bins the term reads, at most 0 where one of them cannot;
 *   - last, the crowd's exact share of the co-rotation term.
 * The early decisions only take bounds, so they are the full verdict's (tests compare the two).
 */
function screenPair(data: ScreenData, x: number, y: number, receivers: number, floors: Float64Array, model: BleCoLocationScreenModel, scratch: Scratch, crowd: BleHandoffCrowd, exhaustive: boolean): Verdict {
  // (The pair's overlap and crowd are worked out here from its chains, not passed in: numbers
  // that are not small integers would be boxed for the call, an allocation per pair.)
  const fromMs = Math.max(data.firstMs[x], data.firstMs[y]);
  const toMs = Math.min(data.lastMs[x], data.lastMs[y]);
  // The evidence the pair's crowd asks for at least (from MIN_POSTERIOR_ODDS; the sweep wrote the crowd).
  const minimumEvidence = data.logMinimumOdds + Math.log(scratch.crowd[0]);
  const { prefix, handoffs } = data;
  const binsA = data.bins[x];
  const binsB = data.bins[y];
  const prefixA = data.prefixAt[x];
  const prefixB = data.prefixAt[y];
  const fromBin = Math.floor(fromMs / model.binMs);
  const toBin = Math.floor(toMs / model.binMs);
  scratch.overlapBins[0] = fromBin;
  scratch.overlapBins[1] = toBin;
  scratch.overlapMs[0] = fromMs;
  scratch.overlapMs[1] = toMs;
  // Overlap bins in each chain's own prefix coordinates, clipped to the chain.
  // (Integers: a pair's overlap lies inside both chains, so these are bin places of each, and
  // indices typed as integers are much cheaper to read with than numbers that might not be.)
  const a0 = Math.max(0, fromBin - data.bin0[x]) | 0;
  const a1 = Math.min(binsA, toBin - data.bin0[x] + 1) | 0;
  const b0 = Math.max(0, fromBin - data.bin0[y]) | 0;
  const b1 = Math.min(binsB, toBin - data.bin0[y] + 1) | 0;
  const { diff, noise, common } = scratch;
  let heard = 0;
  let anyCommon = false;
  // Receivers where either chain may be moving: only there can co-variation be non-zero.
  const movingOn = scratch.moving;
  let weightSum = 0;
  let weighted = 0;
  const moving = model.movingSdDb - MOVING_MARGIN_DB;
  // The co-variation term reads every step-th bin of the overlap where both chains are heard
  // (covariationOf). Each chain's spread over those bins is at most its squared deviations over
  // all its bins in the overlap (from the prefix sums) divided by how many bins both are heard
  // in, at least the sampled bins less those either chain misses anywhere in the overlap.
  const overlapBins = toBin - fromBin + 1;
  const sampled = Math.floor((toBin - fromBin) / Math.max(1, Math.floor(overlapBins / model.maxBins))) + 1;
  const { covariationHigh, covariationKnown } = scratch;
  const stillSpread = model.movingSdDb ** 2 * (1 - SPREAD_BOUND_MARGIN);
  let movingHigh = 0;
  let toCompute = 0;
  for (let r = 0; r < receivers; r++) {
    common[r] = 0;
    movingOn[r] = 0;
    const endA = prefixA + (a1 * receivers + r) * 3;
    const startA = prefixA + (a0 * receivers + r) * 3;
    const endB = prefixB + (b1 * receivers + r) * 3;
    const startB = prefixB + (b0 * receivers + r) * 3;
    const nA = prefix[endA] - prefix[startA];
    const nB = prefix[endB] - prefix[startB];
    if (nA < 3 || nB < 3) continue;
    anyCommon = true;
    const meanA = (prefix[endA + 1] - prefix[startA + 1]) / nA;
    const meanB = (prefix[endB + 1] - prefix[startB + 1]) / nB;
    const varA = Math.max(0, (prefix[endA + 2] - prefix[startA + 2]) / nA - meanA * meanA);
    const varB = Math.max(0, (prefix[endB + 2] - prefix[startB + 2]) / nB - meanB * meanB);
    if (nA >= 6 && nB >= 6 && (varA >= moving * moving || varB >= moving * moving)) {
      movingOn[r] = 1;
      // Both still over the bins read: the term is exactly 0; one of them still: at most 0
      // (only one moving costs, never helps: oneMovingLogOdds and the spread contrast are
      // negative); else at most covariationMax.
      const both = sampled - (overlapBins - nA) - (overlapBins - nB);
      const stillA = both >= 6 && (nA * varA) / both < stillSpread;
      const stillB = both >= 6 && (nB * varB) / both < stillSpread;
      covariationKnown[r] = stillA && stillB ? Covariation.Zero : Covariation.Open;
      covariationHigh[r] = stillA || stillB ? 0 : model.covariationMax;
      if (covariationKnown[r] === Covariation.Open) {
        movingHigh += covariationHigh[r];
        toCompute++;
      }
    }
    // Receivers near their sensitivity are left out, as the score leaves them out.
    if (Math.min(meanA, meanB) < floors[r] + model.censorMarginDb) continue;
    const n = Math.min(nA, nB);
    diff[r] = meanA - meanB;
    // Noise of the difference of two independent series' means (π/2: the score uses medians).
    noise[r] = differenceNoise(((Math.PI / 2) * (varA + varB)) / n, model.levelFloorDb);
    common[r] = n;
    heard++;
    weightSum += n;
    weighted += n * diff[r];
  }
  if (!anyCommon) return Verdict.NotCompared;
  let evidenceS = 0;
  let evidenceT = 0;
  if (heard > 0) {
    const offset = weighted / weightSum;
    if (heard >= 2) {
      const scale = heard / (heard - 1);
      const share = (heard - 1) / heard;
      for (let r = 0; r < receivers; r++) {
        if (common[r] === 0) continue;
        const e2 = (diff[r] - offset) ** 2 * scale;
        const unrelated = levelLogDensity(e2, noise[r], model.levelSd.U);
        evidenceS += share * (levelLogDensity(e2, noise[r], model.levelSd.S) - unrelated);
        evidenceT += share * (levelLogDensity(e2, noise[r], model.levelSd.T) - unrelated);
      }
    }
    const { logOffsetSd } = scratch;
    evidenceS += offsetLogDensity(offset, model.offsetSd.S, logOffsetSd[0]) - offsetLogDensity(offset, model.offsetSd.U, logOffsetSd[2]);
    evidenceT += offsetLogDensity(offset, model.offsetSd.T, logOffsetSd[1]) - offsetLogDensity(offset, model.offsetSd.U, logOffsetSd[2]);
  }
  // The co-movement terms count for one device only as far as for travelling together (the
  // co-variation terms below add to both alike; co-rotation is one-radio evidence).
  evidenceS = sameDeviceEvidence(evidenceS, evidenceT, 0);
  const needS = Math.max(MIN_EVIDENCE_SAME, minimumEvidence);
  const needT = Math.max(MIN_EVIDENCE_TRAVEL, minimumEvidence);
  if (exhaustive) {
    evidenceS += coRotationLogOddsOf(handoffs[x], handoffs[y], fromMs, toMs, model.fixedPeriodMs, crowd);
    let covariation = 0;
    for (let r = 0; r < receivers; r++) {
      if (movingOn[r] === 0) continue;
      covariationOf(data, x, y, r, scratch.overlapBins, model, scratch.covariation);
      covariation += scratch.covariation[r];
    }
    if (evidenceS + covariation >= needS || evidenceT + covariation >= needT) return Verdict.Keep;
    return evidenceT + covariation < MIN_EVIDENCE_TRAVEL ? Verdict.DropApart : Verdict.Drop;
  }
  // The costlier terms only while they can change the verdict: each receiver's co-variation
  // lies between COVARIATION_MIN and covariationMax, co-rotation (only for "one device") in its
  // range; the exact crowd share of the co-rotation term is summed last, if at all.
  const range = scratch.range;
  // How far the co-rotation term is known: 0 bounded from the hand-offs in range, 1 from their
  // coincidences (coRotationRange), 2 exactly.
  coRotationQuickRange(handoffs[x], handoffs[y], scratch.overlapMs, crowd, range, scratch.searched);
  let rotation = range[0] === range[1] ? 2 : 0;
  const values = scratch.covariation;
  let covariation = 0;
  let high = movingHigh;
  let left = toCompute;
  for (;;) {
    const highT = evidenceT + covariation + high;
    const highS = evidenceS + range[1] + covariation + high;
    if (highS < needS - DECISION_MARGIN && highT < needT - DECISION_MARGIN) return highT < MIN_EVIDENCE_TRAVEL - DECISION_MARGIN ? Verdict.DropApart : Verdict.Drop;
    const lowT = evidenceT + covariation + left * COVARIATION_MIN;
    const lowS = evidenceS + range[0] + covariation + left * COVARIATION_MIN;
    if (lowS >= needS + DECISION_MARGIN || lowT >= needT + DECISION_MARGIN) return Verdict.Keep;
    // The coincidences first where only "one device" can still pass (they cost about as much as one co-variation term).
    if (rotation === 0 && (left === 0 || highT < needT - DECISION_MARGIN)) {
      rotation = coRotationRange(handoffs[x], handoffs[y], scratch.overlapMs, model.fixedPeriodMs, crowd, range, scratch.searched) ? 2 : 1;
    } else if (left > 0) {
      // The receiver whose term may lift the sum the most first (where one chain is still, the
      // term adds at most 0): its value lowers the upper bound the most.
      let next = -1;
      for (let r = 0; r < receivers; r++) if (movingOn[r] === 1 && covariationKnown[r] === Covariation.Open && (next < 0 || covariationHigh[r] > covariationHigh[next])) next = r;
      covariationOf(data, x, y, next, scratch.overlapBins, model, values);
      covariationKnown[next] = Covariation.Computed;
      covariation += values[next];
      high -= covariationHigh[next];
      left--;
    } else if (rotation < 2) {
      range[0] = range[1] = coRotationLogOddsOf(handoffs[x], handoffs[y], fromMs, toMs, model.fixedPeriodMs, crowd);
      rotation = 2;
    } else break;
  }
  // Every term known: the verdict from their sum in receiver order (as `exhaustive` sums them).
  covariation = 0;
  for (let r = 0; r < receivers; r++) if (movingOn[r] === 1) covariation += covariationKnown[r] === Covariation.Zero ? 0 : values[r];
  evidenceS += range[0];
  if (evidenceS + covariation >= needS || evidenceT + covariation >= needT) return Verdict.Keep;
  return evidenceT + covariation < MIN_EVIDENCE_TRAVEL ? Verdict.DropApart : Verdict.Drop;
}

/**
 * The score's RSSI co-variation term on receiver `r`: over the overlap's bins (at most maxBins,
 * evenly spaced) where both chains are heard, the correlation of the two series when both move,
 * a small penalty when only one does. The sums are the score's, term for term: a bin either
 * chain missed adds zeros (x · 0 and 0 · y), which leaves every sum as it was. Into `out[r]`,
 * not returned: the function is not inlined into its callers, and a returned number is boxed.
 */
function covariationOf(
  data: ScreenData,
  x: number,
  y: number,
  r: number,
  /** The overlap's first and last bin (passed in an array: as arguments they would be boxed). */
  overlapBins: Float64Array,
  model: BleCoLocationScreenModel,
  out: Float64Array,
): void {
  const fromBin = overlapBins[0];
  const toBin = overlapBins[1];
  const masked = data.masked.values;
  const bin0A = data.bin0[x];
  const bin0B = data.bin0[y];
  const binsA = data.bins[x];
  const binsB = data.bins[y];
  const step = Math.max(1, Math.floor((toBin - fromBin + 1) / model.maxBins));
  // The sampled bins inside both chains (an overlap lies inside both; clipped all the same).
  const inside = Math.max(bin0A, bin0B);
  const first = fromBin < inside ? fromBin + Math.ceil((inside - fromBin) / step) * step : fromBin;
  const last = Math.min(toBin, bin0A + binsA - 1, bin0B + binsB - 1);
  let n = 0;
  let sumA = 0;
  let sumB = 0;
  let sumAA = 0;
  let sumBB = 0;
  let sumAB = 0;
  // Integer indices (valid ones are below the array's length), stepped a counted number of times.
  const stride = 2 * step;
  const count = last >= first ? Math.floor((last - first) / step) + 1 : 0;
  let ia = (data.masked.at[x] + 2 * (r * binsA + first - bin0A)) | 0;
  let ib = (data.masked.at[y] + 2 * (r * binsB + first - bin0B)) | 0;
  for (let sample = 0; sample < count; sample++, ia += stride, ib += stride) {
    const va = masked[ia];
    const heardA = masked[ia + 1];
    const vb = masked[ib];
    const heardB = masked[ib + 1];
    n += heardA * heardB;
    // va · heardB is va or a zero, and times va the same as va · va · heardB (a bin B missed adds +0 either way).
    const aWhereB = va * heardB;
    const bWhereA = vb * heardA;
    sumA += aWhereB;
    sumB += bWhereA;
    sumAA += aWhereB * va;
    sumBB += bWhereA * vb;
    sumAB += va * vb;
  }
  if (n < 6) {
    out[r] = 0;
    return;
  }
  const meanA = sumA / n;
  const meanB = sumB / n;
  const varA = Math.max(0, sumAA / n - meanA * meanA);
  const varB = Math.max(0, sumBB / n - meanB * meanB);
  const movingA = isMoving(varA, model.movingSdDb);
  const movingB = isMoving(varB, model.movingSdDb);
  if (!movingA || !movingB) {
    out[r] = !movingA && !movingB ? 0 : oneMovingLogOdds(varA, varB, n, model);
    return;
  }
  out[r] = correlationLogOdds(binCorrelation(sumAB, n, meanA, meanB, varA, varB), n, model.covariationMax);
}

function isAscending(values: Float64Array): boolean {
  for (let index = 1; index < values.length; index++) if (values[index] < values[index - 1]) return false;
  return true;
}

/**
 * The concurrent chain pairs worth scoring. Chains are swept in order of their first packet
 * (each pair found once, from the earlier-starting chain); a pair is screened in when its
 * estimated evidence reaches MIN_EVIDENCE_SAME for one device or MIN_EVIDENCE_TRAVEL for
 * travelling together.
 */
export function screenChainPairs(
  chains: ReadonlyArray<{ firstMs: number; lastMs: number }>,
  series: ReadonlyArray<BleChainSeriesView>,
  /** The chains' bin means with "heard" flags (co-location-series.ts `maskedBinsFor`). */
  masked: BleMaskedBins,
  receivers: number,
  floors: Float64Array,
  model: BleCoLocationScreenModel,
  /** Every term of every pair in full, without early decisions (what the early decisions must reproduce; for tests). */
  exhaustive = false,
): BleScreenedPairs {
  const order = Int32Array.from(chains, (_, index) => index).sort((x, y) => chains[x].firstMs - chains[y].firstMs || x - y);
  // First and last packet by place in the sweep order: the sweeps read nothing else.
  const firstAt = Float64Array.from(order, (chain) => chains[chain].firstMs);
  const lastAt = Float64Array.from(order, (chain) => chains[chain].lastMs);
  const concurrent = new Int32Array(chains.length);
  const concurrentPairs = countConcurrent(order, firstAt, lastAt, model.minOverlapMs, concurrent);
  const data = screenData(chains, series, masked, receivers, model);
  const handoffCrowd = new BleHandoffCrowd(series, concurrent);
  const scratch: Scratch = {
    diff: new Float64Array(receivers),
    noise: new Float64Array(receivers),
    common: new Float64Array(receivers),
    moving: new Uint8Array(receivers),
    overlapBins: new Float64Array(2),
    overlapMs: new Float64Array(2),
    range: new Float64Array(2),
    searched: new Int32Array(HandoffSearch.Size),
    crowd: new Float64Array(1),
    logOffsetSd: Float64Array.from([model.offsetSd.S, model.offsetSd.T, model.offsetSd.U], Math.log),
    covariationHigh: new Float64Array(receivers),
    covariationKnown: new Uint8Array(receivers),
    covariation: new Float64Array(receivers),
  };
  const background: BackgroundSample = { a: new Int32Array(BACKGROUND_PAIRS), b: new Int32Array(BACKGROUND_PAIRS), seen: 0, state: BACKGROUND_SEED };
  const active = new ActiveChains(chains);
  const sweep: Sweep = { order, firstAt, lastAt, active, data, handoffCrowd, receivers, floors, model, scratch, exhaustive, keptA: [], keptB: [], inverseCrowd: 0, background };
  const inverseCrowd = screenSweep(sweep);
  const sampled = Math.min(background.seen, BACKGROUND_PAIRS);
  return { a: Int32Array.from(sweep.keptA), b: Int32Array.from(sweep.keptB), concurrent, active, inverseCrowd, concurrentPairs, handoffCrowd, backgroundA: background.a.slice(0, sampled), backgroundB: background.b.slice(0, sampled) };
}

/**
 * First sweep: how many chains each chain is active with (the co-rotation term's crowd), into
 * `concurrent`; returns the number of concurrent pairs. The later chain starts last, so the
 * overlap is min(lasts) − its start. (The sweeps are functions of their own: `screenChainPairs`
 * runs once per analysis, and its optimised code does not always survive to the next.)
 */
function countConcurrent(order: Int32Array, firstAt: Float64Array, lastAt: Float64Array, minOverlapMs: number, concurrent: Int32Array): number {
  let concurrentPairs = 0;
  for (let oi = 0; oi < order.length; oi++) {
    const lastA = lastAt[oi];
    for (let oj = oi + 1; oj < order.length; oj++) {
      if (firstAt[oj] > lastA - minOverlapMs) break;
      if (Math.min(lastA, lastAt[oj]) - firstAt[oj] < minOverlapMs) continue;
      concurrent[order[oi]]++;
      concurrent[order[oj]]++;
      concurrentPairs++;
    }
  }
  return concurrentPairs;
}

/** What the second sweep reads, and the pairs it keeps. */
interface Sweep {
  order: Int32Array;
  firstAt: Float64Array;
  lastAt: Float64Array;
  active: ActiveChains;
  data: ScreenData;
  handoffCrowd: BleHandoffCrowd;
  receivers: number;
  floors: Float64Array;
  model: BleCoLocationScreenModel;
  scratch: Scratch;
  exhaustive: boolean;
  keptA: number[];
  keptB: number[];
  /** Σ 1/crowd over the pairs compared so far, in sweep order. */
  inverseCrowd: number;
  background: BackgroundSample;
}

/** The seed of the background sample's generator (a constant: the analysis stays deterministic). */
const BACKGROUND_SEED = 0x9e3779b9;

/** A uniform sample of the background pairs met in sweep order (reservoir sampling with a seeded xorshift). */
interface BackgroundSample {
  a: Int32Array;
  b: Int32Array;
  /** Background pairs met so far. */
  seen: number;
  /** The xorshift32 state. */
  state: number;
}

function sampleBackground(sample: BackgroundSample, x: number, y: number): void {
  let place = sample.seen;
  if (place >= BACKGROUND_PAIRS) {
    let state = sample.state;
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    sample.state = state >>> 0;
    place = sample.state % (sample.seen + 1);
  }
  sample.seen++;
  if (place < BACKGROUND_PAIRS) {
    sample.a[place] = x;
    sample.b[place] = y;
  }
}

/**
 * Second sweep: every concurrent pair through the screen (each found once, from the
 * earlier-starting chain), a chain's pairs at a time (`screenRow`); returns the prior's
 * denominator (`inverseCrowd`). (The pairs are in a function called once per chain, not in a loop
 * here: this function runs once per analysis, and a loop that long is compiled on the stack,
 * whose code was thrown away again at the next analysis's first call.)
 */
function screenSweep(sweep: Sweep): number {
  sweep.inverseCrowd = 0;
  for (let oi = 0; oi < sweep.order.length; oi++) screenRow(sweep, oi);
  return sweep.inverseCrowd;
}

/** The pairs of the chain at place `oi` of the sweep with the chains that start after it while it is active. */
function screenRow(sweep: Sweep, oi: number): void {
  const { order, firstAt, lastAt, data, handoffCrowd, receivers, floors, model, scratch, exhaustive, keptA, keptB } = sweep;
  const a = order[oi];
  const lastA = lastAt[oi];
  for (let oj = oi + 1; oj < order.length; oj++) {
    if (firstAt[oj] > lastA - model.minOverlapMs) break;
    if (Math.min(lastA, lastAt[oj]) - firstAt[oj] < model.minOverlapMs) continue;
    const b = order[oj];
    const x = a < b ? a : b;
    const y = a < b ? b : a;
    if (levelSpread(data.level, x, y, receivers) > model.screenSpreadDb) {
      sampleBackground(sweep.background, x, y);
      continue;
    }
    scratch.crowd[0] = timeLocalCrowd(sweep.active, firstAt[oj], Math.min(lastA, lastAt[oj]));
    const verdict = screenPair(data, x, y, receivers, floors, model, scratch, handoffCrowd, exhaustive);
    if (verdict === Verdict.NotCompared) continue;
    // One running sum over all pairs in sweep order (as before the rows were split off).
    sweep.inverseCrowd += 1 / scratch.crowd[0];
    if (verdict === Verdict.DropApart) sampleBackground(sweep.background, x, y);
    if (verdict !== Verdict.Keep) continue;
    keptA.push(x);
    keptB.push(y);
  }
}
