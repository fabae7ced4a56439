import { flatText } from '../shared/flat-text.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { lowerBoundFloat64, upperBoundFloat64 } from '../shared/sorted-search.ts';
import { clockRates, clockRateScratch, MAX_RATE_PPM, type ClockRates } from './clock-rate-read.ts';

export type { ClockRates } from './clock-rate-read.ts';

/**
 * Clock rates compared: each linkable address's rates (read in clock-rate-read.ts, which tells
 * why a rate belongs to the controller), the receivers' offsets against each other, the
 * capture's background of rates, and how much one match says that two advertisers share a
 * controller.
 */

/** How far one controller's rate wanders over a capture (temperature), ppm: added to every comparison's error. */
const RATE_WANDER_PPM = 0.05;
/** Matches within this many standard errors count as the same rate. */
const MATCH_SDS = 2.5;
/**
 * Two aliases of one rate lie a period apart. The period, read from the receiver's own gaps, is
 * good to a small fraction of a ppm, but each alias carries the error of the gap it came from:
 * a match a whole number of periods away is allowed this much more. (At 5 ppm, strangers heard
 * at the same period matched each other modulo it in the generated multi_set_crowd.)
 */
const ALIAS_SLACK_PPM = 0.5;
/** As far as two read rates can differ (each within ±MAX_RATE_PPM of its receiver, clock-rate-read.ts). */
const MAX_RATE_DIFFERENCE_PPM = 2 * MAX_RATE_PPM;
/**
 * The capture's rates are read in a ring this wide (ppm) around A's rate, outside the match's
 * width: the local density of unrelated clocks there. The match's own width is not counted as
 * background, as it holds the chains of A's own device (its other sets, each split into a few
 * chains) whatever the capture; only what it holds beyond SIBLING_CHAINS counts as chance matches
 * (a capture whose clocks all run at one rate gives the term no weight).
 */
const RING_PPM = 5;
/**
 * Addresses of A's own device a match's width may hold: a phone runs a few sets (AOSP allows up
 * to 16) and each rotates every 7–15 min, so over an hour one device shows a dozen or more.
 */
const OWN_ADDRESSES = 16;
/** Pseudo-advertisers of the capture's rate background: with few to compare against, the match counts as much as its model says. */
const PSEUDO_RATES = 4;
/** The model's own bound: separate crystals spread over about ±30 ppm, so a match within w ppm happens by chance with probability ≈ w / 60. */
const RELATIVE_SPREAD_PPM = 60;
/**
 * The most a rate match says for one controller: separate crystals within a tenth of a ppm are
 * no rarity among fifty devices walking together (chosen on the tuning seeds 101–103 of the
 * group_walk family, where 8 nats joined such pairs; README, "After the clock-rate term").
 */
const LLR_MAX = 4;
const LLR_MIN = -6;

/** Every linkable address's clock rates (by profile id; undefined where not read) and each receiver's rates, ascending. */
export interface BleClockRates {
  byProfile: Array<ClockRates | undefined>;
  background: Float64Array[];
  /**
   * Per receiver: its rate offset against the first receiver of its group (`receiverRateOffsets`),
   * the offset's standard error, and the group (receivers linked by advertisers both heard;
   * −1 where none was). Rates on two receivers of one group are compared after the offsets.
   */
  offset: Float64Array;
  offsetSe: Float64Array;
  group: Int32Array;
}

/** Advertisers heard on both of two receivers that their rate offset needs. */
const MIN_OFFSET_ADVERTISERS = 3;

/**
 * Each receiver's rate offset: an advertiser's rates on two receivers differ by the receivers'
 * own clock errors, the same for every advertiser; the median difference over the advertisers
 * read on both gives it (robust to a misread one), and receivers are chained from the first of
 * each group outwards (breadth first), their errors adding up.
 */
