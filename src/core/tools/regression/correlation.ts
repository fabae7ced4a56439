import { tTwoSidedPValue } from './distributions.ts';
import type { ColumnBatch } from './summary-stats.ts';

/** The Pearson correlation of one pair of columns. */
export interface CorrelationPair {
  x: string;
  y: string;
  /** Pearson's r in [−1, 1]; NaN when either column is constant over the pair's rows. */
  r: number;
  /** `r·sqrt((n − 2)/(1 − r²))`; ±Infinity when |r| = 1. */
  tStatistic: number;
  /** Two-sided p-value of H₀: ρ = 0 (t with n − 2 df); NaN when n < 3 or r is NaN. */
  pValue: number;
  /** Rows where both values are finite (pairwise-complete observations). */
  n: number;
}

/** A Pearson correlation matrix with pairwise p-values. */
export interface CorrelationMatrix {
  names: string[];
  /** r, symmetric; the diagonal is 1 (NaN for a constant column). */
  r: number[][];
  /** p-values, symmetric; the diagonal is NaN. */
  pValues: number[][];
  /** Pairwise-complete row counts; the diagonal is the column's own finite count. */
  counts: number[][];
  /** Upper-triangle pairs in column order. */
  pairs: CorrelationPair[];
  /** Selected rows. */
  selectedRows: number;
  /** Selected rows with a null/NaN/±Infinity in at least one of the columns. */
  rowsWithMissing: number;
}

/**
 * Pearson correlations over pairwise-complete rows: each pair uses the selected rows where both
 * of its values are finite. Two passes (means, then centred co-moments with the corrected
 * two-pass formula), so large offsets do not cancel digits.
 */
export function correlationMatrix(batches: ReadonlyArray<ColumnBatch>, names: ReadonlyArray<string>): CorrelationMatrix {
  const p = names.length;
  const pairCount = (p * (p + 1)) / 2; // the diagonal too, for the per-column counts
  const pairIndex = (a: number, b: number): number => a * p - (a * (a - 1)) / 2 + (b - a);
  const counts = new Float64Array(pairCount);
  const sumA = new Float64Array(pairCount);
  const sumB = new Float64Array(pairCount);
  const finite = new Uint8Array(p);
  const values = new Float64Array(p);
  let selectedRows = 0;
  let rowsWithMissing = 0;

  const visitRows = (visit: () => void, countRows: boolean): void => {
    for (const batch of batches) {
      const length = p > 0 ? batch.columns[0].length : 0;
      for (let row = 0; row < length; row++) {
        if (batch.mask && batch.mask[row] === 0) continue;
        let complete = true;
        for (let c = 0; c < p; c++) {
          const value = batch.columns[c][row];
          values[c] = value;
          finite[c] = value - value === 0 ? 1 : 0;
          if (!finite[c]) complete = false;
        }
        if (countRows) {
          selectedRows++;
          if (!complete) rowsWithMissing++;
        }
        visit();
      }
    }
  };

  visitRows(() => {
    for (let a = 0; a < p; a++) {
      if (!finite[a]) continue;
      for (let b = a; b < p; b++) {
        if (!finite[b]) continue;
        const index = pairIndex(a, b);
        counts[index]++;
        sumA[index] += values[a];
        sumB[index] += values[b];
      }
    }
  }, true);

  const meanA = new Float64Array(pairCount);
  const meanB = new Float64Array(pairCount);
  for (let index = 0; index < pairCount; index++) {
    meanA[index] = counts[index] > 0 ? sumA[index] / counts[index] : 0;
    meanB[index] = counts[index] > 0 ? sumB[index] / counts[index] : 0;
  }
  const deviationA = new Float64Array(pairCount);
  const deviationB = new Float64Array(pairCount);
  const squaresA = new Float64Array(pairCount);
  const squaresB = new Float64Array(pairCount);
  const products = new Float64Array(pairCount);
  visitRows(() => {
    for (let a = 0; a < p; a++) {
      if (!finite[a]) continue;
      for (let b = a + 1; b < p; b++) {
        if (!finite[b]) continue;
        const index = pairIndex(a, b);
        const da = values[a] - meanA[index];
        const db = values[b] - meanB[index];
        deviationA[index] += da;
        deviationB[index] += db;
        squaresA[index] += da * da;
        squaresB[index] += db * db;
        products[index] += da * db;
      }
    }
  }, false);

  const r = Array.from({ length: p }, () => new Array<number>(p).fill(Number.NaN));
  const pValues = Array.from({ length: p }, () => new Array<number>(p).fill(Number.NaN));
  const countMatrix = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  const pairs: CorrelationPair[] = [];
  for (let a = 0; a < p; a++) {
    countMatrix[a][a] = counts[pairIndex(a, a)];
    for (let b = a + 1; b < p; b++) {
      const index = pairIndex(a, b);
      const n = counts[index];
      const sxx = squaresA[index] - (deviationA[index] * deviationA[index]) / n;
      const syy = squaresB[index] - (deviationB[index] * deviationB[index]) / n;
      const sxy = products[index] - (deviationA[index] * deviationB[index]) / n;
      const coefficient = n > 1 && sxx > 0 && syy > 0 ? Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))) : Number.NaN;
      const df = n - 2;
      const tStatistic =
        Math.abs(coefficient) === 1 ? coefficient * Number.POSITIVE_INFINITY : coefficient * Math.sqrt(df / (1 - coefficient * coefficient));
      const pValue = df > 0 ? tTwoSidedPValue(tStatistic, df) : Number.NaN;
      r[a][b] = r[b][a] = coefficient;
      pValues[a][b] = pValues[b][a] = pValue;
      countMatrix[a][b] = countMatrix[b][a] = n;
      pairs.push({ x: names[a], y: names[b], r: coefficient, tStatistic, pValue, n });
    }
  }
  // The diagonal: 1 for a column that varies, NaN for a constant (or empty) one.
  for (let a = 0; a < p; a++) {
    const varies = pairs.some((pair) => (pair.x === names[a] || pair.y === names[a]) && !Number.isNaN(pair.r));
    r[a][a] = varies || columnVaries(batches, a) ? 1 : Number.NaN;
  }
  return { names: [...names], r, pValues, counts: countMatrix, pairs, selectedRows, rowsWithMissing };
}

/** True when the column takes two different finite values among the selected rows. */
function columnVaries(batches: ReadonlyArray<ColumnBatch>, column: number): boolean {
  let seen: number | undefined;
  for (const batch of batches) {
    const values = batch.columns[column];
    for (let row = 0; row < values.length; row++) {
      if (batch.mask && batch.mask[row] === 0) continue;
      const value = values[row];
      if (value - value !== 0) continue;
      if (seen === undefined) seen = value;
      else if (value !== seen) return true;
    }
  }
  return false;
}
