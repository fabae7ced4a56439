import { rotationFitRatio } from '../classify/rotation-model.ts';
import { EDGE_PACKETS, type BleAddressProfile } from '../profile/address-profiles.ts';
import type { BleScanPauses } from '../scan/scan-pauses.ts';
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

/** The overlap a hand-off tolerates (s): OVERLAP_TOLERANCE_S plus the clock skew measured between receivers (clock-skew.ts). */
export function overlapToleranceS(clockSkewMs: number | undefined): number {
  return OVERLAP_TOLERANCE_S + (clockSkewMs ?? 0) / 1000;
}
/**
 * co_occurrence beyond the tolerance: two addresses alive together for longer are not one
 * address after the other, whatever else they share (concurrent advertising sets of one phone are
 * the co-location stage's to join), so the pair is ruled out rather than weighed.
 */
export const OVERLAP_CONTRADICTION_LLR = -25;
/** The largest log weight of a pair either way (a shared IRK is this, a different one minus this). */
export const LOG_K_LIMIT = -OVERLAP_CONTRADICTION_LLR;
/** Head/tail RSSI means of one emitter across a hand-off differ by about this much (dB, σ), for means of EDGE_PACKETS packets each. */
export const RSSI_SAME_SD_DB = 2.5;
/** …and those of two emitters by about this much (spread of levels in a room). */
export const RSSI_DIFFERENT_SD_DB = 10;
/** One packet's RSSI scatters about the emitter's level by this much (fading, dB, σ). */
export const RSSI_PACKET_SD_DB = 5;
/** The packet scatter of two full head/tail means (dB²). */
export const RSSI_EDGE_SCATTER = (2 * RSSI_PACKET_SD_DB * RSSI_PACKET_SD_DB) / EDGE_PACKETS;
/** The level change of one emitter across a hand-off, without packet scatter (dB²): RSSI_SAME_SD_DB less the scatter of two full means. */
export const RSSI_LEVEL_VARIANCE = RSSI_SAME_SD_DB * RSSI_SAME_SD_DB - RSSI_EDGE_SCATTER;

/**
 * The level variance rssi_continuity uses in a capture: the model's, or more where the capture's
 * own addresses move more between two blocks of packets (rssi-level-drift.ts; NaN: not read).
 * Never less: a quiet capture does not make one emitter's jumps rarer than the model says.
 */
export function rssiLevelVarianceFor(measured: number): number {
  return measured > RSSI_LEVEL_VARIANCE ? measured : RSSI_LEVEL_VARIANCE;
}
/**
 * The rssi_continuity floor: a large jump on one receiver is strong but bounded evidence of two
 * emitters. One emitter's level can jump 10–20 dB within seconds: a phone taken out of a pocket
 * or carried behind a body, or a device walking past the receiver (path loss changes by 10·n·log10
 * of the distance ratio: 1 m to 3 m is about 14 dB at n = 3).
 */
export const RSSI_FLOOR_LLR = -4;
/** Each receiver's RSSI continuity counts this much (receivers that hear both are not independent). */
export const RSSI_RECEIVER_WEIGHT = 0.8;
/**
 * adv_interval_similarity's model. An advertising set keeps its interval across rotations, and
 * each event starts after the interval plus advDelay, 0–10 ms at random (Core 5.x, Vol 6, Part B,
 * 4.4.2.2.1), so one set's interval, read as a low quantile of its gaps, agrees before and after
 * a rotation within a few ms: INTERVAL_JITTER_MS on each side (advDelay and a host's timestamp
 * jitter), at least INTERVAL_RELATIVE_SD of the interval. A share INTERVAL_CHANGED of hand-offs
 * may coincide with a change of interval (an app's or the stack's mode changed): those differ
 * like a log ratio of σ 0.25. Unrelated devices differ like σ 1. (Until 2026-11-28 the same
 * device was σ 0.25 alone: intervals 7001 and 6752 ms, two devices for certain, read +1.2.)
 */
const INTERVAL_JITTER_MS = 5;
const INTERVAL_RELATIVE_SD = 0.002;
const INTERVAL_CHANGED = 0.2;
const INTERVAL_CHANGED_SD = 0.25;
/** address_kind: devices rarely switch between RPA and NRPA. */
export const ADDRESS_KIND_LLR = -2.5;