export function receiverRateOffsets(rates: ReadonlyArray<ClockRates | undefined>, receivers: number): Pick<BleClockRates, 'offset' | 'offsetSe' | 'group'> {
  const differences: number[][] = Array.from({ length: receivers * receivers }, () => []);
  for (const entry of rates) {
    if (entry === undefined) continue;
    for (let r = 0; r < receivers; r++) {
      if (Number.isNaN(entry.rate[r])) continue;
      for (let q = 0; q < receivers; q++) if (q !== r && !Number.isNaN(entry.rate[q])) differences[r * receivers + q].push(entry.rate[r] - entry.rate[q]);
    }
  }
  const median = new Float64Array(receivers * receivers).fill(Number.NaN);
  const medianSe = new Float64Array(receivers * receivers).fill(Number.NaN);
  for (let k = 0; k < differences.length; k++) {
    const values = differences[k].sort((x, y) => x - y);
    if (values.length < MIN_OFFSET_ADVERTISERS) continue;
    const middle = values[values.length >> 1];
    const deviations = values.map((value) => Math.abs(value - middle)).sort((x, y) => x - y);
    // 1.4826 · MAD estimates a normal spread; the median's error is about 1.25 times the mean's.
    median[k] = middle;
    medianSe[k] = (1.25 * Math.max(1.4826 * deviations[deviations.length >> 1], RATE_WANDER_PPM)) / Math.sqrt(values.length);
  }
  const offset = new Float64Array(receivers).fill(Number.NaN);
  const offsetSe = new Float64Array(receivers).fill(Number.NaN);
  const group = new Int32Array(receivers).fill(-1);
  for (let root = 0; root < receivers; root++) {
    if (group[root] >= 0) continue;
    group[root] = root;
    offset[root] = 0;
    offsetSe[root] = 0;
    const queue = [root];
    while (queue.length > 0) {
      const r = queue.shift()!;
      for (let q = 0; q < receivers; q++) {
        if (group[q] >= 0 || Number.isNaN(median[q * receivers + r])) continue;
        group[q] = root;
        offset[q] = offset[r] + median[q * receivers + r];
        offsetSe[q] = Math.hypot(offsetSe[r], medianSe[q * receivers + r]);
        queue.push(q);
      }
    }
  }
  return { offset, offsetSe, group };
}

/**
 * The clock rates of the linkable addresses whose own packets line up on a slot grid (none for
 * HCI logs or whole-millisecond clocks): read once per analysis, by the hand-off and the
 * co-location stages.
 */
export function addressClockRates(addresses: ReadonlyArray<{ profile: { id: number } }>, events: BleEventGroups, receivers: number): BleClockRates {
  const byProfile: Array<ClockRates | undefined> = [];
  const scratch = clockRateScratch(receivers);
  const group = new Int32Array(1);
  for (const address of addresses) {
    group[0] = address.profile.id;
    byProfile[address.profile.id] = clockRates(group, events, receivers, scratch);
  }
  return { byProfile, background: clockRateBackground(byProfile, receivers), ...receiverRateOffsets(byProfile, receivers) };
}

/**
 * Each receiver's read rates, ascending: what a pair's match is weighed against (how many of the
 * capture's advertisers on that receiver run at about the rate of one of the two).
 */
export function clockRateBackground(rates: ReadonlyArray<ClockRates | undefined>, receivers: number): Float64Array[] {
  const perReceiver: number[][] = Array.from({ length: receivers }, () => []);
  for (const entry of rates) {
    if (entry === undefined) continue;
    for (let r = 0; r < receivers; r++) if (!Number.isNaN(entry.rate[r])) perReceiver[r].push(entry.rate[r]);
  }
  return perReceiver.map((values) => Float64Array.from(values).sort());
}

export interface ClockRateEvidence {
  /** Log-likelihood ratio of one controller against two, after the capture's background. */
  llrSame: number;
  /** The receiver that decided (the most precise comparison), its rate difference and error, ppm. */
  receiver: number;
  differencePpm: number;
  errorPpm: number;
  /** The whole number of aliases (ppm) the difference was read against (0: none), and the aliases of the two rates where they have one. */
  aliasShiftPpm: number;
  aliasesPpm: readonly number[];
  /** Of the capture's advertisers on that receiver, the share within the match's width of A's rate (the chance of a match). */
  chance: number;
  compared: number;
}

