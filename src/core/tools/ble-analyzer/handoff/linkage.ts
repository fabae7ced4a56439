import { BlePayloadRarity } from './payload-rarity.ts';
import { calibrateInPlace } from '../calibration/calibration.ts';
import { matchingMarginals, type BleCandidatePairs } from './matching-marginals.ts';
import { indicesByKey } from '../shared/index-order.ts';
import { lowerBoundFloat64, upperBoundFloat64 } from '../shared/sorted-search.ts';
import { BleHandoffDescriber, describePair, describePrior, DESCRIBE_ABOVE, type BleHandoffFactors } from './handoff-description.ts';
import {
  ADDRESS_KIND_LLR,
  clamp,
  differentContentLlr,
  edgeMarginMs,
  edgesOutsidePauses,
  END_SEEN,
  handoffGapLlr,
  heardGapS,
  handoffUnseen,
  intervalSimilarityLlr,
  irkMismatchLlr,
  lifetimeEdgesSeen,
  LOG_K_LIMIT,
  OVERLAP_CONTRADICTION_LLR,
  OVERLAP_LIMIT_S,
  overlapToleranceS,
  payloadPeers,
  payloadShare,
  RSSI_RECEIVER_WEIGHT,
  rssiContinuityLlr,
  rssiLevelVarianceFor,
  RSSI_EDGE_SCATTER,
  sameSignatureLlr,
  sameTemplateLlr,
  START_SEEN,
  successorPriorLogOdds,
  UNSEEN_HANDOFF_LLR,
} from './handoff-model.ts';
import type { BleScanPauses } from '../scan/scan-pauses.ts';
import { clockRateComparison, clockRateLlr, NO_CLOCK_RATES, type BleClockRates, type ClockRates } from '../co-location/clock-rate.ts';
import type { BleLinkableAddress, BleLinkContext, BleLinkFactor, BleScoredPairs } from './handoff-types.ts';
import { pairLevelVariance, type BleRssiLevelDrift } from './rssi-level-drift.ts';

export type { BleCandidatePairs } from './matching-marginals.ts';
export type { BlePayloadSource } from './payload-rarity.ts';

/**
 * Hand-off linkage of private addresses.
 *
 * 1. Candidates come from a time sweep: B is a candidate successor of A when B starts at most
 *    `linkageWindowS` after A's last packet and at most OVERLAP_LIMIT_S before it (and outlives
 *    A). Each A keeps its MAX_CANDIDATES nearest (MAX_CANDIDATES_ACROSS_PAUSE when a scan pause
 *    hides its end). Never across a longer gap. Times are
 *    scanning times: scan pauses (scan-pauses.ts, a duty-cycled observer) are left out, so the
 *    window reaches the next burst however long the pause.
 * 2. Each candidate gets a naive-Bayes log-likelihood ratio (same emitter vs not) summed over
 *    independent-ish factors: hand-off gap, RSSI continuity per receiver, payload signature /
 *    AD template match weighted by how common the template is, advertising-interval similarity,
 *    address kind, IRK evidence. The prior: A's successor is visible with probability ρ_A (odds
 *    from the fit of A's lifetime to the rotation model), spread uniformly over its n_A
 *    candidates (the candidate-set size).
 * 3. Pairwise probabilities are the marginals of a one-successor/one-predecessor matching model
 *    (weights K_AB = odds, "no successor" and "no predecessor" weight 1), estimated by sum-product
 *    belief propagation (matching-marginals.ts). It is exact for an isolated pair (p = K/(K+1)) and
 *    gives ≈ 1/k to each of k indistinguishable twins rotating at once, which is what keeps the
 *    scores calibrated.
 */

