/**
 * The log-odds arithmetic the co-location score (co-location.ts) and its candidate screen
 * (co-location-candidates.ts) share: the screen promises to compute these terms exactly as the
 * score does, so both read them from here.
 */

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
