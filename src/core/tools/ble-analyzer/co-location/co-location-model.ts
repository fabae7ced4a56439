
/**
 * The co-location model: the constants and the pure formula of each term, once. The score
 * (co-location.ts, every screened pair, with the terms it reports), the candidate screen
 * (co-location-candidates.ts, which promises to compute its terms exactly as the score does, or
 * bound them) and the co-rotation counts (co-rotation.ts) all read them from here; the rationale
 * (`describePair` in co-location.ts) words the numbers the score kept. Terms are log-likelihood
 * ratios of "one device" (S) or "travelled together" (T) against "unrelated" (U).
 */

/** Bounds of the fitted prior rates (sibling sets or companions per chain; co-location-priors.ts fits them). */
export const CO_LOCATION_PRIOR_MIN = 0.05;
export const CO_LOCATION_PRIOR_MAX = 2;
/**
 * The most companions per chain the fit may find: a walking group or a queue puts dozens of
 * radios on one path, and capping their rate at a phone's few sets would tell "one device"
 * from "travelled together" by a prior that ignores the crowd (each chance one-radio coincidence
 * among many companions then reads as a sibling set).
 */
export const CO_LOCATION_COMPANIONS_MAX = 64;

/** Width of the RSSI bins the series are built from, ms (a whole number of them make a channel-sum block, CHANNEL_BLOCK_MS; co-location-series.ts checks it). */
export const BIN_MS = 10_000;
/**
 * At most this many bins of an overlap are compared, evenly spaced: by the candidate screen, and
 * by a scored pair whose chains are heard in most bins…
 */
export const MAX_BINS = 60;
/**
 * …while a scored pair heard together in fewer of its bins reads more of them, so that about
 * MAX_BINS bins heard by both are compared, up to this many: evenly spaced samples of a phone set
 * heard every 25 s, or of a scan that listens 25 s every quarter hour, were mostly empty bins.
 */
export const MAX_BINS_SPARSE = 240;

/** How many bins of a pair's overlap the score reads: MAX_BINS heard by both, at most MAX_BINS_SPARSE (`heardShareA/B` per receiver, the series' `heardShare`). */
export function scoredBins(heardShareA: Float64Array, heardShareB: Float64Array, receivers: number): number {
  let together = 0;
  for (let r = 0; r < receivers; r++) together = Math.max(together, heardShareA[r] * heardShareB[r]);
  return Math.min(MAX_BINS_SPARSE, Math.max(MAX_BINS, Math.ceil(MAX_BINS / Math.max(together, 1e-9))));
}
/** Whole-chain level differences that disagree across receivers by more than this (dB) are not compared further. */
export const SCREEN_SPREAD_DB = 25;
/** Chains must be active together this long to be compared, ms. */
export const MIN_OVERLAP_MS = 60_000;
/** Receivers weaker than this are near the edge of hearing; blind-spot evidence needs margin above it. */
export const COMFORTABLE_DBM = -86;
/** Spread of the per-receiver RSSI difference: one radio (noise only), companions (own shadowing), unrelated. */
export const LEVEL_SD = { S: 0.3, T: 6, U: 10 } as const;
/** The smallest measurement noise of a receiver's mean difference (RSSI is read in whole dB). */
export const LEVEL_FLOOR_DB = 0.4;
/** Size of the mean RSSI difference: per-set TX offsets are a few dB; other devices differ more. */
export const OFFSET_SD = { S: 6, T: 10, U: 12 } as const;
/** Logs of OFFSET_SD (the offset-level term's constants). */
export const OFFSET_LOG_SD = { S: Math.log(OFFSET_SD.S), T: Math.log(OFFSET_SD.T), U: Math.log(OFFSET_SD.U) } as const;
/** A bin series with a standard deviation above this (dB) moves; below it, it is fading noise. */
export const MOVING_SD_DB = 3;
/** Receivers where the weaker chain's mean is within this of the receiver's weakest packets are censored. */
export const CENSOR_MARGIN_DB = 10;
/** Hand-offs this far apart (ms) repeat a coincidence for any two devices on a fixed 15-minute timer. */
export const FIXED_PERIOD_MS = [885_000, 915_000] as const;
/** The largest RSSI co-variation log-odds of one receiver. */
export const COVARIATION_MAX = 2.5;
/** The smallest RSSI co-variation log-odds of one receiver. */
export const COVARIATION_MIN = -3;
/** The RSSI co-variation log-odds of a receiver where only one of the two chains moves. */
export const ONE_MOVING_LOG_ODDS = -0.7;
/** Log-odds per doubling of the moving chain's RSSI spread beyond twice the still chain's. */
export const SPREAD_CONTRAST_LOG_ODDS = -2;
/** Independent bins (a sixth of the bins) at which the spread contrast of `oneMovingLogOdds` counts in full. */
const SPREAD_CONTRAST_FULL_BINS = 5;
/** blind_spot per receiver that hears one chain well and never the other: rare for one device, common for companions and strangers. */
export const BLIND_SPOT_LLR = { S: Math.log(0.05 / 0.4), T: Math.log(0.3 / 0.4) } as const;
/** The chance of a hand-off coinciding with the other chain's is taken as at most this. */
export const CO_ROTATION_CHANCE_MAX = 0.9;