/** Every scored pair, as parallel arrays: pair e is earlier[e] → later[e]. */
export interface BleLinks extends BleScoredPairs {
  /**
   * With `describeCandidates`: all factors of the pairs that are described (probability ≥
   * DESCRIBE_ABOVE or a shared IRK), undefined for the rest. Empty otherwise.
   */
  factors: Array<BleLinkFactor[] | undefined>;
  /**
   * The factors clusters read, described when the cluster is: the clusters of the 1M bench
   * input describe ~3,000 hand-offs, and factor texts made during the linkage lived through the
   * whole co-location stage (copied by its scavenges) only to be joined into a few rationale lines.
   */
  handoffs: BleHandoffFactors;
  /**
   * With `describeCandidates`: each pair's probability before calibration, NaN where the
   * probability is set rather than calibrated (a shared IRK, an overlap ruled out). The
   * calibration fit reads it (bench/fit-ble-calibration.ts).
   */
  raw?: Float64Array;
}

/** Candidates kept per earlier address. */
const MAX_CANDIDATES = 16;
/**
 * …and per earlier address whose end a scan pause hides: its successor is any address first
 * heard when scanning resumes, all about equally near, so the nearest 16 would be a draw.
 */
const MAX_CANDIDATES_ACROSS_PAUSE = 24;

/**
 * `describePair` without the descriptions, over per-address arrays made once: the same terms
 * added in the same order, so the sums are bit-identical.
 */
class PairScorer {
  private readonly first: Float64Array;
  private readonly last: Float64Array;
  /** First and last packet in scanning time (scan pauses left out; the clock times without pauses). */
  private readonly scanFirst: Float64Array;
  private readonly scanLast: Float64Array;
  /** START_SEEN | END_SEEN unless a scan pause hides that end (edgesOutsidePauses). */
  private readonly edges: Uint8Array;
  /** The overlap a hand-off tolerates (s, overlapToleranceS). */
  private readonly tolerance: number;
  /** edgeMarginMs of each address (0 without pauses). */
  private readonly margin: Float64Array;
  private readonly interval: Float64Array;
  /** Per address: its mean gap between heard packets, s (handoff-model.ts `heardGapS`). */
  private readonly heardGap: Float64Array;
  private readonly nrpa: Uint8Array;
  private readonly irk: Int32Array;
  private readonly headPayload: Int32Array;
  private readonly tailPayload: Int32Array;
  private readonly headTemplate: Int32Array;
  private readonly tailTemplate: Int32Array;
  /** Per address: the payload term of a successor carrying its tail signature, its tail template, neither. */
  private readonly sameSignatureLlr: Float64Array;
  private readonly sameTemplateLlr: Float64Array;
  private readonly differentLlr: Float64Array;
  /** Per address × receiver: mean RSSI of the last / first packets, NaN where not heard. */
  private readonly tailRssi: Float64Array;
  private readonly headRssi: Float64Array;
  /** Per address × receiver: packets in those means (at most EDGE_PACKETS). */
  private readonly tailPackets: Uint8Array;
  private readonly headPackets: Uint8Array;
  private readonly receivers: number;
  /** rssi_continuity's level drift (rssi-level-drift.ts), read by profile id; absent: the model's scale. */
  private readonly drift: BleRssiLevelDrift | undefined;
  private readonly profileId: Int32Array;
  private readonly window: number;
  /** Per address: its clock rates (undefined where not read), and the capture's rates per receiver. */
  private readonly rates: Array<ClockRates | undefined>;
  private readonly rateContext: BleClockRates;
  private readonly rateComparison = clockRateComparison();

