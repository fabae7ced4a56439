import { CO_LOCATION_PRIOR_MAX } from './co-location-priors.ts';

/**
 * The co-location model: the constants and the pure formula of each term, once. The score
 * (co-location.ts, every screened pair, with the terms it reports), the candidate screen
 * (co-location-candidates.ts, which promises to compute its terms exactly as the score does, or
 * bound them) and the co-rotation counts (co-rotation.ts) all read them from here; the rationale
 * (`describePair` in co-location.ts) words the numbers the score kept. Terms are log-likelihood
 * ratios of "one device" (S) or "travelled together" (T) against "unrelated" (U).
 */

/** Width of the RSSI bins the series are built from, ms (a whole number of them make a channel-sum block, CHANNEL_BLOCK_MS; co-location-series.ts checks it). */
export const BIN_MS = 10_000;
/** At most this many bins of an overlap are compared. */
export const MAX_BINS = 60;
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
