import { rotationFitRatio } from '../classify/rotation-model.ts';
import type { BleLinkableAddress, BleLinkContext } from './handoff-types.ts';

/**
 * The hand-off model: each term's constants and its formula, once. The scorer (linkage.ts,
 * every candidate pair, no texts) and the describer (handoff-description.ts, the reported pairs
 * in words) both call these, so the two cannot drift apart; the candidate sweep reads
 * OVERLAP_LIMIT_S. A term is a natural-log likelihood ratio of "same emitter" against "not".
 */

/** How long B may start before A's last packet and still be a candidate successor (s). */
export const OVERLAP_LIMIT_S = 30;
/** Clock offsets between receivers and out-of-sync payload windows: overlaps this short are hand-offs. */
export const OVERLAP_TOLERANCE_S = 1;
/** The largest log weight of a pair either way (a shared IRK is this, a different one minus this). */
export const LOG_K_LIMIT = 25;
/** Head/tail RSSI means of one emitter across a hand-off differ by about this much (dB, σ). */
export const RSSI_SAME_SD_DB = 2.5;
/** …and those of two emitters by about this much (spread of levels in a room). */
export const RSSI_DIFFERENT_SD_DB = 10;
/** The constant term of the RSSI continuity log ratio (one Math.log less per receiver and pair). */
const RSSI_LOG_SD_RATIO = Math.log(RSSI_DIFFERENT_SD_DB / RSSI_SAME_SD_DB);
/** Each receiver's RSSI continuity counts this much (receivers that hear both are not independent). */
export const RSSI_RECEIVER_WEIGHT = 0.8;
/** The constant term of the advertising-interval log ratio. */
const INTERVAL_LOG_SD_RATIO = Math.log(1 / 0.25);
/** address_kind: devices rarely switch between RPA and NRPA. */
export const ADDRESS_KIND_LLR = -2.5;

export function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/**
 * rotation_interval_fit, the prior: log odds that A's successor is visible at all, from the fit
 * of A's lifetime to the rotation model and the room left after A.
 */
export function successorPriorLogOdds(a: BleLinkableAddress, context: BleLinkContext): number {
  const p = a.profile;
  const lifetimeS = (p.lastMs - p.firstMs) / 1000;
  const startSeen = p.firstMs - context.dataStartMs > 5_000;
  const ratio = rotationFitRatio(context.model, lifetimeS, startSeen);
  let logOdds = Math.log(ratio);
  // Still active when the data ends: a successor cannot be seen.
  if (context.dataEndMs - p.lastMs < 5_000) logOdds -= 4;
  if (a.type === 'nrpa') logOdds = Math.max(logOdds, 0);
  return logOdds;
}

/**
 * handoff_gap, for a gap of at least −OVERLAP_TOLERANCE_S. Same emitter: mostly within a few
 * advertising intervals (exponential), with a 15% chance of a capture gap anywhere in the
 * window. Different emitters: uniform over the sweep range (window + OVERLAP_LIMIT_S).
 */
export function handoffGapLlr(gapS: number, intervalA: number, intervalB: number, nrpaA: boolean, windowS: number): number {
  const slower = Math.max(Number.isFinite(intervalA) ? intervalA : 1, Number.isFinite(intervalB) ? intervalB : 1);
  const scale = Math.max(1, 2 * slower);
  const span = windowS + OVERLAP_LIMIT_S;
  const g = Math.max(0, gapS);
  // NRPA broadcasters change address per burst and pause between bursts: their next address
  // can start anywhere in the next minute or so, so half the mass goes to a broad component.
  const broad = nrpaA ? 0.5 : 0.15;
  const broadSpan = nrpaA ? Math.min(windowS, 90) : windowS;
  const same = (1 - broad) * Math.exp(-g / scale) / scale + (g <= broadSpan ? broad / broadSpan : 0);
  return Math.log(same * span);
}

/** The co_occurrence term before its overlap part (a constant of the window). */
export function coOccurrenceBase(windowS: number): number {
  return Math.log((0.03 * (windowS + OVERLAP_LIMIT_S)) / OVERLAP_LIMIT_S);
}

/**
 * co_occurrence, for activity overlapping beyond the tolerance: each second of it is strong
 * evidence of two emitters (but not proof: a phone's advertising sets overlap), hence the floor
 * instead of −∞. `base` is coOccurrenceBase of the window.
 */
export function coOccurrenceLlr(overlapS: number, base: number): number {
  return Math.max(-8, base - 0.25 * overlapS);
}

/** rssi_continuity on one receiver, before its RSSI_RECEIVER_WEIGHT: B's head mean less A's tail mean, `d` dB. */
export function rssiContinuityLlr(d: number): number {
  const same = RSSI_SAME_SD_DB;
  const different = RSSI_DIFFERENT_SD_DB;
  return clamp(RSSI_LOG_SD_RATIO - (d * d) / (2 * same * same) + (d * d) / (2 * different * different), -4, 2);
}

/** Addresses other than the one asking that share a signature or template carried by `count` addresses (an unseen one counts as its own). */
export function othersSharing(count: number): number {
  return Math.max(1, count) - 1;
}

/** The addresses a payload share is counted among: all but the one asking, at least 1. */
export function payloadPeers(total: number): number {
  return Math.max(1, total - 1);
}

/** Share of the `peers` other addresses carrying a signature or template carried by `count` addresses, floored at half an address. */
export function payloadShare(count: number, peers: number): number {
  return Math.max(0.5 / peers, othersSharing(count) / peers);
}

/** payload_signature_match when B's first signature is A's last, carried by a `share` of the others. */
export function sameSignatureLlr(share: number): number {
  return Math.log(0.6 / share);
}

/** payload_signature_match when only the AD template (vendor/model structure) carries over. */
export function sameTemplateLlr(templateShare: number): number {
  return Math.log(0.38 / templateShare);
}

/** payload_signature_match when neither carries over (A's template has `templateShare`). */
export function differentContentLlr(templateShare: number): number {
  return Math.log(0.02 / Math.max(0.05, 1 - templateShare));
}

/** adv_interval_similarity (both intervals finite): the same device keeps its interval (log ratio σ 0.25), devices differ (σ 1). */
export function intervalSimilarityLlr(intervalA: number, intervalB: number): number {
  const r = Math.log(intervalA / intervalB);
  return clamp(INTERVAL_LOG_SD_RATIO - (r * r) / (2 * 0.25 * 0.25) + (r * r) / 2, -2.5, 1.2);
}

/** irk_resolution when A resolves under a key and B does not resolve under it: under another key, or none. */
export function irkMismatchLlr(bHasKey: boolean): number {
  return bHasKey ? -LOG_K_LIMIT : -8;
}
