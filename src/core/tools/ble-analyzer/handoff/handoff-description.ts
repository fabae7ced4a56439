import { pairLevelVariance } from './rssi-level-drift.ts';
import { EDGE_PACKETS, type BleAddressProfile } from '../profile/address-profiles.ts';
import type { BleCandidatePairs } from './matching-marginals.ts';
import type { BlePayloadRarity } from './payload-rarity.ts';
import { toFixedOne } from '../shared/fixed-one.ts';
import { clockRateEvidence, clockRateText } from '../co-location/clock-rate.ts';
import type { BleLinkableAddress, BleLinkContext, BleLinkFactor } from './handoff-types.ts';
import {
  ADDRESS_KIND_LLR,
  differentContentLlr,
  edgeMarginMs,
  edgesOutsidePauses,
  END_SEEN,
  handoffGapLlr,
  heardGapS,
  handoffUnseen,
  intervalSimilarityLlr,
  irkMismatchLlr,
  OVERLAP_CONTRADICTION_LLR,
  OVERLAP_TOLERANCE_S,
  overlapToleranceS,
  payloadPeers,
  payloadShare,
  RSSI_FLOOR_LLR,
  RSSI_RECEIVER_WEIGHT,
  rssiContinuityLlr,
  rssiLevelVarianceFor,
  RSSI_LEVEL_VARIANCE,
  RSSI_EDGE_SCATTER,
  sameSignatureLlr,
  sameTemplateLlr,
  START_SEEN,
  UNSEEN_HANDOFF_LLR,
} from './handoff-model.ts';

/**
 * The hand-off factors in words (linkage.ts scores the same terms without them, in PairScorer; both take each term's formula
 * from handoff-model.ts):
 * every factor of a pair for the candidate list, and the texts clusters quote of the hand-offs
 * they are made of.
 *
 * A factor's text is written as pieces into a list: joined alone it is the factor's text, and
 * for the clusters the pieces of all the hand-offs of one rationale line go into one list,
 * joined once, rather than a factor object and a joined text per hand-off that were joined again
 * into the line and dropped (most of the linkage's allocation in the lean mode).
 */

/** Pieces of texts, joined as String(piece) each. */
type Pieces = Array<string | number>;

/** "+1.2" / "−0.4": a log-likelihood ratio as printed. */
export function signed(llr: number): string {
  return `${llr >= 0 ? '+' : '−'}${toFixedOne(Math.abs(llr))}`;
}

/** `signed(llr)` as two pieces (no joined string made for it). */
function pushSigned(out: Pieces, llr: number): void {
  out.push(llr >= 0 ? '+' : '−', toFixedOne(Math.abs(llr)));
}

/**
 * The rssi_continuity term of A's last packets against B's first, per receiver that heard both;
 * its text's pieces go to `out`, after `separator` when `out` holds pieces already. NaN, and
 * nothing written, when no receiver heard both.
 */
function rssiContinuity(pa: BleAddressProfile, pb: BleAddressProfile, context: BleLinkContext, out: Pieces, separator: string): number {
  let rssiLlr = 0;
  let heard = false;
  let floored = false;
  const { from, receiver, headRssi, tailRssi, headCount, tailCount } = context.receivers;
  const levelVariance = rssiLevelVarianceFor(context.rssiLevelDrift ? pairLevelVariance(context.rssiLevelDrift, pa.id, pb.id, RSSI_EDGE_SCATTER) : Number.NaN);
  for (let ra = from[pa.id]; ra < from[pa.id + 1]; ra++) {
    if (Number.isNaN(tailRssi[ra])) continue;
    let rb = -1;
    for (let candidate = from[pb.id]; candidate < from[pb.id + 1]; candidate++) if (receiver[candidate] === receiver[ra]) rb = candidate;
    if (rb < 0 || Number.isNaN(headRssi[rb])) continue;
    const d = headRssi[rb] - tailRssi[ra];
    const headPackets = headCount[rb];
    const tailPackets = tailCount[ra];
    const llr = rssiContinuityLlr(d, headPackets, tailPackets, levelVariance);
    rssiLlr += RSSI_RECEIVER_WEIGHT * llr;
    floored ||= llr === RSSI_FLOOR_LLR;
    if (heard) out.push(', ');
    else {
      if (out.length > 0) out.push(separator);
      out.push('RSSI ');
      heard = true;
    }
    out.push(context.receiverNames[receiver[ra]], ' Δ', toFixedOne(Math.abs(d)), ' dB');
    // Means of few packets scatter more, which is why a jump between them weighs less.
    if (Math.min(headPackets, tailPackets) < EDGE_PACKETS) out.push(' (means of ', tailPackets, ' → ', headPackets, ' packets)');
  }
  if (!heard) return Number.NaN;
  out.push(' (');
  pushSigned(out, rssiLlr);
  // Why a large jump weighs what it does: the floor is the whole story of such a term.
  if (floored) out.push('; floored: one emitter moved past a receiver, pocketed or body-shadowed jumps this much, so a jump counts against, not as a veto');
  // A wider scale than the model's own is the capture's doing: say so, with its size.
  if (levelVariance > RSSI_LEVEL_VARIANCE) out.push('; these addresses\' own levels move ±', toFixedOne(Math.sqrt(levelVariance)), ' dB between blocks of their packets, so jumps weigh less');
  out.push(')');
  return rssiLlr;
}

