import Ajv2020 from 'ajv/dist/2020.js';
import { tableFromArrays, type RecordBatch } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { SelectedBatch } from '../../data/selection-types.ts';
import type { JsonObject } from '../../util/json.ts';
import type { ToolOutcome } from '../tool.ts';
import { regressionTool } from './regression-tool.ts';
import { seededRandom } from '../../demo/seeded-random.ts';

/** The project's seeded generator (mulberry32), as a uniform sequence. */
const random = (seed: number): (() => number) => seededRandom(seed).uniform;

/** A synthetic link-quality capture: latency depends on jitter and packet loss, not on snr. */
function captureBatches(rows: number, seed = 1, chunks = 2): RecordBatch[] {
  const next = random(seed);
  const snr = Float64Array.from({ length: rows }, () => 20 + 10 * next());
  const jitter = Float64Array.from({ length: rows }, () => 5 * next());
  const packetLoss = Float64Array.from({ length: rows }, () => 3 * next());
  const latency = Float64Array.from({ length: rows }, (_, row) => 2.17 + 0.61 * jitter[row] + 1.44 * packetLoss[row] + (next() - 0.5));
  const channel = Array.from({ length: rows }, (_, row) => ['ch1', 'ch2', 'ch3'][row % 3]);
  const batches: RecordBatch[] = [];
  const size = Math.ceil(rows / chunks);
  for (let start = 0; start < rows; start += size) {
    const end = Math.min(rows, start + size);
    const table = tableFromArrays({
      snr: snr.slice(start, end),
      jitter: jitter.slice(start, end),
      packet_loss: packetLoss.slice(start, end),
      latency_ms: latency.slice(start, end),
      channel: channel.slice(start, end),
    });
    batches.push(...table.batches);
  }
  return batches;
}

function selection(batches: RecordBatch[], captureId = 'cap_2026_03_14_a', mask?: (row: number) => number): SelectedBatch[] {
  return batches.map((batch) => {
    const selected = Uint8Array.from({ length: batch.numRows }, (_, row) => (mask ? mask(row) : 1));
    return { captureId, batch, mask: selected, selectedCount: selected.reduce((total, value) => total + value, 0) };
  });
}

