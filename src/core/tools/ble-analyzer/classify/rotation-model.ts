import type { RotationModelReport, RpaRotationModelName } from '../shared/analysis-types.ts';
import { toFixedOne } from '../shared/fixed-one.ts';

/**
 * RPA lifetime assumptions (ble-spec.md §3).
 *
 * - spec_default: TGAP(private_addr_int), recommended 15 min; host timers restart on events and
 *   stacks add jitter, so 13–16 min (780–960 s).
 * - fast_rotation: 45–300 s. Android restarts advertising sets, each with a fresh RPA, every
 *   45–100 s (median of the measured sets), and short controller timeouts (≥ 1 s) are allowed;
 *   5 min is where Android's randomized 5–15 min timer begins.
 * - slow_rotation: 30–60 min (1800–3600 s), with a tail to the 11.5 h controller maximum:
 *   devices configured with long private-address timeouts.
 * - learned: [p10 × 0.9, p90 × 1.1] of the lifetimes of addresses that a first, model-neutral
 *   pass linked with probability > 0.7 (at least 5 of them), else spec_default with a warning.
 */
export interface BleRotationModel extends RotationModelReport {
  /** Soft edge of the lifetime range, in seconds. */
  softnessS: number;
}

export function bleRotationModel(name: Exclude<RpaRotationModelName, 'learned'>): BleRotationModel {
  switch (name) {
    case 'spec_default':
      return { name, lifetimeMinS: 780, lifetimeMaxS: 960, softnessS: 45 };
    case 'fast_rotation':
      return { name, lifetimeMinS: 45, lifetimeMaxS: 300, softnessS: 20 };
    case 'slow_rotation':
      return { name, lifetimeMinS: 1800, lifetimeMaxS: 3600, softnessS: 300 };
  }
}

/** A near-neutral model for the first pass of `learned`: any lifetime from 30 s to 2 h. */
export const BLE_NEUTRAL_ROTATION: BleRotationModel = { name: 'learned', lifetimeMinS: 30, lifetimeMaxS: 7200, softnessS: 30 };

/** Learned lifetime range from confidently linked lifetimes (seconds), or undefined with too few. */
export function learnRotationModel(lifetimesS: ReadonlyArray<number>): BleRotationModel | undefined {
  if (lifetimesS.length < 5) return undefined;
  const sorted = [...lifetimesS].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
  const low = Math.max(1, at(0.1) * 0.9);
  const high = Math.max(low + 1, at(0.9) * 1.1);
  return { name: 'learned', lifetimeMinS: Math.round(low), lifetimeMaxS: Math.round(high), softnessS: Math.max(10, 0.1 * (high - low)), basedOnLifetimes: sorted.length };
}

const BROAD_LOG_RANGE = Math.log(6 * 3600 / 10);

/** Density of "the address stopped for another reason" (device left, scanning stopped): log-uniform 10 s–6 h. */
function departureDensity(lifetimeS: number): number {
  const l = Math.min(6 * 3600, Math.max(10, lifetimeS));
  return 1 / (l * BROAD_LOG_RANGE);
}

function normalCdf(x: number): number {
  // Abramowitz–Stegun 7.1.26 on erf; accurate to 1e-7, ample for a likelihood ratio.
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Density of lifetimes under the model: uniform on [min, max] with Gaussian shoulders. */
function rotationDensity(model: BleRotationModel, lifetimeS: number): number {
  const { lifetimeMinS: min, lifetimeMaxS: max, softnessS: s } = model;
  const width = max - min + s * Math.sqrt(2 * Math.PI);
  if (lifetimeS < min) return Math.exp(-((min - lifetimeS) ** 2) / (2 * s * s)) / width;
  if (lifetimeS > max) return Math.exp(-((lifetimeS - max) ** 2) / (2 * s * s)) / width;
  return 1 / width;
}

/** P(lifetime ≥ observed) under the model: for an address whose start was not seen. */
function rotationSurvival(model: BleRotationModel, lifetimeS: number): number {
  const { lifetimeMinS: min, lifetimeMaxS: max, softnessS: s } = model;
  const width = max - min + s * Math.sqrt(2 * Math.PI);
  const lowerMass = (s * Math.sqrt(2 * Math.PI)) / 2 / width;
  if (lifetimeS <= min) return 1 - (lowerMass * 2 * normalCdf((lifetimeS - min) / s));
  if (lifetimeS <= max) return 1 - (lowerMass + (lifetimeS - min) / width);
  return lowerMass * 2 * (1 - normalCdf((lifetimeS - max) / s));
}

/**
 * Likelihood ratio that an address's end was a rotation rather than a departure, from its
 * observed lifetime. A 50/50 mixture keeps it mild (≥ 0.5): real devices break every model now and then.
 * `startSeen` is false when the address was already active when observation began.
 */
export function rotationFitRatio(model: BleRotationModel, lifetimeS: number, startSeen: boolean): number {
  if (startSeen) {
    const rotation = 0.5 * rotationDensity(model, lifetimeS) + 0.5 * departureDensity(lifetimeS);
    return rotation / departureDensity(lifetimeS);
  }
  // Censored: the lifetime is at least what was seen; compare survival functions.
  const departureSurvival = 1 - Math.log(Math.min(6 * 3600, Math.max(10, lifetimeS)) / 10) / BROAD_LOG_RANGE;
  const rotation = 0.5 * Math.max(0, rotationSurvival(model, lifetimeS)) + 0.5 * departureSurvival;
  return rotation / Math.max(1e-6, departureSurvival);
}

/** Human wording of the model's range: "13–16 min". */
export function describeLifetimeRange(model: RotationModelReport): string {
  return `${formatDuration(model.lifetimeMinS)}–${formatDuration(model.lifetimeMaxS)}`;
}

/**
 * "45 s", "13.5 min", "42 min", "2.5 h". The same text as `toFixed` (one decimal below 10 min,
 * none up to 2 h), without its exact decimal conversion: classification words the lifetime of
 * every RPA. toFixedOne is toFixed(1); below 2 h the minutes are under 120, where toFixed(0) is
 * the nearest integer, ties up, which is Math.round.
 */
export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 600) return `${toFixedOne(seconds / 60)} min`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${toFixedOne(seconds / 3600)} h`;
}