  constructor(addresses: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext, rarity: BlePayloadRarity) {
    const count = addresses.length;
    this.receivers = context.receiverNames.length;
    this.first = new Float64Array(count);
    this.last = new Float64Array(count);
    const pauses = context.pauses && context.pauses.count > 0 ? context.pauses : undefined;
    this.scanFirst = pauses ? new Float64Array(count) : this.first;
    this.scanLast = pauses ? new Float64Array(count) : this.last;
    this.edges = new Uint8Array(count);
    this.margin = new Float64Array(count);
    this.interval = new Float64Array(count);
    this.heardGap = new Float64Array(count);
    this.nrpa = new Uint8Array(count);
    this.irk = new Int32Array(count);
    this.headPayload = new Int32Array(count);
    this.tailPayload = new Int32Array(count);
    this.headTemplate = new Int32Array(count);
    this.tailTemplate = new Int32Array(count);
    this.sameSignatureLlr = new Float64Array(count);
    this.sameTemplateLlr = new Float64Array(count);
    this.differentLlr = new Float64Array(count);
    this.tailRssi = new Float64Array(count * this.receivers).fill(Number.NaN);
    this.headRssi = new Float64Array(count * this.receivers).fill(Number.NaN);
    this.tailPackets = new Uint8Array(count * this.receivers);
    this.headPackets = new Uint8Array(count * this.receivers);
    // As in describePair: shares among the other addresses, floored.
    const n = payloadPeers(rarity.total);
    for (let i = 0; i < count; i++) {
      const { profile, type, irk } = addresses[i];
      this.first[i] = profile.firstMs;
      this.last[i] = profile.lastMs;
      if (pauses) {
        this.scanFirst[i] = pauses.scanningMs(profile.firstMs);
        this.scanLast[i] = pauses.scanningMs(profile.lastMs);
        this.margin[i] = edgeMarginMs(profile, pauses);
      }
      this.edges[i] = edgesOutsidePauses(profile, pauses);
      this.interval[i] = profile.advIntervalS;
      this.heardGap[i] = heardGapS(profile, pauses);
      this.nrpa[i] = type === 'nrpa' ? 1 : 0;
      this.irk[i] = irk;
      this.headPayload[i] = profile.headPayload;
      this.tailPayload[i] = profile.tailPayload;
      const tailTemplate = rarity.templateId(profile.tailPayload);
      this.headTemplate[i] = rarity.templateId(profile.headPayload);
      this.tailTemplate[i] = tailTemplate;
      const templateShare = payloadShare(rarity.templateCount(tailTemplate), n);
      const signatureShare = payloadShare(rarity.signatureCount(profile.tailPayload), n);
      this.sameSignatureLlr[i] = sameSignatureLlr(signatureShare);
      this.sameTemplateLlr[i] = sameTemplateLlr(templateShare);
      this.differentLlr[i] = differentContentLlr(templateShare);
      const { from, receiver, headRssi, tailRssi, headCount, tailCount } = context.receivers;
      for (let row = from[profile.id]; row < from[profile.id + 1]; row++) {
        this.tailRssi[i * this.receivers + receiver[row]] = tailRssi[row];
        this.headRssi[i * this.receivers + receiver[row]] = headRssi[row];
        this.tailPackets[i * this.receivers + receiver[row]] = tailCount[row];
        this.headPackets[i * this.receivers + receiver[row]] = headCount[row];
      }
    }
    this.window = context.linkageWindowS;
    this.drift = context.rssiLevelDrift;
    this.profileId = Int32Array.from(addresses, (address) => address.profile.id);
    this.tolerance = overlapToleranceS(context.clockSkewMs);
    const clockRates = context.clockRates;
    this.rates = addresses.map((address) => clockRates?.byProfile[address.profile.id]);
    this.rateContext = clockRates ?? NO_CLOCK_RATES;
  }

