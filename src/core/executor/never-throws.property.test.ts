import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bleExampleInvocation, regressionExampleInvocation } from '../examples/spec-examples.ts';
import type { JsonValue } from '../util/json.ts';
import { anyJson, deepJson, edgeNumber, hostileString, mutateObject, wideJson } from '../util/fuzz-arbitraries.ts';
import { validateInvocation, DEFAULT_EXECUTOR_SETTINGS } from './validate-invocation.ts';
import { demoCatalog, resultProblems, testExecutor } from './test-support.ts';
import { validationFailure } from './finalize-result.ts';
import { withCpuTime, withCpuTimeAsync } from '../../test-support/cpu-time.ts';

// Issue 14: "the executor never throws". Arbitrary JSON values — ordinary, deep, wide, hostile —
// go to validation and to execution; every answer must be a well-formed ToolResult, in bounded
// time and memory. Seeded, so a failure replays.

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const PER_CALL_CPU_MS = 5_000;
const { executor, registry } = testExecutor();

const envelope = (base: Record<string, unknown>) => base as Record<string, JsonValue>;
const COLUMNS = ['snr', 'jitter', 'packet_loss', 'latency_ms', 'channel', 'ts_ms', 'nope'];
/** Invocations that mostly pass validation, so the tools really run: edge numbers, odd selections, hostile filters. */
const nearValid: fc.Arbitrary<JsonValue> = fc
  .record({
    operation: fc.constantFrom('linear_regression', 'summary_stats', 'anova', 'correlation'),
    target: fc.oneof({ weight: 4, arbitrary: fc.constant('latency_ms') }, fc.constantFrom(...COLUMNS)),
    features: fc.oneof(
      { weight: 4, arbitrary: fc.uniqueArray(fc.constantFrom('snr', 'jitter', 'packet_loss'), { minLength: 1, maxLength: 3 }) },
      fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 4 }),
    ),
    columns: fc.oneof(
      { weight: 4, arbitrary: fc.uniqueArray(fc.constantFrom('snr', 'jitter', 'packet_loss', 'latency_ms'), { minLength: 2, maxLength: 4 }) },
      fc.uniqueArray(fc.constantFrom(...COLUMNS), { minLength: 1, maxLength: 4 }),
    ),
    group_by: fc.oneof({ weight: 4, arbitrary: fc.constant('channel') }, fc.constantFrom(...COLUMNS)),
    alpha: fc.oneof({ weight: 4, arbitrary: fc.double({ min: 1e-20, max: 0.999, noNaN: true }) }, edgeNumber),
    normalize: fc.boolean(),
    start: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 60_000 }) }, fc.integer({ min: -10, max: 130_000 })),
    length: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 60_000 }) }, fc.integer({ min: 0, max: 130_000 })),
    filter: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('snr > 20', "channel IN ('ch1','ch2')", 'jitter BETWEEN 1 AND 3', 'packet_loss IS NOT NULL', 'snr > 1e308', 'NOT (snr < 0)') },
      hostileString,
    ),
    timeout: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1000, max: 60_000 }) }, fc.integer({ min: 0, max: 1_000_000 })),
  })
  .map(({ operation, target, features, columns, group_by, alpha, normalize, start, length, filter, timeout }): JsonValue => ({
    tool_name: 'statistical_regression_tool',
    tool_version: '1.2.0',
    capture_selection: { capture_id: 'cap_2026_03_14_a', selectors: { time_range: { start_ms: start, end_ms: start + length }, filters: [filter] } },
    arguments:
      operation === 'linear_regression'
        ? { operation, target, features, alpha, normalize }
        : operation === 'anova'
          ? { operation, target, group_by, alpha }
          : operation === 'correlation'
            ? { operation, columns, alpha }
            : { operation, columns },
    request_id: 'req-near-valid',
    timeout_ms: timeout,
  }));
const invocations: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 6, arbitrary: nearValid },
  anyJson,
  mutateObject(envelope(regressionExampleInvocation)),
  mutateObject(envelope(bleExampleInvocation)),
  mutateObject(envelope(regressionExampleInvocation)).chain((outer) =>
    mutateObject(envelope(regressionExampleInvocation.arguments)).map((args): JsonValue => ({ ...outer, arguments: args })),
  ),
  fc.record({
    tool_name: fc.oneof(fc.constantFrom('statistical_regression_tool', 'bluetooth_address_analyzer', 'test_echo'), anyJson),
    tool_version: fc.oneof(fc.constantFrom('1.0.0', '1.2.0', '1.9.9', '2.0.0'), anyJson),
    capture_selection: fc.oneof(fc.constant<JsonValue>({ capture_id: 'cap_2026_03_14_a' }), anyJson),
    arguments: fc.oneof(deepJson, wideJson, anyJson),
    request_id: fc.oneof(fc.string(), anyJson),
    timeout_ms: fc.oneof(fc.integer({ min: -10, max: 200_000 }), anyJson),
  }),
);

describe('the executor never throws (issue 14)', () => {
  it('validation answers every JSON value with coded errors or a request, quickly', () => {
    fc.assert(
      fc.property(invocations, (invocation) => {
        const { value: outcome, cpuMs } = withCpuTime(() => validateInvocation(invocation, { registry, catalog: demoCatalog(), settings: DEFAULT_EXECUTOR_SETTINGS }));
        expect(cpuMs).toBeLessThan(PER_CALL_CPU_MS);
        if (!outcome.ok) expect(resultProblems(validationFailure(outcome.errors, outcome.warnings))).toEqual([]);
      }),
      { seed: 1414, numRuns: 400 },
    );
  });

  it('execution returns a well-formed ToolResult for every JSON value, in bounded time and memory', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(invocations, async (invocation) => {
        const { value: record, cpuMs } = await withCpuTimeAsync(() => executor.execute(invocation));
        if (record.phase === 'execution') executed += 1;
        expect(cpuMs).toBeLessThan(PER_CALL_CPU_MS);
        expect(resultProblems(record.result)).toEqual([]);
        expect(JSON.stringify(record.result).length).toBeLessThan(1_000_000);
      }),
      { seed: 1415, numRuns: 150 },
    );
    // The family is worth something only if the tools really ran for a good share of it.
    expect(executed).toBeGreaterThan(20);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(768 * 1024 * 1024);
  });

  it('plans of arbitrary steps get one well-formed record per step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(invocations, { maxLength: 4 }), async (plan) => {
        const records = await executor.executePlan(plan);
        expect(records).toHaveLength(plan.length);
        for (const record of records) expect(resultProblems(record.result)).toEqual([]);
      }),
      { seed: 1416, numRuns: 40 },
    );
  });
});
