import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';
import { BLE_SLOT_MS } from './advertising-clock.ts';
import { lowerBoundFloat64, upperBoundFloat64 } from '../shared/sorted-search.ts';

/**
 * The clock rate of an advertiser, read from its own packets.
 *
 * A controller starts its advertising events on its native clock's 625 µs slot grid
 * (advertising-clock.ts), and its crystal runs some ppm off the receiver's. Two packets of one
 * advertiser on one receiver and channel, Δt apart, are then a whole number of the device's
 * slots apart, and modulo the receiver's 625 µs they sit Δt · (rate error) from zero: the
 * residue grows in proportion to Δt. A least-squares slope of residue on Δt over the
 * advertiser's packet pairs gives its rate against the receiver to a fraction of a ppm, and the
 * rate belongs to the controller: every set of a phone, before and after each rotation, has it,
 * while a watch, a tag or a stranger has its own (crystals spread over tens of ppm). Each
 * receiver's own crystal shifts all its rates alike: rates are compared on one receiver, or on
 * two after their offset, measured from the advertisers both heard (`receiverRateOffsets`), so an
 * advertiser that leaves one receiver's coverage is still compared with one that reaches the next.
 *
 * Like the advertising clock, it takes sub-millisecond timestamps: a rate is read only where the
 * search finds one that lines the advertiser's own packet pairs up (HCI logs stamped by the host
 * and whole-millisecond clocks give none), and how much a match says is weighed against how many
 * of the capture's other advertisers run at about that rate (`clockRateEvidence`), so a capture
 * whose rates are all alike gives it no weight.
 */

/**
 * Each sampled packet is paired with the next packet of the advertiser on the same receiver and
 * channel at most this far later (ms). The residue of the gap modulo a slot wraps many times over
 * 30 s, so the rate is found by a search (`bestRate`) before it is fitted.
 */
const PAIR_WINDOW_MS = 30_000;
/** Rates searched, ±ppm against the receiver: crystals of ±30 ppm on both sides, and a receiver's own drift of up to ±100 ppm. */
const MAX_RATE_PPM = 150;
/**
 * Search steps, ppm: coarse over pairs up to COARSE_WINDOW_MS apart (a step turns their phase by
 * at most 5 % of a slot), then fine around the best coarse rate over pairs up to PAIR_WINDOW_MS
 * apart; each search reads at most SEARCH_PAIRS pairs (the work per address stays a few thousand
 * phase vectors: the 1M benchmark input has 5,000 addresses).
 */
const COARSE_STEP_PPM = 6;
const COARSE_WINDOW_MS = 10_000;
const FINE_STEP_PPM = 0.5;
const COARSE_SEARCH_PAIRS = 24;
const FINE_SEARCH_PAIRS = 48;
/** Pairs sampled per advertiser (the work per advertiser stays bounded). */
const MAX_RATE_PAIRS = 192;
/** Pairs a receiver needs before its rate is read. */
const MIN_RATE_PAIRS = 16;
/** Pairs at most this far apart (ms) give a rate each without a search: residue / gap, unambiguous below 312.5 µs / 2.5 s = 125 ppm. */
const SHORT_WINDOW_MS = 2_500;
/** Short pairs whose median gives the first rate without a search. */
const MIN_SHORT_PAIRS = 6;
/** Share of a receiver's pairs the fitted line must hold (within OUTLIER_MS). */
const MIN_ON_LINE = 0.7;
/** The search's best rate must line the pairs up at least this well (mean resultant length; uniform phases give ≈ 1/√n). */
const MIN_RESULTANT = 0.85;
/**
 * Residues further than this (ms) from the fitted line are not the grid (a missed slot, a packet
 * of another set stamped under the address): left out of the second fit.
 */
const OUTLIER_MS = 0.06;
/** How far one controller's rate wanders over a capture (temperature), ppm: added to every comparison's error. */
const RATE_WANDER_PPM = 0.05;
/** Matches within this many standard errors count as the same rate. */
const MATCH_SDS = 2.5;
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

