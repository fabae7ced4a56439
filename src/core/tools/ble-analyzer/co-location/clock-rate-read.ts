import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';
import { BLE_SLOT_MS } from './advertising-clock.ts';

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
 * of the capture's other advertisers run at about that rate (`clockRateEvidence`, clock-rate.ts),
 * so a capture whose rates are all alike gives it no weight. This file reads the rates; clock-rate.ts
 * compares them.
 */

/**
 * Each sampled packet is paired with the next packet of the advertiser on the same receiver and
 * channel at most this far later (ms). The residue of the gap modulo a slot wraps many times over
 * 30 s, so the rate is found by a search (`bestRate`) before it is fitted.
 */
const PAIR_WINDOW_MS = 30_000;
/** Rates searched, ±ppm against the receiver: crystals of ±30 ppm on both sides, and a receiver's own drift of up to ±100 ppm. */
export const MAX_RATE_PPM = 150;
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
/**
 * Pairs of nearly one gap cannot tell a rate from its aliases: packets heard every ~7 s line up
 * on the slot grid as well at the rate ± 625 µs / 7 s (±89 ppm) as at the rate itself, and the
 * search picks one on noise (the generated multi_set_crowd, heard at exact multiples of one
 * period: one in five pairs of one set's successive addresses read ~90 ppm apart, "two clocks").
 * Where an alias near enough to matter (within 2 · MAX_RATE_PPM, as far as two read rates can
 * differ) lines the pairs up at least this share as well as the rate does, the rate is known
 * only modulo the alias's distance, which is kept with it (`ClockRates.alias`).
 */
const MAX_ALIAS_SHARE = 0.9;
/** Pairs the alias check reads at most. */
const ALIAS_PAIRS = 48;

/**
 * Per receiver r: rate[r] (ppm against the receiver, NaN where not read), se[r] its standard
 * error (ppm), and alias[r]: where the packets cannot tell the rate from rate ± alias[r] (ppm),
 * that distance (NaN where they can; absent: nowhere).
 */
export interface ClockRates {
  rate: Float64Array;
  se: Float64Array;
  alias?: Float64Array;
}

/** Channel slots per receiver in `clockRateScratch`'s last-event table (channel indices 0–39, and BLE_NO_CHANNEL). */
const CHANNEL_SLOTS = 256;
/** The most rates `bestRate` tries in one search (the wide coarse one: 2 · 150 / 2 + 1). */
const MAX_SEARCH_STEPS = 2 * Math.ceil(MAX_RATE_PPM / 2) + 1;
/**
 * Pairs of one gap turn alike under every rate, so a coarse search over them is flat (its best
 * and worst rates line the pairs up within this much): packets heard at exact multiples of one
 * period (~7 s in the generated multi_set_crowd) leave only such pairs within COARSE_WINDOW_MS.
 * The coarse search then reads pairs up to PAIR_WINDOW_MS apart, whose gaps differ, in steps of
 * WIDE_STEP_PPM (a step turns a 30 s pair's phase by a tenth of a slot).
 */
const FLAT_SEARCH = 0.05;
const WIDE_STEP_PPM = 2;

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
    /** The last search's best resultant less its worst (0 where too few pairs took part). */
    spread: new Float64Array(1),
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
  const alias = new Float64Array(receivers).fill(Number.NaN);
  let read = false;
  for (let r = 0; r < receivers; r++) {
    const low = from[r];
    const high = from[r + 1];
    if (high - low < MIN_RATE_PAIRS) continue;
    // A first rate: the median of the short pairs' residue per gap where there are enough of
    // them (unambiguous below 125 ppm), else the search over the phase vectors (sparse packets).
    let first = shortPairsRate(scratch, low, high);
    if (Number.isNaN(first)) {
      let coarse = bestRate(scratch, low, high, 0, MAX_RATE_PPM, COARSE_STEP_PPM, COARSE_WINDOW_MS, COARSE_SEARCH_PAIRS);
      if (scratch.spread[0] < FLAT_SEARCH) coarse = bestRate(scratch, low, high, 0, MAX_RATE_PPM, WIDE_STEP_PPM, PAIR_WINDOW_MS, COARSE_SEARCH_PAIRS);
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
    alias[r] = aliasPeriodPpm(scratch, low, high, fit.slope);
    read = true;
  }
  return read ? { rate, se, alias } : undefined;
}

