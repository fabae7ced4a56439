import type { BleAddressProfile } from '../profile/address-profiles.ts';
import type { BleCandidatePairs } from './matching-marginals.ts';
import type { BlePayloadRarity } from './payload-rarity.ts';
import { toFixedOne } from '../shared/fixed-one.ts';
import type { BleHandoffFactors, BleLinkableAddress, BleLinkContext, BleLinkFactor } from './linkage.ts';

/**
 * The hand-off factors in words (linkage.ts scores the same terms without them, in PairScorer):
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

/** How long B may start before A's last packet and still be a candidate successor (s). */
export const OVERLAP_LIMIT_S = 30;
/** Clock offsets between receivers and out-of-sync payload windows: overlaps this short are hand-offs. */
export const OVERLAP_TOLERANCE_S = 1;
export const LOG_K_LIMIT = 25;
/** Head/tail RSSI means of one emitter across a hand-off differ by about this much (dB, σ). */
export const RSSI_SAME_SD_DB = 2.5;
/** …and those of two emitters by about this much (spread of levels in a room). */
export const RSSI_DIFFERENT_SD_DB = 10;
/** The constant term of the RSSI continuity log ratio (one Math.log less per receiver and pair). */
export const RSSI_LOG_SD_RATIO = Math.log(RSSI_DIFFERENT_SD_DB / RSSI_SAME_SD_DB);
/** The constant term of the advertising-interval log ratio. */
export const INTERVAL_LOG_SD_RATIO = Math.log(1 / 0.25);

export function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/** "+1.2" / "−0.4": a log-likelihood ratio as printed. */
export function signed(llr: number): string {
  return `${llr >= 0 ? '+' : '−'}${toFixedOne(Math.abs(llr))}`;
}

/** `signed(llr)` as two pieces (no joined string made for it). */
function pushSigned(out: Pieces, llr: number): void {
  out.push(llr >= 0 ? '+' : '−', toFixedOne(Math.abs(llr)));
}

/** Addresses other than the one asking that share a signature or template carried by `count` addresses (an unseen one counts as its own). */
export function othersSharing(count: number): number {
  return Math.max(1, count) - 1;
}

/**
 * The rssi_continuity term of A's last packets against B's first, per receiver that heard both;
 * its text's pieces go to `out`, after `separator` when `out` holds pieces already. NaN, and
 * nothing written, when no receiver heard both.
 */
function rssiContinuity(pa: BleAddressProfile, pb: BleAddressProfile, context: BleLinkContext, out: Pieces, separator: string): number {
  let rssiLlr = 0;
  let heard = false;
  const { from, receiver, headRssi, tailRssi } = context.receivers;
  for (let ra = from[pa.id]; ra < from[pa.id + 1]; ra++) {
    if (Number.isNaN(tailRssi[ra])) continue;
    let rb = -1;
    for (let candidate = from[pb.id]; candidate < from[pb.id + 1]; candidate++) if (receiver[candidate] === receiver[ra]) rb = candidate;
    if (rb < 0 || Number.isNaN(headRssi[rb])) continue;
    const d = headRssi[rb] - tailRssi[ra];
    const same = RSSI_SAME_SD_DB;
    const different = RSSI_DIFFERENT_SD_DB;
    const llr = clamp(RSSI_LOG_SD_RATIO - (d * d) / (2 * same * same) + (d * d) / (2 * different * different), -4, 2);
    rssiLlr += 0.8 * llr;
    if (heard) out.push(', ');
    else {
      if (out.length > 0) out.push(separator);
      out.push('RSSI ');
      heard = true;
    }
    out.push(context.receiverNames[receiver[ra]], ' Δ', toFixedOne(Math.abs(d)), ' dB');
  }
  if (!heard) return Number.NaN;
  out.push(' (');
  pushSigned(out, rssiLlr);
  out.push(')');
  return rssiLlr;
}

/**
 * The payload_signature_match term of A's last payload against B's first: exact signature
 * carried over, else same template (vendor/model structure), else different; pieces as above.
 */
function payloadMatch(pa: BleAddressProfile, pb: BleAddressProfile, rarity: BlePayloadRarity, out: Pieces, separator: string): number {
  if (out.length > 0) out.push(separator);
  const n = Math.max(1, rarity.total - 1);
  const floor = 0.5 / n;
  const sigA = pa.tailPayload;
  const sigB = pb.headPayload;
  const templateA = rarity.templateId(sigA);
  const templateB = rarity.templateId(sigB);
  const templateShare = Math.max(floor, othersSharing(rarity.templateCount(templateA)) / n);
  let llr: number;
  if (sigA === sigB && sigA >= 0) {
    const share = Math.max(floor, othersSharing(rarity.signatureCount(sigA)) / n);
    llr = Math.log(0.6 / share);
    out.push('same payload signature (', Math.round(share * n), ' other addresses carry it) (');
  } else if (templateA === templateB) {
    llr = Math.log(0.38 / templateShare);
    out.push('same AD template', sigA >= 0 ? ', rotating content' : ' (no AD data)', ' (', Math.round(templateShare * n), ' other addresses share it) (');
  } else {
    llr = Math.log(0.02 / Math.max(0.05, 1 - templateShare));
    out.push('different AD content (');
  }
  pushSigned(out, llr);
  out.push(')');
  return llr;
}

/**
 * The adv_interval_similarity term: the same device keeps its interval (log ratio σ 0.25),
 * devices differ (σ 1); pieces as above. NaN, and nothing written, without both intervals.
 */
function intervalSimilarity(pa: BleAddressProfile, pb: BleAddressProfile, out: Pieces, separator: string): number {
  if (!(Number.isFinite(pa.advIntervalS) && Number.isFinite(pb.advIntervalS))) return Number.NaN;
  const r = Math.log(pa.advIntervalS / pb.advIntervalS);
  const llr = clamp(INTERVAL_LOG_SD_RATIO - (r * r) / (2 * 0.25 * 0.25) + (r * r) / 2, -2.5, 1.2);
  if (out.length > 0) out.push(separator);
  out.push('advertising interval ', Math.round(pa.advIntervalS * 1000), ' → ', Math.round(pb.advIntervalS * 1000), ' ms (');
  pushSigned(out, llr);
  out.push(')');
  return llr;
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
    factors.push({ name: 'handoff_gap', llr, text: `hand-off gap ${toFixedOne(gapS)} s (${signed(llr)})` });
  } else {
    const overlapS = -gapS;
    // Beyond the tolerance, each second of simultaneous activity is strong evidence of two emitters
    // (but not proof: a phone's advertising sets overlap), hence the floor instead of −∞.
    const llr = Math.max(-8, Math.log((0.03 * span) / OVERLAP_LIMIT_S) - 0.25 * overlapS);
    factors.push({ name: 'co_occurrence', llr, text: `activity overlaps by ${toFixedOne(overlapS)} s (${signed(llr)})` });
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

  // Address kind and IRK mismatch.
  if (a.type !== b.type) factors.push({ name: 'address_kind', llr: -2.5, text: `${a.type} → ${b.type}: devices rarely switch address kind (−2.5)` });
  if (a.irk >= 0 && b.irk !== a.irk) {
    const llr = b.irk >= 0 ? -LOG_K_LIMIT : -8;
    factors.push({ name: 'irk_resolution', llr, text: `${a.address} resolves under IRK '${context.irkLabels[a.irk]}', ${b.address} does not (${signed(llr)})` });
  }
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
