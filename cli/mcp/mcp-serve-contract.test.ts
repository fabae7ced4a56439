// `mcp serve`'s listing and answers as a client reads them (issue 24): capture_selection at one
// level, the tool's own status; and `mcp check` leaving tools with side effects alone.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  callMcpTool,
  createExecutor,
  invocationFromMcpCall,
  listMcpTools,
  mcpAnswerFromToolResult,
  mcpToolForManifest,
  type JsonObject,
  type McpConnection,
  type RunnerResponse,
  type ToolResult,
} from '../../src/core/index.ts';
import { templateInvocation } from '../commands/template-command.ts';
import { main, type Io } from '../main.ts';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const registry = new ToolRegistry(builtinTools({ testTools: false }));
const catalog = new CaptureCatalog(builtinCaptures());
const ble = registry.latest('bluetooth_address_analyzer')!.manifest;

/** A connection to Sextant's server half that answers with the given function. */
function sextantConnection(answer: (name: string, args: JsonObject) => Promise<unknown>): McpConnection {
  return {
    listTools: async () => ({ ok: true, value: { tools: registry.manifests().map((manifest) => mcpToolForManifest(manifest)) } }),
    callTool: async (name, args) => ({ ok: true, value: await answer(name, args) }),
  };
}

describe('mcp serve: what a client reads', () => {
  it('lists capture_selection once, at the top, for a tool that declares it as an argument', () => {
    expect(ble.input_schema.properties).toHaveProperty('capture_selection');
    const schema = mcpToolForManifest(ble).inputSchema as { required: string[]; properties: { arguments: { properties: JsonObject; required?: string[] } } };
    expect(schema.required).toContain('capture_selection');
    expect(schema.properties.arguments.properties).not.toHaveProperty('capture_selection');
    expect(schema.properties.arguments.required ?? []).not.toContain('capture_selection');
  });

  it('a call that follows the listed schema passes the client check and the server validator', async () => {
    const { capture_selection, arguments: args } = templateInvocation(ble, catalog.capture('lab_floor_2026_04_03_a')!);
    let validated = false;
    const runner = { run: async (): Promise<RunnerResponse> => ((validated = true), { kind: 'cancelled' }) };
    const executor = createExecutor({ registry, catalog, runner });
    const connection = sextantConnection(async (name, callArgs) => {
      const record = await executor.execute(invocationFromMcpCall(registry.latest(name)!.manifest, callArgs, 'mcp-test'));
      return mcpAnswerFromToolResult(record.result);
    });
    const listed = await listMcpTools(connection, { timeoutMs: 5_000 });
    if (!listed.ok) throw new Error('listing failed');
    const tool = listed.list.tools.find((entry) => entry.name === ble.name)!;
    const record = await callMcpTool(connection, tool, { capture_selection, arguments: args }, { timeoutMs: 5_000, now: () => Date.now() });
    expect(record.phase).toBe('execution');
    expect(validated).toBe(true);
  });

  it('a partial result reaches the client as partial, its text the digest', async () => {
    const partial: ToolResult = {
      status: 'partial',
      summary: 'Analyzed 10 observations; 2 rows skipped.',
      structured_output: { rows: 10 },
      warnings: [{ code: 'ROWS_SKIPPED', message: '2 rows had no address' }],
      errors: [],
      confidence: 0.8,
    };
    const answer = mcpAnswerFromToolResult(partial);
    expect(JSON.parse(answer.content[0].text)).toMatchObject({ status: 'partial', summary: partial.summary });
    const connection: McpConnection = {
      listTools: async () => ({ ok: true, value: { tools: [{ name: 'partial_tool', inputSchema: { type: 'object' } }] } }),
      callTool: async () => ({ ok: true, value: answer }),
    };
    const listed = await listMcpTools(connection, { timeoutMs: 5_000 });
    if (!listed.ok) throw new Error('listing failed');
    const record = await callMcpTool(connection, listed.list.tools[0], {}, { timeoutMs: 5_000, now: () => Date.now() });
    expect(record.result.status).toBe('partial');
    expect(record.result.warnings.length).toBeGreaterThan(0);
  });
});

describe('mcp check and side effects', () => {
  it('skips tools whose annotations say they have side effects unless asked', async () => {
    let stdout = '';
    let stderr = '';
    const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
    await main(['mcp', 'check', '--stdio', `"${process.execPath}" "${EVERYTHING}"`, '--json', '--timeout-ms', '10000'], io);
    const report = JSON.parse(stdout) as { skipped: string[]; rows: Array<{ tool: string }> };
    // server-everything marks toggle-simulated-logging readOnlyHint: false and echo readOnlyHint: true.
    expect(report.skipped).toContain('toggle-simulated-logging');
    expect(report.skipped).not.toContain('echo');
    expect(report.rows.some((row) => row.tool === 'toggle-simulated-logging')).toBe(false);
    expect(stderr).toContain('skipped toggle-simulated-logging');
  }, 180_000);
});