/** The values in ascending `sorted` within [low, high]. */
function countWithin(sorted: Float64Array, low: number, high: number): number {
  return upperBoundFloat64(sorted, high, 0, sorted.length) - lowerBoundFloat64(sorted, low, 0, sorted.length);
}

/**
 * A comparison's figures as `compareClockRates` fills them: one record reused across the many
 * pairs a stage compares (the hand-off scorer reads only `llrSame` of ~56,000 pairs in the 1M
 * benchmark), turned into a `ClockRateEvidence` only for the comparison that is kept.
 */
export interface ClockRateComparison {
  llrSame: number;
  receiver: number;
  differencePpm: number;
  errorPpm: number;
  aliasShiftPpm: number;
  aliasA: number;
  aliasB: number;
  chance: number;
  compared: number;
}

export function clockRateComparison(): ClockRateComparison {
  return { llrSame: 0, receiver: -1, differencePpm: 0, errorPpm: 0, aliasShiftPpm: 0, aliasA: Number.NaN, aliasB: Number.NaN, chance: 0, compared: 0 };
}

/**
 * One controller or two, from two advertisers' rates on the receiver where the comparison is
 * most precise. Rates that differ by more than MATCH_SDS errors are two clocks (log-odds down to
 * LLR_MIN by how many errors apart); rates that match count −log of the chance that another of
 * this receiver's advertisers falls within the match's width of A's rate (each pair of rates
 * counted once: the background holds both of the pair's own, so two are taken off), with
 * PSEUDO_RATES pseudo-advertisers at the model's own chance. Fills `out`; false (and `out`
 * untouched) when no receiver read both.
 */
export function compareClockRates(a: ClockRates, b: ClockRates, rates: Pick<BleClockRates, 'background' | 'offset' | 'offsetSe' | 'group'>, out: ClockRateComparison): boolean {
  const { background, offset, offsetSe, group } = rates;
  let best = -1;
  let bestOther = -1;
  let bestError = Infinity;
  for (let r = 0; r < a.rate.length; r++) {
    if (Number.isNaN(a.rate[r])) continue;
    for (let q = 0; q < b.rate.length; q++) {
      if (Number.isNaN(b.rate[q]) || (q !== r && (group[q] < 0 || group[q] !== group[r]))) continue;
      const across = q === r ? 0 : offsetSe[r] ** 2 + offsetSe[q] ** 2;
      const error = Math.sqrt(a.se[r] ** 2 + b.se[q] ** 2 + RATE_WANDER_PPM ** 2 + across);
      if (error < bestError) {
        bestError = error;
        best = r;
        bestOther = q;
      }
    }
  }
  if (best < 0) return false;
  // B's rate in A's receiver's frame.
  const rateB = bestOther === best ? b.rate[best] : b.rate[bestOther] - offset[bestOther] + offset[best];
  // A rate known only modulo an alias (clock-rate-read.ts) may have been read a whole number of
  // aliases from the other's: the difference is read against the nearest of those offsets, and so
  // is the background (a match then says only that the other sits near one of them).
  const aliasA = a.alias?.[best] ?? Number.NaN;
  const aliasB = b.alias?.[bestOther] ?? Number.NaN;
  const raw = a.rate[best] - rateB;
  const shift = nearestAliasOffset(raw, aliasA, aliasB);
  const difference = raw - shift;
  const z = Math.abs(difference) / bestError;
  const width = matchWidth(bestError, shift);
  const known = background[best];
  const rate = a.rate[best];
  const core = Math.min(known.length, countNear(known, rate, width, aliasA, aliasB));
  const ringWidth = Math.max(RING_PPM, 2 * width);
  const ring = Math.min(known.length, countNear(known, rate, ringWidth, aliasA, aliasB)) - core;
  // Expected unrelated clocks within the match's width, from the ring's density, plus the core beyond A's own device.
  const near = (ring * width) / (ringWidth - width) + Math.max(0, core - 2 - OWN_ADDRESSES);
  const others = Math.max(0, known.length - 2);
  const modelChance = Math.min(1, (2 * width * (1 + 2 * aliasTurns(aliasA) + 2 * aliasTurns(aliasB))) / RELATIVE_SPREAD_PPM);
  const chance = Math.min(1, (near + PSEUDO_RATES * modelChance) / (others + PSEUDO_RATES));
  out.llrSame = Math.abs(difference) <= width ? Math.min(LLR_MAX, -Math.log(chance)) : Math.max(LLR_MIN, -0.5 * (z * z - MATCH_SDS * MATCH_SDS));
  out.receiver = best;
  out.differencePpm = raw;
  out.errorPpm = bestError;
  out.aliasShiftPpm = shift;
  out.aliasA = aliasA;
  out.aliasB = aliasB;
  out.chance = chance;
  out.compared = others;
  return true;
}