async function run(args: JsonObject, batches: SelectedBatch[], progress: number[] = []): Promise<ToolOutcome> {
  return regressionTool.run(args, {
    selection: { batches, rowCount: batches.reduce((total, batch) => total + batch.selectedCount, 0) },
    reportProgress: (fraction) => progress.push(fraction),
  });
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validateOutput = ajv.compile(regressionTool.manifest.output_schema);
const validateInput = ajv.compile(regressionTool.manifest.input_schema);

function expectValidOutput(outcome: ToolOutcome): JsonObject {
  expect(outcome.status).not.toBe('error');
  if (outcome.status === 'error') throw new Error(outcome.summary);
  const valid = validateOutput(outcome.structured_output);
  expect(validateOutput.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  expect(outcome.confidence).toBeGreaterThanOrEqual(0);
  expect(outcome.confidence).toBeLessThanOrEqual(1);
  if (outcome.status === 'partial') expect(outcome.warnings?.length ?? 0).toBeGreaterThan(0);
  return outcome.structured_output;
}

const exampleArguments: JsonObject = {
  operation: 'linear_regression',
  target: 'latency_ms',
  features: ['snr', 'jitter', 'packet_loss'],
  alpha: 0.05,
  normalize: true,
};

describe('statistical_regression_tool manifest', () => {
  it('declares the contract fields', () => {
    const manifest = regressionTool.manifest;
    expect(manifest.name).toBe('statistical_regression_tool');
    expect(manifest.version).toBe('1.2.0');
    expect(manifest.capabilities).toEqual(['linear_regression', 'summary_stats', 'anova', 'correlation']);
    expect(manifest.deterministic).toBe(true);
    expect(manifest.execution_constraints).toEqual({ max_timeout_ms: 120000, max_payload_bytes: 65536, supports_streaming: false, side_effects: 'none' });
    expect(manifest.cost_hint).toEqual({ unit: 'call', estimated_cost: 0, currency: 'credits' });
  });

  it('accepts the contract example arguments', () => {
    expect(validateInput(exampleArguments)).toBe(true);
  });

  it('rejects the invalid-plan example with a single required error on target (once `if` errors are dropped)', () => {
    expect(validateInput({ operation: 'linear_regression', features: ['snr', 'jitter', 'packet_loss'] })).toBe(false);
    const errors = (validateInput.errors ?? []).filter((error) => error.keyword !== 'if');
    expect(errors).toHaveLength(1);
    expect(errors[0].keyword).toBe('required');
    expect(errors[0].params).toEqual({ missingProperty: 'target' });
  });

  it('requires target and group_by for anova, rejects unknown arguments and a bad alpha', () => {
    expect(validateInput({ operation: 'anova', target: 'latency_ms' })).toBe(false);
    expect(validateInput({ operation: 'anova', target: 'latency_ms', group_by: 'channel' })).toBe(true);
    expect(validateInput({ operation: 'summary_stats', colour: 'red' })).toBe(false);
    expect(validateInput({ operation: 'summary_stats', alpha: 1 })).toBe(false);
    expect(validateInput({ operation: 'correlation', columns: ['snr'] })).toBe(false);
    expect(validateInput({ operation: 'correlation' })).toBe(true);
  });
});

describe('statistical_regression_tool checkArguments', () => {
  const captures = [
    {
      id: 'cap_a',
      columns: [
        { name: 'snr', kind: 'number' as const },
        { name: 'jitter', kind: 'number' as const },
        { name: 'latency_ms', kind: 'number' as const },
        { name: 'channel', kind: 'string' as const },
      ],
    },
  ];

  it('accepts columns that exist and are numeric', () => {
    expect(regressionTool.checkArguments!({ operation: 'linear_regression', target: 'latency_ms', features: ['snr', 'jitter'] }, captures)).toEqual([]);
    expect(regressionTool.checkArguments!({ operation: 'anova', target: 'latency_ms', group_by: 'channel' }, captures)).toEqual([]);
  });

  it('locates a missing feature and lists the numeric columns', () => {
    const errors = regressionTool.checkArguments!({ operation: 'linear_regression', target: 'latency_ms', features: ['snr', 'packet_loss'] }, captures);
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe('INVALID_VALUE');
    expect(errors[0].field).toBe('arguments.features[1]');
    expect(errors[0].message).toContain('packet_loss');
    expect(errors[0].message).toContain('cap_a');
    expect(errors[0].message).toContain('snr, jitter, latency_ms');
  });

  it('rejects a non-numeric feature, the target as a feature and a missing group column', () => {
    const errors = regressionTool.checkArguments!({ operation: 'linear_regression', target: 'latency_ms', features: ['channel', 'latency_ms'] }, captures);
    expect(errors.map((error) => [error.code, error.field])).toEqual([
      ['INVALID_VALUE', 'arguments.features[0]'],
      ['INVALID_VALUE', 'arguments.features[1]'],
    ]);
    expect(errors[0].message).toContain('string column');
    expect(errors[1].message).toContain('target');
    const anova = regressionTool.checkArguments!({ operation: 'anova', target: 'latency_ms', group_by: 'device' }, captures);
    expect(anova.map((error) => error.field)).toEqual(['arguments.group_by']);
  });

  it('checks every selected capture', () => {
    const second = { id: 'cap_b', columns: captures[0].columns.filter((column) => column.name !== 'jitter') };
    const errors = regressionTool.checkArguments!({ operation: 'summary_stats', columns: ['jitter'] }, [...captures, second]);
    expect(errors).toHaveLength(1);
    expect(errors[0].field).toBe('arguments.columns[0]');
    expect(errors[0].message).toContain('cap_b');
  });
});

describe('statistical_regression_tool run', () => {
  it('runs the contract example: field names, summary, artifact, schema', async () => {
    const progress: number[] = [];
    const outcome = await run(exampleArguments, selection(captureBatches(18_204, 3, 3)), progress);
    expect(outcome.status).toBe('ok');
    const output = expectValidOutput(outcome);
    expect(output.model).toBe('linear_regression');
    expect(output.sample_count).toBe(18_204);
    expect(Object.keys(output.coefficients as JsonObject)).toEqual(['intercept', 'snr', 'jitter', 'packet_loss']);
    expect(Object.keys(output.p_values as JsonObject)).toEqual(['snr', 'jitter', 'packet_loss']);
    expect(Object.keys(output.std_errors as JsonObject)).toEqual(['intercept', 'snr', 'jitter', 'packet_loss']);
    expect(Object.keys(output.standardized_coefficients as JsonObject)).toEqual(['snr', 'jitter', 'packet_loss']);
    const coefficients = output.coefficients as Record<string, number>;
    expect(coefficients.intercept).toBeCloseTo(2.17, 1);
    expect(coefficients.jitter).toBeCloseTo(0.61, 1);
    expect(coefficients.packet_loss).toBeCloseTo(1.44, 1);
    expect(output.significant_predictors).toEqual(['packet_loss', 'jitter']);
    expect(output.confidence_level).toBeCloseTo(0.95, 15);
    expect(output.df_residual).toBe(18_200);
    expect((output.coefficient_table as JsonObject[])[0]).toMatchObject({ term: 'intercept', aliased: false, significant: true });
    expect((output.confidence_intervals as Record<string, number[]>).jitter).toHaveLength(2);
    const diagnostics = output.diagnostics as JsonObject;
    expect(diagnostics.sample_size).toBe(2000);
    expect(diagnostics.sampled_from).toBe(18_204);
    expect(outcome.summary).toBe(
      'Linear regression completed on 18,204 samples. packet_loss and jitter are significant predictors of latency_ms. ' +
        `R² = ${(output.r_squared as number).toFixed(3)}.`,
    );
    expect(outcome.status === 'ok' && outcome.artifacts?.[0]).toMatchObject({ name: 'regression_coefficients', mime_type: 'text/csv' });
    const csv = outcome.status === 'ok' ? String(outcome.artifacts?.[0].content) : '';
    expect(csv.split('\n')[0]).toBe('term,estimate,std_error,t_statistic,p_value,ci_low,ci_high');
    expect(csv.split('\n')[1].startsWith('intercept,')).toBe(true);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((value) => value >= 0 && value <= 1)).toBe(true);
    expect(progress[progress.length - 1]).toBe(1);
    expect(outcome.status === 'ok' && outcome.confidence).toBeGreaterThan(0.9);
  });

  it('turns skipped rows and aliased terms into warnings and a partial status', async () => {
    const rows = 300;
    const next = random(4);
    const x = Float64Array.from({ length: rows }, () => next());
    const twice = x.map((value) => 2 * value);
    const y = Float64Array.from(x, (value) => 1 + 3 * value + 0.1 * next());
    y[5] = Number.NaN;
    x[17] = Number.POSITIVE_INFINITY;
    const table = tableFromArrays({ x, twice, flat: new Float64Array(rows).fill(4), y });
    const outcome = await run({ operation: 'linear_regression', target: 'y', features: ['x', 'twice', 'flat'] }, selection(table.batches, 'cap'));
    expect(outcome.status).toBe('partial');
    const output = expectValidOutput(outcome);
    expect(output.rows_skipped_non_finite).toBe(2);
    expect(output.aliased_terms).toEqual(['twice', 'flat']);
    expect((output.coefficients as JsonObject).twice).toBeNull();
    expect(outcome.warnings?.map((warning) => warning.code)).toEqual(['ROWS_DROPPED', 'ALIASED_TERMS']);
    expect(outcome.warnings?.[1].message).toContain('flat is constant');
    expect(outcome.summary).toContain('twice and flat dropped as aliased');
  });

  it('reports INSUFFICIENT_DATA with the observed count', async () => {
    const outcome = await run(
      { operation: 'linear_regression', target: 'latency_ms', features: ['snr', 'jitter', 'packet_loss'] },
      selection(captureBatches(10, 5, 1), 'cap', (row) => (row < 3 ? 1 : 0)),
    );
    expect(outcome.status).toBe('error');
    if (outcome.status !== 'error') return;
    expect(outcome.errors).toEqual([
      { code: 'INSUFFICIENT_DATA', field: 'arguments.operation', message: 'linear_regression needs at least 5 usable rows; the selection has 3' },
    ]);
  });

  it('fits without an intercept and handles an exact fit', async () => {
    const x = Float64Array.from({ length: 12 }, (_, row) => row + 1);
    const y = x.map((value) => 2.5 * value);
    const outcome = await run({ operation: 'linear_regression', target: 'y', features: ['x'], fit_intercept: false }, selection(tableFromArrays({ x, y }).batches, 'cap'));
    const output = expectValidOutput(outcome);
    expect(Object.keys(output.coefficients as JsonObject)).toEqual(['x']);
    expect(output.fit_intercept).toBe(false);
    expect((output.coefficients as Record<string, number>).x).toBeCloseTo(2.5, 14);
    expect(outcome.warnings?.map((warning) => warning.code)).toContain('EXACT_FIT');
  });

  it('runs summary_stats over the numeric columns by default', async () => {
    const outcome = await run({ operation: 'summary_stats' }, selection(captureBatches(500)));
    const output = expectValidOutput(outcome);
    expect(output.model).toBe('summary_stats');
    expect(output.columns).toEqual(['snr', 'jitter', 'packet_loss', 'latency_ms']);
    expect((output.statistics as JsonObject[])[0]).toMatchObject({ column: 'snr', count: 500, missing: 0 });
    expect(outcome.summary.startsWith('Summary statistics computed for 4 columns over 500 rows.')).toBe(true);
  });

  it('runs anova by a string column', async () => {
    const outcome = await run({ operation: 'anova', target: 'latency_ms', group_by: 'channel' }, selection(captureBatches(600)));
    const output = expectValidOutput(outcome);
    expect(output.model).toBe('anova');
    expect((output.groups as JsonObject[]).map((group) => group.group)).toEqual(['ch1', 'ch2', 'ch3']);
    expect(output.df_between).toBe(2);
    expect(output.df_within).toBe(597);
  });

  it('runs correlation with p-values', async () => {
    const outcome = await run({ operation: 'correlation', columns: ['jitter', 'packet_loss', 'latency_ms'], alpha: 0.01 }, selection(captureBatches(400)));
    const output = expectValidOutput(outcome);
    expect(output.model).toBe('correlation');
    expect((output.correlation_matrix as number[][])[0][0]).toBe(1);
    expect((output.pairs as JsonObject[]).find((pair) => pair.x === 'jitter' && pair.y === 'latency_ms')).toMatchObject({ significant: true, n: 400 });
    expect(outcome.summary).toContain('Strongest:');
  });

  it('warns about arguments the operation ignores', async () => {
    const outcome = await run({ operation: 'summary_stats', columns: ['snr'], normalize: true }, selection(captureBatches(50)));
    expect(outcome.status).toBe('ok');
    expect(outcome.warnings).toEqual([{ code: 'IGNORED_ARGUMENT', message: 'arguments.normalize is not used by summary_stats and was ignored' }]);
  });

  it('returns INVALID_VALUE when run directly with an unknown column', async () => {
    const outcome = await run({ operation: 'linear_regression', target: 'latency_ms', features: ['snr', 'nope'] }, selection(captureBatches(50)));
    expect(outcome.status).toBe('error');
    if (outcome.status === 'error') expect(outcome.errors[0]).toMatchObject({ code: 'INVALID_VALUE', field: 'arguments.features[1]' });
  });
});

describe('CSV artifacts neutralise formulas from the data (issue 14, item 3)', () => {
  it('anova group values and column names starting with = + - @ reach the CSV as text', async () => {
    const rows = 40;
    const hostile = ['=HYPERLINK("http://evil","x")', '+SUM(1,2)', '-2+3', '@SUM(A1)'];
    const table = tableFromArrays({
      latency_ms: Float64Array.from({ length: rows }, (_, row) => (row % 4) + (row % 7) / 10),
      '@cmd': Float64Array.from({ length: rows }, (_, row) => row / 3),
      group: Array.from({ length: rows }, (_, row) => hostile[row % 4]),
    });
    const anova = await run({ operation: 'anova', target: 'latency_ms', group_by: 'group' }, selection(table.batches));
    if (anova.status === 'error') throw new Error(anova.summary);
    const anovaCsv = String(anova.artifacts?.[0].content);
    expect(anovaCsv).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(anovaCsv).toContain(`"'+SUM(1,2)"`);
    expect(anovaCsv).toContain("\n'-2+3,");
    expect(anovaCsv).toContain("\n'@SUM(A1),");
    expect(anovaCsv.split('\n').slice(1).every((line) => !/^[=+\-@]/.test(line))).toBe(true);
    const stats = await run({ operation: 'summary_stats', columns: ['@cmd'] }, selection(table.batches));
    if (stats.status === 'error') throw new Error(stats.summary);
    expect(String(stats.artifacts?.[0].content).split('\n')[1].startsWith("'@cmd,")).toBe(true);
  });
});
