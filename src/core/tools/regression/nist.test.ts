import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fitLinearRegression, type LinearRegressionFit, type RegressionBatch } from './linear-regression.ts';

/**
 * NIST StRD linear least-squares datasets (shared/data/nist-strd, beside the repository
 * clone), scored with McCullough's LRE against the certified values.
 */

interface NistDataset {
  name: string;
  n: number;
  model: { intercept: boolean; polynomial_degree: number | null; design_columns: string[]; how_to_build: string };
  x?: number[];
  columns?: Record<string, number[]>;
  y: number[];
  certified: {
    parameters: string[];
    coefficients: number[];
    std_errors: number[];
    residual_sd: number;
    r_squared: number;
    f_statistic: number | null;
    df_residual: number;
    df_regression: number;
  };
}

const DATA_DIRECTORY = new URL('../../../../../shared/data/nist-strd/', import.meta.url);

const datasets: NistDataset[] = readdirSync(fileURLToPath(DATA_DIRECTORY))
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(new URL(file, DATA_DIRECTORY), 'utf8')) as NistDataset);

/** Minimum LRE required per dataset, for coefficients and for standard errors. */
const REQUIRED_LRE: Record<string, number> = {
  Norris: 12,
  Pontius: 12,
  NoInt1: 14,
  NoInt2: 14,
  Longley: 10.5,
  Wampler1: 8,
  Wampler2: 8,
  Wampler3: 8,
  Wampler4: 8,
  Wampler5: 6,
  Filip: 7,
};

const CERTIFIED_DIGITS = 15;

/** McCullough's log relative error, capped at 15; absolute error when the certified value is 0. */
function lre(estimate: number, certified: number): number {
  if (!Number.isFinite(estimate)) return 0;
  const error = certified === 0 ? Math.abs(estimate) : Math.abs(estimate - certified) / Math.abs(certified);
  if (error === 0) return CERTIFIED_DIGITS;
  const digits = -Math.log10(error);
  if (digits < 1) return 0;
  return Math.min(CERTIFIED_DIGITS, digits);
}

/** The design exactly as `model.how_to_build` says: raw monomials x**k, or Longley's columns. */
function buildDesign(dataset: NistDataset): { names: string[]; columns: Float64Array[] } {
  if (dataset.model.polynomial_degree !== null && dataset.x) {
    const x = dataset.x;
    const names: string[] = [];
    const columns: Float64Array[] = [];
    for (let power = 1; power <= dataset.model.polynomial_degree; power++) {
      names.push(power === 1 ? 'x' : `x^${power}`);
      columns.push(Float64Array.from(x, (value) => value ** power));
    }
    return { names, columns };
  }
  const table = dataset.columns ?? {};
  const names = dataset.model.design_columns.filter((name) => name !== '1');
  return { names, columns: names.map((name) => Float64Array.from(table[name])) };
}

function batchesOf(columns: Float64Array[], y: Float64Array, batchRows: number): RegressionBatch[] {
  const batches: RegressionBatch[] = [];
  for (let start = 0; start < y.length; start += batchRows) {
    const end = Math.min(y.length, start + batchRows);
    batches.push({ features: columns.map((column) => column.subarray(start, end)), target: y.subarray(start, end) });
  }
  return batches;
}