/** Per receiver r: rate[r] (ppm against the receiver, NaN where not read), se[r] its standard error (ppm). */
export interface ClockRates {
  rate: Float64Array;
  se: Float64Array;
}

/** Channel slots per receiver in `clockRateScratch`'s last-event table (channel indices 0–39, and BLE_NO_CHANNEL). */
const CHANNEL_SLOTS = 256;
/** The most rates `bestRate` tries in one search (the coarse one: 2 · 150 / 6 + 1). */
const MAX_SEARCH_STEPS = 64;

/** Working arrays of `clockRates`, made once per analysis. */
export function clockRateScratch(receivers: number) {
  return {
    dt: new Float64Array(MAX_RATE_PAIRS),
    residue: new Float64Array(MAX_RATE_PAIRS),
    receiver: new Int32Array(MAX_RATE_PAIRS),
    count: new Int32Array(receivers),
    /** The pairs again, receiver by receiver (each receiver's in their sampled order): receiver r's are [from[r], from[r + 1]). */
    gap: new Float64Array(MAX_RATE_PAIRS),
    phase: new Float64Array(MAX_RATE_PAIRS),
    from: new Int32Array(receivers + 1),
    /** Per event of a densely sampled group (offset from its start): the next event on its receiver and channel, or −1. */
    next: new Int32Array(2 * MAX_RATE_PAIRS),
    /** Per receiver and channel: the group's last event seen there, or −1. */
    last: new Int32Array(receivers * CHANNEL_SLOTS).fill(-1),
    /** A receiver's short pairs' rates, for their median. */
    shortRates: new Float64Array(MAX_RATE_PAIRS),
    /** A search's rates and, per rate, the summed phase vectors. */
    ppm: new Float64Array(MAX_SEARCH_STEPS),
    cos: new Float64Array(MAX_SEARCH_STEPS),
    sin: new Float64Array(MAX_SEARCH_STEPS),
  };
}
export type ClockRateScratch = ReturnType<typeof clockRateScratch>;

/** The residue of a gap modulo one slot, in (−slot/2, slot/2], ms. */
function residueMs(gapMs: number): number {
  const cycles = gapMs / BLE_SLOT_MS;
  return (cycles - Math.round(cycles)) * BLE_SLOT_MS;
}

/**
 * The clock rate per receiver of the advertiser made of event groups `groups` (an address, or a
 * chain's addresses in time order): each sampled packet against the next packet on the same
 * receiver and channel within PAIR_WINDOW_MS; per receiver, the rate that lines the pairs'
 * residues up best (`bestRate`), then each residue unwrapped around that line and the slope
 * fitted through the origin (twice: the second fit leaves out residues OUTLIER_MS off the
 * first). Undefined when no receiver has MIN_RATE_PAIRS pairs that line up.
 */
