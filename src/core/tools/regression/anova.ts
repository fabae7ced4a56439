import { err, ok, type Result } from '../../util/result.ts';
import { fUpperTail } from './distributions.ts';

/** A block of rows for a one-way ANOVA: the numeric response and the group label per row. */
export interface AnovaBatch {
  target: Float64Array;
  /** Group label per row (null = missing), as long as `target`. */
  groups: ReadonlyArray<string | null>;
  /** 1 where the row is selected, 0 elsewhere; absent means every row. */
  mask?: Uint8Array;
}

/** One group's share of the data. */
export interface AnovaGroup {
  group: string;
  count: number;
  mean: number;
  /** Sample standard deviation; NaN for a single row. */
  sd: number;
}

/** One-way analysis of variance of a response across groups. */
export interface OneWayAnova {
  /** Groups sorted by label (code-unit order, independent of locale). */
  groups: AnovaGroup[];
  grandMean: number;
  ssBetween: number;
  ssWithin: number;
  /** `ssBetween + ssWithin`. */
  ssTotal: number;
  /** Groups − 1. */
  dfBetween: number;
  /** Rows − groups. */
  dfWithin: number;
  msBetween: number;
  msWithin: number;
  /** `msBetween / msWithin`; Infinity when every group is constant but the means differ. */
  fStatistic: number;
  /** Upper tail `P(F ≥ f)`. */
  pValue: number;
  /** `ssBetween / ssTotal`, the share of variance explained by the grouping; NaN if ssTotal is 0. */
  etaSquared: number;
  /** Rows used. */
  sampleCount: number;
  /** Selected rows left out for a non-finite response or a missing group. */
  rowsSkipped: number;
}

/** Why an ANOVA could not run. */
export interface AnovaProblem {
  code: 'INSUFFICIENT_DATA';
  observedRows: number;
  observedGroups: number;
  message: string;
}

/**
 * One-way ANOVA. Group means and within-group sums of squares are accumulated with Welford's
 * update (no `Σx² − n·x̄²` cancellation); the p-value is the F upper tail from the regularized
 * incomplete beta function. Needs at least two groups and more rows than groups.
 */
export function oneWayAnova(batches: ReadonlyArray<AnovaBatch>): Result<OneWayAnova, AnovaProblem> {
  const accumulators = new Map<string, { count: number; mean: number; m2: number }>();
  let rowsSkipped = 0;
  for (const batch of batches) {
    const { target, groups, mask } = batch;
    for (let row = 0; row < target.length; row++) {
      if (mask && mask[row] === 0) continue;
      const value = target[row];
      const label = groups[row];
      if (value - value !== 0 || label === null) {
        rowsSkipped++;
        continue;
      }
      let accumulator = accumulators.get(label);
      if (!accumulator) {
        accumulator = { count: 0, mean: 0, m2: 0 };
        accumulators.set(label, accumulator);
      }
      accumulator.count++;
      const delta = value - accumulator.mean;
      accumulator.mean += delta / accumulator.count;
      accumulator.m2 += delta * (value - accumulator.mean);
    }
  }
  const labels = [...accumulators.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let sampleCount = 0;
  for (const accumulator of accumulators.values()) sampleCount += accumulator.count;
  const groupCount = labels.length;
  if (groupCount < 2 || sampleCount <= groupCount) {
    return err({
      code: 'INSUFFICIENT_DATA',
      observedRows: sampleCount,
      observedGroups: groupCount,
      message: `anova needs at least 2 groups and more usable rows than groups; the selection has ${sampleCount} usable rows in ${groupCount} groups`,
    });
  }
  let weightedSum = 0;
  for (const accumulator of accumulators.values()) weightedSum += accumulator.count * accumulator.mean;
  const grandMean = weightedSum / sampleCount;
  let ssBetween = 0;
  let ssWithin = 0;
  const groups: AnovaGroup[] = labels.map((label) => {
    const { count, mean, m2 } = accumulators.get(label)!;
    ssBetween += count * (mean - grandMean) * (mean - grandMean);
    ssWithin += m2;
    return { group: label, count, mean, sd: count > 1 ? Math.sqrt(m2 / (count - 1)) : Number.NaN };
  });
  const dfBetween = groupCount - 1;
  const dfWithin = sampleCount - groupCount;
  const msBetween = ssBetween / dfBetween;
  const msWithin = ssWithin / dfWithin;
  const fStatistic = msWithin > 0 ? msBetween / msWithin : msBetween > 0 ? Number.POSITIVE_INFINITY : Number.NaN;
  const ssTotal = ssBetween + ssWithin;
  return ok({
    groups,
    grandMean,
    ssBetween,
    ssWithin,
    ssTotal,
    dfBetween,
    dfWithin,
    msBetween,
    msWithin,
    fStatistic,
    pValue: fUpperTail(fStatistic, dfBetween, dfWithin),
    etaSquared: ssTotal > 0 ? ssBetween / ssTotal : Number.NaN,
    sampleCount,
    rowsSkipped,
  });
}
