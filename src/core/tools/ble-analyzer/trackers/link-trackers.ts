import type { BleLinkableAddress, BleLinkContext, BleLinkFactor } from '../handoff/handoff-types.ts';
import type { BleCandidatePairs } from '../handoff/matching-marginals.ts';
import { matchingMarginals } from '../handoff/matching-marginals.ts';
import { RSSI_RECEIVER_WEIGHT } from '../handoff/handoff-model.ts';
import { toFixedOne } from '../shared/fixed-one.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import { readTrackerPayload, type BleTrackerReading } from './tracker-payloads.ts';
import {
  clampLogK,
  FIND_MY_DAILY_MIN_LIFETIME_S,
  counterSteps,
  FIND_MY_MODE_CHANGE_LLR,
  fmdnLifetimeLlr,
  smartTagCounterLlr,
  smartTagStepRange,
  TRACKER_MAX_CANDIDATES,
  TRACKER_OVERLAP_TOLERANCE_S,
  TRACKER_RSSI_FLOOR_LLR,
  trackerGapLlr,
  trackerGapScaleS,
  trackerPriorLogOdds,
  trackerRssiLlr,
  trackerRssiWeight,
  trackerStateLlr,
  trackerTemplateLlr,
  trackerWindowS,
} from './tracker-model.ts';

/**
 * Hand-off linkage of tracker tags across their rotations, by their own rotation models
 * (tracker-model.ts): a tag's next address shows the same tracker kind, and what the kind keeps
 * across a rotation — Find My's status byte and mode, FMDN's frame type and identifier length
 * and its 1024 s schedule, SmartTag's aging counter one step (or as many as the gap allows)
 * further. Candidates pair only tags of one kind; a tag has one address at a time, so a
 * successor may not overlap its predecessor. Probabilities are the marginals of the same
 * one-successor/one-predecessor matching model the general hand-offs use (matching-marginals.ts),
 * so k indistinguishable tags swapping at once get about 1/k each.
 */

/** Tracker pairs as parallel arrays over the linkable addresses: pair e is earlier[e] → later[e]. */
export interface BleTrackerLinks {
  earlier: Int32Array;
  later: Int32Array;
  probability: Float64Array;
  /** The kind of each pair's tags. */
  kind: BleTrackerKind[];
  /** Each pair's tracker evidence in words (the tracker_rotation factor; empty below DESCRIBE_TRACKER_ABOVE). */
  evidence: string[];
  /** With `describeCandidates`: every factor of each pair. Empty otherwise. */
  factors: Array<BleLinkFactor[] | undefined>;
}

/** Pairs whose probability reaches this get their evidence in words. */
export const DESCRIBE_TRACKER_ABOVE = 0.01;

/** What one address shows of its kind at its first and last packet. */
interface TagEnds {
  head: BleTrackerReading;
  tail: BleTrackerReading;
  /** Its most frequent payload's state byte (status, frame type or state), for how common it is. */
  state: number;
}

/** The state byte of a reading (−1 for none). */
function stateOf(reading: BleTrackerReading): number {
  switch (reading.kind) {
    case 'find_my':
      return reading.status;
    case 'fmdn':
      return reading.frameType;
    case 'smarttag':
      return reading.state;
    default:
      return -1;
  }
}