/** The constants of the score that the candidate screen's estimate follows (tests pass their own). */
export interface BleCoLocationScreenModel {
  binMs: number;
  minOverlapMs: number;
  /** Whole-chain level differences that disagree across receivers by more than this are never compared. */
  screenSpreadDb: number;
  /** Receivers where the weaker chain is within this of the receiver's weakest packets are left out. */
  censorMarginDb: number;
  levelSd: { S: number; T: number; U: number };
  levelFloorDb: number;
  offsetSd: { S: number; T: number; U: number };
  movingSdDb: number;
  /** Largest fitted prior rate (sibling sets or companions per chain). */
  priorMax: number;
  /** At most this many bins of an overlap are compared. */
  maxBins: number;
  /** The co-variation log-odds of a receiver where only one chain moves, at most twice the other's spread. */
  oneMovingLogOdds: number;
  /** Largest co-variation log-odds per receiver. */
  covariationMax: number;
  /** Log-odds per doubling of the moving chain's spread beyond twice the still one's (negative). */
  spreadContrastLogOdds: number;
  /** Hand-offs this far apart repeat a coincidence for any two devices on a fixed timer. */
  fixedPeriodMs: readonly [number, number];
}

/** Log probability of m successes in k trials at probability q (q clamped away from 0 and 1). */
export function logBinomial(m: number, k: number, q: number): number {
  let logChoose = 0;
  for (let index = 1; index <= m; index++) logChoose += Math.log((k - m + index) / index);
  const p = Math.min(1 - 1e-9, Math.max(1e-9, q));
  return logChoose + m * Math.log(p) + (k - m) * Math.log(1 - p);
}

/** Log density of a zero-mean Gaussian at squared deviation `e2`, without the constant. */
export function gaussianLogDensity(e2: number, variance: number): number {
  return -0.5 * Math.log(variance) - e2 / (2 * variance);
}

/** How often a hand-off of one set coincides with its sibling's when a device rotates its sets together. */
export const CO_ROTATION_SYNCHRONIZED = 0.85;

/**
 * The co-rotation log-odds of m coincident hand-offs among k: "one device" is an even mix of
 * sets rotating together (a coincidence CO_ROTATION_SYNCHRONIZED of the time) and on their own
 * timers (chance), against chance alone.
 */
export function coRotationLogOdds(m: number, k: number, chance: number): number {
  const logChance = logBinomial(m, k, chance);
  const synchronized = Math.log(0.5) + logBinomial(m, k, CO_ROTATION_SYNCHRONIZED);
  const byChance = Math.log(0.5) + logChance;
  const top = Math.max(synchronized, byChance);
  return top + Math.log(Math.exp(synchronized - top) + Math.exp(byChance - top)) - logChance;
}

