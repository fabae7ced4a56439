/**
 * The co-rotation term of co-location linkage, as the candidate screen reads it
 * (co-location-candidates.ts): hand-offs of two concurrent chains that fall within a couple of
 * seconds of each other, against the chance of such a coincidence from the other chain's
 * hand-off rate or from the crowd handing off at that moment. The score (co-location.ts)
 * computes the same term.
 */

import { CO_ROTATION_CHANCE_MAX, CO_ROTATION_SYNCHRONIZED, coRotationChance, coRotationLogOdds, coRotationRate } from './co-location-model.ts';
import { lowerBoundFloat64, upperBoundFloat64 } from '../shared/sorted-search.ts';

/** A chain as the co-rotation term reads it. */
export interface BleHandoffChain {
  /** The chain's place among those the crowd (`BleHandoffCrowd`) was built from. */
  index: number;
  /** Hand-off and edge times (ms) in time order. */
  boundaries: Float64Array;
  /** Coincidence tolerance from the advertising interval, ms. */
  toleranceMs: number;
  /** Whether `boundaries` ascend (hand-offs of overlapping members can make them not); then they are searched by bisection. */
  ascending: boolean;
}

/**
 * How many chains hand off around each hand-off, as the score counts it: every chain's hand-offs
 * sorted once, each hand-off's place among them found by bisection, neighbours within the
 * tolerance counted by stepping outward.
 */
export class BleHandoffCrowd {
  private readonly all: Float64Array;
  /**
   * Every chain's hand-offs one after the other, chain c's from `start[c]` to `start[c + 1]` (the
   * hot paths read a few flat typed arrays, not an array per chain), and each chain's tolerance.
   */
  private readonly start: Int32Array;
  private readonly times: Float64Array;
  private readonly tolerances: Float64Array;
  /** Per hand-off: its place among all hand-offs (`upperBound` in `all`). */
  private readonly places: Int32Array;
  /** Per hand-off: shareAt at its chain's own tolerance (the pair's tolerance whenever the chain's is the wider). */
  private readonly ownShareAt: Float64Array;
  /**
   * Per chain: prefix sums of shareAt over its hand-offs at its own tolerance, and at the largest
   * tolerance of any chain (no pair's tolerance exceeds it); chain c's from start[c] + c (one
   * entry more than it has hand-offs).
   */
  private readonly ownShares: Float64Array;
  private readonly widestShares: Float64Array;
  /**
   * Chains × chains bits: whether any hand-off of one lies within the widest tolerance (and a
   * millisecond) of any of the other's. Two chains without such a pair never coincide, whatever
   * their overlap and tolerance (`coRotationRange` then counts no coincidences without a merge).
   */
  private readonly nearby: Uint32Array;
  private readonly nearbyStride: number;

  constructor(
    chains: ReadonlyArray<{ boundaries: Float64Array; toleranceMs: number }>,
    /** Per chain: how many chains are active with it. */
    private readonly concurrent: Int32Array,
  ) {
    this.tolerances = Float64Array.from(chains, (one) => one.toleranceMs);
    const start = new Int32Array(chains.length + 1);
    for (let chain = 0; chain < chains.length; chain++) start[chain + 1] = start[chain] + chains[chain].boundaries.length;
    const total = start[chains.length];
    const times = new Float64Array(total);
    for (let chain = 0; chain < chains.length; chain++) times.set(chains[chain].boundaries, start[chain]);
    const all = Float64Array.from(times).sort();
    const places = new Int32Array(total);
    for (let at = 0; at < total; at++) places[at] = upperBoundFloat64(all, times[at], 0, total);
    this.start = start;
    this.times = times;
    this.all = all;
    this.places = places;
    const ownShareAt = new Float64Array(total);
    const widestShareAt = new Float64Array(total);
    let widest = 0;
    for (const one of chains) widest = Math.max(widest, one.toleranceMs);
    for (let chain = 0; chain < chains.length; chain++) {
      for (let at = start[chain]; at < start[chain + 1]; at++) {
        ownShareAt[at] = this.countedShareAt(chain, at, this.tolerances[chain]);
        widestShareAt[at] = this.countedShareAt(chain, at, widest);
      }
    }
    this.ownShareAt = ownShareAt;
    this.ownShares = prefixSums(ownShareAt, start);
    this.widestShares = prefixSums(widestShareAt, start);
    this.nearbyStride = (chains.length + 31) >> 5;
    this.nearby = nearbyChains(all, places, start, widest + NEARBY_SLACK_MS, this.nearbyStride);
  }