export function clockRates(groups: ArrayLike<number>, events: BleEventGroups, receivers: number, scratch: ClockRateScratch = clockRateScratch(receivers)): ClockRates | undefined {
  const { start, time, receiver, channel } = events;
  let total = 0;
  for (let m = 0; m < groups.length; m++) total += start[groups[m] + 1] - start[groups[m]];
  const stride = Math.max(1, Math.floor(total / MAX_RATE_PAIRS));
  const { dt, residue, receiver: pairReceiver, count, next, last } = scratch;
  let pairs = 0;
  for (let m = 0; m < groups.length && pairs < MAX_RATE_PAIRS; m++) {
    const group = groups[m];
    const begin = start[group];
    const end = start[group + 1];
    // Every event sampled: each one's next on its receiver and channel from one pass (the scan
    // forward from each event read ~9 events apiece on three receivers and three channels).
    const dense = stride === 1;
    if (dense) {
      for (let j = begin; j < end; j++) {
        next[j - begin] = -1;
        const slot = receiver[j] * CHANNEL_SLOTS + channel[j];
        const previous = last[slot];
        if (previous >= 0 && time[j] - time[previous] <= PAIR_WINDOW_MS) next[previous - begin] = j;
        last[slot] = j;
      }
      for (let j = begin; j < end; j++) last[receiver[j] * CHANNEL_SLOTS + channel[j]] = -1;
    }
    for (let i = begin; i < end && pairs < MAX_RATE_PAIRS; i += stride) {
      if (channel[i] === BLE_NO_CHANNEL) continue;
      let j = -1;
      if (dense) j = next[i - begin];
      else {
        for (let k = i + 1; k < end && time[k] - time[i] <= PAIR_WINDOW_MS; k++) {
          if (receiver[k] === receiver[i] && channel[k] === channel[i]) {
            j = k;
            break;
          }
        }
      }
      if (j < 0) continue;
      const gap = time[j] - time[i];
      if (gap > 0) {
        dt[pairs] = gap;
        residue[pairs] = residueMs(gap);
        pairReceiver[pairs] = receiver[i];
        pairs++;
      }
    }
  }
  // Receiver by receiver, so each receiver's loops read only its own pairs.
  const { gap, phase, from } = scratch;
  count.fill(0);
  for (let k = 0; k < pairs; k++) count[pairReceiver[k]]++;
  from[0] = 0;
  for (let r = 0; r < receivers; r++) from[r + 1] = from[r] + count[r];
  for (let r = 0; r < receivers; r++) count[r] = from[r];
  for (let k = 0; k < pairs; k++) {
    const at = count[pairReceiver[k]]++;
    gap[at] = dt[k];
    phase[at] = residue[k];
  }
  const rate = new Float64Array(receivers).fill(Number.NaN);
  const se = new Float64Array(receivers).fill(Number.NaN);
  let read = false;
  for (let r = 0; r < receivers; r++) {
    const low = from[r];
    const high = from[r + 1];
    if (high - low < MIN_RATE_PAIRS) continue;
    // A first rate: the median of the short pairs' residue per gap where there are enough of
    // them (unambiguous below 125 ppm), else the search over the phase vectors (sparse packets).
    let first = shortPairsRate(scratch, low, high);
    if (Number.isNaN(first)) {
      const coarse = bestRate(scratch, low, high, 0, MAX_RATE_PPM, COARSE_STEP_PPM, COARSE_WINDOW_MS, COARSE_SEARCH_PAIRS);
      if (Number.isNaN(coarse)) continue;
      first = bestRate(scratch, low, high, coarse, COARSE_STEP_PPM, FINE_STEP_PPM, PAIR_WINDOW_MS, FINE_SEARCH_PAIRS);
      if (Number.isNaN(first)) continue;
    }
    // Each residue unwrapped around the line (then within half a slot of it) and fitted, twice:
    // the first fit refines a rate good to a few ppm, the second reads every pair around it.
    let slope = first * 1e-6;
    let fit = { slope, se: Infinity, n: 0 };
    for (let round = 0; round < 2; round++) {
      for (let k = low; k < high; k++) {
        const predicted = slope * gap[k];
        phase[k] = predicted + residueMs(phase[k] - predicted);
      }
      fit = fitSlope(gap, phase, low, high, slope, OUTLIER_MS);
      slope = fit.slope;
    }
    // Most pairs must sit on the line: whole-millisecond or host timestamps put few there.
    if (fit.n < MIN_RATE_PAIRS || fit.n < MIN_ON_LINE * (high - low)) continue;
    rate[r] = fit.slope * 1e6;
    se[r] = fit.se * 1e6;
    read = true;
  }
  return read ? { rate, se } : undefined;
}

/** The median over one receiver's pairs [low, high) at most SHORT_WINDOW_MS apart of residue / gap (ppm); NaN with fewer than MIN_SHORT_PAIRS. */
function shortPairsRate(scratch: ClockRateScratch, low: number, high: number): number {
  const { gap, phase, shortRates } = scratch;
  let n = 0;
  for (let k = low; k < high; k++) if (gap[k] <= SHORT_WINDOW_MS) shortRates[n++] = (phase[k] / gap[k]) * 1e6;
  if (n < MIN_SHORT_PAIRS) return Number.NaN;
  // A typed array sorts numerically, without a comparator call per step.
  return shortRates.subarray(0, n).sort()[n >> 1];
}