  /**
   * logK[e] for every candidate pair e (earlier[e] = A → later[e] = B): LOG_K_LIMIT for a shared
   * IRK, else A's prior per candidate plus the summed log-likelihood ratio of the pair, clamped;
   * the sum mirrors `describePair` term by term. One loop over the pairs with the columns in
   * locals: a method call per pair re-read a dozen fields and cost a call.
   */
  scoreAll(pairs: BleCandidatePairs, priorPerCandidate: Float64Array, logK: Float64Array): void {
    const { first, last, scanFirst, scanLast, edges, margin, interval, heardGap, nrpa, irk, headPayload, tailPayload, headTemplate, tailTemplate, tailRssi, headRssi, tailPackets, headPackets, receivers, window, tolerance, rates, drift, profileId } = this;
    const sameSignature = this.sameSignatureLlr;
    const sameTemplate = this.sameTemplateLlr;
    const different = this.differentLlr;
    const { earlier, later } = pairs;
    for (let e = 0; e < earlier.length; e++) {
      const a = earlier[e];
      const b = later[e];
      if (irk[a] >= 0 && irk[a] === irk[b]) {
        logK[e] = LOG_K_LIMIT;
        continue;
      }
      let total = 0;
      const intervalA = interval[a];
      const intervalB = interval[b];
      if ((first[b] - last[a]) / 1000 >= -tolerance) {
        const gapMs = scanFirst[b] - scanLast[a];
        if (handoffUnseen(gapMs, margin[a] + margin[b], (edges[a] & END_SEEN) !== 0, (edges[b] & START_SEEN) !== 0)) total += UNSEEN_HANDOFF_LLR;
        else total += handoffGapLlr(gapMs / 1000, intervalA, intervalB, nrpa[a] === 1, window, heardGap[a] + heardGap[b]);
      } else total += OVERLAP_CONTRADICTION_LLR;

      let rssiLlr = 0;
      let heardBoth = 0;
      const levelVariance = rssiLevelVarianceFor(drift ? pairLevelVariance(drift, profileId[a], profileId[b], RSSI_EDGE_SCATTER) : Number.NaN);
      for (let receiver = 0; receiver < receivers; receiver++) {
        const tail = tailRssi[a * receivers + receiver];
        if (Number.isNaN(tail)) continue;
        const head = headRssi[b * receivers + receiver];
        if (Number.isNaN(head)) continue;
        rssiLlr += RSSI_RECEIVER_WEIGHT * rssiContinuityLlr(head - tail, headPackets[b * receivers + receiver], tailPackets[a * receivers + receiver], levelVariance);
        heardBoth++;
      }
      if (heardBoth > 0) total += rssiLlr;

      const sigA = tailPayload[a];
      const sigB = headPayload[b];
      if (sigA === sigB && sigA >= 0) total += sameSignature[a];
      else if (tailTemplate[a] === headTemplate[b]) total += sameTemplate[a];
      else total += different[a];

      if (Number.isFinite(intervalA) && Number.isFinite(intervalB)) total += intervalSimilarityLlr(intervalA, intervalB);
      const ratesA = rates[a];
      const ratesB = rates[b];
      if (ratesA !== undefined && ratesB !== undefined) total += clockRateLlr(ratesA, ratesB, this.rateContext, this.rateComparison);

      if (nrpa[a] !== nrpa[b]) total += ADDRESS_KIND_LLR;
      const irkA = irk[a];
      const irkB = irk[b];
      if (irkA >= 0 && irkB !== irkA) total += irkMismatchLlr(irkB >= 0);
      logK[e] = clamp(priorPerCandidate[a] + total, -LOG_K_LIMIT, LOG_K_LIMIT);
    }
  }
}

/**
 * Candidate pairs by a time sweep over addresses sorted by first packet. Pairs come grouped by
 * the earlier address (in index order); within a group in sweep order when there are at most
 * MAX_CANDIDATES, else the MAX_CANDIDATES nearest by (|B's start − A's end|, B's index), ascending.
 */