function fitDataset(dataset: NistDataset, batchRows: number, blockRows?: number): LinearRegressionFit {
  const { names, columns } = buildDesign(dataset);
  const y = Float64Array.from(dataset.y);
  const result = fitLinearRegression(batchesOf(columns, y, batchRows), {
    featureNames: names,
    fitIntercept: dataset.model.intercept,
    blockRows,
  });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

interface Scores {
  dataset: string;
  coefficients: number;
  std_errors: number;
  residual_sd: number;
  r_squared: number;
}

function score(dataset: NistDataset, fit: LinearRegressionFit): Scores {
  const certified = dataset.certified;
  return {
    dataset: dataset.name,
    coefficients: Math.min(...certified.coefficients.map((value, index) => lre(fit.coefficients[index], value))),
    std_errors: Math.min(...certified.std_errors.map((value, index) => lre(fit.stdErrors[index], value))),
    residual_sd: lre(fit.residualStdError, certified.residual_sd),
    r_squared: lre(fit.rSquared, certified.r_squared),
  };
}

const round = (value: number): number => Math.round(value * 10) / 10;

describe('NIST StRD linear regression', () => {
  it('finds all eleven datasets', () => {
    expect(datasets.map((dataset) => dataset.name).sort()).toEqual(
      ['Filip', 'Longley', 'NoInt1', 'NoInt2', 'Norris', 'Pontius', 'Wampler1', 'Wampler2', 'Wampler3', 'Wampler4', 'Wampler5'].sort(),
    );
  });

  const table: Scores[] = [];
  const streamedTable: Scores[] = [];

  for (const dataset of datasets) {
    it(`${dataset.name}: certified values to the required LRE`, () => {
      const fit = fitDataset(dataset, dataset.n);
      const scores = score(dataset, fit);
      table.push(scores);
      const required = REQUIRED_LRE[dataset.name];
      expect(fit.terms.length).toBe(dataset.certified.parameters.length);
      expect(fit.aliasedTerms).toEqual([]);
      expect(fit.sampleCount).toBe(dataset.n);
      expect(fit.dfResidual).toBe(dataset.certified.df_residual);
      expect(fit.dfModel).toBe(dataset.certified.df_regression);
      expect(scores.coefficients).toBeGreaterThanOrEqual(required);
      expect(scores.std_errors).toBeGreaterThanOrEqual(required);
      expect(scores.residual_sd).toBeGreaterThanOrEqual(required);
      expect(scores.r_squared).toBeGreaterThanOrEqual(required);
      if (dataset.certified.f_statistic === null) {
        // Wampler1/2: exact fits; NIST certifies F = Infinity and zero SEs.
        expect(fit.rSquared).toBeCloseTo(1, 14);
        expect(fit.fStatistic).toBeGreaterThan(1e15);
      } else {
        expect(lre(fit.fStatistic, dataset.certified.f_statistic)).toBeGreaterThanOrEqual(required - 1);
      }
    });

    it(`${dataset.name}: about the same digits when streamed in 3-row blocks over 5-row batches`, () => {
      // Every 3 rows cost one more reduction of [R; block], so a little more roundoff
      // accumulates than in the one-shot factorization: allow half a digit.
      const fit = fitDataset(dataset, 5, 3);
      const scores = score(dataset, fit);
      streamedTable.push(scores);
      const required = REQUIRED_LRE[dataset.name] - 0.5;
      expect(scores.coefficients).toBeGreaterThanOrEqual(required);
      expect(scores.std_errors).toBeGreaterThanOrEqual(required);
      expect(scores.residual_sd).toBeGreaterThanOrEqual(required);
    });
  }

  it('reports uncentred R² without an intercept (NoInt1, NoInt2)', () => {
    for (const name of ['NoInt1', 'NoInt2']) {
      const dataset = datasets.find((candidate) => candidate.name === name)!;
      const fit = fitDataset(dataset, dataset.n);
      const sumSquares = dataset.y.reduce((total, value) => total + value * value, 0);
      expect(fit.terms).toEqual(['x']);
      expect(lre(fit.rSquared, dataset.certified.r_squared)).toBeGreaterThanOrEqual(14);
      expect(fit.totalSumOfSquares).toBeCloseTo(sumSquares, 6);
    }
  });

  it('prints the measured LREs', () => {
    const rounded = (rows: Scores[]): Scores[] =>
      [...rows]
        .sort((a, b) => a.dataset.localeCompare(b.dataset))
        .map((row) => ({
          ...row,
          coefficients: round(row.coefficients),
          std_errors: round(row.std_errors),
          residual_sd: round(row.residual_sd),
          r_squared: round(row.r_squared),
        }));
    console.log('NIST StRD minimum LRE, one-shot factorization (capped at 15):');
    console.table(rounded(table));
    console.log('NIST StRD minimum LRE, streamed in 3-row blocks:');
    console.table(rounded(streamedTable));
    expect(table.length).toBe(datasets.length);
  });
});
