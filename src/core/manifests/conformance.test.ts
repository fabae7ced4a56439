import { describe, expect, it } from 'vitest';
import type { ToolManifest } from '../contract/types.ts';
import type { CaptureInfo } from '../data/capture.ts';
import type { ExecutionRecord } from '../executor/executor.ts';
import { createExecutor } from '../executor/executor.ts';
import type { RunRequest, ToolRunner } from '../executor/runner.ts';
import { demoCatalog, testExecutor } from '../executor/test-support.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { testEchoManifest } from '../tools/diagnostics/test-echo.ts';
import { regressionManifest } from '../tools/regression/manifest.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import { generateConformanceCases, judgeConformance, type ConformanceCase } from './conformance.ts';

const DEMO_CAPTURE = 'cap_2026_03_14_a';

function demoCapture(): CaptureInfo {
  const info = demoCatalog().get(DEMO_CAPTURE);
  if (!info) throw new Error(`the demo catalog has no ${DEMO_CAPTURE}`);
  return info;
}

async function runCases(cases: ConformanceCase[], extra: ToolImplementation[] = []) {
  const { executor } = testExecutor(extra);
  return judgeConformance(
    cases,
    await executor.executePlan(cases.map((conformanceCase) => conformanceCase.invocation)),
  );
}

function failures(rows: Awaited<ReturnType<typeof runCases>>) {
  return rows.filter((row) => !row.passed).map((row) => `${row.case.id}: ${row.reason}`);
}

describe('conformance of the built-in tools', () => {
  it('statistical_regression_tool passes every generated case through the executor', async () => {
    const cases = generateConformanceCases(regressionManifest, demoCapture());
    const rows = await runCases(cases);
    expect(failures(rows)).toEqual([]);
    expect(rows).toHaveLength(cases.length);

    const valid = cases[0];
    expect(valid.id).toBe('valid');
    expect(valid.invocation).toEqual({
      tool_name: 'statistical_regression_tool',
      tool_version: '1.2.0',
      capture_selection: { capture_id: DEMO_CAPTURE, selectors: { time_range: { start_ms: 0, end_ms: 120_000 } } },
      arguments: { operation: 'linear_regression', target: 'latency_ms', features: ['snr'] },
      request_id: 'conf-valid',
      timeout_ms: 30_000,
    });
    expect(rows[0].actual.status).toBe('ok');
    expect(cases.map((conformanceCase) => conformanceCase.id)).toEqual(
      expect.arrayContaining([
        'missing-argument.operation',
        'missing-argument.target',
        'missing-argument.features',
        'wrong-type.alpha',
        'enum.operation',
        'exclusive-minimum.alpha',
        'exclusive-maximum.alpha',
        'unknown-argument',
        'time-range-outside-capture',
        'unknown-capture',
        'missing-envelope-field.timeout_ms',
        'timeout-below-minimum',
      ]),
    );
    expect(new Set(cases.map((conformanceCase) => conformanceCase.id)).size).toBe(cases.length);
    for (const conformanceCase of cases) expect(conformanceCase.invocation.request_id).toBe(`conf-${conformanceCase.id}`);
  });

  it('test_echo (no required arguments, integer ranges) passes too', async () => {
    const cases = generateConformanceCases(testEchoManifest, demoCapture());
    expect(cases.find((conformanceCase) => conformanceCase.id === 'valid')?.invocation.arguments).toEqual({});
    expect(cases.filter((conformanceCase) => conformanceCase.id.startsWith('missing-argument.'))).toEqual([]);
    const rows = await runCases(cases);
    expect(failures(rows)).toEqual([]);
  });

  it('is deterministic', () => {
    expect(generateConformanceCases(regressionManifest, demoCapture())).toEqual(generateConformanceCases(regressionManifest, demoCapture()));
  });
});

const capture: CaptureInfo = {
  id: 'cap_small',
  description: '',
  source: 'test',
  rowCount: 10,
  columns: [
    { name: 'ts_ms', kind: 'number' },
    { name: 'site', kind: 'string' },
    { name: 'temperature', kind: 'number' },
    { name: 'humidity', kind: 'number' },
    { name: 'pressure', kind: 'number' },
  ],
  timeColumn: 'ts_ms',
  channelColumn: null,
  channels: [],
  bounds: { start_ms: 1000, end_ms: 5000 },
  boundsSource: 'declared',
  timeOrigin: null,
};