/**
 * The rate (ppm) in [center − span, center + span] by `step` under which the first `most` of
 * one receiver's pairs [low, high) at most `windowMs` apart line up best on the slot grid (largest mean
 * resultant length of 2π(residue − rate·gap)/slot); NaN when fewer than MIN_RATE_PAIRS / 2 pairs
 * take part or the best lines them up less than MIN_RESULTANT.
 */
function bestRate(scratch: ClockRateScratch, low: number, high: number, center: number, span: number, step: number, windowMs: number, most: number): number {
  const { gap: dt, phase: residue, ppm, cos, sin } = scratch;
  // The rates tried, as the accumulating loop `ppm += step` reaches them.
  let steps = 0;
  for (let value = center - span; value <= center + span + 1e-9 && steps < MAX_SEARCH_STEPS; value += step) ppm[steps++] = value;
  cos.fill(0, 0, steps);
  sin.fill(0, 0, steps);
  // Pair by pair, its phase turned from one rate to the next by a fixed rotation (the angle is
  // linear in the rate): one cos and sin per pair, not per pair and rate. Each search reads a few
  // dozen pairs at up to 51 rates, for every address of the capture.
  const radiansPerMs = (2 * Math.PI) / BLE_SLOT_MS;
  let used = 0;
  for (let k = low; k < high && used < most; k++) {
    if (dt[k] > windowMs) continue;
    const angle = radiansPerMs * (residue[k] - ppm[0] * 1e-6 * dt[k]);
    const turn = -radiansPerMs * step * 1e-6 * dt[k];
    const turnCos = Math.cos(turn);
    const turnSin = Math.sin(turn);
    let c = Math.cos(angle);
    let s = Math.sin(angle);
    for (let index = 0; index < steps; index++) {
      cos[index] += c;
      sin[index] += s;
      const turned = c * turnCos - s * turnSin;
      s = s * turnCos + c * turnSin;
      c = turned;
    }
    used++;
  }
  if (used === 0) return Number.NaN;
  let best = Number.NaN;
  let bestResultant = -1;
  for (let index = 0; index < steps; index++) {
    const resultant = Math.hypot(cos[index], sin[index]) / used;
    if (resultant > bestResultant) {
      bestResultant = resultant;
      best = ppm[index];
    }
  }
  return used >= MIN_RATE_PAIRS / 2 && bestResultant >= MIN_RESULTANT ? best : Number.NaN;
}

/** Least-squares slope through the origin of residue on gap over the pairs [low, high) within `limit` of `around`·gap. */
function fitSlope(dt: Float64Array, residue: Float64Array, low: number, high: number, around: number, limit: number): { slope: number; se: number; n: number } {
  let sxx = 0;
  let sxy = 0;
  let n = 0;
  for (let k = low; k < high; k++) {
    if (Math.abs(residue[k] - around * dt[k]) > limit) continue;
    sxx += dt[k] * dt[k];
    sxy += dt[k] * residue[k];
    n++;
  }
  if (n < 2 || sxx === 0) return { slope: 0, se: Infinity, n };
  const slope = sxy / sxx;
  let squares = 0;
  for (let k = low; k < high; k++) {
    if (Math.abs(residue[k] - around * dt[k]) > limit) continue;
    squares += (residue[k] - slope * dt[k]) ** 2;
  }
  return { slope, se: Math.sqrt(squares / (n - 1) / sxx), n };
}

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
  /** Of the capture's advertisers on that receiver, the share within the match's width of A's rate (the chance of a match). */
  chance: number;
  compared: number;
}

/** The values in ascending `sorted` within [low, high]. */
function countWithin(sorted: Float64Array, low: number, high: number): number {
  return upperBoundFloat64(sorted, high, 0, sorted.length) - lowerBoundFloat64(sorted, low, 0, sorted.length);
}

