// Tools that read no capture (issue 24): an MCP server's tools are offered to the model without a
// `capture_selection`, validated without one (one given is refused), and Sextant's capture tools
// still require it. The executor runs them through the MCP runner with only `arguments` sent.

import { describe, expect, it } from 'vitest';
import { CaptureCatalog } from '../data/catalog.ts';
import { builtinCaptures } from '../demo/builtin-captures.ts';
import { createExecutor } from '../executor/executor.ts';
import { validateInvocation, DEFAULT_EXECUTOR_SETTINGS } from '../executor/validate-invocation.ts';
import { lintManifest } from '../manifests/lint.ts';
import { envelopeToolDefinition } from '../planner/loop/tool-definitions.ts';
import { repairInvocationOffline } from '../planner/loop/offline-repairer.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { JsonObject } from '../util/json.ts';
import { createMcpRunner } from './mcp-runner.ts';
import { mcpPlannerToolSet } from './mcp-planner.ts';
import { readToolEntries } from './mcp-tools.ts';
import type { McpConnection } from './mcp-types.ts';

const echo = readToolEntries([
  { name: 'echo', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
]).tools;

function setup() {
  const sent: Array<[string, JsonObject]> = [];
  const connection: McpConnection = {
    listTools: async () => ({ ok: true, value: { tools: [] } }),
    callTool: async (name, args) => {
      sent.push([name, args]);
      return { ok: true, value: { content: [{ type: 'text', text: `Echo: ${String(args.message)}` }] } };
    },
  };
  const set = mcpPlannerToolSet([{ name: 'everything', tools: echo, connect: async () => ({ ok: true, connection }) }]);
  const registry = new ToolRegistry([...builtinTools({ testTools: true }), ...set.implementations]);
  const catalog = new CaptureCatalog(builtinCaptures());
  const context = { registry, catalog, settings: DEFAULT_EXECUTOR_SETTINGS };
  const fallback = { run: async () => ({ kind: 'crashed' as const, message: 'not in this test' }) };
  const executor = createExecutor({ registry, catalog, runner: createMcpRunner({ bindingFor: set.bindingFor, fallback }) });
  return { set, registry, context, executor, sent };
}

const envelope = (toolName: string, extra: JsonObject): JsonObject => ({ tool_name: toolName, tool_version: '1.0.0', request_id: 'r1', timeout_ms: 5000, arguments: {}, ...extra });

describe('tools that read no capture', () => {
  it('are declared by execution_constraints.capture_selection: none, which the manifest schema accepts (and nothing but required|none)', () => {
    const { set, registry } = setup();
    expect(set.manifests[0].name).toBe('everything__echo');
    expect(set.manifests[0].execution_constraints.capture_selection).toBe('none');
    expect(set.serverOf('everything__echo')).toBe('everything');
    const manifest = registry.latest('test_echo')!.manifest;
    const withRule = (rule: string) => ({ ...manifest, execution_constraints: { ...manifest.execution_constraints, capture_selection: rule } });
    const errors = (value: unknown) => lintManifest(value).filter((problem) => problem.severity === 'error');
    expect(errors(withRule('none'))).toEqual([]);
    expect(errors(withRule('required'))).toEqual([]);
    expect(errors(withRule('sometimes')).map((problem) => problem.path)).toEqual(['$.execution_constraints.capture_selection']);
  });

  it('are offered to the model with arguments only; capture tools keep a required capture_selection', () => {
    const { set, registry } = setup();
    const mcp = envelopeToolDefinition(set.manifests[0], ['1.0.0'], 60_000);
    expect(mcp.ok).toBe(true);
    if (!mcp.ok) return;
    expect(Object.keys(mcp.value.input_schema.properties as JsonObject)).toEqual(['arguments', 'tool_version', 'timeout_ms']);
    expect(mcp.value.input_schema.required).toEqual(['arguments']);
    const regression = envelopeToolDefinition(registry.latest('statistical_regression_tool')!.manifest, ['1.2.0'], 60_000);
    expect(regression.ok && regression.value.input_schema.required).toEqual(['capture_selection', 'arguments']);
  });

  it('validate without a selection and refuse one (UNKNOWN_ARGUMENT); a capture tool without one is MISSING_REQUIRED_ARGUMENT', () => {
    const { context } = setup();
    const ok = validateInvocation(envelope('everything__echo', { arguments: { message: 'hi' } }), context);
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.request.selection).toBeNull();

    const given = validateInvocation(envelope('everything__echo', { arguments: { message: 'hi' }, capture_selection: { capture_id: 'cap_2026_03_14_a' } }), context);
    expect(given.ok).toBe(false);
    if (!given.ok) expect(given.errors).toEqual([expect.objectContaining({ code: 'UNKNOWN_ARGUMENT', field: 'capture_selection' })]);

    const missing = validateInvocation(envelope('test_echo', { arguments: { text: 'x' } }), context);
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.errors).toEqual([{ code: 'MISSING_REQUIRED_ARGUMENT', field: 'capture_selection', message: 'capture_selection is required' }]);

    // An unknown tool: the contract's default (a selection is required) still names the missing field.
    const unknown = validateInvocation(envelope('no_such_tool', {}), context);
    expect(!unknown.ok && unknown.errors.map((error) => error.code).sort()).toEqual(['MISSING_REQUIRED_ARGUMENT', 'UNKNOWN_TOOL']);
  });

  it('run on their server with only the arguments sent', async () => {
    const { executor, sent } = setup();
    const record = await executor.execute(envelope('everything__echo', { arguments: { message: 'through the executor' } }));
    expect(record.result).toMatchObject({ status: 'ok', summary: 'Echo: through the executor' });
    expect(sent).toEqual([['echo', { message: 'through the executor' }]]);
  });

  it('the offline repairer leaves out a selection given to one, and only to one', () => {
    const { set, registry } = setup();
    const failed = envelope('everything__echo', { arguments: { message: 'hi' }, capture_selection: { capture_id: 'cap_2026_03_14_a' } });
    const errors = [{ code: 'UNKNOWN_ARGUMENT' as const, field: 'capture_selection', message: 'reads no capture' }];
    const repaired = repairInvocationOffline(failed, errors, { question: 'echo', captures: [], manifest: set.manifests[0] });
    expect(repaired?.invocation).not.toHaveProperty('capture_selection');
    expect(repaired?.changes).toEqual([expect.objectContaining({ field: 'capture_selection', to: null })]);
    const capture = repairInvocationOffline(failed, errors, { question: 'echo', captures: [], manifest: registry.latest('test_echo')!.manifest });
    expect(capture).toBeNull();
  });
});
