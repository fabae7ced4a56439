import { describe, expect, it, vi } from 'vitest';
import {
  bleExampleInvocation,
  correctedPlanExample,
  invalidPlanExample,
  invalidPlanExpectedResult,
  regressionExampleInvocation,
} from '../examples/spec-examples.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import { testExecutor } from './test-support.ts';

const clone = <T>(value: T): T => structuredClone(value);

function regression(overrides: Record<string, unknown> = {}, args: Record<string, unknown> = {}) {
  const invocation = clone(regressionExampleInvocation) as Record<string, unknown> & { arguments: Record<string, unknown> };
  Object.assign(invocation.arguments, args);
  return { ...invocation, ...overrides };
}

function echo(args: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  return {
    tool_name: 'test_echo',
    tool_version: '1.0.0',
    capture_selection: { capture_id: 'cap_2026_03_14_a' },
    arguments: args,
    request_id: 'req-echo',
    timeout_ms: 5000,
    ...overrides,
  };
}

describe('the specification examples', () => {
  it('rejects the invalid plan with exactly the specified result', async () => {
    const { executor } = testExecutor();
    const [record] = await executor.executePlan(invalidPlanExample);
    expect(record.phase).toBe('validation');
    expect(record.result).toEqual(invalidPlanExpectedResult);
  });

  it('runs the regression example close to its example output', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regressionExampleInvocation);
    expect(record.phase).toBe('execution');
    expect(record.result.status).toBe('ok');
    const output = record.result.structured_output as Record<string, unknown> & { coefficients: Record<string, number> };
    expect(output.model).toBe('linear_regression');
    expect(output.sample_count).toBeGreaterThan(17_000);
    expect(output.sample_count).toBeLessThan(19_000);
    expect(output.r_squared).toBeCloseTo(0.78, 1);
    expect(output.coefficients.intercept).toBeCloseTo(2.17, 0);
    expect(output.coefficients.snr).toBeCloseTo(-0.09, 1);
    expect(output.coefficients.jitter).toBeCloseTo(0.61, 1);
    expect(output.coefficients.packet_loss).toBeCloseTo(1.44, 1);
    expect(Object.keys(output.p_values as object)).toEqual(['snr', 'jitter', 'packet_loss']);
    for (const artifact of record.result.artifacts ?? []) expect(artifact.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('runs the corrected plan', async () => {
    const { executor } = testExecutor();
    const records = await executor.executePlan(correctedPlanExample);
    expect(records.map((record) => record.result.status)).toEqual(['ok']);
  });
});

describe('the two capture_selection shapes (settled decision 3)', () => {
  it('runs the BLE analyzer from a generic selection as it runs from the BLE one', async () => {
    const { executor } = testExecutor();
    const generic = {
      ...clone(bleExampleInvocation),
      capture_selection: {
        capture_id: 'lab_floor_2026_04_03_a',
        selectors: { time_range: { start_ms: 1712131200000, end_ms: 1712133000000 }, filters: ['channel IN (37,38,39)', 'rssi > -92'] },
      },
    };
    const ble = {
      ...clone(bleExampleInvocation),
      capture_selection: { ...clone(bleExampleInvocation.capture_selection), capture_ids: ['lab_floor_2026_04_03_a'] },
    };
    const [fromGeneric, fromBle] = await Promise.all([executor.execute(generic), executor.execute(ble)]);
    expect(fromGeneric.phase).toBe('execution');
    expect(fromGeneric.result.status).not.toBe('error');
    expect(fromGeneric.result.structured_output).toEqual(fromBle.result.structured_output);
  });

  it('reports a generic selection naming an unknown capture at its own path, once', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute({ ...clone(bleExampleInvocation), capture_selection: { capture_id: 'nope' } });
    expect(record.result.errors).toEqual([expect.objectContaining({ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.capture_id' })]);
  });
});

describe('validation errors, one item per problem', () => {
  const cases: Array<[string, unknown, Array<{ code: string; field: string }>]> = [
    [
      'two missing required arguments',
      regression({ arguments: { operation: 'linear_regression' } }),
      [
        { code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.target' },
        { code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.features' },
      ],
    ],
    ['a missing envelope field', (({ timeout_ms: _omit, ...rest }) => rest)(regression()), [{ code: 'MISSING_REQUIRED_ARGUMENT', field: 'timeout_ms' }]],
    ['a mistyped argument', regression({}, { alpha: 'small' }), [{ code: 'INVALID_TYPE', field: 'arguments.alpha' }]],
    ['an enum violation', regression({}, { operation: 'kmeans' }), [{ code: 'INVALID_VALUE', field: 'arguments.operation' }]],
    ['a range violation', regression({}, { alpha: 1.5 }), [{ code: 'INVALID_VALUE', field: 'arguments.alpha' }]],
    ['an unknown argument', regression({}, { colour: 'red' }), [{ code: 'UNKNOWN_ARGUMENT', field: 'arguments.colour' }]],
    ['an unknown column', regression({}, { features: ['snr', 'humidity'] }), [{ code: 'INVALID_VALUE', field: 'arguments.features[1]' }]],
    [
      'an unknown capture',
      regression({ capture_selection: { capture_id: 'nope', selectors: {} } }),
      [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.capture_id' }],
    ],
    [
      'an unknown channel',
      regression({ capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { channels: ['ch1', 'ch9'] } } }),
      [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.selectors.channels[1]' }],
    ],
    [
      'a filter on an unknown column',
      regression({ capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { filters: ['snr > 1', 'humidity > 3'] } } }),
      [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.selectors.filters[1]' }],
    ],
    [
      'a filter with a syntax error',
      regression({ capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { filters: ['snr >'] } } }),
      [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.selectors.filters[0]' }],
    ],
    [
      'a window with start after end',
      regression({ capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { time_range: { start_ms: 500, end_ms: 100 } } } }),
      [{ code: 'UNSUPPORTED_TIME_RANGE', field: 'capture_selection.selectors.time_range' }],
    ],
    ['an unknown tool', regression({ tool_name: 'anova_tool' }), [{ code: 'UNKNOWN_TOOL', field: 'tool_name' }]],
    ['an incompatible major version', regression({ tool_version: '2.0.0' }), [{ code: 'UNSUPPORTED_VERSION', field: 'tool_version' }]],
    ['a newer minor than installed', regression({ tool_version: '1.3.0' }), [{ code: 'UNSUPPORTED_VERSION', field: 'tool_version' }]],
    ['an envelope that is not an object', [regression()], [{ code: 'INVALID_INVOCATION', field: '' }]],
    ['a mistyped envelope field', regression({ request_id: 42 }), [{ code: 'INVALID_INVOCATION', field: 'request_id' }]],
    ['a timeout below the runtime minimum', regression({ timeout_ms: 200 }), [{ code: 'TIMEOUT_BELOW_MINIMUM', field: 'timeout_ms' }]],
    ['an invocation over max_payload_bytes', echo({ text: 'x'.repeat(70_000) }), [{ code: 'PAYLOAD_TOO_LARGE', field: '' }]],
  ];

  it.each(cases)('%s', async (_name, invocation, expected) => {
    const { executor } = testExecutor();
    const record = await executor.execute(invocation);
    expect(record.phase).toBe('validation');
    expect(record.result.status).toBe('error');
    expect(record.result.summary).toBe('Invocation failed validation.');
    expect(record.result.errors.map(({ code, field }) => ({ code, field }))).toEqual(expected);
    for (const error of record.result.errors) expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('names the supported versions when none is compatible', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regression({ tool_version: '2.0.0' }));
    expect(record.result.errors[0].message).toContain('1.2.0');
  });

  it('rejects unknown arguments when the schema is silent, and accepts them when it opts in (settled decision 2)', async () => {
    const silent: ToolImplementation = {
      manifest: { ...echoManifest(), name: 'silent_tool', input_schema: { type: 'object', properties: { text: { type: 'string' }, nested: { type: 'object', properties: { a: { type: 'number' } } } } } },
      run: (_args, context) => ({ status: 'ok', summary: 'ok', structured_output: { text: '', payload: '', rows_selected: context.selection.rowCount }, confidence: 1 }),
    };
    const open: ToolImplementation = { ...silent, manifest: { ...silent.manifest, name: 'open_tool', input_schema: { ...silent.manifest.input_schema, additionalProperties: true } } };
    const { executor } = testExecutor([silent, open]);
    const rejected = await executor.execute(echo({ text: 'x', extra: 1, nested: { a: 1, b: 2 } }, { tool_name: 'silent_tool' }));
    expect(rejected.result.errors.map(({ code, field }) => ({ code, field }))).toEqual([
      { code: 'UNKNOWN_ARGUMENT', field: 'arguments.extra' },
      { code: 'UNKNOWN_ARGUMENT', field: 'arguments.nested.b' },
    ]);
    const accepted = await executor.execute(echo({ text: 'x', extra: 1 }, { tool_name: 'open_tool' }));
    expect(accepted.result.status).toBe('ok');
  });

  it('executes nothing after a validation failure', async () => {
    const run = vi.fn();
    const spy: ToolImplementation = { manifest: { ...echoManifest(), name: 'spy_tool' }, run };
    const { executor } = testExecutor([spy]);
    await executor.executePlan([echo({ unknown: 1 }, { tool_name: 'spy_tool' }), echo({}, { tool_name: 'spy_tool', timeout_ms: 10 })]);
    expect(run).not.toHaveBeenCalled();
  });
});

describe('runtime behaviour', () => {
  it('clamps a long timeout with a TIMEOUT_CLAMPED warning', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regression({ timeout_ms: 999_999 }));
    expect(record.result.status).toBe('ok');
    expect(record.result.warnings.map((warning) => warning.code)).toContain('TIMEOUT_CLAMPED');
  });

  it('runs on a compatible newer version and says so', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regression({ tool_version: '1.0.0' }));
    expect(record.resolvedVersion).toBe('1.2.0');
    expect(record.result.warnings.map((warning) => warning.code)).toContain('VERSION_RESOLVED');
  });

  it('reports INSUFFICIENT_DATA with the observed count', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(
      regression({ capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { time_range: { start_ms: 0, end_ms: 2 } } } }),
    );
    expect(record.phase).toBe('execution');
    expect(record.result.errors.map((error) => error.code)).toEqual(['INSUFFICIENT_DATA']);
    expect(record.result.errors[0].message).toMatch(/\b3\b/);
  });

  it('turns a thrown error into EXECUTION_ERROR without a stack', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(echo({ fail: 'sensor table corrupt' }));
    expect(record.result).toMatchObject({ status: 'error', errors: [{ code: 'EXECUTION_ERROR', message: 'sensor table corrupt' }] });
  });

  it('rejects output that breaks the manifest output_schema', async () => {
    const liar: ToolImplementation = {
      manifest: { ...echoManifest(), name: 'liar_tool' },
      run: () => ({ status: 'ok', summary: 'done', structured_output: { text: 3 }, confidence: 0.5 }),
    };
    const { executor } = testExecutor([liar]);
    const record = await executor.execute(echo({}, { tool_name: 'liar_tool' }));
    expect(record.result.status).toBe('error');
    expect(record.result.errors.map(({ code, field }) => ({ code, field }))).toEqual(
      expect.arrayContaining([{ code: 'OUTPUT_SCHEMA_VIOLATION', field: 'structured_output.text' }]),
    );
  });

  it('rejects results that break the ToolResult invariants', async () => {
    const liar: ToolImplementation = {
      manifest: { ...echoManifest(), name: 'liar_tool' },
      run: () => ({ status: 'partial', summary: 'half', structured_output: { text: '', payload: '', rows_selected: 1 }, confidence: 1.5 }),
    };
    const { executor } = testExecutor([liar]);
    const record = await executor.execute(echo({}, { tool_name: 'liar_tool' }));
    expect(record.result.errors.map((error) => error.field)).toEqual(expect.arrayContaining(['confidence', 'warnings']));
  });

  it('accepts the BLE selection shape for a tool whose input_schema declares capture_selection', async () => {
    const bleLike: ToolImplementation = {
      manifest: {
        ...echoManifest(),
        name: 'selection_tool',
        input_schema: {
          type: 'object',
          properties: {
            capture_selection: {
              type: 'object',
              properties: {
                capture_ids: { type: 'array', items: { type: 'string' }, minItems: 1 },
                time_window: { type: 'object' },
                filter_expression: { type: 'string' },
              },
              required: ['capture_ids', 'time_window'],
            },
          },
          required: ['capture_selection'],
        },
      },
      run: (_args, context) => ({ status: 'ok', summary: 'ok', structured_output: { text: '', payload: '', rows_selected: context.selection.rowCount }, confidence: 1 }),
    };
    const { executor } = testExecutor([bleLike]);
    const record = await executor.execute({
      ...echo({}, { tool_name: 'selection_tool' }),
      capture_selection: { capture_ids: ['cap_2026_03_14_a'], time_window: { start_ms: 0, end_ms: 999 }, filter_expression: "channel IN ('ch1')" },
    });
    expect(record.result.status).toBe('ok');
    const rows = (record.result.structured_output as { rows_selected: number }).rows_selected;
    expect(rows).toBeGreaterThan(150);
    expect(rows).toBeLessThan(350);
  });
});

function echoManifest() {
  const { registry } = testExecutor();
  return structuredClone(registry.latest('test_echo')!.manifest);
}