  /** False when no hand-off of chain x is within the widest tolerance of one of chain y's (`nearby`): they have no coincidence. */
  mayCoincide(x: number, y: number): boolean {
    return (this.nearby[x * this.nearbyStride + (y >> 5)] & (1 << (y & 31))) !== 0;
  }

  /**
   * Σ shareAt over the chain's hand-offs first..last−1 at `tolerance`: from prefix sums when the
   * tolerance is the chain's own, else one by one.
   */
  shareSum(chain: number, first: number, last: number, tolerance: number): number {
    if (tolerance === this.tolerances[chain]) return this.shareSumAtLeast(chain, first, last);
    let sum = 0;
    for (let boundary = first; boundary < last; boundary++) sum += this.shareAt(chain, boundary, tolerance);
    return sum;
  }

  /**
   * Bounds of shareSum(chain, first, last, tolerance) for any tolerance from the chain's own up:
   * a wider tolerance counts at least as many hand-offs around each one, so the sums at the
   * chain's own and at the widest tolerance enclose it.
   */
  shareSumAtLeast(chain: number, first: number, last: number): number {
    const at = this.start[chain] + chain;
    return this.ownShares[at + last] - this.ownShares[at + first];
  }

  shareSumAtMost(chain: number, first: number, last: number): number {
    const at = this.start[chain] + chain;
    return this.widestShares[at + last] - this.widestShares[at + first];
  }

  /**
   * Share of the chains active with `chain` that hand off within `tolerance` of its hand-off
   * `boundary` (at most 0.9): at the chain's own tolerance worked out once, at another counted.
   */
  shareAt(chain: number, boundary: number, tolerance: number): number {
    const at = this.start[chain] + boundary;
    if (tolerance === this.tolerances[chain]) return this.ownShareAt[at];
    return this.countedShareAt(chain, at, tolerance);
  }

  /**
   * `shareAt` of the hand-off at place `at` of `times`, counted: the hand-offs of all chains
   * within `tolerance`, stepping outward from its place among them.
   */
  private countedShareAt(chain: number, at: number, tolerance: number): number {
    const all = this.all;
    const t = this.times[at];
    const place = this.places[at];
    let above = place;
    while (above < all.length && all[above] <= t + tolerance) above++;
    let below = place;
    while (below > 0 && all[below - 1] > t - tolerance) below--;
    return Math.min(CO_ROTATION_CHANCE_MAX, Math.max(0, above - below - 1) / Math.max(1, this.concurrent[chain]));
  }
}

/**
 * Slack of `nearby` beyond the widest tolerance, ms: a coincidence test rounds differently (t − u
 * against t − tolerance) by far less than this, so the bits only ever say "maybe" too often.
 */
const NEARBY_SLACK_MS = 1;

/**
 * The `nearby` bits of `BleHandoffCrowd`: every hand-off against the ones after it in time order
 * within `within` ms. Hand-off `at` (of the chain whose run of `start` holds it) sits at
 * places[at] − 1 of `all` or below it among equal times; each is given its own slot there.
 */
