import { BLE_CALIBRATION_TABLE } from './calibration-table.ts';

/**
 * Calibration of the analyzer's pairwise probabilities: a monotone map from the model's raw
 * probability to the share of such pairs that were truly one device, fitted on generated
 * scenarios with held-apart seeds (`npm run fit:ble-calibration` refits it and rewrites
 * calibration-table.ts; `npm run eval:ble` reports on other seeds).
 *
 * The fit is isotonic regression by pool-adjacent-violators (PAV): sort pairs by raw
 * probability, then merge neighbouring blocks while a block's observed rate is not below the
 * one before it; each block becomes a knot (mean raw p, observed rate). Applying it
 * interpolates linearly between knots, so the map is monotone and keeps the ranking. Written
 * here (about 40 lines) rather than taken from a library: no maintained isotonic-regression
 * package for the browser is in the project, and the algorithm is short and exact.
 */

import type { BleCalibrationCurve, BleCalibrationRelation, BleCalibrationTable } from './calibration-types.ts';

export type { BleCalibrationCurve, BleCalibrationRelation, BleCalibrationTable } from './calibration-types.ts';

/** Pool-adjacent-violators fit of labels against raw probabilities; knots merged to at most `maxKnots`. */
export function fitIsotonic(probabilities: ArrayLike<number>, labels: ArrayLike<boolean>, maxKnots = 48): BleCalibrationCurve {
  const order = Array.from({ length: probabilities.length }, (_, index) => index).sort((a, b) => probabilities[a] - probabilities[b]);
  const sumX: number[] = [];
  const sumY: number[] = [];
  const count: number[] = [];
  for (let at = 0; at < order.length; ) {
    // Pairs with the same raw probability are one block: the map cannot tell them apart.
    const p = probabilities[order[at]];
    let positives = 0;
    let tied = 0;
    for (; at < order.length && probabilities[order[at]] === p; at++, tied++) if (labels[order[at]]) positives++;
    sumX.push(p * tied);
    sumY.push(positives);
    count.push(tied);
    while (count.length > 1 && sumY[sumY.length - 2] / count[count.length - 2] >= sumY[sumY.length - 1] / count[count.length - 1]) {
      const y = sumY.pop()!;
      const x = sumX.pop()!;
      const n = count.pop()!;
      sumY[sumY.length - 1] += y;
      sumX[sumX.length - 1] += x;
      count[count.length - 1] += n;
    }
  }
  // Fewer knots: merge the neighbouring pair of blocks with the fewest pairs (still monotone).
  while (count.length > maxKnots) {
    let smallest = 0;
    for (let index = 1; index < count.length - 1; index++) if (count[index] + count[index + 1] < count[smallest] + count[smallest + 1]) smallest = index;
    sumX[smallest] += sumX[smallest + 1];
    sumY[smallest] += sumY[smallest + 1];
    count[smallest] += count[smallest + 1];
    sumX.splice(smallest + 1, 1);
    sumY.splice(smallest + 1, 1);
    count.splice(smallest + 1, 1);
  }
  // Knots keep six significant digits, not six decimals: raw probabilities of 1e-9 and 1e-7 are
  // different knots (rounded to 0 they collapsed into ties, and a tiny raw p read the last tie's rate).
  const round = (value: number) => Number(value.toPrecision(6));
  return { x: sumX.map((x, index) => round(x / count[index])), y: sumY.map((y, index) => round(y / count[index])) };
}

/** The calibrated probability of a raw one (identity for an empty curve). */
export function applyCalibration(curve: BleCalibrationCurve, p: number): number {
  const { x, y } = curve;
  if (x.length === 0 || !Number.isFinite(p)) return p;
  if (p <= x[0]) return y[0];
  if (p >= x[x.length - 1]) return y[y.length - 1];
  let low = 0;
  let high = x.length - 1;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (x[mid] <= p) low = mid;
    else high = mid;
  }
  const span = x[high] - x[low];
  return span > 0 ? y[low] + ((y[high] - y[low]) * (p - x[low])) / span : y[high];
}

export function calibrated(relation: BleCalibrationRelation, p: number, table: BleCalibrationTable = BLE_CALIBRATION_TABLE): number {
  return applyCalibration(table[relation], p);
}

/**
 * Calibrates `values` in place (each replaced by `calibrated(relation, value)`), with the
 * interpolation of `applyCalibration` written out in the loop: a double returned from a call
 * that is not inlined is boxed, and the hand-off linkage calibrates ~50,000 pairs per analysis
 * (0.9 MB of boxes when it called applyCalibration per pair).
 */
export function calibrateInPlace(relation: BleCalibrationRelation, values: Float64Array, table: BleCalibrationTable = BLE_CALIBRATION_TABLE): void {
  const { x, y } = table[relation];
  const last = x.length - 1;
  if (last < 0) return;
  for (let index = 0; index < values.length; index++) {
    const p = values[index];
    if (!Number.isFinite(p)) continue;
    if (p <= x[0]) values[index] = y[0];
    else if (p >= x[last]) values[index] = y[last];
    else {
      let low = 0;
      let high = last;
      while (high - low > 1) {
        const mid = (low + high) >> 1;
        if (x[mid] <= p) low = mid;
        else high = mid;
      }
      const span = x[high] - x[low];
      values[index] = span > 0 ? y[low] + ((y[high] - y[low]) * (p - x[low])) / span : y[high];
    }
  }
}