/** Links the linkable addresses that carry a tracker kind. */
export function linkTrackers(addresses: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext): BleTrackerLinks {
  const tags: number[] = [];
  for (let index = 0; index < addresses.length; index++) if (addresses[index].tracker) tags.push(index);
  const ends = new Map<number, TagEnds>();
  const read = (payload: number): BleTrackerReading => (payload < 0 ? { kind: 'none' } : readTrackerPayload(context.payloads.payloadFeatures(payload)));
  // How many tags of each kind show each state byte.
  const stateCounts = new Map<string, number>();
  const kindCounts = new Map<BleTrackerKind, number>();
  for (const index of tags) {
    const { profile, tracker } = addresses[index];
    const dominant = read(profile.dominantPayload);
    const own = (reading: BleTrackerReading) => (reading.kind === tracker ? reading : dominant);
    const state = stateOf(dominant);
    ends.set(index, { head: own(read(profile.headPayload)), tail: own(read(profile.tailPayload)), state });
    const key = `${tracker}:${state}`;
    stateCounts.set(key, (stateCounts.get(key) ?? 0) + 1);
    kindCounts.set(tracker as BleTrackerKind, (kindCounts.get(tracker as BleTrackerKind) ?? 0) + 1);
  }
  const pairs = directSuccessors(trackerCandidates(addresses, tags, context.linkageWindowS), addresses, ends);
  const count = pairs.earlier.length;
  const candidateCount = new Int32Array(addresses.length);
  for (let e = 0; e < count; e++) candidateCount[pairs.earlier[e]]++;
  const logK = new Float64Array(count);
  const kinds = new Array<BleTrackerKind>(count);
  const scorer = new TrackerPairScorer(addresses, context, ends, stateCounts, kindCounts);
  for (let e = 0; e < count; e++) {
    const a = pairs.earlier[e];
    const kind = addresses[a].tracker as BleTrackerKind;
    kinds[e] = kind;
    const pa = addresses[a].profile;
    const tail = ends.get(a)?.tail;
    const longLivedDaily = tail?.kind === 'find_my' && tail.mode === 'separated' && (pa.lastMs - pa.firstMs) / 1000 >= FIND_MY_DAILY_MIN_LIFETIME_S;
    const prior = trackerPriorLogOdds(context.dataEndMs - pa.lastMs >= 5_000, longLivedDaily) - Math.log(candidateCount[a]);
    logK[e] = clampLogK(prior + scorer.score(a, pairs.later[e], undefined));
  }
  const probability = matchingMarginals(addresses.length, pairs, logK);
  const every = context.describeCandidates ?? false;
  const evidence = new Array<string>(count).fill('');
  const factors: Array<BleLinkFactor[] | undefined> = every ? new Array(count) : [];
  for (let e = 0; e < count; e++) {
    if (probability[e] < DESCRIBE_TRACKER_ABOVE && !every) continue;
    const listed: BleLinkFactor[] = [];
    scorer.score(pairs.earlier[e], pairs.later[e], listed);
    const tracker = listed.find((factor) => factor.name === 'tracker_rotation');
    if (probability[e] >= DESCRIBE_TRACKER_ABOVE && tracker) evidence[e] = tracker.text;
    if (every) factors[e] = listed;
  }
  return { earlier: pairs.earlier, later: pairs.later, probability, kind: kinds, evidence, factors };
}

/**
 * Candidate pairs among tags of one kind: B starts after A's last packet (or at most
 * TRACKER_OVERLAP_TOLERANCE_S before it), within the kind's window, and outlives A; each A keeps
 * its TRACKER_MAX_CANDIDATES nearest. Grouped by A in index order, each group by (distance, index).
 */
export function trackerCandidates(addresses: ReadonlyArray<BleLinkableAddress>, tags: ReadonlyArray<number>, linkageWindowS: number): BleCandidatePairs {
  const byFirst = [...tags].sort((x, y) => addresses[x].profile.firstMs - addresses[y].profile.firstMs || x - y);
  const firsts = byFirst.map((index) => addresses[index].profile.firstMs);
  const earlier: number[] = [];
  const later: number[] = [];
  const taken: Array<{ index: number; distance: number }> = [];
  for (const a of tags) {
    const pa = addresses[a].profile;
    const kind = addresses[a].tracker;
    const windowMs = (kind ? trackerWindowS(kind, linkageWindowS) : linkageWindowS) * 1000;
    taken.length = 0;
    for (let k = lowerBound(firsts, pa.lastMs - TRACKER_OVERLAP_TOLERANCE_S * 1000); k < byFirst.length && firsts[k] <= pa.lastMs + windowMs; k++) {
      const b = byFirst[k];
      const pb = addresses[b].profile;
      if (b === a || addresses[b].tracker !== kind || pb.firstMs <= pa.firstMs || pb.lastMs <= pa.lastMs) continue;
      taken.push({ index: b, distance: Math.abs(pb.firstMs - pa.lastMs) });
    }
    taken.sort((x, y) => x.distance - y.distance || x.index - y.index);
    for (let at = 0; at < Math.min(TRACKER_MAX_CANDIDATES, taken.length); at++) {
      earlier.push(a);
      later.push(taken[at].index);
    }
  }
  return { earlier: Int32Array.from(earlier), later: Int32Array.from(later) };
}

/**
 * The candidates left when those that skip an observed rotation are dropped: a SmartTag pair
 * A → C whose counter skips values one of A's other candidates B shows, on air between them. If
 * A and C were one tag, B would be that tag one rotation on, so C is not A's direct successor —
 * and were the pair kept, every address's next-but-one would compete with its next one (two
 * interleaved chains splitting the probability), and its near-zero probability would be listed
 * for a pair of one device.
 */
