import type { AddressType } from './analysis-types.ts';
import type { BleAddressProfile } from './address-profiles.ts';
import type { BlePayloadFeatures } from './observations.ts';
import { rotationFitRatio, type BleRotationModel } from './rotation-model.ts';

/**
 * Hand-off linkage of private addresses.
 *
 * 1. Candidates come from a time sweep: B is a candidate successor of A when B starts at most
 *    `linkageWindowS` after A's last packet and at most OVERLAP_LIMIT_S before it (and outlives
 *    A). Each A keeps its MAX_CANDIDATES nearest. Never across a longer gap.
 * 2. Each candidate gets a naive-Bayes log-likelihood ratio (same emitter vs not) summed over
 *    independent-ish factors: hand-off gap, RSSI continuity per receiver, payload signature /
 *    AD template match weighted by how common the template is, advertising-interval similarity,
 *    address kind, IRK evidence. The prior: A's successor is visible with probability ρ_A (odds
 *    from the fit of A's lifetime to the rotation model), spread uniformly over its n_A
 *    candidates (the candidate-set size).
 * 3. Pairwise probabilities are the marginals of a one-successor/one-predecessor matching model
 *    (weights K_AB = odds, "no successor" and "no predecessor" weight 1), estimated by sum-product
 *    belief propagation. It is exact for an isolated pair (p = K/(K+1)) and gives ≈ 1/k to each
 *    of k indistinguishable twins rotating at once, which is what keeps the scores calibrated.
 */

export interface BleLinkableAddress {
  profile: BleAddressProfile;
  address: string;
  type: AddressType;
  /** Index of the IRK that resolves it, or -1. */
  irk: number;
}

export interface BleLinkContext {
  linkageWindowS: number;
  model: BleRotationModel;
  payloads: ReadonlyArray<BlePayloadFeatures>;
  receiverNames: ReadonlyArray<string>;
  /** Time span of the analysed data (ms): addresses active at its edges are censored. */
  dataStartMs: number;
  dataEndMs: number;
  irkLabels: ReadonlyArray<string>;
}

export interface BleLinkFactor {
  name: 'irk_resolution' | 'rotation_interval_fit' | 'handoff_gap' | 'rssi_continuity' | 'payload_signature_match' | 'adv_interval_similarity' | 'co_occurrence' | 'address_kind';
  /** Natural-log likelihood ratio contribution. */
  llr: number;
  text: string;
}

export interface BleLinkEdge {
  earlier: number;
  later: number;
  probability: number;
  gapS: number;
  factors: BleLinkFactor[];
}

const OVERLAP_LIMIT_S = 30;
const MAX_CANDIDATES = 16;
/** Clock offsets between receivers and out-of-sync payload windows: overlaps this short are hand-offs. */
const OVERLAP_TOLERANCE_S = 1;
const LOG_K_LIMIT = 25;
/** Head/tail RSSI means of one emitter across a hand-off differ by about this much (dB, σ). */
const RSSI_SAME_SD_DB = 2.5;
/** …and those of two emitters by about this much (spread of levels in a room). */
const RSSI_DIFFERENT_SD_DB = 10;

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

function fixed(value: number, digits = 1): string {
  return value.toFixed(digits);
}

function signed(llr: number): string {
  return `${llr >= 0 ? '+' : '−'}${Math.abs(llr).toFixed(1)}`;
}

/** Shares of templates and payloads among the linkable addresses, for rarity weighting. */
interface PayloadRarity {
  total: number;
  signatureCount: Map<number, number>;
  templateCount: Map<string, number>;
}

function templateOf(payloads: ReadonlyArray<BlePayloadFeatures>, payload: number): string {
  return payload < 0 ? '(no AD data)' : payloads[payload].template;
}

function payloadRarity(addresses: ReadonlyArray<BleLinkableAddress>, payloads: ReadonlyArray<BlePayloadFeatures>): PayloadRarity {
  const signatureCount = new Map<number, number>();
  const templateCount = new Map<string, number>();
  for (const { profile } of addresses) {
    const seen = new Set<number>([profile.headPayload, profile.tailPayload, profile.dominantPayload]);
    for (const payload of seen) signatureCount.set(payload, (signatureCount.get(payload) ?? 0) + 1);
    const template = templateOf(payloads, profile.dominantPayload);
    templateCount.set(template, (templateCount.get(template) ?? 0) + 1);
  }
  return { total: addresses.length, signatureCount, templateCount };
}