const smallManifest: ToolManifest = {
  name: 'small_tool',
  version: '2.1.0',
  description: 'A hand-written manifest for the generator.',
  capabilities: ['test'],
  input_schema: {
    type: 'object',
    properties: {
      mode: { type: 'string', enum: ['fit', 'describe'] },
      degree: { type: 'integer', minimum: 2, maximum: 5 },
      verbose: { type: 'boolean' },
      target: { type: 'string', minLength: 1 },
      features: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
      label: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
    required: ['mode', 'degree', 'verbose', 'label'],
    allOf: [{ if: { properties: { mode: { const: 'fit' } }, required: ['mode'] }, then: { required: ['target', 'features'] } }],
  },
  output_schema: { type: 'object' },
  execution_constraints: { max_timeout_ms: 10_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'none' },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
  deterministic: true,
};

describe('generateConformanceCases on a hand-written manifest', () => {
  const cases = generateConformanceCases(smallManifest, capture, { minTimeoutMs: 500 });
  const byId = new Map(cases.map((conformanceCase) => [conformanceCase.id, conformanceCase]));
  const expectation = (id: string) => byId.get(id)?.expected;
  const argumentsOf = (id: string) => byId.get(id)?.invocation.arguments;

  it('fills every required argument, the conditional ones included, with values that satisfy the schema', () => {
    expect(byId.get('valid')?.invocation).toEqual({
      tool_name: 'small_tool',
      tool_version: '2.1.0',
      capture_selection: { capture_id: 'cap_small', selectors: { time_range: { start_ms: 1000, end_ms: 5000 } } },
      arguments: { mode: 'fit', degree: 2, verbose: true, label: expect.stringMatching(/^[A-Z]{3}$/), target: 'temperature', features: ['humidity', 'pressure'] },
      request_id: 'conf-valid',
      timeout_ms: 10_000,
    });
    expect(expectation('valid')).toEqual({ status: 'ok' });
  });

  it('removes each required key, conditional ones too', () => {
    for (const key of ['mode', 'degree', 'verbose', 'label', 'target', 'features']) {
      expect(expectation(`missing-argument.${key}`)).toEqual({ status: 'error', code: 'MISSING_REQUIRED_ARGUMENT', field: `arguments.${key}` });
      expect(argumentsOf(`missing-argument.${key}`)).not.toHaveProperty(key);
    }
  });

  it('breaks types, the enum, the integer range and sizes', () => {
    expect(argumentsOf('wrong-type.degree')).toMatchObject({ degree: 'not-a-value-of-this-type' });
    expect(argumentsOf('wrong-type.verbose')).toMatchObject({ verbose: 'not-a-value-of-this-type' });
    expect(argumentsOf('wrong-type.features')).toMatchObject({ features: 'not-a-value-of-this-type' });
    expect(argumentsOf('wrong-type.mode')).toMatchObject({ mode: 42 });
    expect(expectation('wrong-type.verbose')).toEqual({ status: 'error', code: 'INVALID_TYPE', field: 'arguments.verbose' });
    expect(argumentsOf('enum.mode')).toMatchObject({ mode: 'fit_not_allowed' });
    expect(expectation('enum.mode')).toEqual({ status: 'error', code: 'INVALID_VALUE', field: 'arguments.mode' });
    expect(argumentsOf('minimum.degree')).toMatchObject({ degree: 1 });
    expect(argumentsOf('maximum.degree')).toMatchObject({ degree: 6 });
    expect(expectation('maximum.degree')).toEqual({ status: 'error', code: 'INVALID_VALUE', field: 'arguments.degree' });
    expect(argumentsOf('min-length.target')).toMatchObject({ target: '' });
    expect(byId.has('min-items.features')).toBe(false); // minItems 2: no generic item to add
  });

  it('adds an unknown argument because the schema does not opt in', () => {
    expect(expectation('unknown-argument')).toEqual({ status: 'error', code: 'UNKNOWN_ARGUMENT', field: 'arguments.conformance_unknown_argument' });
    const open = generateConformanceCases({ ...smallManifest, input_schema: { ...smallManifest.input_schema, additionalProperties: true } }, capture);
    expect(open.some((conformanceCase) => conformanceCase.id === 'unknown-argument')).toBe(false);
  });

  it('breaks the envelope: time range, capture, timeout', () => {
    expect(byId.get('time-range-outside-capture')?.invocation.capture_selection).toEqual({
      capture_id: 'cap_small',
      selectors: { time_range: { start_ms: 1000, end_ms: 9000 } },
    });
    expect(expectation('time-range-outside-capture')).toEqual({
      status: 'error',
      code: 'UNSUPPORTED_TIME_RANGE',
      field: 'capture_selection.selectors.time_range',
    });
    expect(expectation('unknown-capture')).toEqual({ status: 'error', code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.capture_id' });
    expect(byId.get('missing-envelope-field.timeout_ms')?.invocation).not.toHaveProperty('timeout_ms');
    expect(expectation('missing-envelope-field.timeout_ms')).toEqual({ status: 'error', code: 'MISSING_REQUIRED_ARGUMENT', field: 'timeout_ms' });
    expect(byId.get('timeout-below-minimum')?.invocation.timeout_ms).toBe(499);
  });

  it('picks the other branch’s requirements when the first enum value selects nothing', () => {
    const describeFirst = generateConformanceCases(
      { ...smallManifest, input_schema: { ...smallManifest.input_schema, properties: { ...smallManifest.input_schema.properties as object, mode: { type: 'string', enum: ['describe', 'fit'] } } } },
      capture,
    );
    expect(describeFirst[0].invocation.arguments).toEqual({ mode: 'describe', degree: 2, verbose: true, label: expect.stringMatching(/^[A-Z]{3}$/) });
  });
});

describe('generateConformanceCases for a tool that reads no capture (capture_selection: none)', () => {
  const captureFree: ToolManifest = {
    ...smallManifest,
    name: 'capture_free_tool',
    execution_constraints: { ...smallManifest.execution_constraints, capture_selection: 'none' },
  };
  const cases = generateConformanceCases(captureFree, demoCapture(), { minTimeoutMs: 500 });
  const ids = cases.map((conformanceCase) => conformanceCase.id);

  it('sends no selection, and replaces the selection cases by one that gives a selection and expects it refused', () => {
    expect(cases.filter((conformanceCase) => conformanceCase.id !== 'capture-selection-given').every((conformanceCase) => !('capture_selection' in conformanceCase.invocation))).toBe(true);
    expect(ids).not.toContain('time-range-outside-capture');
    expect(ids).not.toContain('unknown-capture');
    const given = cases.find((conformanceCase) => conformanceCase.id === 'capture-selection-given');
    expect(given?.expected).toEqual({ status: 'error', code: 'UNKNOWN_ARGUMENT', field: 'capture_selection' });
    expect(given?.invocation.capture_selection).toEqual({ capture_id: DEMO_CAPTURE, selectors: { time_range: { start_ms: 0, end_ms: 120_000 } } });
    expect(given?.invocation.arguments).toEqual(cases[0].invocation.arguments);
    // The argument and timeout cases are those of the same manifest when it reads captures.
    const withCaptures = generateConformanceCases(smallManifest, demoCapture(), { minTimeoutMs: 500 }).map((conformanceCase) => conformanceCase.id);
    expect(ids.filter((id) => id !== 'capture-selection-given')).toEqual(withCaptures.filter((id) => id !== 'time-range-outside-capture' && id !== 'unknown-capture'));
  });

  it('passes every case through the real executor, and no case reaches the tool with a selection', async () => {
    const reached: RunRequest[] = [];
    // Capture-free tools run elsewhere (an MCP server); this runner stands in for one and echoes the arguments.
    const runner: ToolRunner = {
      run: async (request) => {
        reached.push(request);
        return { kind: 'completed', outcome: { status: 'ok', summary: 'ran', structured_output: { received: request.arguments }, confidence: 1 } };
      },
    };
    const registry = new ToolRegistry([...builtinTools(), { manifest: captureFree, run: () => ({ status: 'error', summary: 'not run here', errors: [] }) }]);
    const executor = createExecutor({ registry, catalog: demoCatalog(), runner });
    const rows = judgeConformance(cases, await executor.executePlan(cases.map((conformanceCase) => conformanceCase.invocation)));
    expect(failures(rows)).toEqual([]);
    expect(reached.map((request) => request.requestId)).toEqual(['conf-valid']);
    expect(reached[0].selection).toBeNull();
  });

  it('a deliberately wrong generator would fail: the valid invocation with a selection is refused at capture_selection', async () => {
    const { executor } = testExecutor([{ manifest: captureFree, run: () => ({ status: 'error', summary: 'not run here', errors: [] }) }]);
    const [withSelection] = await executor.executePlan([{ ...cases[0].invocation, capture_selection: { capture_id: DEMO_CAPTURE } }]);
    expect(judgeConformance([cases[0]], [withSelection])[0]).toMatchObject({ passed: false, reason: expect.stringContaining('UNKNOWN_ARGUMENT at capture_selection') });
  });
});

describe('judgeConformance', () => {
  const cases = generateConformanceCases(smallManifest, capture);
  const record = (requestId: string, result: ExecutionRecord['result']): ExecutionRecord => ({
    requestId,
    toolName: 'small_tool',
    resolvedVersion: '2.1.0',
    phase: 'validation',
    result,
    durationMs: 1,
  });
  const errorResult = (code: ExecutionRecord['result']['errors'][number]['code'], field: string): ExecutionRecord['result'] => ({
    status: 'error',
    summary: 'Invocation failed validation.',
    warnings: [],
    errors: [{ code, field, message: 'm' }],
    confidence: 0,
  });
  const valid = cases.find((conformanceCase) => conformanceCase.id === 'valid')!;
  const missingMode = cases.find((conformanceCase) => conformanceCase.id === 'missing-argument.mode')!;

  it('passes an ok or partial valid case and an error at the expected code and field', () => {
    const rows = judgeConformance(
      [valid, missingMode],
      [
        record('conf-missing-argument.mode', errorResult('MISSING_REQUIRED_ARGUMENT', 'arguments.mode')),
        record('conf-valid', { status: 'partial', summary: 's', warnings: [{ code: 'ROWS_DROPPED', message: 'm' }], errors: [], confidence: 0.5 }),
      ],
    );
    expect(rows.map((row) => row.passed)).toEqual([true, true]);
    expect(rows[1].actual).toEqual({ status: 'error', codes: ['MISSING_REQUIRED_ARGUMENT'], fields: ['arguments.mode'] });
    expect(rows[0].reason).toBeUndefined();
  });

  it('fails a case whose error is at another field, with a reason', () => {
    const [row] = judgeConformance([missingMode], [record('conf-missing-argument.mode', errorResult('MISSING_REQUIRED_ARGUMENT', 'arguments.target'))]);
    expect(row.passed).toBe(false);
    expect(row.reason).toBe('Expected MISSING_REQUIRED_ARGUMENT at arguments.mode, got MISSING_REQUIRED_ARGUMENT at arguments.target');
  });

  it('fails a deliberately non-conforming expectation against the real executor', async () => {
    const wrong: ConformanceCase = { ...missingMode, expected: { status: 'error', code: 'INVALID_TYPE', field: 'arguments.mode' } };
    const regressionCases = generateConformanceCases(regressionManifest, demoCapture());
    const missingOperation = regressionCases.find((conformanceCase) => conformanceCase.id === 'missing-argument.operation')!;
    const skewed: ConformanceCase = { ...missingOperation, expected: { ...missingOperation.expected, code: 'INVALID_VALUE' } };
    const validExpectingError: ConformanceCase = { ...regressionCases[0], expected: { status: 'error', code: 'INVALID_VALUE', field: 'arguments.target' } };
    const rows = await runCases([skewed, validExpectingError]);
    expect(rows.map((row) => row.passed)).toEqual([false, false]);
    expect(rows[0].reason).toBe('Expected INVALID_VALUE at arguments.operation, got MISSING_REQUIRED_ARGUMENT at arguments.operation');
    expect(rows[1].reason).toBe('Expected INVALID_VALUE at arguments.target, but the invocation succeeded (status ok)');

    const [unmatched] = judgeConformance([wrong], []);
    expect(unmatched).toMatchObject({ passed: false, reason: 'No execution record for this case', actual: { status: null } });
  });

  it('fails a valid case that errors', () => {
    const [row] = judgeConformance([valid], [record('conf-valid', errorResult('INVALID_VALUE', 'arguments.target'))]);
    expect(row).toMatchObject({ passed: false, reason: 'Expected ok or partial, got error: INVALID_VALUE at arguments.target' });
  });
});
