import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromArrays, type RecordBatch } from 'apache-arrow';
import MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import type { SelectedBatch } from '../src/core/data/selection-types.ts';
import { fitLinearRegression, type RegressionBatch } from '../src/core/tools/regression/linear-regression.ts';
import { regressionTool } from '../src/core/tools/regression/regression-tool.ts';
import type { JsonObject } from '../src/core/util/json.ts';
import { seededRandom } from '../src/core/index.ts';
import type { BenchRow } from './bench-row.ts';

const ROWS = 1_000_000;
const FEATURES = 10;
const BATCH_ROWS = 65_536;
const TIMED_RUNS = 5;
const SEED = 20240611;

/** The project's seeded generator (mulberry32), as a uniform sequence. */
const random = (seed: number): (() => number) => seededRandom(seed).uniform;

interface BenchData {
  featureNames: string[];
  features: Float64Array[];
  target: Float64Array;
  batches: RecordBatch[];
  trueCoefficients: number[];
}

/** y = 3 + Σ (j+1)·(−1)^j·x_j + N(0,1)-ish noise, features uniform on different scales. */
function generateData(): BenchData {
  const next = random(SEED);
  const featureNames = Array.from({ length: FEATURES }, (_, j) => `x${j}`);
  const features = featureNames.map((_, j) => {
    const scale = 10 ** ((j % 4) - 1);
    return Float64Array.from({ length: ROWS }, () => (next() * 2 - 1) * scale + j);
  });
  const trueCoefficients = [3, ...featureNames.map((_, j) => (j + 1) * (j % 2 === 0 ? 1 : -1))];
  const target = new Float64Array(ROWS);
  for (let row = 0; row < ROWS; row++) {
    let value = trueCoefficients[0];
    for (let j = 0; j < FEATURES; j++) value += trueCoefficients[j + 1] * features[j][row];
    target[row] = value + (next() + next() + next() - 1.5) * 2;
  }
  const batches: RecordBatch[] = [];
  for (let start = 0; start < ROWS; start += BATCH_ROWS) {
    const end = Math.min(ROWS, start + BATCH_ROWS);
    const columns: Record<string, Float64Array> = {};
    featureNames.forEach((name, j) => (columns[name] = features[j].slice(start, end)));
    columns.y = target.slice(start, end);
    batches.push(...tableFromArrays(columns).batches);
  }
  return { featureNames, features, target, batches, trueCoefficients };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
const currentRssMb = (): number => process.memoryUsage().rss / 1024 / 1024;
const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.();
const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

function maxAbsDifference(a: ReadonlyArray<number>, b: ReadonlyArray<number>): number {
  return Math.max(...a.map((value, index) => Math.abs(value - b[index])));
}

/** Times numpy.linalg.lstsq on the same data in a python3 subprocess; null when numpy is absent. */
function runNumpy(data: BenchData): { ms: number; runs: number[]; coefficients: number[]; version: string; peakRssMb: number } | null {
  const probe = spawnSync('python3', ['-c', 'import numpy'], { encoding: 'utf8' });
  if (probe.status !== 0) return null;
  const directory = mkdtempSync(join(tmpdir(), 'sextant-bench-'));
  try {
    const path = join(directory, 'data.f64');
    const rowMajor = new Float64Array(ROWS * (FEATURES + 1));
    for (let row = 0; row < ROWS; row++) {
      const offset = row * (FEATURES + 1);
      for (let j = 0; j < FEATURES; j++) rowMajor[offset + j] = data.features[j][row];
      rowMajor[offset + FEATURES] = data.target[row];
    }
    writeFileSync(path, new Uint8Array(rowMajor.buffer));
    const script = `
import json, sys, time, resource
import numpy as np
n, p, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
data = np.fromfile(path, dtype='<f8').reshape(n, p + 1)
A = np.column_stack([np.ones(n), data[:, :p]])
y = np.ascontiguousarray(data[:, p])
runs = []
for _ in range(${TIMED_RUNS}):
    start = time.perf_counter()
    coef = np.linalg.lstsq(A, y, rcond=None)[0]
    runs.append((time.perf_counter() - start) * 1000)
print(json.dumps({"runs": runs, "coefficients": coef.tolist(), "version": np.__version__,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
`;
    const result = spawnSync('python3', ['-c', script, String(ROWS), String(FEATURES), path], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (result.status !== 0) throw new Error(`numpy benchmark failed: ${result.stderr}`);
    const parsed = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as { runs: number[]; coefficients: number[]; version: string; peak_rss_mb: number };
    return { ms: median(parsed.runs), runs: parsed.runs, coefficients: parsed.coefficients, version: parsed.version, peakRssMb: parsed.peak_rss_mb };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * 1,000,000 rows × 10 features as Arrow record batches of 65,536 rows. Ours: the tool's
 * linear_regression run (column extraction, streaming QR, inference, 2,000-row diagnostics
 * sample, output and CSV), median of 5 runs. Peers on the same data: ml-regression-multivariate-linear
 * (one run of its fit; its row-major number[][] input is built outside the timed region) and
 * numpy.linalg.lstsq in a python3 subprocess (median of 5 runs of lstsq alone).
 */
export async function runRegressionBench(): Promise<BenchRow[]> {
  const data = generateData();
  collectGarbage();
  const rssAfterData = currentRssMb();
  const selection: SelectedBatch[] = data.batches.map((batch) => ({
    captureId: 'bench',
    batch,
    mask: new Uint8Array(batch.numRows).fill(1),
    selectedCount: batch.numRows,
  }));
  const args: JsonObject = { operation: 'linear_regression', target: 'y', features: data.featureNames };

  // Ours, through the tool.
  const toolRuns: number[] = [];
  let ourCoefficients: number[] = [];
  for (let run = 0; run < TIMED_RUNS; run++) {
    const start = performance.now();
    const outcome = await regressionTool.run(args, {
      selection: { batches: selection, rowCount: ROWS },
      reportProgress: () => undefined,
    });
    toolRuns.push(performance.now() - start);
    if (outcome.status === 'error') throw new Error(outcome.summary);
    ourCoefficients = Object.values(outcome.structured_output.coefficients as Record<string, number>);
  }
  // Ours, the numerics alone (fitLinearRegression over the extracted columns).
  const regressionBatches: RegressionBatch[] = data.batches.map((batch) => ({
    features: data.featureNames.map((name) => batch.getChild(name)!.data[0].values as Float64Array),
    target: batch.getChild('y')!.data[0].values as Float64Array,
  }));
  const fitRuns: number[] = [];
  for (let run = 0; run < TIMED_RUNS; run++) {
    const start = performance.now();
    fitLinearRegression(regressionBatches, { featureNames: data.featureNames });
    fitRuns.push(performance.now() - start);
  }
  const oursMs = median(toolRuns);
  const oursPeak = peakRssMb();
  const common = {
    rows: ROWS,
    features: FEATURES,
    batch_rows: BATCH_ROWS,
    seed: SEED,
    ours_path: 'regressionTool.run (linear_regression, intercept, full inference + diagnostics)',
    ours_runs_ms: toolRuns.map((value) => round(value)),
    ours_fit_only_median_ms: round(median(fitRuns)),
    rss_after_data_mb: round(rssAfterData),
    max_abs_coef_error_vs_truth: maxAbsDifference(ourCoefficients, data.trueCoefficients),
    node: process.version,
  };
  const rows: BenchRow[] = [];

  // numpy.linalg.lstsq (separate process: its memory is its own).
  const numpy = runNumpy(data);
  rows.push({
    name: 'linear_regression_1e6x10',
    ours_ms: round(oursMs),
    peer: 'numpy.linalg.lstsq',
    peer_ms: numpy ? round(numpy.ms) : null,
    ratio: numpy ? round(numpy.ms / oursMs, 2) : null,
    peak_rss_mb: round(oursPeak),
    params: numpy
      ? {
          ...common,
          peer_version: numpy.version,
          peer_runs_ms: numpy.runs.map((value) => round(value)),
          peer_timed: 'lstsq call only (design matrix built before timing)',
          peer_peak_rss_mb: round(numpy.peakRssMb),
          max_abs_coef_diff_vs_ours: maxAbsDifference(numpy.coefficients, ourCoefficients),
        }
      : { ...common, skipped: 'python3 with numpy not available' },
  });

  // ml-regression-multivariate-linear: row-major number[][] built outside the timed region.
  collectGarbage();
  const x: number[][] = new Array<number[]>(ROWS);
  const y: number[][] = new Array<number[]>(ROWS);
  for (let row = 0; row < ROWS; row++) {
    const values = new Array<number>(FEATURES);
    for (let j = 0; j < FEATURES; j++) values[j] = data.features[j][row];
    x[row] = values;
    y[row] = [data.target[row]];
  }
  const rssBeforePeer = currentRssMb();
  const start = performance.now();
  const model = new MultivariateLinearRegression(x, y, { intercept: true, statistics: true });
  const peerMs = performance.now() - start;
  const peerPeak = peakRssMb();
  // The peer puts the intercept last.
  const peerCoefficients = [model.weights[FEATURES][0], ...model.weights.slice(0, FEATURES).map((row) => row[0])];
  rows.push({
    name: 'linear_regression_1e6x10',
    ours_ms: round(oursMs),
    peer: 'ml-regression-multivariate-linear@2.0.4',
    peer_ms: round(peerMs),
    ratio: round(peerMs / oursMs, 2),
    peak_rss_mb: round(oursPeak),
    params: {
      ...common,
      peer_runs: 1,
      peer_timed: 'constructor (fit with intercept and statistics); number[][] inputs built before timing',
      rss_before_peer_fit_mb: round(rssBeforePeer),
      peer_peak_rss_mb: round(peerPeak),
      max_abs_coef_diff_vs_ours: maxAbsDifference(peerCoefficients, ourCoefficients),
    },
  });
  return rows;
}
