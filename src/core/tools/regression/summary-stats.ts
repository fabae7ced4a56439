/** A block of rows given as columns, with an optional selection mask. */
export interface ColumnBatch {
  /** Columns in the caller's name order, all of one length. Never written to. */
  columns: ReadonlyArray<Float64Array>;
  /** 1 where the row is selected, 0 elsewhere; absent means every row. */
  mask?: Uint8Array;
}

/** Descriptive statistics of one column over the selected rows. */
export interface ColumnSummary {
  name: string;
  /** Selected rows with a finite value. */
  count: number;
  /** Selected rows whose value is null, NaN or ±Infinity. */
  missing: number;
  /** NaN when `count` is 0. */
  mean: number;
  /** Sample standard deviation (n − 1 denominator); NaN when `count` < 2. */
  sd: number;
  min: number;
  /** Quartiles by linear interpolation between order statistics (R type 7, numpy's default). */
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/**
 * Per-column count, missing, mean, standard deviation, min, quartiles and max over the
 * selected rows. Each column is judged on its own: a missing value in one column does not
 * drop the row from the others. Mean and variance use the corrected two-pass algorithm on the
 * sorted values, so they stay accurate when the mean is large relative to the spread.
 */
export function summarizeColumns(batches: ReadonlyArray<ColumnBatch>, names: ReadonlyArray<string>): ColumnSummary[] {
  let capacity = 0;
  for (const batch of batches) capacity += batch.columns.length > 0 ? batch.columns[0].length : 0;
  return names.map((name, columnIndex) => {
    const values = new Float64Array(capacity);
    let count = 0;
    let missing = 0;
    for (const batch of batches) {
      const column = batch.columns[columnIndex];
      const mask = batch.mask;
      for (let row = 0; row < column.length; row++) {
        if (mask && mask[row] === 0) continue;
        const value = column[row];
        if (value - value === 0) values[count++] = value;
        else missing++;
      }
    }
    const sorted = values.subarray(0, count).sort();
    return { name, count, missing, ...describeSorted(sorted) };
  });
}

/** Mean, sd, min, quartiles and max of finite values sorted ascending. */
export function describeSorted(sorted: Float64Array): Omit<ColumnSummary, 'name' | 'count' | 'missing'> {
  const n = sorted.length;
  if (n === 0) {
    return { mean: Number.NaN, sd: Number.NaN, min: Number.NaN, q1: Number.NaN, median: Number.NaN, q3: Number.NaN, max: Number.NaN };
  }
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i];
  let mean = sum / n;
  let deviationSum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const deviation = sorted[i] - mean;
    deviationSum += deviation;
    squares += deviation * deviation;
  }
  // Corrected two-pass: the deviation sum removes the first pass's rounding error.
  mean += deviationSum / n;
  const sd = n > 1 ? Math.sqrt(Math.max(0, (squares - (deviationSum * deviationSum) / n) / (n - 1))) : Number.NaN;
  return {
    mean,
    sd,
    min: sorted[0],
    q1: quantileSorted(sorted, 0.25),
    median: quantileSorted(sorted, 0.5),
    q3: quantileSorted(sorted, 0.75),
    max: sorted[n - 1],
  };
}

/** The q-quantile of ascending values, interpolating linearly at position (n − 1)·q. */
export function quantileSorted(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const position = (n - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(n - 1, lower + 1);
  const fraction = position - lower;
  return fraction === 0 ? sorted[lower] : sorted[lower] + fraction * (sorted[upper] - sorted[lower]);
}
