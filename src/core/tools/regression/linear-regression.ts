import { err, ok, type Result } from '../../util/result.ts';
import { fUpperTail, tCriticalValue, tTwoSidedPValue } from './distributions.ts';
import { HouseholderQr } from './householder-qr.ts';

/** One block of rows: feature columns, the target and an optional selection mask. */
export interface RegressionBatch {
  /** Feature columns in `featureNames` order, each as long as `target`. Never written to. */
  features: ReadonlyArray<Float64Array>;
  /** The response column. Never written to. */
  target: Float64Array;
  /** 1 where the row is selected, 0 elsewhere; absent means every row. */
  mask?: Uint8Array;
}

/** Options of {@link fitLinearRegression}. */
export interface LinearRegressionOptions {
  /** Names of the feature columns, in the batches' order. */
  featureNames: ReadonlyArray<string>;
  /** Fit an intercept (default true). Without one, R² is uncentred: `1 − RSS/Σy²`. */
  fitIntercept?: boolean;
  /**
   * Fit on standardized features (default false): `(x − mean)/sd` with an intercept, `x/sd`
   * without one (centring would change a model through the origin). Coefficients are
   * reported back on the data's scale; the fitted-scale ones are `standardizedCoefficients`.
   */
  normalize?: boolean;
  /** Significance level for the confidence intervals, in (0, 1) (default 0.05). */
  alpha?: number;
  /** Largest number of rows in the diagnostics sample (default 2000). */
  maxSampleSize?: number;
  /**
   * A design column is aliased when the part of it orthogonal to the earlier columns has a
   * norm ≤ `rankTolerance ·` its own norm. Default `max(1e-10, ε · max(n, k))`: far below
   * Filip's x¹⁰ (5.2e-8, which R's default 1e-7 drops) and far above the roundoff left by
   * an exactly duplicated column (~1e-15).
   */
  rankTolerance?: number;
  /** Called with the fraction of work done, in [0, 1], after each batch of each pass. */
  onProgress?: (fraction: number) => void;
  /** Rows per Householder reduction step (a tuning knob; default 512). */
  blockRows?: number;
}

/** One row of the diagnostics sample, in the target's units. */
export interface DiagnosticPoint {
  fitted: number;
  actual: number;
  /** `actual − fitted`. */
  residual: number;
}

/**
 * A fitted ordinary-least-squares model. Per-term arrays follow `terms` (the intercept first
 * when fitted, then the features); NaN marks a value that does not exist (an aliased term, a
 * statistic of an exact fit), ±Infinity a t statistic of a term with zero standard error.
 */
export interface LinearRegressionFit {
  /** `['intercept', ...featureNames]` or `featureNames`. */
  terms: string[];
  /** Estimates on the data's scale; NaN for aliased terms. */
  coefficients: number[];
  stdErrors: number[];
  tStatistics: number[];
  /** Two-sided p-values, `2·P(T ≤ −|t|)`. */
  pValues: number[];
  /** Lower bounds of the `1 − alpha` confidence intervals. */
  ciLow: number[];
  /** Upper bounds of the `1 − alpha` confidence intervals. */
  ciHigh: number[];
  /** Per term: true when the term was dropped as linearly dependent on earlier ones. */
  aliased: boolean[];
  aliasedTerms: string[];
  /** Features that are constant over the used rows (aliased with the intercept when one is fitted). */
  constantTerms: string[];
  /** With `normalize`: coefficients per one standard deviation of each feature (features only). */
  standardizedCoefficients?: number[];
  /** With `normalize`: the centres and standard deviations used (features only). */
  featureCenters?: number[];
  featureScales?: number[];
  /** Centred R² with an intercept, uncentred (`1 − RSS/Σy²`) without; NaN when the total SS is 0. */
  rSquared: number;
  adjustedRSquared: number;
  /** `(RegSS/dfModel) / (RSS/dfResidual)`; Infinity for an exact fit, NaN when dfModel is 0. */
  fStatistic: number;
  fPValue: number;
  /** `sqrt(RSS / dfResidual)`, in the target's units. */
  residualStdError: number;
  residualSumOfSquares: number;
  regressionSumOfSquares: number;
  /** `RegSS + RSS`: about the mean with an intercept, about 0 without. */
  totalSumOfSquares: number;
  /** Estimated terms minus the intercept. */
  dfModel: number;
  /** Used rows minus estimated terms. */
  dfResidual: number;
  /** Rows used in the fit. */
  sampleCount: number;
  /** Selected rows left out because a used value was NaN or ±Infinity. */
  rowsSkippedNonFinite: number;
  fitIntercept: boolean;
  normalize: boolean;
  alpha: number;
  /** `1 − alpha`. */
  confidenceLevel: number;
  /** The t quantile used for the intervals. */
  tCritical: number;
  /** Rank tolerance actually applied. */
  rankTolerance: number;
  diagnostics: {
    /** Evenly spaced used rows, in data order. */
    sample: DiagnosticPoint[];
    sampleSize: number;
    /** Number of used rows the sample was drawn from. */
    sampledFrom: number;
  };
}