/**
 * Summed log-likelihood ratio of one candidate pair (A earlier, B later). With `factors`, each
 * contribution is also described (text is only made for pairs that are reported: it dominates
 * the cost otherwise).
 */
function pairEvidence(a: BleLinkableAddress, b: BleLinkableAddress, context: BleLinkContext, rarity: PayloadRarity, factors?: BleLinkFactor[]): number {
  let total = 0;
  const add = (name: BleLinkFactor['name'], llr: number, text: () => string): void => {
    total += llr;
    if (factors) factors.push({ name, llr, text: text() });
  };
  const window = context.linkageWindowS;
  const pa = a.profile;
  const pb = b.profile;
  const gapS = (pb.firstMs - pa.lastMs) / 1000;

  // Hand-off gap. Same emitter: mostly within a few advertising intervals (exponential), with a
  // 15% chance of a capture gap anywhere in the window. Different emitters: uniform over the sweep range.
  const interval = Math.max(Number.isFinite(pa.advIntervalS) ? pa.advIntervalS : 1, Number.isFinite(pb.advIntervalS) ? pb.advIntervalS : 1);
  const scale = Math.max(1, 2 * interval);
  const span = window + OVERLAP_LIMIT_S;
  if (gapS >= -OVERLAP_TOLERANCE_S) {
    const g = Math.max(0, gapS);
    // NRPA broadcasters change address per burst and pause between bursts: their next address
    // can start anywhere in the next minute or so, so half the mass goes to a broad component.
    const broad = a.type === 'nrpa' ? 0.5 : 0.15;
    const broadSpan = a.type === 'nrpa' ? Math.min(window, 90) : window;
    const same = (1 - broad) * Math.exp(-g / scale) / scale + (g <= broadSpan ? broad / broadSpan : 0);
    const llr = Math.log(same * span);
    add('handoff_gap', llr, () => `hand-off gap ${fixed(gapS)} s (${signed(llr)})`);
  } else {
    const overlapS = -gapS;
    // Beyond the tolerance, each second of simultaneous activity is strong evidence of two emitters
    // (but not proof: a phone's advertising sets overlap), hence the floor instead of −∞.
    const llr = Math.max(-8, Math.log((0.03 * span) / OVERLAP_LIMIT_S) - 0.25 * overlapS);
    add('co_occurrence', llr, () => `activity overlaps by ${fixed(overlapS)} s (${signed(llr)})`);
  }

  // RSSI continuity: A's last packets against B's first, per receiver that heard both.
  let rssiLlr = 0;
  let heardBoth = 0;
  const parts: string[] | undefined = factors ? [] : undefined;
  for (const ra of pa.receivers) {
    if (Number.isNaN(ra.tailRssi)) continue;
    let rb: (typeof pb.receivers)[number] | undefined;
    for (const candidate of pb.receivers) if (candidate.receiver === ra.receiver) rb = candidate;
    if (!rb || Number.isNaN(rb.headRssi)) continue;
    const d = rb.headRssi - ra.tailRssi;
    const same = RSSI_SAME_SD_DB;
    const different = RSSI_DIFFERENT_SD_DB;
    const llr = clamp(Math.log(different / same) - (d * d) / (2 * same * same) + (d * d) / (2 * different * different), -4, 2);
    rssiLlr += 0.8 * llr;
    heardBoth++;
    parts?.push(`${context.receiverNames[ra.receiver]} Δ${fixed(Math.abs(d))} dB`);
  }
  if (heardBoth > 0) add('rssi_continuity', rssiLlr, () => `RSSI ${parts!.join(', ')} (${signed(rssiLlr)})`);

  // Payload: exact signature carried over, else same template (vendor/model structure), else different.
  const n = Math.max(1, rarity.total - 1);
  const floor = 0.5 / n;
  const sigA = pa.tailPayload;
  const sigB = pb.headPayload;
  const templateA = templateOf(context.payloads, sigA);
  const templateB = templateOf(context.payloads, sigB);
  const templateShare = Math.max(floor, ((rarity.templateCount.get(templateA) ?? 1) - 1) / n);
  if (sigA === sigB && sigA >= 0) {
    const share = Math.max(floor, ((rarity.signatureCount.get(sigA) ?? 1) - 1) / n);
    const llr = Math.log(0.6 / share);
    add('payload_signature_match', llr, () => `same payload signature (${Math.round(share * n)} other addresses carry it) (${signed(llr)})`);
  } else if (templateA === templateB) {
    const llr = Math.log(0.38 / templateShare);
    add('payload_signature_match', llr, () => `same AD template${sigA >= 0 ? ', rotating content' : ' (no AD data)'} (${Math.round(templateShare * n)} other addresses share it) (${signed(llr)})`);
  } else {
    const llr = Math.log(0.02 / Math.max(0.05, 1 - templateShare));
    add('payload_signature_match', llr, () => `different AD content (${signed(llr)})`);
  }

  // Advertising interval: same device keeps its interval (log ratio σ 0.25); devices differ (σ 1).
  if (Number.isFinite(pa.advIntervalS) && Number.isFinite(pb.advIntervalS)) {
    const r = Math.log(pa.advIntervalS / pb.advIntervalS);
    const llr = clamp(Math.log(1 / 0.25) - (r * r) / (2 * 0.25 * 0.25) + (r * r) / 2, -2.5, 1.2);
    add('adv_interval_similarity', llr, () => `advertising interval ${Math.round(pa.advIntervalS * 1000)} → ${Math.round(pb.advIntervalS * 1000)} ms (${signed(llr)})`);
  }

  if (a.type !== b.type) add('address_kind', -2.5, () => `${a.type} → ${b.type}: devices rarely switch address kind (−2.5)`);
  if (a.irk >= 0 && b.irk !== a.irk) {
    const llr = b.irk >= 0 ? -LOG_K_LIMIT : -8;
    add('irk_resolution', llr, () => `${a.address} resolves under IRK '${context.irkLabels[a.irk]}', ${b.address} does not (${signed(llr)})`);
  }
  return total;
}