function nearbyChains(all: Float64Array, places: Int32Array, start: Int32Array, within: number, stride: number): Uint32Array {
  const chains = start.length - 1;
  const chainAt = new Int32Array(all.length);
  const taken = new Int32Array(all.length + 1);
  for (let chain = 0; chain < chains; chain++) {
    for (let at = start[chain]; at < start[chain + 1]; at++) {
      const top = places[at];
      chainAt[top - 1 - taken[top]] = chain;
      taken[top]++;
    }
  }
  const bits = new Uint32Array(chains * stride);
  for (let i = 0; i < all.length; i++) {
    const x = chainAt[i];
    for (let j = i + 1; j < all.length && all[j] - all[i] <= within; j++) {
      const y = chainAt[j];
      bits[x * stride + (y >> 5)] |= 1 << (y & 31);
      bits[y * stride + (x >> 5)] |= 1 << (x & 31);
    }
  }
  return bits;
}

/**
 * Per chain, prefix sums of its `values` (entry i: the sum of its first i, added in order), chain
 * c's values from start[c] to start[c + 1] and its sums from start[c] + c.
 */
function prefixSums(values: Float64Array, start: Int32Array): Float64Array {
  const chains = start.length - 1;
  const sums = new Float64Array(values.length + chains);
  for (let chain = 0; chain < chains; chain++) {
    const at = start[chain] + chain;
    for (let index = start[chain]; index < start[chain + 1]; index++) sums[at + index - start[chain] + 1] = sums[at + index - start[chain]] + values[index];
  }
  return sums;
}

/**
 * The co-rotation term of chains `a` and `b` over their overlap [fromMs, toMs], as the score
 * computes it: coincidences of the two chains' hand-offs (a repeat one fixed period after the
 * last coincidence, which any two devices on the specification's timer produce, is not
 * counted), against the chance of one from the hand-off rate or the crowd handing off at once.
 */
export function coRotationLogOddsOf(a: BleHandoffChain, b: BleHandoffChain, fromMs: number, toMs: number, fixedPeriodMs: readonly [number, number], crowd: BleHandoffCrowd): number {
  const tolerance = Math.max(a.toleranceMs, b.toleranceMs);
  const low = fromMs - tolerance;
  const high = toMs + tolerance;
  let inA = 0;
  let matched = 0;
  let previousMatch = Number.NaN;
  const own = a.boundaries;
  const other = b.boundaries;
  let inB = 0;
  if (b.ascending) inB = upperBoundFloat64(other, high, 0, other.length) - lowerBoundFloat64(other, low, 0, other.length);
  else for (const t of other) if (t >= low && t <= high) inB++;
  // The chain's hand-offs in range: a contiguous run when they ascend (crowd shares summed at once).
  const firstInRange = a.ascending ? lowerBoundFloat64(own, low, 0, own.length) : 0;
  const endOfRange = a.ascending ? upperBoundFloat64(own, high, 0, own.length) : own.length;
  let crowdShare = a.ascending ? crowd.shareSum(a.index, firstInRange, endOfRange, tolerance) : 0;
  for (let boundary = firstInRange; boundary < endOfRange; boundary++) {
    const t = own[boundary];
    if (t < low || t > high) continue;
    inA++;
    if (!a.ascending) crowdShare += crowd.shareAt(a.index, boundary, tolerance);
    let first = 0;
    if (b.ascending) {
      first = lowerBoundFloat64(other, t - tolerance, 0, other.length);
      if (first < other.length && other[first] - t > tolerance) first = other.length;
    }
    for (let index = first; index < other.length; index++) {
      if (Math.abs(other[index] - t) > tolerance) continue;
      const interval = t - previousMatch;
      if (!(interval >= fixedPeriodMs[0] && interval <= fixedPeriodMs[1])) matched++;
      else inA--;
      previousMatch = t;
      break;
    }
  }
  const k = Math.min(inA, inB);
  if (k <= 0) return 0;
  const m = Math.min(matched, k);
  const rate = coRotationRate(Math.max(inA, inB), tolerance, fromMs, toMs);
  return coRotationLogOdds(m, k, coRotationChance(rate, inA > 0 ? crowdShare / inA : 0));
}

/**
 * Places in the `searched` array of `coRotationQuickRange` and `coRotationRange`: chain a's first
 * hand-off in the pair's range and the one after its last, and how many of chain b's are in it.
 */
