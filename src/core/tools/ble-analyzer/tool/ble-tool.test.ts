import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bleExampleInvocation } from '../../../examples/spec-examples.ts';
import { testExecutor } from '../../../executor/test-support.ts';
import { bleAnalyzerOutputSchema } from './manifest.ts';

const clone = <T>(value: T): T => structuredClone(value);
const validateOutput = new Ajv2020({ strict: false }).compile(bleAnalyzerOutputSchema);

interface Output {
  address_classification: Array<{ address: string; type: string; confidence: number; evidence: string[] }>;
  probabilistic_links: Array<{ cluster_id: string; addresses: string[]; pairwise_probability_matrix: number[][]; rationale: string[] }>;
  timeline_segments: Array<{ address: string; start_ts: string; end_ts: string; activity_score: number }>;
}

function invocation(args: Record<string, unknown> = {}, envelope: Record<string, unknown> = {}) {
  const value = clone(bleExampleInvocation) as Record<string, unknown> & { arguments: Record<string, unknown> };
  Object.assign(value.arguments, args);
  return { ...value, ...envelope };
}

describe('bluetooth_address_analyzer through the executor', () => {
  it('runs the §7.4 invocation verbatim on the built-in lab-floor captures', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(bleExampleInvocation);
    expect(record.phase).toBe('execution');
    const result = record.result;
    expect(['ok', 'partial']).toContain(result.status);
    expect(result.summary).toMatch(/^Analyzed [\d,]+ BLE observations; /);
    const output = result.structured_output as unknown as Output;
    expect(validateOutput(output)).toBe(true);
    // The demo's device rotating through three RPAs is found as one 3-address cluster.
    const three = output.probabilistic_links.filter((cluster) => cluster.addresses.length === 3);
    expect(three.length).toBeGreaterThanOrEqual(1);
    for (const cluster of output.probabilistic_links) {
      const m = cluster.pairwise_probability_matrix;
      expect(m.length).toBe(cluster.addresses.length);
      m.forEach((row, i) => {
        expect(row.length).toBe(m.length);
        expect(row[i]).toBe(1);
        row.forEach((cell, j) => expect(cell).toBe(m[j][i]));
        // No IRK was given: no off-diagonal cell may claim certainty.
        row.forEach((cell, j) => i !== j && expect(cell).toBeLessThan(1));
      });
      expect(cluster.rationale.some((line) => line.startsWith('rotation_interval_fit'))).toBe(true);
    }
    // Timeline in the capture's own (epoch) clock: 2024-04-03, not the example's 2026 dates.
    expect(output.timeline_segments.length).toBeGreaterThan(0);
    for (const segment of output.timeline_segments) {
      expect(segment.start_ts).toMatch(/^2024-04-03T08:[0-5]\d:\d\d(\.\d+)?Z$/);
      expect(Date.parse(segment.end_ts)).toBeGreaterThanOrEqual(Date.parse(segment.start_ts));
    }
    expect(output.address_classification.some((item) => item.type === 'rpa')).toBe(true);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
  });

  it('gives the same output twice (stable cluster ids)', async () => {
    const { executor } = testExecutor();
    const first = await executor.execute(bleExampleInvocation);
    const second = await executor.execute(bleExampleInvocation);
    expect(second.result.structured_output).toEqual(first.result.structured_output);
  });

  it('classification mode links nothing', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(invocation({ analysis_mode: 'classification' }));
    const output = record.result.structured_output as unknown as Output;
    expect(output.probabilistic_links).toEqual([]);
    expect(output.address_classification.length).toBeGreaterThan(0);
  });

  it('reports sparse addresses as partial with a warning that counts them', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(invocation({ min_observation_count: 100000 }));
    expect(record.result.status).toBe('partial');
    expect(record.result.warnings.some((warning) => warning.code === 'SPARSE_ADDRESSES' && /^[\d,]+ addresses have fewer than 100000/.test(warning.message))).toBe(true);
    const output = record.result.structured_output as unknown as Output;
    expect(output.address_classification.every((item) => item.type === 'unknown')).toBe(true);
    expect(output.probabilistic_links).toEqual([]);
  });

  it('reports INSUFFICIENT_DATA when the filter leaves nothing', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(
      invocation({}, { capture_selection: { ...bleExampleInvocation.capture_selection, filter_expression: 'rssi > 50' } }),
    );
    expect(record.result.status).toBe('error');
    expect(record.result.errors[0].code).toBe('INSUFFICIENT_DATA');
  });

  it('rejects address columns that are not in the captures, one error per column', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(invocation({ address_columns: { advertiser_addr: 'adva', initiator_addr: 'initiator_addr', scanner_addr: 'scana' } }));
    expect(record.phase).toBe('validation');
    expect(record.result.errors.map((error) => [error.code, error.field])).toEqual([
      ['INVALID_VALUE', 'arguments.address_columns.advertiser_addr'],
      ['INVALID_VALUE', 'arguments.address_columns.scanner_addr'],
    ]);
  });

  it('validates irks and the learned model', async () => {
    const { executor } = testExecutor();
    const bad = await executor.execute(invocation({ irks: [{ label: 'k', irk: 'nothex' }] }));
    expect(bad.result.errors[0]).toMatchObject({ code: 'INVALID_VALUE', field: 'arguments.irks[0].irk' });
    const learned = await executor.execute(invocation({ rpa_rotation_model: 'learned', irks: [{ label: 'spec sample', irk: 'ec0234a357c8ad05341010a60a397d9b' }] }));
    expect(['ok', 'partial']).toContain(learned.result.status);
    expect(learned.result.warnings.some((warning) => warning.code.startsWith('ROTATION_MODEL_'))).toBe(true);
    expect(validateOutput(learned.result.structured_output)).toBe(true);
  });
});