/** Why a regression could not be fitted. */
export type LinearRegressionProblem =
  | {
      code: 'INSUFFICIENT_DATA';
      /** Rows needed: parameters + 1. */
      required: number;
      /** Usable rows found. */
      observed: number;
      skippedNonFinite: number;
      message: string;
    }
  | { code: 'NUMERIC_OVERFLOW'; message: string };

/** Default largest diagnostics sample. */
export const DEFAULT_MAX_SAMPLE_SIZE = 2000;

/**
 * Ordinary least squares by streaming Householder QR over column batches.
 *
 * Passes over the batches: (1, only with `normalize`) feature means and standard deviations;
 * (2) the QR factor of `[1 X y]`; (3) the diagnostics sample. Rows where any used value is
 * non-finite are skipped and counted. Aliased (linearly dependent) columns are detected from
 * R with `rankTolerance`, dropped exactly (Givens re-triangularization of R without them) and
 * reported; the remaining terms are estimated from the reduced factor. Standard errors come
 * from `R⁻¹` by back-substitution, never from inverting `RᵀR`.
 *
 * Limitation: the reflections square the data, so values beyond about 1e±150 over- or
 * underflow; overflow is reported as `NUMERIC_OVERFLOW`, and `normalize` rescales features.
 */
export function fitLinearRegression(
  batches: ReadonlyArray<RegressionBatch>,
  options: LinearRegressionOptions,
): Result<LinearRegressionFit, LinearRegressionProblem> {
  const featureNames = [...options.featureNames];
  const p = featureNames.length;
  const fitIntercept = options.fitIntercept ?? true;
  const normalize = options.normalize ?? false;
  const alpha = options.alpha ?? 0.05;
  const maxSampleSize = options.maxSampleSize ?? DEFAULT_MAX_SAMPLE_SIZE;
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha must lie in (0, 1), got ${alpha}`);
  for (const batch of batches) {
    if (batch.features.length !== p) throw new Error(`a batch has ${batch.features.length} feature columns; expected ${p}`);
  }
  const passes = normalize ? 3 : 2;
  let passIndex = 0;
  const progress = (batchIndex: number): void => {
    options.onProgress?.(Math.min(1, (passIndex + (batchIndex + 1) / Math.max(1, batches.length)) / passes));
  };

  // Pass 1 (normalize): centres and scales of the features over the usable rows.
  let centers: Float64Array | undefined;
  let scales: Float64Array | undefined;
  if (normalize) {
    const moments = featureMoments(batches, p, progress);
    passIndex++;
    centers = new Float64Array(p + 1);
    scales = new Float64Array(p + 1).fill(1);
    for (let j = 0; j < p; j++) {
      centers[j] = fitIntercept ? moments.means[j] : 0;
      // A constant feature keeps scale 1: centred it is a zero column and will be aliased.
      scales[j] = moments.sds[j] > 0 ? 1 / moments.sds[j] : 1;
    }
    // The target (last column) is left as it is.
  }

  // Pass 2: the R factor of [1 X y].
  const k = p + (fitIntercept ? 1 : 0) + 1;
  const qr = new HouseholderQr(k, { leadingOnes: fitIntercept, blockRows: options.blockRows });
  let skippedNonFinite = 0;
  const usedPerBatch = new Array<number>(batches.length);
  batches.forEach((batch, batchIndex) => {
    const report = qr.addRows([...batch.features, batch.target], batch.mask, centers ? { offsets: centers, scales } : {});
    skippedNonFinite += report.skippedNonFinite;
    usedPerBatch[batchIndex] = report.absorbed;
    progress(batchIndex);
  });
  passIndex++;
  const n = qr.rowCount;
  const parameterCount = k - 1;
  if (n < parameterCount + 1) {
    return err({
      code: 'INSUFFICIENT_DATA',
      required: parameterCount + 1,
      observed: n,
      skippedNonFinite,
      message: `linear regression with ${parameterCount} parameters needs at least ${parameterCount + 1} usable rows; found ${n}`,
    });
  }
  const r = qr.factor();
  if (!r.every(Number.isFinite)) {
    return err({
      code: 'NUMERIC_OVERFLOW',
      message: 'the QR factor overflowed (values too large to square in double precision); rescale the columns or use normalize',
    });
  }

  const rankTolerance = options.rankTolerance ?? Math.max(1e-10, Number.EPSILON * Math.max(n, k));
  const solution = solveFactor(r, k, rankTolerance);
  const pEff = solution.kept.length;
  const dfResidual = n - pEff;
  const dfModel = pEff - (fitIntercept ? 1 : 0);
  const rss = solution.residualSumOfSquares;
  const regressionSumOfSquares = sumOfSquares(solution.projections, fitIntercept ? 1 : 0, pEff);
  const totalSumOfSquares = regressionSumOfSquares + rss;
  const sigma2 = rss / dfResidual;
  const residualStdError = Math.sqrt(sigma2);

  // Estimates in the fitted (possibly standardized) parameterization, then the data's scale.
  const terms = fitIntercept ? ['intercept', ...featureNames] : featureNames;
  const fitted = solution.coefficients; // per design column, NaN where aliased
  const coefficients = new Array<number>(parameterCount);
  const unscaledVariance = new Array<number>(parameterCount).fill(Number.NaN);
  const keptPosition = new Int32Array(parameterCount).fill(-1);
  solution.kept.forEach((column, position) => (keptPosition[column] = position));
  const first = fitIntercept ? 1 : 0;
  const columnScale = (column: number): number => (scales && column >= first ? scales[column - first] : 1);
  for (let column = 0; column < parameterCount; column++) {
    coefficients[column] = keptPosition[column] < 0 ? Number.NaN : fitted[column] * columnScale(column);
    if (keptPosition[column] >= 0) {
      // Var(b_j) = σ²·‖R⁻ᵀ c‖² for the contrast c giving b_j; without normalize c = e_j and
      // this is the row sum of squares of R⁻¹.
      const contrast = new Float64Array(pEff);
      contrast[keptPosition[column]] = columnScale(column);
      if (fitIntercept && column === 0 && centers) {
        for (let j = 0; j < p; j++) {
          const position = keptPosition[j + 1];
          if (position >= 0) contrast[position] = -centers[j] * scales![j];
        }
      }
      unscaledVariance[column] = contrastVariance(solution.rInverse, pEff, contrast);
    }
  }
  if (fitIntercept && centers) {
    // b₀ = a − Σ b_j·m_j: the intercept on the data's scale.
    let intercept = fitted[0];
    for (let j = 0; j < p; j++) if (keptPosition[j + 1] >= 0) intercept -= coefficients[j + 1] * centers[j];
    coefficients[0] = intercept;
  }

  const tCritical = tCriticalValue(alpha / 2, dfResidual);
  const stdErrors = unscaledVariance.map((value) => Math.sqrt(sigma2 * value));
  const tStatistics = coefficients.map((value, index) => value / stdErrors[index]);
  const pValues = tStatistics.map((value) => tTwoSidedPValue(value, dfResidual));
  const ciLow = coefficients.map((value, index) => value - tCritical * stdErrors[index]);
  const ciHigh = coefficients.map((value, index) => value + tCritical * stdErrors[index]);
  const aliased = coefficients.map((_, index) => keptPosition[index] < 0);

  const rSquared = totalSumOfSquares > 0 ? regressionSumOfSquares / totalSumOfSquares : Number.NaN;
  const totalDf = fitIntercept ? n - 1 : n;
  const adjustedRSquared = totalSumOfSquares > 0 ? 1 - (rss / dfResidual) / (totalSumOfSquares / totalDf) : Number.NaN;
  const fStatistic = dfModel > 0 ? regressionSumOfSquares / dfModel / sigma2 : Number.NaN;
  const fPValue = dfModel > 0 ? fUpperTail(fStatistic, dfModel, dfResidual) : Number.NaN;

  // Constant features: with an intercept, their part orthogonal to the ones column vanishes.
  const constantTerms: string[] = [];
  if (fitIntercept) {
    for (let j = 1; j < parameterCount; j++) {
      let orthogonal = 0;
      for (let i = 1; i <= j; i++) orthogonal += r[i * k + j] * r[i * k + j];
      if (Math.sqrt(orthogonal) <= rankTolerance * solution.columnNorms[j]) constantTerms.push(terms[j]);
    }
  }

  // Pass 3: an evenly spaced sample of fitted values and residuals.
  const sampleSize = Math.min(maxSampleSize, n);
  const sample = diagnosticsSample(batches, usedPerBatch, coefficients, fitIntercept, n, sampleSize, progress);

  const fit: LinearRegressionFit = {
    terms,
    coefficients,
    stdErrors,
    tStatistics,
    pValues,
    ciLow,
    ciHigh,
    aliased,
    aliasedTerms: terms.filter((_, index) => aliased[index]),
    constantTerms,
    rSquared,
    adjustedRSquared,
    fStatistic,
    fPValue,
    residualStdError,
    residualSumOfSquares: rss,
    regressionSumOfSquares,
    totalSumOfSquares,
    dfModel,
    dfResidual,
    sampleCount: n,
    rowsSkippedNonFinite: skippedNonFinite,
    fitIntercept,
    normalize,
    alpha,
    confidenceLevel: 1 - alpha,
    tCritical,
    rankTolerance,
    diagnostics: { sample, sampleSize: sample.length, sampledFrom: n },
  };
  if (normalize && centers && scales) {
    fit.standardizedCoefficients = featureNames.map((_, j) => fitted[j + first]);
    fit.featureCenters = Array.from(centers.subarray(0, p));
    fit.featureScales = Array.from(scales.subarray(0, p), (inverse) => 1 / inverse);
  }
  return ok(fit);
}

/** The least-squares solution read off an R factor of `[X y]`. */
export interface FactorSolution {
  /** Design columns (0 … k−2) estimated, in order. */
  kept: number[];
  /** Design columns dropped as aliased. */
  aliased: number[];
  /** Per design column; NaN where aliased. */
  coefficients: Float64Array;
  /** Inverse of the kept columns' triangular factor, kept×kept row-major. */
  rInverse: Float64Array;
  /** `Qᵀy` restricted to the kept columns (length kept). */
  projections: Float64Array;
  /** Squared norm of the residual part of `Qᵀy`. */
  residualSumOfSquares: number;
  /** Euclidean norm of each design column, from R. */
  columnNorms: Float64Array;
}

/**
 * Solves least squares from the k×k factor `r` of `[X y]` (row-major, y last). Columns whose
 * orthogonal part is ≤ `tolerance ·` their norm are removed left to right; after a removal the
 * factor of the remaining columns is restored with Givens rotations (R without a column is
 * upper Hessenberg), so later columns are judged against the kept ones only.
 */
export function solveFactor(r: Float64Array, k: number, tolerance: number): FactorSolution {
  const designCount = k - 1;
  const columnNorms = new Float64Array(designCount);
  for (let j = 0; j < designCount; j++) {
    let squares = 0;
    for (let i = 0; i <= j; i++) squares += r[i * k + j] * r[i * k + j];
    columnNorms[j] = Math.sqrt(squares);
  }
  const work = r.slice();
  const columns = Array.from({ length: k }, (_, index) => index); // working column → original
  const aliased: number[] = [];
  let width = k; // working columns, y included
  let j = 0;
  while (j < width - 1) {
    const original = columns[j];
    if (Math.abs(work[j * k + j]) > tolerance * columnNorms[original] && columnNorms[original] > 0) {
      j++;
      continue;
    }
    aliased.push(original);
    for (let row = 0; row < k; row++) {
      for (let q = j; q < width - 1; q++) work[row * k + q] = work[row * k + q + 1];
      work[row * k + width - 1] = 0;
    }
    columns.splice(j, 1);
    width--;
    // Restore triangular form: zero the subdiagonal entry of each design column from j on.
    for (let i = j; i < width - 1; i++) {
      const a = work[i * k + i];
      const b = work[(i + 1) * k + i];
      if (b === 0) continue;
      const radius = Math.hypot(a, b);
      const cosine = a / radius;
      const sine = b / radius;
      for (let q = i; q < width; q++) {
        const upper = work[i * k + q];
        const lower = work[(i + 1) * k + q];
        work[i * k + q] = cosine * upper + sine * lower;
        work[(i + 1) * k + q] = -sine * upper + cosine * lower;
      }
    }
  }
  const kept = columns.slice(0, width - 1);
  const size = kept.length;
  const yColumn = width - 1;
  const projections = new Float64Array(size);
  for (let i = 0; i < size; i++) projections[i] = work[i * k + yColumn];
  let residualSumOfSquares = 0;
  for (let i = size; i < k; i++) residualSumOfSquares += work[i * k + yColumn] * work[i * k + yColumn];

  // Back-substitution for the coefficients and for R⁻¹ (upper triangular).
  const solution = new Float64Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let sum = projections[i];
    for (let q = i + 1; q < size; q++) sum -= work[i * k + q] * solution[q];
    solution[i] = sum / work[i * k + i];
  }
  const rInverse = new Float64Array(size * size);
  for (let q = 0; q < size; q++) {
    rInverse[q * size + q] = 1 / work[q * k + q];
    for (let i = q - 1; i >= 0; i--) {
      let sum = 0;
      for (let l = i + 1; l <= q; l++) sum += work[i * k + l] * rInverse[l * size + q];
      rInverse[i * size + q] = -sum / work[i * k + i];
    }
  }
  const coefficients = new Float64Array(designCount).fill(Number.NaN);
  kept.forEach((column, position) => (coefficients[column] = solution[position]));
  return { kept, aliased, coefficients, rInverse, projections, residualSumOfSquares, columnNorms };
}

/** `‖R⁻ᵀ c‖²`: the unscaled variance of the linear combination `cᵀβ`. */
function contrastVariance(rInverse: Float64Array, size: number, contrast: Float64Array): number {
  let total = 0;
  for (let q = 0; q < size; q++) {
    let component = 0;
    for (let i = 0; i <= q; i++) component += rInverse[i * size + q] * contrast[i];
    total += component * component;
  }
  return total;
}

function sumOfSquares(values: Float64Array, start: number, end: number): number {
  let total = 0;
  for (let i = start; i < end; i++) total += values[i] * values[i];
  return total;
}

/** True when the row is selected and its features and target are all finite. */
function usableRow(batch: RegressionBatch, row: number): boolean {
  if (batch.mask && batch.mask[row] === 0) return false;
  const target = batch.target[row];
  if (target - target !== 0) return false;
  for (const column of batch.features) {
    const value = column[row];
    if (value - value !== 0) return false;
  }
  return true;
}

/** Means and sample standard deviations of the features over usable rows (shifted sums). */
function featureMoments(
  batches: ReadonlyArray<RegressionBatch>,
  p: number,
  progress: (batchIndex: number) => void,
): { means: Float64Array; sds: Float64Array } {
  const shift = new Float64Array(p);
  const sums = new Float64Array(p);
  const squares = new Float64Array(p);
  let count = 0;
  batches.forEach((batch, batchIndex) => {
    const length = batch.target.length;
    for (let row = 0; row < length; row++) {
      if (!usableRow(batch, row)) continue;
      if (count === 0) for (let j = 0; j < p; j++) shift[j] = batch.features[j][row];
      count++;
      for (let j = 0; j < p; j++) {
        const value = batch.features[j][row] - shift[j];
        sums[j] += value;
        squares[j] += value * value;
      }
    }
    progress(batchIndex);
  });
  const means = new Float64Array(p);
  const sds = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    const meanShifted = count > 0 ? sums[j] / count : 0;
    means[j] = shift[j] + meanShifted;
    sds[j] = count > 1 ? Math.sqrt(Math.max(0, (squares[j] - count * meanShifted * meanShifted) / (count - 1))) : 0;
  }
  return { means, sds };
}

/**
 * Picks `size` of the `total` usable rows, evenly spaced, and evaluates the fit on them: the
 * t-th pick (t = 0 … size−1) is usable row `⌈(t+1)·total/size⌉ − 1`. `usedPerBatch` (from the
 * QR pass) lets fully usable batches be indexed directly instead of scanned row by row.
 */
function diagnosticsSample(
  batches: ReadonlyArray<RegressionBatch>,
  usedPerBatch: ReadonlyArray<number>,
  coefficients: number[],
  fitIntercept: boolean,
  total: number,
  size: number,
  progress: (batchIndex: number) => void,
): DiagnosticPoint[] {
  const sample: DiagnosticPoint[] = [];
  if (size === 0) return sample;
  const first = fitIntercept ? 1 : 0;
  const intercept = fitIntercept ? coefficients[0] : 0;
  const slopes = coefficients.slice(first).map((value) => (Number.isNaN(value) ? 0 : value));
  const pick = (t: number): number => Math.ceil(((t + 1) * total) / size) - 1;
  const evaluate = (batch: RegressionBatch, row: number): void => {
    let fitted = intercept;
    for (let j = 0; j < slopes.length; j++) fitted += slopes[j] * batch.features[j][row];
    const actual = batch.target[row];
    sample.push({ fitted, actual, residual: actual - fitted });
  };
  let next = 0; // index t of the next pick
  let base = 0; // usable rows before this batch
  batches.forEach((batch, batchIndex) => {
    const length = batch.target.length;
    const used = usedPerBatch[batchIndex];
    if (used === length) {
      // Every row usable: usable index u is row u − base.
      while (next < size && pick(next) < base + used) evaluate(batch, pick(next++) - base);
    } else if (next < size && pick(next) < base + used) {
      let usable = base;
      for (let row = 0; row < length && next < size; row++) {
        if (!usableRow(batch, row)) continue;
        if (usable === pick(next)) {
          evaluate(batch, row);
          next++;
        }
        usable++;
      }
    }
    base += used;
    progress(batchIndex);
  });
  return sample;
}