/**
 * One controller or two, from two advertisers' rates on the receiver where the comparison is
 * most precise. Rates that differ by more than MATCH_SDS errors are two clocks (log-odds down to
 * LLR_MIN by how many errors apart); rates that match count −log of the chance that another of
 * this receiver's advertisers falls within the match's width of A's rate (each pair of rates
 * counted once: the background holds both of the pair's own, so two are taken off), with
 * PSEUDO_RATES pseudo-advertisers at the model's own chance. Undefined when no receiver read both.
 */
export function clockRateEvidence(a: ClockRates, b: ClockRates, rates: Pick<BleClockRates, 'background' | 'offset' | 'offsetSe' | 'group'>): ClockRateEvidence | undefined {
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
  if (best < 0) return undefined;
  // B's rate in A's receiver's frame.
  const rateB = bestOther === best ? b.rate[best] : b.rate[bestOther] - offset[bestOther] + offset[best];
  const difference = a.rate[best] - rateB;
  const z = Math.abs(difference) / bestError;
  const width = MATCH_SDS * bestError;
  const known = background[best];
  const rate = a.rate[best];
  const core = countWithin(known, rate - width, rate + width);
  const ringWidth = Math.max(RING_PPM, 2 * width);
  const ring = countWithin(known, rate - ringWidth, rate + ringWidth) - core;
  // Expected unrelated clocks within the match's width, from the ring's density, plus the core beyond A's own device.
  const near = (ring * width) / (ringWidth - width) + Math.max(0, core - 2 - OWN_ADDRESSES);
  const others = Math.max(0, known.length - 2);
  const modelChance = Math.min(1, (2 * width) / RELATIVE_SPREAD_PPM);
  const chance = Math.min(1, (near + PSEUDO_RATES * modelChance) / (others + PSEUDO_RATES));
  let llr: number;
  if (z <= MATCH_SDS) llr = Math.min(LLR_MAX, -Math.log(chance));
  else llr = Math.max(LLR_MIN, -0.5 * (z * z - MATCH_SDS * MATCH_SDS));
  return { llrSame: llr, receiver: best, differencePpm: difference, errorPpm: bestError, chance, compared: others };
}

/** The rationale of a clock-rate comparison ("clock rates on rx-2 differ by 0.03 ± 0.12 ppm; 2 of 40 advertisers there come as close"). */
export function clockRateText(evidence: ClockRateEvidence, receiverNames: ReadonlyArray<string>): string {
  const where = receiverNames[evidence.receiver] ?? `receiver ${evidence.receiver}`;
  const verdict =
    Math.abs(evidence.differencePpm) <= MATCH_SDS * evidence.errorPpm
      ? `one rate within the error; a match this close happens by chance ${(100 * evidence.chance).toFixed(1)} % of the time among the ${evidence.compared} other advertisers read there`
      : `two clocks (${(Math.abs(evidence.differencePpm) / evidence.errorPpm).toFixed(1)} errors apart)`;
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
  let strongest: ClockRateEvidence | undefined;
  let weakest: ClockRateEvidence | undefined;
  for (let m = 0; m < a.groups.length; m++) {
    const ra = rates.byProfile[a.groups[m]];
    if (ra === undefined || a.spans[2 * m + 1] < fromMs || a.spans[2 * m] > toMs) continue;
    for (let n = 0; n < b.groups.length; n++) {
      const rb = rates.byProfile[b.groups[n]];
      if (rb === undefined || b.spans[2 * n + 1] < a.spans[2 * m] || b.spans[2 * n] > a.spans[2 * m + 1]) continue;
      const evidence = clockRateEvidence(ra, rb, rates);
      if (evidence === undefined) continue;
      if (strongest === undefined || evidence.llrSame > strongest.llrSame) strongest = evidence;
      if (weakest === undefined || evidence.llrSame < weakest.llrSame) weakest = evidence;
    }
  }
  return weakest !== undefined && weakest.llrSame < 0 ? weakest : strongest;
}