/** The co-rotation chance from the other chain's hand-off rate: `handoffs` in [from − tolerance, to + tolerance], each covering 2·tolerance. */
export function coRotationRate(handoffs: number, toleranceMs: number, fromMs: number, toMs: number): number {
  return (handoffs * 2 * toleranceMs) / Math.max(1, toMs - fromMs + 2 * toleranceMs);
}

/** The chance of one coincidence: the rate, or the crowd handing off at that moment if more, at most CO_ROTATION_CHANCE_MAX. */
export function coRotationChance(rate: number, crowdChance: number): number {
  return Math.min(CO_ROTATION_CHANCE_MAX, Math.max(rate, crowdChance));
}

/** The mean RSSI difference's noise on a receiver, at least the floor's (`floorDb`, LEVEL_FLOOR_DB in the score). */
export function differenceNoise(variance: number, floorDb: number): number {
  return Math.max(floorDb ** 2, variance);
}

/**
 * tx_offset_consistency on one receiver, per hypothesis: log density of its squared departure
 * `e2` from the common offset, with the measurement noise `noise2` and the hypothesis's `sd`.
 */
export function levelLogDensity(e2: number, noise2: number, sd: number): number {
  return gaussianLogDensity(e2, noise2 + sd ** 2);
}

/** tx_offset_level, per hypothesis: log density of an offset of `offset` dB under a zero-mean Gaussian of `sd` (whose log is `logSd`), without the constant. */
export function offsetLogDensity(offset: number, sd: number, logSd: number): number {
  return -logSd - (offset * offset) / (2 * sd * sd);
}

/** Whether a bin series of this variance moves (its SD at least `movingSdDb`). */
export function isMoving(variance: number, movingSdDb: number): boolean {
  return Math.sqrt(variance) >= movingSdDb;
}

/** The correlation of two bin series from their sums, kept inside ±0.99. */
export function binCorrelation(sumAB: number, n: number, meanA: number, meanB: number, varA: number, varB: number): number {
  return Math.max(-0.99, Math.min(0.99, (sumAB / n - meanA * meanB) / Math.sqrt(varA * varB)));
}

/**
 * rssi_covariation on a receiver where both chains move: the Fisher z of their correlation
 * `rho` against that of co-moving chains (0.7). Neighbouring bins of a moving device are
 * correlated, and two walkers on one floor drift alike by chance: about a sixth of the `n`
 * bins count as independent.
 */
export function correlationLogOdds(rho: number, n: number, covariationMax: number): number {
  const scale = Math.sqrt(Math.max(1, n / 6 - 3));
  const z = Math.atanh(rho) * scale;
  const mu = Math.atanh(0.7) * scale;
  return Math.max(COVARIATION_MIN, Math.min(covariationMax, z * mu - (mu * mu) / 2));
}

/**
 * rssi_covariation on a receiver where one chain's level moves and the other's does not. Sets
 * of one device, or a phone and its companion, share a path: the moving chain's swing would show
 * in the other's series too, less only what fading and the edge of hearing hide. A swing up to
 * twice the other's spread happens between co-moving chains (one near the receiver's
 * sensitivity loses its weak packets and reads flatter); each doubling beyond that counts
 * against both, down to COVARIATION_MIN, and less when few bins (about a sixth of them
 * independent) measured the two spreads.
 */
export function oneMovingLogOdds(varA: number, varB: number, n: number, model: Pick<BleCoLocationScreenModel, 'oneMovingLogOdds' | 'spreadContrastLogOdds'>): number {
  const contrast = 0.5 * Math.log2(Math.max(varA, varB) / Math.max(Math.min(varA, varB), 1e-6));
  const weight = Math.min(1, n / 6 / SPREAD_CONTRAST_FULL_BINS);
  return Math.max(COVARIATION_MIN, model.oneMovingLogOdds + model.spreadContrastLogOdds * weight * Math.max(0, contrast - 1));
}