export function directSuccessors(pairs: BleCandidatePairs, addresses: ReadonlyArray<BleLinkableAddress>, ends: ReadonlyMap<number, TagEnds>): BleCandidatePairs {
  const counterOf = (index: number, end: 'head' | 'tail'): number => {
    const reading = ends.get(index)?.[end];
    return reading?.kind === 'smarttag' ? reading.agingCounter : -1;
  };
  const keep: number[] = [];
  for (let from = 0; from < pairs.earlier.length; ) {
    const a = pairs.earlier[from];
    let to = from;
    while (to < pairs.earlier.length && pairs.earlier[to] === a) to++;
    const tail = counterOf(a, 'tail');
    for (let e = from; e < to; e++) {
      const c = pairs.later[e];
      const head = tail < 0 ? -1 : counterOf(c, 'head');
      const steps = head < 0 ? 0 : counterSteps(tail, head);
      let skipped = false;
      for (let other = from; other < to && steps > 1 && !skipped; other++) {
        const b = pairs.later[other];
        const pb = addresses[b].profile;
        if (b === c || pb.firstMs < addresses[a].profile.lastMs || pb.lastMs > addresses[c].profile.firstMs) continue;
        const between = counterOf(b, 'head');
        skipped = between >= 0 && counterSteps(tail, between) > 0 && counterSteps(tail, between) < steps;
      }
      if (!skipped) keep.push(e);
    }
    from = to;
  }
  if (keep.length === pairs.earlier.length) return pairs;
  return { earlier: Int32Array.from(keep, (e) => pairs.earlier[e]), later: Int32Array.from(keep, (e) => pairs.later[e]) };
}