export function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/** Bits of `lifetimeEdgesSeen`. */
export const START_SEEN = 1;
export const END_SEEN = 2;

/**
 * How far (ms) a scan pause may begin after an address's last packet, or end before its first,
 * and still hide that end: three of its mean gaps between packets in scanning time (a slowly
 * heard address may simply not have been heard yet when scanning paused), at least two gap
 * scales, at most a minute.
 */
export function edgeMarginMs(p: BleAddressProfile, pauses: BleScanPauses): number {
  const heardMs = pauses.scanningMs(p.lastMs) - pauses.scanningMs(p.firstMs);
  const meanGapMs = p.count > 1 ? heardMs / (p.count - 1) : 0;
  return Math.min(60_000, Math.max(2000 * handoffScaleS(p.advIntervalS, p.advIntervalS), 3 * meanGapMs));
}

/**
 * The ends of an address's life that no scan pause hides (START_SEEN | END_SEEN): its start is
 * hidden when a pause ended just before its first packet, its end when one began just after its
 * last (within edgeMarginMs). Without pauses both are seen.
 */
export function edgesOutsidePauses(p: BleAddressProfile, pauses: BleScanPauses | undefined): number {
  if (!pauses || pauses.count === 0) return START_SEEN | END_SEEN;
  const marginMs = edgeMarginMs(p, pauses);
  return (pauses.pauseBefore(p.firstMs, marginMs) > 0 ? 0 : START_SEEN) | (pauses.pauseAfter(p.lastMs, marginMs) > 0 ? 0 : END_SEEN);
}

/**
 * Which ends of an address's life were seen (START_SEEN | END_SEEN): not its start when it was
 * active within 5 s of the data's start, and neither end where a scan pause hides it
 * (edgesOutsidePauses; the data's end is weighed on its own, in the prior). An unseen end makes
 * the observed lifetime a lower bound.
 */
export function lifetimeEdgesSeen(a: BleLinkableAddress, context: BleLinkContext): number {
  const p = a.profile;
  const edges = edgesOutsidePauses(p, context.pauses);
  return p.firstMs - context.dataStartMs > 5_000 ? edges : edges & ~START_SEEN;
}

/**
 * rotation_interval_fit, the prior: log odds that A's successor is visible at all, from the fit
 * of A's lifetime to the rotation model (a lower bound when an end was not seen:
 * lifetimeEdgesSeen) and the room left after A.
 */
export function successorPriorLogOdds(a: BleLinkableAddress, context: BleLinkContext, edgesSeen: number): number {
  const p = a.profile;
  const lifetimeS = (p.lastMs - p.firstMs) / 1000;
  const ratio = rotationFitRatio(context.model, lifetimeS, edgesSeen === (START_SEEN | END_SEEN));
  let logOdds = Math.log(ratio);
  // Still active when the data ends: a successor cannot be seen.
  if (context.dataEndMs - p.lastMs < 5_000) logOdds -= 4;
  if (a.type === 'nrpa') logOdds = Math.max(logOdds, 0);
  return logOdds;
}

/** The same-emitter scale of the hand-off gap (s): two of the slower advertising interval, at least 1 s. */
export function handoffScaleS(intervalA: number, intervalB: number): number {
  const slower = Math.max(Number.isFinite(intervalA) ? intervalA : 1, Number.isFinite(intervalB) ? intervalB : 1);
  return Math.max(1, 2 * slower);
}

/**
 * An address's mean time between heard packets (s, in scanning time when `pauses` are given):
 * how far its last heard packet may trail its true end, and its first follow its true start.
 */
export function heardGapS(p: BleAddressProfile, pauses: BleScanPauses | undefined): number {
  const heardMs = pauses ? pauses.scanningMs(p.lastMs) - pauses.scanningMs(p.firstMs) : p.lastMs - p.firstMs;
  return p.count > 1 ? heardMs / (p.count - 1) / 1000 : 0;
}

