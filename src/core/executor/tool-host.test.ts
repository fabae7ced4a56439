import { describe, expect, it } from 'vitest';
import { regressionExampleInvocation } from '../examples/spec-examples.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { createExecutor } from './executor.ts';
import type { RunRequest, ToolRunner } from './runner.ts';
import { demoCatalog, testExecutor } from './test-support.ts';
import { ToolHost } from './tool-host.ts';

/** An executor whose runner is a ToolHost answering with checked results, as the app's tools workers do. */
function checkedExecutor() {
  const host = new ToolHost({ testTools: true });
  const requests: RunRequest[] = [];
  const runner: ToolRunner = {
    run: async (request) => {
      requests.push(request);
      return { kind: 'checked', result: await host.runChecked(request) };
    },
  };
  const registry = new ToolRegistry(builtinTools({ testTools: true }));
  return { executor: createExecutor({ registry, catalog: demoCatalog(), runner }), requests, host };
}

describe('ToolHost.runChecked', () => {
  it('gives the same ToolResult as finalizing on the caller side', async () => {
    const inProcess = await testExecutor().executor.execute(regressionExampleInvocation);
    const checked = await checkedExecutor().executor.execute(regressionExampleInvocation);
    expect(checked.phase).toBe('execution');
    expect(checked.result).toEqual(inProcess.result);
  });

  it('puts the executor’s validation warnings in front of a checked result’s own', async () => {
    // A time window past the capture's end is clamped with a warning at validation.
    const echo = { tool_name: 'test_echo', tool_version: '1.0.0', capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: 'hi' }, request_id: 'r', timeout_ms: 999_999_999 };
    const inProcess = await testExecutor().executor.execute(echo);
    const checked = await checkedExecutor().executor.execute(echo);
    expect(inProcess.result.warnings.length).toBeGreaterThan(0);
    expect(checked.result).toEqual(inProcess.result);
  });

  it('answers a coded error for a tool it does not have', async () => {
    const { host } = checkedExecutor();
    const result = await host.runChecked({
      requestId: 'r',
      toolName: 'no_such_tool',
      toolVersion: '1.0.0',
      arguments: {},
      // Never read: the host looks the tool up first.
      selection: { captures: [] } as unknown as RunRequest['selection'],
      timeoutMs: 1000,
      invocation: {},
    });
    expect(result.status).toBe('error');
    expect(result.errors[0].code).toBe('UNKNOWN_TOOL');
  });
});
