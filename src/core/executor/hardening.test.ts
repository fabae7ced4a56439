import { describe, expect, it } from 'vitest';
import { bleExampleInvocation, regressionExampleInvocation } from '../examples/spec-examples.ts';
import type { ToolManifest } from '../contract/types.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import { testExecutor } from './test-support.ts';
import { withCpuTimeAsync } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 10_000;

// Regression tests for issue 14's executor items; each failed before its fix.

const clone = <T>(value: T): T => structuredClone(value);

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

function regression(args: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  const invocation = clone(regressionExampleInvocation) as Record<string, unknown> & { arguments: Record<string, unknown> };
  Object.assign(invocation.arguments, args);
  return { ...invocation, ...overrides };
}

describe('deep nesting (item 1)', () => {
  it('an alpha nested 6,000 arrays deep is INVALID_INVOCATION, not a stack overflow', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regression({ alpha: nested(6000, 0.05) }));
    expect(record.phase).toBe('validation');
    expect(record.result.status).toBe('error');
    expect(record.result.errors).toHaveLength(1);
    expect(record.result.errors[0].code).toBe('INVALID_INVOCATION');
    expect(record.result.errors[0].field.startsWith('arguments.alpha[0][0]')).toBe(true);
    expect(record.result.errors[0].message).toContain('nested more than 100 levels deep');
    expect(record.result.errors[0].message.length).toBeLessThan(200);
  });

  it('a million levels deep still answers quickly', async () => {
    const { executor } = testExecutor();
    const { value: record, cpuMs } = await withCpuTimeAsync(() => executor.execute(regression({ alpha: nested(1_000_000, 0.05) })));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(record.result.errors[0].code).toBe('INVALID_INVOCATION');
  });

  it('nesting within the limit is validated as usual', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(regression({ alpha: nested(50, 0.05) }));
    expect(record.result.errors).toEqual([expect.objectContaining({ code: 'INVALID_TYPE', field: 'arguments.alpha' })]);
  });

  it('values JSON cannot carry are INVALID_INVOCATION', async () => {
    const { executor } = testExecutor();
    for (const alpha of [10n, Number.NaN, () => 1]) {
      const record = await executor.execute(regression({ alpha: [alpha] }));
      expect(record.result.errors.map((error) => error.code)).toEqual(['INVALID_INVOCATION']);
    }
  });
});

describe('repeated capture ids (item 6)', () => {
  it('are refused at the second position instead of double-counting', async () => {
    const { executor } = testExecutor();
    const invocation = clone(bleExampleInvocation) as typeof bleExampleInvocation & { capture_selection: { capture_ids: string[] } };
    const id = invocation.capture_selection.capture_ids[0];
    invocation.capture_selection.capture_ids = [id, id];
    const record = await executor.execute(invocation);
    expect(record.phase).toBe('validation');
    expect(record.result.errors).toEqual([expect.objectContaining({ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection.capture_ids[1]' })]);
    expect(record.result.errors[0].message).toContain('capture_selection.capture_ids[0]');
  });
});

describe('duplicate request_ids in one plan (item 8, tool-contract §3)', () => {
  it('refuse the later step and still run the first', async () => {
    const { executor } = testExecutor();
    const step = regression({}, { request_id: 'req-same' });
    const records = await executor.executePlan([step, clone(step), regression({}, { request_id: 'req-other' })]);
    expect(records.map((record) => record.phase)).toEqual(['execution', 'validation', 'execution']);
    expect(records[1].result.errors).toEqual([expect.objectContaining({ code: 'INVALID_INVOCATION', field: 'request_id' })]);
    expect(records[1].result.errors[0].message).toContain('step 1');
  });
});

describe('tiny alpha (item 8)', () => {
  it('is INVALID_VALUE on input, not OUTPUT_SCHEMA_VIOLATION', async () => {
    const { executor } = testExecutor();
    for (const alpha of [1e-17, 5e-324]) {
      const record = await executor.execute(regression({ alpha }));
      expect(record.phase).toBe('validation');
      expect(record.result.errors).toEqual([expect.objectContaining({ code: 'INVALID_VALUE', field: 'arguments.alpha' })]);
    }
    const ok = await executor.execute(regression({ alpha: 1e-15 }));
    expect(ok.result.status).toBe('ok');
  });
});

describe('never throws', () => {
  it('a checkArguments that throws becomes EXECUTION_ERROR', async () => {
    const { registry } = testExecutor();
    const echo = registry.resolve('test_echo', '1.0.0');
    if (!echo.ok) throw new Error('test_echo missing');
    const manifest: ToolManifest = { ...echo.tool.manifest, name: 'thrower' };
    const thrower: ToolImplementation = {
      ...echo.tool,
      manifest,
      checkArguments: () => {
        throw new Error('boom\n    at somewhere (file.ts:1:1)');
      },
    };
    const { executor } = testExecutor([thrower]);
    const record = await executor.execute({
      tool_name: 'thrower',
      tool_version: manifest.version,
      capture_selection: { capture_id: 'cap_2026_03_14_a' },
      arguments: {},
      request_id: 'r',
      timeout_ms: 5000,
    });
    expect(record.result.status).toBe('error');
    expect(record.result.errors).toEqual([{ code: 'EXECUTION_ERROR', field: '', message: 'boom' }]);
  });
});