/** The score's constants as the candidate screen reads them. */
export const CO_LOCATION_SCREEN_MODEL: BleCoLocationScreenModel = {
  binMs: BIN_MS,
  minOverlapMs: MIN_OVERLAP_MS,
  screenSpreadDb: SCREEN_SPREAD_DB,
  censorMarginDb: CENSOR_MARGIN_DB,
  levelSd: LEVEL_SD,
  levelFloorDb: LEVEL_FLOOR_DB,
  offsetSd: OFFSET_SD,
  movingSdDb: MOVING_SD_DB,
  priorMax: CO_LOCATION_PRIOR_MAX,
  maxBins: MAX_BINS,
  oneMovingLogOdds: ONE_MOVING_LOG_ODDS,
  spreadContrastLogOdds: SPREAD_CONTRAST_LOG_ODDS,
  covariationMax: COVARIATION_MAX,
  fixedPeriodMs: FIXED_PERIOD_MS,
};

/*
 * One radio or two: the rule that separates "one device" from "travelled together".
 *
 * A phone's sets, its watch, its earbuds, its tag and a friend walking a metre away all move
 * together: the co-movement terms (rssi_covariation, tx_offset_consistency, tx_offset_level,
 * blind_spot) tell "together" from "unrelated", never one radio from two. Only evidence a
 * second radio cannot produce makes two concurrent chains one device: a common advertising
 * clock (advertising_clock), the same frequency-selective pattern over the three channels
 * (channel_signature), hand-offs synchronized to within the tolerance (co_rotation). So:
 *   - "one device" takes co-movement's evidence only where it is lower than that of "travelled
 *     together" (co-movement may lower one device against travelled together, never raise it
 *     above): evidence(S) = min(co-movement S, co-movement T) + one-radio evidence;
 *   - a pair whose one-radio evidence is not estimable or below ONE_RADIO_MIN_LLR keeps no
 *     same-device mass: it goes to travelled together, whatever the fitted priors say;
 *   - a chain of a tracker tag is never one device with a chain of another kind or of none
 *     (a tag is a radio of its own: a tag near a phone travels with it);
 *   - each one-radio term counts only as far as the capture's own unrelated pairs make its value
 *     surprising (`backgroundBound`): a capture whose timestamps line up for every pair, or
 *     whose channels carry one pattern for everyone, gives that term no weight.
 */

/** The one-radio evidence (log-odds, after the background bound) a pair needs to keep any same-device mass. */
export const ONE_RADIO_MIN_LLR = 1;
/**
 * Pseudo-pairs of the background bound: with few unrelated pairs to compare against, a term's
 * value is trusted as far as its own model says (the chance of a value x among unrelated pairs is
 * at most e^−x for a likelihood ratio); with many, the capture's pairs decide.
 */
export const BACKGROUND_PSEUDO_PAIRS = 10;
/** Unrelated pairs sampled per analysis for the background (the work stays bounded). */
export const BACKGROUND_PAIRS = 256;

/** Evidence of "one device" against "unrelated" from the co-movement terms' sums and the one-radio evidence. */
export function sameDeviceEvidence(coMovementS: number, coMovementT: number, oneRadio: number): number {
  return Math.min(coMovementS, coMovementT) + oneRadio;
}

/**
 * The most a one-radio term's positive value `value` may count in a capture whose unrelated
 * pairs showed the ascending alikeness statistics `background`, where the pair's own is `alike`
 * (larger: more alike; the term's own measure of it, free of how many packets were compared:
 * the clock's resultant length (`backgroundBoundAmong`), the channel patterns' mismatch against the spread of two spots,
 * co-rotation's log-odds). Reaching the pair's alikeness among unrelated pairs has probability
 * P, so it can say at most −log P for one radio; P is estimated from the background with
 * BACKGROUND_PSEUDO_PAIRS pseudo-pairs at the model's own bound e^−value (a capture with few
 * unrelated pairs to compare keeps the term's value). Values at or below zero are returned
 * unchanged (evidence against one radio is not made weaker by the background).
 */
