import type { BleTrackerKind } from '../shared/tracker-kind.ts';

/**
 * The tracker rotation model: each tracker kind's rotation constants and the pure formula of
 * each tracker term, once (the scorer and the describer in link-trackers.ts both call these).
 * A term is a natural-log likelihood ratio of "the same tag, one rotation on" against "another
 * tag". Sources of the constants: docs/ble-trackers.md.
 */

/** A tag has one address at a time: a successor may start at most this long before A's last packet (receiver clock offsets). */
export const TRACKER_OVERLAP_TOLERANCE_S = 2;
/** Candidates kept per earlier address. */
export const TRACKER_MAX_CANDIDATES = 16;
/** The largest log weight of a pair either way. */
export const TRACKER_LOG_K_LIMIT = 25;

/** FMDN: the ephemeral identifier (and with it the RPA) rotates every 2^10 s… */
export const FMDN_ROTATION_S = 1024;
/** …with the RPA timeout drawn up to this much past the boundary (Nordic's FMDN implementation: 1–204 s). */
export const FMDN_JITTER_S = 204;
/** SmartTag-style tags rotate their address, privacy id and aging counter about every 15 minutes. */
export const SMARTTAG_ROTATION_S = 900;
/** The range of SmartTag periods the counter test allows (s): a loose band around 15 minutes. */
export const SMARTTAG_PERIOD_MIN_S = 600;
export const SMARTTAG_PERIOD_MAX_S = 1200;
/** How far apart a SmartTag's addresses may be and still be linked by the counter (s): it survives long scan gaps. */
export const SMARTTAG_WINDOW_S = 6 * 3600;
/** Aging counters of different tags are spread over about this many values (tags activated months apart). */
const SMARTTAG_COUNTER_SPREAD = 65_536;
/** Find My separated mode: one address per day; near the owner, one per 15 minutes. */
export const FIND_MY_SEPARATED_ROTATION_S = 86_400;
export const FIND_MY_NEAR_OWNER_ROTATION_S = 900;
/** The swap of a Find My-style address: the new one is on air about this long after the old one's last packet (s, 2 s advertising). */
export const FIND_MY_SWAP_GAP_S = 2;

/** The candidate window of a kind (s): the linkage window, or longer where the evidence survives it. */
export function trackerWindowS(kind: BleTrackerKind, linkageWindowS: number): number {
  return kind === 'smarttag' ? Math.max(linkageWindowS, SMARTTAG_WINDOW_S) : linkageWindowS;
}

/**
 * The prior: log odds that A's successor is on air at all (the tag may also have left): even
 * when A ended well before the data did, hardly any chance when A was still on air at the end.
 */
export function trackerPriorLogOdds(endsBeforeDataEnd: boolean, longLivedDaily: boolean): number {
  if (!endsBeforeDataEnd) return -4;
  return longLivedDaily ? FIND_MY_DAILY_PRIOR_LOG_ODDS : 0.5;
}

/**
 * A Find My-style address in separated mode that was on air for an hour or more and stopped
 * well before the data did: its tag most likely swapped keys (tags left alone stay put; the
 * key lives a day), so its successor is likely on air.
 */
export const FIND_MY_DAILY_PRIOR_LOG_ODDS = 2;
/** …"for an hour or more" (s). */
export const FIND_MY_DAILY_MIN_LIFETIME_S = 3600;

/**
 * rssi_continuity of a tag pair on one receiver (before its weight): as the hand-off model's, but
 * with a wider spread for one emitter (4 dB): tags are heard every few seconds at most, so the
 * head and tail means average few packets and keep their fading.
 */
export function trackerRssiLlr(d: number): number {
  const same = 4;
  const different = 10;
  return Math.max(-4, Math.min(2, Math.log(different / same) - (d * d) / (2 * same * same) + (d * d) / (2 * different * different)));
}

/**
 * tracker swap gap, for a gap of at least −TRACKER_OVERLAP_TOLERANCE_S: the same tag's next
 * address comes within a few advertising intervals (exponential with `scaleS`), with a 15% chance
 * of a capture gap anywhere in the window; another tag's anywhere in the window.
 */
export function trackerGapLlr(gapS: number, scaleS: number, windowS: number): number {
  const g = Math.max(0, gapS);
  const scale = Math.max(1, scaleS);
  const span = windowS + TRACKER_OVERLAP_TOLERANCE_S;
  const same = (0.85 * Math.exp(-g / scale)) / scale + 0.15 / span;
  return Math.log(same * span);
}