/**
 * handoff_gap, for a gap of at least −overlapToleranceS. Same emitter: mostly within a few
 * advertising intervals (exponential), with a 15% chance of a capture gap anywhere in the
 * window. Different emitters: uniform over the sweep range (window + OVERLAP_LIMIT_S). The gap
 * is in scanning time (scan pauses left out, scan-pauses.ts). An emitter heard rarely (a phone's
 * set at 0.04 packets a second per receiver) shows a gap of its heard packets' spacing even
 * when it hands off at once: the exponential's scale is at least the two addresses' mean gaps
 * between heard packets (`heardGapsS`), the sum of how late the old one's last packet and the new
 * one's first may be.
 */
export function handoffGapLlr(gapS: number, intervalA: number, intervalB: number, nrpaA: boolean, windowS: number, heardGapsS = 0): number {
  const scale = Math.max(handoffScaleS(intervalA, intervalB), heardGapsS);
  const span = windowS + OVERLAP_LIMIT_S;
  const g = Math.max(0, gapS);
  // NRPA broadcasters change address per burst and pause between bursts: their next address
  // can start anywhere in the next minute or so, so half the mass goes to a broad component.
  const broad = nrpaA ? 0.5 : 0.15;
  const broadSpan = nrpaA ? Math.min(windowS, 90) : windowS;
  const same = (1 - broad) * Math.exp(-g / scale) / scale + (g <= broadSpan ? broad / broadSpan : 0);
  return Math.log(same * span);
}

/**
 * Whether the hand-off could not be seen: scanning paused right after A's last packet or right
 * before B's first (edgesOutsidePauses), and the scanning time between them is within the two
 * edge margins (`marginsMs`). Every address heard first when a burst begins then starts "right
 * after" A, so the gap says nothing about which one is A's successor: UNSEEN_HANDOFF_LLR.
 */
export function handoffUnseen(scanningGapMs: number, marginsMs: number, aEndSeen: boolean, bStartSeen: boolean): boolean {
  return !(aEndSeen && bStartSeen) && scanningGapMs <= marginsMs;
}

/** handoff_gap of a hand-off that fell in a scan pause: no evidence either way. */
export const UNSEEN_HANDOFF_LLR = 0;

/**
 * rssi_continuity on one receiver, before its RSSI_RECEIVER_WEIGHT: B's head mean less A's tail
 * mean, `d` dB, over `headPackets` and `tailPackets` packets (at most EDGE_PACKETS; fewer
 * packets scatter more, so a jump between two single packets says less), floored at
 * RSSI_FLOOR_LLR. `levelVariance`: how much one emitter's level moves across a hand-off in this
 * capture (`rssiLevelVarianceFor`).
 */
export function rssiContinuityLlr(d: number, headPackets: number, tailPackets: number, levelVariance = RSSI_LEVEL_VARIANCE): number {
  const scatter = RSSI_PACKET_SD_DB * RSSI_PACKET_SD_DB * (1 / Math.max(1, headPackets) + 1 / Math.max(1, tailPackets));
  const same = levelVariance + scatter;
  const different = RSSI_DIFFERENT_SD_DB * RSSI_DIFFERENT_SD_DB + scatter;
  return clamp(0.5 * Math.log(different / same) - (d * d) / (2 * same) + (d * d) / (2 * different), RSSI_FLOOR_LLR, 2);
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

/**
 * adv_interval_similarity (both intervals finite, in seconds): the same set keeps its interval
 * within its jitter, or (a share INTERVAL_CHANGED) changed it; devices differ (log ratio σ 1).
 */
export function intervalSimilarityLlr(intervalA: number, intervalB: number): number {
  const r = Math.log(intervalA / intervalB);
  const kept = Math.max(INTERVAL_RELATIVE_SD, (Math.SQRT2 * INTERVAL_JITTER_MS) / (1000 * Math.min(intervalA, intervalB)));
  // Densities of r up to the common 1/√(2π): kept, changed, and unrelated.
  const same = ((1 - INTERVAL_CHANGED) / kept) * Math.exp((-r * r) / (2 * kept * kept)) + (INTERVAL_CHANGED / INTERVAL_CHANGED_SD) * Math.exp((-r * r) / (2 * INTERVAL_CHANGED_SD * INTERVAL_CHANGED_SD));
  return clamp(Math.log(same) + (r * r) / 2, -2.5, 1.2);
}

/** irk_resolution when A resolves under a key and B does not resolve under it: under another key, or none. */
export function irkMismatchLlr(bHasKey: boolean): number {
  return bHasKey ? -LOG_K_LIMIT : -8;
}