/** Odds that A's successor is visible at all: rotation fit of A's lifetime, and room after A. */
function successorPriorLogOdds(a: BleLinkableAddress, context: BleLinkContext): { logOdds: number; factor: () => BleLinkFactor } {
  const p = a.profile;
  const lifetimeS = (p.lastMs - p.firstMs) / 1000;
  const startSeen = p.firstMs - context.dataStartMs > 5_000;
  const ratio = rotationFitRatio(context.model, lifetimeS, startSeen);
  let logOdds = Math.log(ratio);
  // Still active when the data ends: a successor cannot be seen.
  if (context.dataEndMs - p.lastMs < 5_000) logOdds -= 4;
  if (a.type === 'nrpa') logOdds = Math.max(logOdds, 0);
  return {
    logOdds,
    factor: () => ({
      name: 'rotation_interval_fit',
      llr: logOdds,
      text: `lifetime ${lifetimeS >= 120 ? `${fixed(lifetimeS / 60)} min` : `${Math.round(lifetimeS)} s`}${startSeen ? '' : ' (start not seen)'} vs ${context.model.name} (${signed(logOdds)})`,
    }),
  };
}

/** Candidate pairs as parallel arrays: pair e is earlier[e] → later[e]. */
export interface BleCandidatePairs {
  earlier: Int32Array;
  later: Int32Array;
}