/** The first position whose value is at least `value` in an ascending list. */
function lowerBound(values: ReadonlyArray<number>, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The kinds in words. */
export const TRACKER_KIND_NAMES: Record<BleTrackerKind, string> = { find_my: 'Find My-style tag', fmdn: 'FMDN-style tag', smarttag: 'SmartTag-style tag' };

function hexByteText(value: number): string {
  return `0x${value.toString(16).padStart(2, '0')}`;
}

function signed(llr: number): string {
  return `${llr >= 0 ? '+' : '−'}${toFixedOne(Math.abs(llr))}`;
}

/** The sum of a pair's terms, and with `factors` each term in words (the same terms, in the same order). */
class TrackerPairScorer {
  constructor(
    private readonly addresses: ReadonlyArray<BleLinkableAddress>,
    private readonly context: BleLinkContext,
    private readonly ends: ReadonlyMap<number, TagEnds>,
    private readonly stateCounts: ReadonlyMap<string, number>,
    private readonly kindCounts: ReadonlyMap<BleTrackerKind, number>,
  ) {}

  score(a: number, b: number, factors: BleLinkFactor[] | undefined): number {
    const { addresses, context } = this;
    const pa = addresses[a].profile;
    const pb = addresses[b].profile;
    const kind = addresses[a].tracker as BleTrackerKind;
    const gapS = (pb.firstMs - pa.lastMs) / 1000;
    const windowS = trackerWindowS(kind, context.linkageWindowS);
    let total = 0;

    // The smarttag counter counts the rotations a long gap hides: the gap itself says little there.
    const gapLlr = trackerGapLlr(gapS, trackerGapScaleS(pa.advIntervalS, pb.advIntervalS), windowS);
    total += gapLlr;
    factors?.push({ name: 'handoff_gap', llr: gapLlr, text: `swap gap ${toFixedOne(gapS)} s (${signed(gapLlr)})` });

    let rssiLlr = 0;
    const rssiWeight = RSSI_RECEIVER_WEIGHT * trackerRssiWeight(gapS);
    const rssiTexts: string[] = [];
    const { from, receiver, headRssi, tailRssi } = context.receivers;
    for (let ra = from[pa.id]; ra < from[pa.id + 1]; ra++) {
      if (Number.isNaN(tailRssi[ra])) continue;
      for (let rb = from[pb.id]; rb < from[pb.id + 1]; rb++) {
        if (receiver[rb] !== receiver[ra] || Number.isNaN(headRssi[rb])) continue;
        const d = headRssi[rb] - tailRssi[ra];
        rssiLlr += rssiWeight * trackerRssiLlr(d);
        if (factors) rssiTexts.push(`${context.receiverNames[receiver[ra]]} Δ${toFixedOne(Math.abs(d))} dB`);
      }
    }
    rssiLlr = Math.max(TRACKER_RSSI_FLOOR_LLR, rssiLlr);
    total += rssiLlr;
    if (factors && rssiTexts.length > 0) factors.push({ name: 'rssi_continuity', llr: rssiLlr, text: `RSSI ${rssiTexts.join(', ')} (${signed(rssiLlr)})` });

    const tail = this.ends.get(a)?.tail ?? { kind: 'none' };
    const head = this.ends.get(b)?.head ?? { kind: 'none' };
    const sameTemplate = pa.tailPayload >= 0 && pb.headPayload >= 0 && context.payloads.payloadFeatures(pa.tailPayload).template === context.payloads.payloadFeatures(pb.headPayload).template;
    const parts: string[] = [];
    let trackerLlr = 0;
    const stateShare = (state: number) => {
      const others = (this.kindCounts.get(kind) ?? 1) - 1;
      return others <= 0 ? 0.5 : ((this.stateCounts.get(`${kind}:${state}`) ?? 1) - 1) / others;
    };
    if (tail.kind === 'find_my' && head.kind === 'find_my') {
      const modeText = tail.mode === 'separated' ? 'separated mode (one address a day)' : 'near its owner (an address every 15 min)';
      if (tail.mode !== head.mode) {
        trackerLlr += FIND_MY_MODE_CHANGE_LLR;
        parts.push(`mode ${tail.mode} → ${head.mode} (${signed(FIND_MY_MODE_CHANGE_LLR)})`);
      } else {
        parts.push(modeText);
        const template = trackerTemplateLlr(sameTemplate);
        trackerLlr += template;
        if (!sameTemplate) parts.push(`payload template changed (${signed(template)})`);
      }
      const same = tail.status === head.status;
      const llr = trackerStateLlr(same, stateShare(tail.status));
      trackerLlr += llr;
      parts.push(same ? `status byte ${hexByteText(tail.status)} carried over (${signed(llr)})` : `status byte ${hexByteText(tail.status)} → ${hexByteText(head.status)} (${signed(llr)})`);
    } else if (tail.kind === 'fmdn' && head.kind === 'fmdn') {
      if (tail.eidBytes !== head.eidBytes) {
        trackerLlr -= 8;
        parts.push(`${tail.eidBytes}- then ${head.eidBytes}-byte identifiers (${signed(-8)})`);
      }
      const same = tail.frameType === head.frameType;
      const llr = trackerStateLlr(same, stateShare(tail.frameType));
      trackerLlr += llr;
      parts.push(same ? `frame ${hexByteText(tail.frameType)} carried over (${signed(llr)})` : `frame ${hexByteText(tail.frameType)} → ${hexByteText(head.frameType)} (${signed(llr)})`);
      const lifetimeS = (pa.lastMs - pa.firstMs) / 1000;
      const startSeen = pa.firstMs - context.dataStartMs > 5_000;
      const lifetime = fmdnLifetimeLlr(lifetimeS, startSeen, tail.frameType === 0x41);
      trackerLlr += lifetime;
      if (lifetime !== 0) parts.push(`lifetime ${Math.round(lifetimeS)} s vs the 1024 s identifier rotation (${signed(lifetime)})`);
      const template = trackerTemplateLlr(sameTemplate);
      trackerLlr += template;
      if (!sameTemplate) parts.push(`payload template changed (${signed(template)})`);
    } else if (tail.kind === 'smarttag' && head.kind === 'smarttag') {
      const steps = counterSteps(tail.agingCounter, head.agingCounter);
      const { least, most } = smartTagStepRange(gapS, (pb.firstMs - pa.firstMs) / 1000);
      const llr = smartTagCounterLlr(steps, least, most);
      trackerLlr += llr;
      parts.push(`aging counter ${tail.agingCounter} → ${head.agingCounter}: ${steps === 0 ? 'unchanged' : `${steps} step${steps === 1 ? '' : 's'}`}, the gap allows ${least === most ? least : `${least}–${most}`} (${signed(llr)})`);
      const same = tail.state === head.state;
      const state = same ? 0.5 : -1;
      trackerLlr += state;
      if (!same) parts.push(`state ${hexByteText(tail.state)} → ${hexByteText(head.state)} (${signed(state)})`);
      const template = trackerTemplateLlr(sameTemplate);
      trackerLlr += template;
      if (!sameTemplate) parts.push(`payload template changed (${signed(template)})`);
    } else {
      // One end shows no reading of the kind (only its most frequent payload did): nothing carried over.
      parts.push('no tracker fields at the swap');
    }
    total += trackerLlr;
    factors?.push({ name: 'tracker_rotation', llr: trackerLlr, text: `${TRACKER_KIND_NAMES[kind]} on both: ${parts.join(', ')}` });
    return total;
  }
}