/** A comparison kept, as the rationale reads it. */
function evidenceOf(comparison: ClockRateComparison): ClockRateEvidence {
  const { llrSame, receiver, differencePpm, errorPpm, aliasShiftPpm, aliasA, aliasB, chance, compared } = comparison;
  const aliasesPpm = aliasA === aliasA || aliasB === aliasB ? [aliasA, aliasB].filter((period) => period === period) : NO_ALIASES;
  return { llrSame, receiver, differencePpm, errorPpm, aliasShiftPpm, aliasesPpm, chance, compared };
}

/** `compareClockRates` as evidence of its own; undefined when no receiver read both. */
export function clockRateEvidence(a: ClockRates, b: ClockRates, rates: Pick<BleClockRates, 'background' | 'offset' | 'offsetSe' | 'group'>): ClockRateEvidence | undefined {
  const comparison = clockRateComparison();
  return compareClockRates(a, b, rates, comparison) ? evidenceOf(comparison) : undefined;
}

/** The log-likelihood ratio alone (0 when no receiver read both), compared in `scratch`. */
export function clockRateLlr(a: ClockRates, b: ClockRates, rates: Pick<BleClockRates, 'background' | 'offset' | 'offsetSe' | 'group'>, scratch: ClockRateComparison): number {
  return compareClockRates(a, b, rates, scratch) ? scratch.llrSame : 0;
}

const NO_ALIASES: readonly number[] = [];

/** How far one clock read on two advertisers may differ: MATCH_SDS errors, and ALIAS_SLACK_PPM more at an alias's offset. */
function matchWidth(error: number, shift: number): number {
  return MATCH_SDS * error + (shift !== 0 ? ALIAS_SLACK_PPM : 0);
}

/** Whole aliases of `period` (ppm; NaN: none) within MAX_RATE_DIFFERENCE_PPM, on each side. */
function aliasTurns(period: number): number {
  return period === period ? Math.floor(MAX_RATE_DIFFERENCE_PPM / period) : 0;
}

/**
 * Of the differences one clock read on two advertisers may show — 0, and whole aliases of either
 * rate (`aliasA`, `aliasB`: ppm, NaN for none) as far as two read rates can differ — the one
 * nearest `difference`.
 */
function nearestAliasOffset(difference: number, aliasA: number, aliasB: number): number {
  const viaA = nearestTurn(difference, aliasA);
  const viaB = nearestTurn(difference, aliasB);
  return Math.abs(difference - viaA) <= Math.abs(difference - viaB) ? viaA : viaB;
}

/** The whole alias of `period` (0 included; as far as `aliasTurns` allows) nearest `difference`. */
function nearestTurn(difference: number, period: number): number {
  const turns = aliasTurns(period);
  return turns === 0 ? 0 : Math.max(-turns, Math.min(turns, Math.round(difference / period))) * period;
}

/** The values in ascending `sorted` within `halfWidth` of `center`, or of `center` plus a whole alias of `aliasA` or `aliasB` (as `nearestAliasOffset` allows). */
function countNear(sorted: Float64Array, center: number, halfWidth: number, aliasA: number, aliasB: number): number {
  return countWithin(sorted, center - halfWidth, center + halfWidth) + countAtAliases(sorted, center, halfWidth, aliasA) + countAtAliases(sorted, center, halfWidth, aliasB);
}