/** Candidate pairs by a time sweep over addresses sorted by first packet. */
export function sweepCandidates(addresses: ReadonlyArray<BleLinkableAddress>, linkageWindowS: number): BleCandidatePairs {
  const byFirst = addresses.map((_, index) => index).sort((x, y) => addresses[x].profile.firstMs - addresses[y].profile.firstMs || (addresses[x].address < addresses[y].address ? -1 : 1));
  const firsts = byFirst.map((index) => addresses[index].profile.firstMs);
  const lowerBound = (value: number): number => {
    let low = 0;
    let high = firsts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (firsts[mid] < value) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const earlier: number[] = [];
  const later: number[] = [];
  const windowMs = linkageWindowS * 1000;
  const found: Array<[number, number]> = [];
  for (let ai = 0; ai < addresses.length; ai++) {
    const a = addresses[ai].profile;
    const from = lowerBound(a.lastMs - OVERLAP_LIMIT_S * 1000);
    found.length = 0;
    for (let k = from; k < byFirst.length && firsts[k] <= a.lastMs + windowMs; k++) {
      const bi = byFirst[k];
      const b = addresses[bi].profile;
      if (bi === ai || b.firstMs <= a.firstMs || b.lastMs <= a.lastMs) continue;
      found.push([bi, Math.abs(b.firstMs - a.lastMs)]);
    }
    if (found.length > MAX_CANDIDATES) found.sort((x, y) => x[1] - y[1] || x[0] - y[0]).length = MAX_CANDIDATES;
    for (const [bi] of found) {
      earlier.push(ai);
      later.push(bi);
    }
  }
  return { earlier: Int32Array.from(earlier), later: Int32Array.from(later) };
}

/** Pairs below this probability are reported without factor texts (making them dominates the cost). */
const DESCRIBE_ABOVE = 0.01;

/** Scores and calibrates every candidate pair. */
export function linkAddresses(addresses: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext): BleLinkEdge[] {
  const pairs = sweepCandidates(addresses, context.linkageWindowS);
  const rarity = payloadRarity(addresses, context.payloads);
  const candidateCount = new Int32Array(addresses.length);
  for (let e = 0; e < pairs.earlier.length; e++) candidateCount[pairs.earlier[e]]++;
  const priors = addresses.map((address) => successorPriorLogOdds(address, context));
  const count = pairs.earlier.length;
  const logK = new Float64Array(count);
  for (let e = 0; e < count; e++) {
    const ai = pairs.earlier[e];
    const a = addresses[ai];
    const b = addresses[pairs.later[e]];
    const sameKey = a.irk >= 0 && a.irk === b.irk;
    logK[e] = sameKey ? LOG_K_LIMIT : clamp(priors[ai].logOdds - Math.log(candidateCount[ai]) + pairEvidence(a, b, context, rarity), -LOG_K_LIMIT, LOG_K_LIMIT);
  }
  const marginals = matchingMarginals(addresses.length, pairs, logK);
  const edges: BleLinkEdge[] = new Array(count);
  for (let e = 0; e < count; e++) {
    const ai = pairs.earlier[e];
    const bi = pairs.later[e];
    const a = addresses[ai];
    const b = addresses[bi];
    const sameKey = a.irk >= 0 && a.irk === b.irk;
    const probability = sameKey ? 1 : marginals[e];
    let factors: BleLinkFactor[] = [];
    if (probability >= DESCRIBE_ABOVE) {
      factors = sameKey ? [{ name: 'irk_resolution', llr: Infinity, text: `both resolve under IRK '${context.irkLabels[a.irk]}'` }] : [priors[ai].factor()];
      pairEvidence(a, b, context, rarity, factors);
    }
    edges[e] = { earlier: ai, later: bi, probability, gapS: (b.profile.firstMs - a.profile.lastMs) / 1000, factors };
  }
  return edges;
}

/**
 * Marginal P(A→B) of the matching model by damped sum-product belief propagation in odds form:
 *   m(A→B) = K_AB / (1 + Σ_{B'≠B} K_AB' n(B'→A)),  n(B→A) = 1 / (1 + Σ_{A'≠A} m(A'→B)),
 *   P(A→B) = K_AB n(B→A) / (1 + Σ_B' K_AB' n(B'→A)).
 */
export function matchingMarginals(nodes: number, pairs: BleCandidatePairs, logK: Float64Array): Float64Array {
  const { earlier, later } = pairs;
  const edges = earlier.length;
  const k = new Float64Array(edges);
  for (let e = 0; e < edges; e++) k[e] = Math.exp(logK[e]);
  const m = new Float64Array(edges).fill(1);
  const nMsg = new Float64Array(edges).fill(1);
  const rowTotal = new Float64Array(nodes);
  const colTotal = new Float64Array(nodes);
  for (let iteration = 0; iteration < 50; iteration++) {
    rowTotal.fill(1);
    for (let e = 0; e < edges; e++) rowTotal[earlier[e]] += k[e] * nMsg[e];
    let change = 0;
    for (let e = 0; e < edges; e++) {
      const rest = Math.max(1, rowTotal[earlier[e]] - k[e] * nMsg[e]);
      // Damped in the log domain (geometric mean of old and new) so loops cannot oscillate.
      const damped = Math.sqrt((m[e] * k[e]) / rest);
      change = Math.max(change, Math.abs(damped - m[e]) / (damped + m[e]));
      m[e] = damped;
    }
    colTotal.fill(1);
    for (let e = 0; e < edges; e++) colTotal[later[e]] += m[e];
    for (let e = 0; e < edges; e++) {
      const rest = Math.max(1, colTotal[later[e]] - m[e]);
      const damped = Math.sqrt(nMsg[e] / rest);
      change = Math.max(change, Math.abs(damped - nMsg[e]) / (damped + nMsg[e]));
      nMsg[e] = damped;
    }
    if (change < 1e-4) break;
  }
  rowTotal.fill(1);
  for (let e = 0; e < edges; e++) rowTotal[earlier[e]] += k[e] * nMsg[e];
  const marginals = new Float64Array(edges);
  for (let e = 0; e < edges; e++) marginals[e] = clamp((k[e] * nMsg[e]) / rowTotal[earlier[e]], 0, 1);
  return marginals;
}