/** How a hand-off's timing is weighed (PairScorer.scoreAll in linkage.ts does the same per pair). */
interface HandoffTiming {
  /** B's first packet less A's last, clock time (s). */
  gapS: number;
  /** The same in scanning time (scan pauses left out). */
  scanningGapS: number;
  kind: 'seen' | 'unseen' | 'overlap';
  /** Whose edge a scan pause hid, for the text of an unseen hand-off. */
  aEndSeen: boolean;
}

function handoffTiming(pa: BleAddressProfile, pb: BleAddressProfile, context: BleLinkContext): HandoffTiming {
  const gapS = (pb.firstMs - pa.lastMs) / 1000;
  const pauses = context.pauses && context.pauses.count > 0 ? context.pauses : undefined;
  const aEndSeen = (edgesOutsidePauses(pa, pauses) & END_SEEN) !== 0;
  if (gapS < -overlapToleranceS(context.clockSkewMs)) return { gapS, scanningGapS: gapS, kind: 'overlap', aEndSeen };
  const scanningGapMs = pauses ? pauses.scanningMs(pb.firstMs) - pauses.scanningMs(pa.lastMs) : pb.firstMs - pa.lastMs;
  const bStartSeen = (edgesOutsidePauses(pb, pauses) & START_SEEN) !== 0;
  const marginsMs = pauses ? edgeMarginMs(pa, pauses) + edgeMarginMs(pb, pauses) : 0;
  const scanningGapS = scanningGapMs / 1000;
  if (handoffUnseen(scanningGapMs, marginsMs, aEndSeen, bStartSeen)) return { gapS, scanningGapS, kind: 'unseen', aEndSeen };
  return { gapS, scanningGapS, kind: 'seen', aEndSeen };
}

/**
 * The payload_signature_match term of A's last payload against B's first: exact signature
 * carried over, else same template (vendor/model structure), else different; pieces as above.
 */
function payloadMatch(pa: BleAddressProfile, pb: BleAddressProfile, rarity: BlePayloadRarity, out: Pieces, separator: string): number {
  if (out.length > 0) out.push(separator);
  const n = payloadPeers(rarity.total);
  const sigA = pa.tailPayload;
  const sigB = pb.headPayload;
  const templateA = rarity.templateId(sigA);
  const templateB = rarity.templateId(sigB);
  const templateShare = payloadShare(rarity.templateCount(templateA), n);
  let llr: number;
  if (sigA === sigB && sigA >= 0) {
    const share = payloadShare(rarity.signatureCount(sigA), n);
    llr = sameSignatureLlr(share);
    out.push('same payload signature (', Math.round(share * n), ' other addresses carry it) (');
  } else if (templateA === templateB) {
    llr = sameTemplateLlr(templateShare);
    out.push('same AD template', sigA >= 0 ? ', rotating content' : ' (no AD data)', ' (', Math.round(templateShare * n), ' other addresses share it) (');
  } else {
    llr = differentContentLlr(templateShare);
    out.push('different AD content (');
  }
  pushSigned(out, llr);
  out.push(')');
  return llr;
}

/**
 * The adv_interval_similarity term: the same set keeps its interval within a few ms of
 * jitter (or changed it), devices differ (handoff-model.ts); pieces as above. NaN, and nothing written, without both intervals.
 */
function intervalSimilarity(pa: BleAddressProfile, pb: BleAddressProfile, out: Pieces, separator: string): number {
  if (!(Number.isFinite(pa.advIntervalS) && Number.isFinite(pb.advIntervalS))) return Number.NaN;
  const llr = intervalSimilarityLlr(pa.advIntervalS, pb.advIntervalS);
  if (out.length > 0) out.push(separator);
  out.push('advertising interval ', Math.round(pa.advIntervalS * 1000), ' → ', Math.round(pb.advIntervalS * 1000), ' ms (');
  pushSigned(out, llr);
  out.push(')');
  return llr;
}