/**
 * The weight of RSSI continuity across a gap of `gapS`: full across a swap, fading over minutes
 * (a carried tag's level drifts as its carrier walks; across a scan gap of a quarter hour it says
 * little).
 */
export function trackerRssiWeight(gapS: number): number {
  return 1 / (1 + Math.max(0, gapS) / TRACKER_RSSI_FADE_S);
}

/**
 * The least the summed RSSI continuity of a tag pair may count: a carried tag's level jumps with
 * its carrier's body and fading, and a few packets per address average little of it out, so
 * RSSI alone never vetoes a swap whose format fields carry over.
 */
export const TRACKER_RSSI_FLOOR_LLR = -2;

/** The gap over which RSSI continuity loses half its weight (s). */
export const TRACKER_RSSI_FADE_S = 60;

/** The gap scale of a kind: its advertising interval, at least the Find My swap gap. */
export function trackerGapScaleS(intervalA: number, intervalB: number): number {
  const slower = Math.max(Number.isFinite(intervalA) ? intervalA : FIND_MY_SWAP_GAP_S, Number.isFinite(intervalB) ? intervalB : FIND_MY_SWAP_GAP_S);
  return Math.max(FIND_MY_SWAP_GAP_S, 2 * slower);
}

/**
 * The status (Find My), frame type (FMDN) or state (SmartTag) byte carried over, or not. A tag
 * keeps it across a rotation unless its battery or owner state changes; `share` is the share of
 * the other tags of the kind that show the same byte (a common byte says less).
 */
export function trackerStateLlr(same: boolean, share: number): number {
  return same ? Math.min(3, Math.log(0.95 / Math.max(0.05, share))) : -3;
}

/** Find My: the mode changed (the owner came or went): possible, but a swap rarely coincides with it. */
export const FIND_MY_MODE_CHANGE_LLR = -2;

/**
 * FMDN: A's lifetime against the 1024 s rotation, when A's first packet was seen (else 0). The
 * RPA rotates at the 1024 s boundary plus up to FMDN_JITTER_S, so lifetimes lie in 1024 ± 204 s;
 * shorter ones are possible when packets were missed, longer ones are not (in UTP mode, frame
 * 0x41, the RPA rotates once a day instead and the lifetime says nothing).
 */
export function fmdnLifetimeLlr(lifetimeS: number, startSeen: boolean, protectionMode: boolean): number {
  if (!startSeen || protectionMode) return 0;
  if (lifetimeS > FMDN_ROTATION_S + FMDN_JITTER_S + 60) return -3;
  if (lifetimeS >= FMDN_ROTATION_S - FMDN_JITTER_S - 60) return 1.5;
  return 0;
}

/** The aging-counter steps a gap allows: the band [least, most] of rotations between A's last and B's first packets. */
export function smartTagStepRange(gapS: number, spanS: number): { least: number; most: number } {
  const g = Math.max(0, gapS);
  // At least one rotation; the full periods inside the gap, at most one per shortest period of
  // the whole span from A's first to B's first packet, plus one.
  return { least: Math.max(1, Math.floor(g / SMARTTAG_PERIOD_MAX_S)), most: Math.max(1, Math.ceil(spanS / SMARTTAG_PERIOD_MIN_S) + 1) };
}

/**
 * SmartTag aging counter: B's counter is A's plus `steps` (mod 2^24). Consistent with the gap
 * (within smartTagStepRange), strong evidence for one tag, since another tag's counter would
 * match by chance only about once in SMARTTAG_COUNTER_SPREAD / width; outside it, strong evidence
 * against; an unchanged counter on a new address, against.
 */
export function smartTagCounterLlr(steps: number, least: number, most: number): number {
  if (steps === 0) return -2;
  if (steps < least || steps > most) return -8;
  return Math.min(8, Math.log(SMARTTAG_COUNTER_SPREAD / (most - least + 1)));
}

/** Steps from counter `a` to counter `b` of a 24-bit counter. */
export function counterSteps(a: number, b: number): number {
  return (b - a + 0x1000000) % 0x1000000;
}

/** The AD template carried over (same vendor structure) or not: a tag's firmware keeps it. */
export function trackerTemplateLlr(same: boolean): number {
  return same ? 0 : -4;
}

/** A pair's log weight, clamped to ±TRACKER_LOG_K_LIMIT. */
export function clampLogK(value: number): number {
  return Math.max(-TRACKER_LOG_K_LIMIT, Math.min(TRACKER_LOG_K_LIMIT, value));
}