export const enum HandoffSearch {
  First,
  End,
  InB,
  Size,
}

/** log(0.15 / 0.1): the most a hand-off without a coincidence can add, at the highest chance (0.9); a constant, worked out once. */
const LOG_MISSED_AT_HIGHEST_CHANCE = Math.log((1 - CO_ROTATION_SYNCHRONIZED) / 0.1);

/** ln ½: the co-rotation term is never below it ("one device" is half "chance"). */
const CO_ROTATION_MIN = Math.log(0.5);

/**
 * Bounds of the co-rotation term from the two chains' hand-offs in range alone (no coincidence
 * counted), into `range`: with k ≤ K = min(hand-offs of each in range) and a chance c between
 * its lowest (the other chain's rate, or the crowd's share at the first chain's own tolerance)
 * and 0.9, the term log(½ + ½·(0.85/c)^m·(0.15/(1−c))^(k−m)) is at most the larger of
 * K·log(0.85/c) and K·log(0.15/0.1), and at least ln ½ (0 when k = 0). Chains that never come
 * near each other (`BleHandoffCrowd.mayCoincide`) have m = 0, and the term is at most K·log(0.15/0.1).
 */
export function coRotationQuickRange(
  a: BleHandoffChain,
  b: BleHandoffChain,
  /** The pair's overlap [fromMs, toMs] (in an array: as arguments, times would be boxed, an allocation per call). */
  overlapMs: Float64Array,
  crowd: BleHandoffCrowd,
  range: Float64Array,
  /** When given, receives where the hand-offs in range are (HandoffSearch), for `coRotationRange` on the same pair. */
  searched?: Int32Array,
): void {
  range[0] = CO_ROTATION_MIN;
  if (!a.ascending || !b.ascending) {
    range[1] = Infinity;
    return;
  }
  const fromMs = overlapMs[0];
  const toMs = overlapMs[1];
  const tolerance = Math.max(a.toleranceMs, b.toleranceMs);
  const low = fromMs - tolerance;
  const high = toMs + tolerance;
  const own = a.boundaries;
  const other = b.boundaries;
  const inB = upperBoundFloat64(other, high, 0, other.length) - lowerBoundFloat64(other, low, 0, other.length);
  const first = lowerBoundFloat64(own, low, 0, own.length);
  const end = upperBoundFloat64(own, high, 0, own.length);
  if (searched) {
    searched[HandoffSearch.First] = first;
    searched[HandoffSearch.End] = end;
    searched[HandoffSearch.InB] = inB;
  }
  const k = Math.min(end - first, inB);
  if (k <= 0) {
    range[0] = range[1] = 0;
    return;
  }
  if (!crowd.mayCoincide(a.index, b.index)) {
    // No coincidence can be counted (m = 0): log(½ + ½·(0.15/(1−c))^k) ≤ K·log(0.15/0.1).
    range[1] = k * LOG_MISSED_AT_HIGHEST_CHANCE;
    return;
  }
  const lowest = coRotationChance(coRotationRate(inB, tolerance, fromMs, toMs), crowd.shareSumAtLeast(a.index, first, end) / (end - first));
  range[1] = Math.max(0, k * Math.log(CO_ROTATION_SYNCHRONIZED / lowest), k * LOG_MISSED_AT_HIGHEST_CHANCE);
}

/**
 * The co-rotation term or bounds of it, cheaply: `range` gets [low, high]; the result says
 * whether they are the exact term (`coRotationLogOddsOf`, low = high). The coincidences are
 * counted exactly, by one merge of the two chains' ascending hand-offs; only the crowd's share at
 * the pair's tolerance, when that is the other chain's, is bounded instead of summed hand-off
 * by hand-off (between its sums at the first chain's own and at the widest tolerance). The term,
 * log(½ + ½·(0.85/c)^m·(0.15/(1−c))^(k−m)), is convex in the chance c (a log-sum-exp of a
 * function convex in c), so over the chance's range it is highest at one of the ends; it is
 * never below ln ½. Without coincidences (m = 0) and a chance no higher than 0.85 it is at most
 * 0, which is all most pairs need to know. Chains whose hand-offs do not ascend get the exact term.
 */