/** The rotation_interval_fit factor (the prior, `successorPriorLogOdds` in handoff-model.ts) in words. */
export function describePrior(a: BleLinkableAddress, context: BleLinkContext, logOdds: number, edgesSeen: number): BleLinkFactor {
  const p = a.profile;
  const lifetimeS = (p.lastMs - p.firstMs) / 1000;
  const unseen = edgesSeen === (START_SEEN | END_SEEN) ? '' : edgesSeen & END_SEEN ? ' (start not seen)' : edgesSeen & START_SEEN ? ' (end not seen: scanning paused)' : ' (start and end not seen)';
  return {
    name: 'rotation_interval_fit',
    llr: logOdds,
    text: `lifetime ${lifetimeS >= 120 ? `${toFixedOne(lifetimeS / 60)} min` : `${Math.round(lifetimeS)} s`}${unseen} vs ${context.model.name} (${signed(logOdds)})`,
  };
}

/**
 * Every factor of one candidate pair (A earlier, B later), each log-likelihood-ratio term
 * described. Only reported pairs are described (the text dominates the cost otherwise);
 * `PairScorer` (linkage.ts) sums the same terms for every pair.
 */
export function describePair(a: BleLinkableAddress, b: BleLinkableAddress, context: BleLinkContext, rarity: BlePayloadRarity, factors: BleLinkFactor[]): void {
  const window = context.linkageWindowS;
  const pa = a.profile;
  const pb = b.profile;
  const timing = handoffTiming(pa, pb, context);
  const { gapS, scanningGapS } = timing;

  // Hand-off gap (in scanning time), unseen in a scan pause, or overlap beyond the tolerance.
  if (timing.kind === 'unseen') {
    factors.push({
      name: 'handoff_gap',
      llr: UNSEEN_HANDOFF_LLR,
      text: `hand-off not seen: ${timing.aEndSeen ? `${b.address} was first heard as scanning resumed` : `${a.address} was last heard as scanning paused`} (${toFixedOne(gapS)} s apart, ${toFixedOne(gapS - scanningGapS)} s of it a scan pause), so the gap says nothing (${signed(UNSEEN_HANDOFF_LLR)})`,
    });
  } else if (timing.kind === 'seen') {
    const pauses = context.pauses && context.pauses.count > 0 ? context.pauses : undefined;
    const llr = handoffGapLlr(scanningGapS, pa.advIntervalS, pb.advIntervalS, a.type === 'nrpa', window, heardGapS(pa, pauses) + heardGapS(pb, pauses));
    const paused = gapS - scanningGapS;
    factors.push({ name: 'handoff_gap', llr, text: `hand-off gap ${toFixedOne(scanningGapS)} s${paused > 0 ? ` of scanning (and ${toFixedOne(paused)} s of scan pause)` : ''} (${signed(llr)})` });
  } else {
    factors.push({
      name: 'co_occurrence',
      llr: OVERLAP_CONTRADICTION_LLR,
      text: `activity overlaps by ${toFixedOne(-gapS)} s, beyond the ${toFixedOne(overlapToleranceS(context.clockSkewMs))} s a hand-off tolerates${context.clockSkewMs ? ` (${OVERLAP_TOLERANCE_S} s and the receivers' measured clock skew)` : ''}: both addresses were alive at once, so neither follows the other (${signed(OVERLAP_CONTRADICTION_LLR)})`,
    });
  }

  // RSSI continuity, payload and advertising interval: the factors clusters quote.
  const pieces: Pieces = [];
  const rssiLlr = rssiContinuity(pa, pb, context, pieces, '');
  if (!Number.isNaN(rssiLlr)) factors.push({ name: 'rssi_continuity', llr: rssiLlr, text: pieces.join('') });
  pieces.length = 0;
  const payloadLlr = payloadMatch(pa, pb, rarity, pieces, '');
  factors.push({ name: 'payload_signature_match', llr: payloadLlr, text: pieces.join('') });
  pieces.length = 0;
  const intervalLlr = intervalSimilarity(pa, pb, pieces, '');
  if (!Number.isNaN(intervalLlr)) factors.push({ name: 'adv_interval_similarity', llr: intervalLlr, text: pieces.join('') });
  // The clock rate of each address from its own packets (sub-millisecond timestamps only).
  const clockRates = context.clockRates;
  const ratesA = clockRates?.byProfile[pa.id];
  const ratesB = clockRates?.byProfile[pb.id];
  const rate = clockRates && ratesA !== undefined && ratesB !== undefined ? clockRateEvidence(ratesA, ratesB, clockRates) : undefined;
  if (rate) factors.push({ name: 'clock_rate', llr: rate.llrSame, text: `${clockRateText(rate, context.receiverNames)} (${signed(rate.llrSame)})` });

  // Address kind and IRK mismatch.
  if (a.type !== b.type) factors.push({ name: 'address_kind', llr: ADDRESS_KIND_LLR, text: `${a.type} → ${b.type}: devices rarely switch address kind (${signed(ADDRESS_KIND_LLR)})` });
  if (a.irk >= 0 && b.irk !== a.irk) {
    const llr = irkMismatchLlr(b.irk >= 0);
    factors.push({ name: 'irk_resolution', llr, text: `${a.address} resolves under IRK '${context.irkLabels[a.irk]}', ${b.address} does not (${signed(llr)})` });
  }
}

/** The factors clusters read of a hand-off (see BleLinkContext.describeCandidates), made on request. */
export interface BleHandoffFactors {
  /** Whether pair `pair` is described (a shared IRK, or a model probability ≥ DESCRIBE_ABOVE). */
  described(pair: number): boolean;
  /**
   * Appends the texts of pair `pair`'s rssi_continuity, payload_signature_match (only with
   * `payloadText`: clusters quote it only when the payload signature changes somewhere in the
   * chain) and adv_interval_similarity factors to `texts`; nothing for a pair not described.
   */
  appendClusterTexts(pair: number, payloadText: boolean, texts: BleHandoffTexts): void;
}

/**
 * The texts of a cluster's rationale lines, collected hand-off by hand-off (BleHandoffFactors.
 * appendClusterTexts): per factor the pieces of its texts, "; "-separated, in hand-off order.
 */
export class BleHandoffTexts {
  /** rssi_continuity texts, how many, and how many with a positive log ratio. */
  readonly rssi: Pieces = [];
  rssiCount = 0;
  rssiPositive = 0;
  /** payload_signature_match texts (only when asked for). */
  readonly payload: Pieces = [];
  /** adv_interval_similarity texts, and how many. */
  readonly interval: Pieces = [];
  intervalCount = 0;

  addRssi(llr: number): void {
    this.rssiCount++;
    if (llr > 0) this.rssiPositive++;
  }
}

const SEPARATOR = '; ';

/** Pairs at or above this model probability are described (see BleLinks.handoffs). */
export const DESCRIBE_ABOVE = 0.01;

/**
 * Describes the pairs that qualify (a shared IRK, or a model probability ≥ DESCRIBE_ABOVE) with
 * the factors clusters read, on request (BleLinks.handoffs).
 */
export class BleHandoffDescriber implements BleHandoffFactors {
  constructor(
    private readonly addresses: ReadonlyArray<BleLinkableAddress>,
    private readonly context: BleLinkContext,
    private readonly rarity: BlePayloadRarity,
    private readonly pairs: BleCandidatePairs,
    private readonly describedPairs: Uint8Array,
    /** All factors of the described pairs when the candidate list was described (BleLinks.factors), else empty. */
    private readonly listed: ReadonlyArray<BleLinkFactor[] | undefined>,
  ) {}

  described(pair: number): boolean {
    return this.describedPairs[pair] === 1;
  }

  appendClusterTexts(pair: number, payloadText: boolean, texts: BleHandoffTexts): void {
    if (!this.describedPairs[pair]) return;
    const listed = this.listed[pair];
    if (listed) {
      // Described already for the candidate list: the same texts, picked out.
      for (const factor of listed) {
        if (factor.name === 'rssi_continuity') {
          if (texts.rssi.length > 0) texts.rssi.push(SEPARATOR);
          texts.rssi.push(factor.text);
          texts.addRssi(factor.llr);
        } else if (factor.name === 'payload_signature_match' && payloadText) {
          if (texts.payload.length > 0) texts.payload.push(SEPARATOR);
          texts.payload.push(factor.text);
        } else if (factor.name === 'adv_interval_similarity') {
          if (texts.interval.length > 0) texts.interval.push(SEPARATOR);
          texts.interval.push(factor.text);
          texts.intervalCount++;
        }
      }
      return;
    }
    const pa = this.addresses[this.pairs.earlier[pair]].profile;
    const pb = this.addresses[this.pairs.later[pair]].profile;
    const rssiLlr = rssiContinuity(pa, pb, this.context, texts.rssi, SEPARATOR);
    if (!Number.isNaN(rssiLlr)) texts.addRssi(rssiLlr);
    if (payloadText) payloadMatch(pa, pb, this.rarity, texts.payload, SEPARATOR);
    if (!Number.isNaN(intervalSimilarity(pa, pb, texts.interval, SEPARATOR))) texts.intervalCount++;
  }
}