/** The mean resultant length on the slot grid under `slope` (ms per ms) of every `stride`-th of one receiver's pairs [low, high). */
function resultantAt(gap: Float64Array, phase: Float64Array, low: number, high: number, stride: number, slope: number): number {
  const radiansPerMs = (2 * Math.PI) / BLE_SLOT_MS;
  let c = 0;
  let s = 0;
  let n = 0;
  for (let k = low; k < high; k += stride) {
    const angle = radiansPerMs * (phase[k] - slope * gap[k]);
    c += Math.cos(angle);
    s += Math.sin(angle);
    n++;
  }
  return Math.hypot(c, s) / n;
}

/**
 * The distance (ppm) to an alias of `slope` that lines the pairs [low, high) up nearly as well
 * (MAX_ALIAS_SHARE), or NaN: one slot per shortest gap away (packets heard at one period are all
 * its multiples). Read on at most ALIAS_PAIRS of the pairs, evenly spread: every address with a
 * rate is checked, and the check stays a small part of reading the rate.
 */
function aliasPeriodPpm(scratch: ClockRateScratch, low: number, high: number, slope: number): number {
  const { gap, phase } = scratch;
  const stride = Math.max(1, Math.floor((high - low) / ALIAS_PAIRS));
  let shortest = Infinity;
  let longest = 0;
  for (let k = low; k < high; k += stride) {
    if (gap[k] < shortest) shortest = gap[k];
    if (gap[k] > longest) longest = gap[k];
  }
  // Pairs all closer than a slot per 2 · MAX_RATE_PPM have no alias near enough (dense packets).
  if ((BLE_SLOT_MS / longest) * 1e6 > 2 * MAX_RATE_PPM) return Number.NaN;
  return aliasAt(gap, phase, low, high, stride, slope, shortest);
}

/** The alias (ppm) one slot per `typical` gap from `slope`, if it lines every `stride`-th pair of [low, high) up nearly as well as `slope` does; else NaN. */
function aliasAt(gap: Float64Array, phase: Float64Array, low: number, high: number, stride: number, slope: number, typical: number): number {
  const period = BLE_SLOT_MS / typical;
  // Farther than two read rates can differ: no comparison mistakes one for the other.
  if (period * 1e6 > 2 * MAX_RATE_PPM || !onLattice(gap, low, high, stride, typical)) return Number.NaN;
  const limit = MAX_ALIAS_SHARE * resultantAt(gap, phase, low, high, stride, slope);
  const near = resultantAt(gap, phase, low, high, stride, slope - period) >= limit || resultantAt(gap, phase, low, high, stride, slope + period) >= limit;
  return near ? period * 1e6 : Number.NaN;
}

/**
 * Whether most of every `stride`-th pair's gap in [low, high) is within a twentieth of a whole
 * multiple of `typical`: at its alias each pair turns by its gap's fraction of `typical`, so
 * without that the alias cannot line them up (a test without trigonometry that spares the
 * resultants for most addresses, whose gaps vary with advDelay).
 */
function onLattice(gap: Float64Array, low: number, high: number, stride: number, typical: number): boolean {
  let near = 0;
  let n = 0;
  for (let k = low; k < high; k += stride) {
    const multiples = gap[k] / typical;
    if (Math.abs(multiples - Math.round(multiples)) <= 0.05) near++;
    n++;
  }
  return near >= 0.5 * n;
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
 * take part or the best lines them up less than MIN_RESULTANT. Leaves in `scratch.spread` how much
 * better the best rate lined them up than the worst (0 when too few took part): a flat search.
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
  scratch.spread[0] = 0;
  if (used < MIN_RATE_PAIRS / 2) return Number.NaN;
  let best = Number.NaN;
  let bestResultant = -1;
  let worstResultant = Infinity;
  for (let index = 0; index < steps; index++) {
    const resultant = Math.hypot(cos[index], sin[index]) / used;
    if (resultant > bestResultant) {
      bestResultant = resultant;
      best = ppm[index];
    }
    if (resultant < worstResultant) worstResultant = resultant;
  }
  scratch.spread[0] = bestResultant - worstResultant;
  return bestResultant >= MIN_RESULTANT ? best : Number.NaN;
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