export function sweepCandidates(addresses: ReadonlyArray<BleLinkableAddress>, linkageWindowS: number, pauses?: BleScanPauses): BleCandidatePairs {
  const count = addresses.length;
  const firstOf = new Float64Array(count);
  const lastOf = new Float64Array(count);
  // In scanning time: the window and the nearness of candidates leave scan pauses out.
  const scanning = pauses && pauses.count > 0 ? pauses : undefined;
  for (let index = 0; index < count; index++) {
    const { firstMs, lastMs } = addresses[index].profile;
    firstOf[index] = scanning ? scanning.scanningMs(firstMs) : firstMs;
    lastOf[index] = scanning ? scanning.scanningMs(lastMs) : lastMs;
  }
  const byFirst = indicesByKey(firstOf, (x, y) => addresses[x].address < addresses[y].address);
  // Parallel arrays in sweep order: the inner loop reads nothing else.
  const firsts = new Float64Array(count);
  const lasts = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    firsts[k] = firstOf[byFirst[k]];
    lasts[k] = lastOf[byFirst[k]];
  }
  // Each A's cap, and room for all of them.
  const caps = new Uint8Array(count).fill(MAX_CANDIDATES);
  let room = count * MAX_CANDIDATES;
  if (scanning) {
    for (let index = 0; index < count; index++) {
      if (edgesOutsidePauses(addresses[index].profile, scanning) & END_SEEN) continue;
      caps[index] = MAX_CANDIDATES_ACROSS_PAUSE;
      room += MAX_CANDIDATES_ACROSS_PAUSE - MAX_CANDIDATES;
    }
  }
  const earlier = new Int32Array(room);
  const later = new Int32Array(room);
  let pairs = 0;
  const windowMs = linkageWindowS * 1000;
  // Sweep positions of the candidates taken for one A (at most MAX_CANDIDATES plus ties).
  const taken = new Int32Array(count);
  const takenDistance = new Float64Array(count);
  for (let ai = 0; ai < count; ai++) {
    const cap = caps[ai];
    const aFirst = firstOf[ai];
    const aLast = lastOf[ai];
    const from = lowerBoundFloat64(firsts, aLast - OVERLAP_LIMIT_S * 1000, 0, count);
    const to = upperBoundFloat64(firsts, aLast + windowMs, from, count);
    // Distances |B's start − A's end| rise in both directions from A's end: take the nearest
    // outwards, merging the two sides, until MAX_CANDIDATES are taken and the next is farther.
    let left = lowerBoundFloat64(firsts, aLast, from, to) - 1;
    let right = left + 1;
    let kept = 0;
    let farthest = 0;
    let more = false;
    for (;;) {
      // B qualifies when it is not A, starts after A starts and ends after A ends.
      while (left >= from && (byFirst[left] === ai || firsts[left] <= aFirst || lasts[left] <= aLast)) left--;
      while (right < to && (byFirst[right] === ai || firsts[right] <= aFirst || lasts[right] <= aLast)) right++;
      const leftDistance = left >= from ? aLast - firsts[left] : Infinity;
      const rightDistance = right < to ? firsts[right] - aLast : Infinity;
      const distance = Math.min(leftDistance, rightDistance);
      if (distance === Infinity) break;
      if (kept >= cap && distance !== farthest) {
        more = true;
        break;
      }
      taken[kept] = leftDistance <= rightDistance ? left-- : right++;
      takenDistance[kept++] = distance;
      farthest = distance;
    }
    // Insertion sort of the few taken: by sweep position when they are all the qualifying ones,
    // else by (distance, index), keeping the MAX_CANDIDATES first (ties at the last distance are all in).
    const nearest = more || kept > cap;
    for (let index = 1; index < kept; index++) {
      const k = taken[index];
      const distance = takenDistance[index];
      const bi = byFirst[k];
      let at = index;
      while (at > 0 && (nearest ? takenDistance[at - 1] > distance || (takenDistance[at - 1] === distance && byFirst[taken[at - 1]] > bi) : taken[at - 1] > k)) {
        taken[at] = taken[at - 1];
        takenDistance[at] = takenDistance[at - 1];
        at--;
      }
      taken[at] = k;
      takenDistance[at] = distance;
    }
    if (nearest) kept = cap;
    for (let index = 0; index < kept; index++) {
      earlier[pairs] = ai;
      later[pairs++] = byFirst[taken[index]];
    }
  }
  // Views of the first `pairs`, not copies: the arrays are nearly full (most addresses have
  // MAX_CANDIDATES), and a copy was another 0.4 MB of typed arrays per 1M analysis.
  return { earlier: earlier.subarray(0, pairs), later: later.subarray(0, pairs) };
}