/** The values in ascending `sorted` within `halfWidth` of `center` ± each whole alias of `period` (none for NaN). */
function countAtAliases(sorted: Float64Array, center: number, halfWidth: number, period: number): number {
  let count = 0;
  const turns = aliasTurns(period);
  for (let k = 1; k <= turns; k++) {
    count += countWithin(sorted, center + k * period - halfWidth, center + k * period + halfWidth);
    count += countWithin(sorted, center - k * period - halfWidth, center - k * period + halfWidth);
  }
  return count;
}

/** The rationale of a clock-rate comparison ("clock rates on rx-2 differ by 0.03 ± 0.12 ppm; 2 of 40 advertisers there come as close"). */
export function clockRateText(evidence: ClockRateEvidence, receiverNames: ReadonlyArray<string>): string {
  const where = receiverNames[evidence.receiver] ?? `receiver ${evidence.receiver}`;
  const shift = evidence.aliasShiftPpm;
  const difference = evidence.differencePpm - shift;
  const aliases = evidence.aliasesPpm.map((period) => period.toFixed(1)).join(' and ');
  const modulo =
    aliases === ''
      ? ''
      : flatText(' (packets heard at one period cannot tell a rate from its aliases ', aliases, ' ppm away', shift !== 0 ? flatText('; compared ', Math.abs(shift).toFixed(1), ' ppm apart') : '', ')');
  const verdict =
    Math.abs(difference) <= matchWidth(evidence.errorPpm, shift)
      ? `one rate within the error${modulo}; a match this close happens by chance ${(100 * evidence.chance).toFixed(1)} % of the time among the ${evidence.compared} other advertisers read there`
      : `two clocks (${(Math.abs(difference) / evidence.errorPpm).toFixed(1)} errors apart${modulo})`;
  return `clock rates from each one's own packets on ${where} differ by ${evidence.differencePpm.toFixed(2)} ± ${evidence.errorPpm.toFixed(2)} ppm: ${verdict}`;
}

/** No rates read (the co-location stage's default: its tests and callers without the addresses' rates). */
export const NO_CLOCK_RATES: BleClockRates = { byProfile: [], background: [], offset: new Float64Array(0), offsetSe: new Float64Array(0), group: new Int32Array(0) };

/**
 * The clock rates of two chains compared member by member: each pair of members alive together
 * in [fromMs, toMs] (`groups`: profile ids in time order, `spans`: first and last time of each)
 * whose rates were read on a common receiver. A chain is one advertiser only if its hand-offs
 * are right, so any member pair that shows two clocks decides (the most negative); otherwise the
 * strongest match counts. Undefined when no member pair was compared.
 */
export function memberClockRateEvidence(
  a: { groups: Int32Array; spans: Float64Array },
  b: { groups: Int32Array; spans: Float64Array },
  fromMs: number,
  toMs: number,
  rates: BleClockRates,
): ClockRateEvidence | undefined {
  // Records reused: the one being compared, and the strongest and weakest so far (two records
  // from the first comparison on, as both can only move apart).
  let current = clockRateComparison();
  let strongest: ClockRateComparison | undefined;
  let weakest: ClockRateComparison | undefined;
  for (let m = 0; m < a.groups.length; m++) {
    const ra = rates.byProfile[a.groups[m]];
    if (ra === undefined || a.spans[2 * m + 1] < fromMs || a.spans[2 * m] > toMs) continue;
    for (let n = 0; n < b.groups.length; n++) {
      const rb = rates.byProfile[b.groups[n]];
      if (rb === undefined || b.spans[2 * n + 1] < a.spans[2 * m] || b.spans[2 * n] > a.spans[2 * m + 1]) continue;
      if (!compareClockRates(ra, rb, rates, current)) continue;
      if (strongest === undefined || weakest === undefined) {
        strongest = current;
        weakest = { ...current };
        current = clockRateComparison();
      } else if (current.llrSame > strongest.llrSame) {
        const freed = strongest;
        strongest = current;
        current = freed;
      } else if (current.llrSame < weakest.llrSame) {
        const freed = weakest;
        weakest = current;
        current = freed;
      }
    }
  }
  const kept = weakest !== undefined && weakest.llrSame < 0 ? weakest : strongest;
  return kept === undefined ? undefined : evidenceOf(kept);
}