export function coRotationRange(
  a: BleHandoffChain,
  b: BleHandoffChain,
  /** The pair's overlap [fromMs, toMs] (as `coRotationQuickRange` takes it). */
  overlapMs: Float64Array,
  fixedPeriodMs: readonly [number, number],
  crowd: BleHandoffCrowd,
  range: Float64Array,
  /** Where `coRotationQuickRange` found the hand-offs in range for this same pair, when it was asked to say (saves the searches). */
  searched?: Int32Array,
): boolean {
  const fromMs = overlapMs[0];
  const toMs = overlapMs[1];
  if (!a.ascending || !b.ascending) {
    range[0] = range[1] = coRotationLogOddsOf(a, b, fromMs, toMs, fixedPeriodMs, crowd);
    return true;
  }
  const tolerance = Math.max(a.toleranceMs, b.toleranceMs);
  const low = fromMs - tolerance;
  const high = toMs + tolerance;
  const own = a.boundaries;
  const other = b.boundaries;
  const inB = searched ? searched[HandoffSearch.InB] : upperBoundFloat64(other, high, 0, other.length) - lowerBoundFloat64(other, low, 0, other.length);
  const first = searched ? searched[HandoffSearch.First] : lowerBoundFloat64(own, low, 0, own.length);
  const end = searched ? searched[HandoffSearch.End] : upperBoundFloat64(own, high, 0, own.length);
  let inA = 0;
  let matched = 0;
  let previousMatch = Number.NaN;
  // The first hand-off of the other chain not before t − tolerance only moves forward with t;
  // t has a coincidence when that hand-off is not after t + tolerance.
  // (Chains whose hand-offs are never near each other have none: every one in range counts, unmatched.)
  if (!crowd.mayCoincide(a.index, b.index)) inA = end - first;
  else {
    let next = first < end ? lowerBoundFloat64(other, own[first] - tolerance, 0, other.length) : 0;
    for (let boundary = first; boundary < end; boundary++) {
      const t = own[boundary];
      inA++;
      while (next < other.length && other[next] < t - tolerance) next++;
      if (next < other.length && other[next] - t <= tolerance) {
        const interval = t - previousMatch;
        if (!(interval >= fixedPeriodMs[0] && interval <= fixedPeriodMs[1])) matched++;
        else inA--;
        previousMatch = t;
      }
    }
  }
  const k = Math.min(inA, inB);
  if (k <= 0) {
    range[0] = range[1] = 0;
    return true;
  }
  const m = Math.min(matched, k);
  const rate = coRotationRate(Math.max(inA, inB), tolerance, fromMs, toMs);
  const ownTolerance = tolerance === a.toleranceMs;
  const chanceHigh = coRotationChance(rate, (ownTolerance ? crowd.shareSum(a.index, first, end, tolerance) : crowd.shareSumAtMost(a.index, first, end)) / inA);
  range[0] = CO_ROTATION_MIN;
  if (m === 0 && chanceHigh <= CO_ROTATION_SYNCHRONIZED) {
    // No coincidence where one is no likelier than for a synchronized pair: the term is
    // log(½ + ½·(0.15/(1−c))^k) with 0.15/(1−c) ≤ 1, at most 0 (most pairs: no logs needed).
    range[1] = 0;
    return false;
  }
  if (ownTolerance) {
    range[0] = range[1] = coRotationLogOdds(m, k, chanceHigh);
    return true;
  }
  const chanceLow = coRotationChance(rate, crowd.shareSumAtLeast(a.index, first, end) / inA);
  range[1] = Math.max(coRotationLogOdds(m, k, chanceLow), coRotationLogOdds(m, k, chanceHigh));
  return false;
}