/** Scores and calibrates every candidate pair. */
export function linkAddresses(addresses: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext): BleLinks {
  const pairs = sweepCandidates(addresses, context.linkageWindowS, context.pauses);
  const rarity = new BlePayloadRarity(
    addresses.map((address) => address.profile),
    context.payloads,
  );
  const scorer = new PairScorer(addresses, context, rarity);
  const count = pairs.earlier.length;
  const candidateCount = new Int32Array(addresses.length);
  for (let e = 0; e < count; e++) candidateCount[pairs.earlier[e]]++;
  const priors = new Float64Array(addresses.length);
  const edgesSeen = new Uint8Array(addresses.length);
  // The prior spread over A's candidates, in log odds.
  const priorPerCandidate = new Float64Array(addresses.length);
  const irk = new Int32Array(addresses.length);
  for (let index = 0; index < addresses.length; index++) {
    edgesSeen[index] = lifetimeEdgesSeen(addresses[index], context);
    priors[index] = successorPriorLogOdds(addresses[index], context, edgesSeen[index]);
    if (candidateCount[index] > 0) priorPerCandidate[index] = priors[index] - Math.log(candidateCount[index]);
    irk[index] = addresses[index].irk;
  }
  const logK = new Float64Array(count);
  scorer.scoreAll(pairs, priorPerCandidate, logK);
  // The marginals replace the log-weights, which nothing reads after belief propagation.
  const marginals = matchingMarginals(addresses.length, pairs, logK, logK);
  const every = context.describeCandidates ?? false;
  const factors: Array<BleLinkFactor[] | undefined> = every ? new Array(count) : [];
  // Described by the model's own probability: calibration lifts the many near-zero pairs to the
  // small base rate of their bin, and describing all of them would dominate the cost.
  const described = new Uint8Array(count);
  // Pairs are described into one scratch list and keep an exact-size copy: a list grown by push
  // keeps room for more, and these lists live to the end of the analysis.
  const scratch: BleLinkFactor[] = [];
  for (let e = 0; e < count; e++) {
    const ai = pairs.earlier[e];
    const bi = pairs.later[e];
    const sameKey = irk[ai] >= 0 && irk[ai] === irk[bi];
    if (!sameKey && marginals[e] < DESCRIBE_ABOVE) continue;
    described[e] = 1;
    if (!every) continue;
    const a = addresses[ai];
    scratch.length = 0;
    scratch.push(sameKey ? { name: 'irk_resolution', llr: Infinity, text: `both resolve under IRK '${context.irkLabels[a.irk]}'` } : describePrior(a, context, priors[ai], edgesSeen[ai]));
    describePair(a, addresses[bi], context, rarity, scratch);
    factors[e] = scratch.slice();
  }
  // Calibrated in place, after the marginals were read; a shared IRK is certain, an overlap impossible.
  const probability = marginals;
  const raw = every ? Float64Array.from(marginals) : undefined;
  const tolerance = overlapToleranceS(context.clockSkewMs);
  if (!context.uncalibrated) calibrateInPlace('handoff', probability);
  for (let e = 0; e < count; e++) {
    const ai = pairs.earlier[e];
    const bi = pairs.later[e];
    if (irk[ai] >= 0 && irk[ai] === irk[bi]) probability[e] = 1;
    // Alive together beyond the tolerance: ruled out (co_occurrence), not the base rate of its calibration bin.
    else if ((addresses[bi].profile.firstMs - addresses[ai].profile.lastMs) / 1000 < -tolerance) probability[e] = 0;
    else continue;
    if (raw) raw[e] = Number.NaN;
  }
  return { earlier: pairs.earlier, later: pairs.later, probability, factors, handoffs: new BleHandoffDescriber(addresses, context, rarity, pairs, described, factors), ...(raw ? { raw } : {}) };
}