export function backgroundBound(value: number, alike: number, background: Float64Array): number {
  if (!(value > 0)) return value;
  // Unrelated pairs at least as alike (background ascends: the first index at or above it, by bisection).
  let low = 0;
  let high = background.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (background[middle] < alike) low = middle + 1;
    else high = middle;
  }
  const reached = background.length - low;
  const tail = (reached + BACKGROUND_PSEUDO_PAIRS * Math.exp(-value)) / (background.length + BACKGROUND_PSEUDO_PAIRS);
  return Math.min(value, -Math.log(tail));
}

/**
 * `backgroundBound` for a term whose alikeness comes out higher by chance the less it compared
 * (the clock's resultant length over few looks): the pair is weighed only against the unrelated
 * pairs that compared at most as much (`size`: the clock's looks), so a pair seen in two scan
 * bursts is not judged against unrelated pairs seen for an hour, while a capture where every
 * pair lines up whatever it compared (timestamps on a coarse grid) still gives the term nothing.
 * `backgroundAlike` and `backgroundSize` are aligned, in any order.
 */
export function backgroundBoundAmong(value: number, alike: number, size: number, backgroundAlike: Float64Array, backgroundSize: Float64Array): number {
  if (!(value > 0)) return value;
  let compared = 0;
  let reached = 0;
  for (let k = 0; k < backgroundAlike.length; k++) {
    if (backgroundSize[k] > size) continue;
    compared++;
    if (backgroundAlike[k] >= alike) reached++;
  }
  const tail = (reached + BACKGROUND_PSEUDO_PAIRS * Math.exp(-value)) / (compared + BACKGROUND_PSEUDO_PAIRS);
  return Math.min(value, -Math.log(tail));
}

/**
 * How alike two chains' channel patterns are, for the background: minus their difference beyond
 * noise in units of the spread of two spots (0 one spot, −1 two). A difference below what noise
 * explains is noise, not more alike than one spot: it reads 0.
 */
export function channelAlikeness(excessDb2: number, spreadDb: number): number {
  return Math.min(0, -excessDb2 / Math.max(spreadDb * spreadDb, 1e-6));
}

/**
 * Posterior probabilities of a pair, "one device" into out[0] and "travelled together" into
 * out[1], from its evidence against "unrelated" (`evidenceS` already by `sameDeviceEvidence`),
 * its crowd and the prior rates l (sibling sets) and m (companions) per chain. `oneRadio` false:
 * the pair has no evidence of one radio, and its same-device mass is travelled together's.
 */
export function coLocationPosteriors(evidenceS: number, evidenceT: number, crowd: number, l: number, m: number, oneRadio: boolean, out: Float64Array): void {
  const logS = Math.log(l / crowd) + evidenceS;
  const logT = Math.log(m / crowd) + evidenceT;
  const top = Math.max(0, logS, logT);
  const total = Math.exp(-top) + Math.exp(logS - top) + Math.exp(logT - top);
  const same = Math.exp(logS - top) / total;
  const travel = Math.exp(logT - top) / total;
  out[0] = oneRadio ? same : 0;
  out[1] = oneRadio ? travel : travel + same;
}

/**
 * The most concurrent advertising sets one device is taken to run (docs/ble-analyzer.md,
 * "How many sets one device can run"): AOSP's host stack caps its multi-advertising instances at
 * 16 (BTM_BLE_MULTI_ADV_MAX), a phone adds its scan/initiator address. A cluster whose chains
 * would exceed this at any moment is not one device.
 */
export const MAX_CONCURRENT_SETS = 17;
