// Sextant's MCP server, driven by the official SDK client over stdio (a child process running
// `sextant mcp serve`) and over Streamable HTTP (the same server in this process).

import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, createExecutor, regressionExampleInvocation } from '../../src/core/index.ts';
import { main, type Io } from '../main.ts';
import { serveHttp, type RunningHttpServer } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const SEXTANT = fileURLToPath(new URL('../sextant.mjs', import.meta.url));

/** The §4 call as a model writes it over MCP: no tool_name, no request_id. */
const { tool_name: _name, request_id: _id, ...regressionCall } = regressionExampleInvocation;

let runnerOutput: Promise<unknown> | null = null;

/** What `sextant invoke` answers for the §4 invocation (computed once for both transports). */
function runnerStructuredOutput(): Promise<unknown> {
  runnerOutput ??= invokeRegression();
  return runnerOutput;
}

async function invokeRegression(): Promise<unknown> {
  let stdout = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: () => {}, readStdin: async () => JSON.stringify(regressionExampleInvocation) };
  expect(await main(['invoke', '-'], io)).toBe(0);
  return JSON.parse(stdout).structured_output;
}

type Client_ = Client;

async function runCli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  return { code: await main(argv, io), stdout, stderr };
}

/** The checks both transports must pass. */
function contractChecks(client: () => Client_) {
  it('lists every installed tool with the invocation as inputSchema and output_schema as outputSchema', async () => {
    const { tools } = await client().listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['bluetooth_address_analyzer', 'statistical_regression_tool', 'test_echo']);
    const regression = tools.find((tool) => tool.name === 'statistical_regression_tool')!;
    expect(regression.inputSchema.required).toEqual(['capture_selection', 'arguments']);
    expect(Object.keys(regression.inputSchema.properties ?? {})).toEqual(['capture_selection', 'arguments', 'tool_version', 'timeout_ms']);
    expect(regression.outputSchema).toMatchObject({ type: 'object' });
  });

  it('runs the §4 regression call: structuredContent equals the runner\'s structured_output', async () => {
    // callTool also makes the SDK client check structuredContent against the listed outputSchema.
    await client().listTools();
    const result = await client().callTool({ name: 'statistical_regression_tool', arguments: regressionCall });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await runnerStructuredOutput());
    const text = (result.content as Array<{ type: string; text: string }>)[0];
    expect(text.type).toBe('text');
    // The text is the planner's compact digest: the fit statistics, not the plot samples.
    expect(text.text.length).toBeLessThan(4096);
    expect(JSON.parse(text.text)).toMatchObject({ status: 'ok' });
  });

  it('answers an invalid call with isError and MISSING_REQUIRED_ARGUMENT at arguments.target', async () => {
    const { target: _target, ...withoutTarget } = regressionCall.arguments;
    const result = await client().callTool({ name: 'statistical_regression_tool', arguments: { ...regressionCall, arguments: withoutTarget } });
    expect(result.isError).toBe(true);
    const payload = JSON.parse((result.content as Array<{ text: string }>)[0].text);
    expect(payload.errors).toContainEqual(expect.objectContaining({ code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.target' }));
  });

  it('lists the captures as resources and reads one', async () => {
    const { resources } = await client().listResources();
    expect(resources.map((resource) => resource.uri)).toContain('sextant://captures/cap_2026_03_14_a');
    const read = await client().readResource({ uri: 'sextant://captures/cap_2026_03_14_a' });
    const capture = JSON.parse((read.contents[0] as { text: string }).text);
    expect(capture).toMatchObject({ id: 'cap_2026_03_14_a', bounds: { start_ms: 0, end_ms: 120000 } });
    expect(capture.channels).toEqual(expect.arrayContaining(['ch1', 'ch2']));
    expect(capture.columns.map((column: { name: string }) => column.name)).toContain('latency_ms');
  });

  it('sends progress notifications when the client gives a progress token, before the answer', async () => {
    // Read on the wire, not through onprogress: the SDK client runs notification handlers a
    // microtask later but handles a response at once, dropping its progress handler; when the
    // notification and the answer arrive in one read (a loaded machine), onprogress never fires
    // although the server sent the notification first (seen in CI). What the server owes the
    // client is the order on the wire.
    const transport = client().transport!;
    const deliver = transport.onmessage!;
    const wire: string[] = [];
    transport.onmessage = (message, extra) => {
      if ('method' in message && message.method === 'notifications/progress') wire.push(`progress ${message.params?.progress}/${message.params?.total}`);
      else if ('id' in message && !('method' in message)) wire.push('answer');
      deliver.call(transport, message, extra);
    };
    try {
      const result = await client().callTool({ name: 'test_echo', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: 'progress' } } }, undefined, {
        onprogress: () => {},
      });
      expect(result.isError).toBeFalsy();
    } finally {
      transport.onmessage = deliver;
    }
    expect(wire).toContain('progress 1/1');
    expect(wire.indexOf('progress 1/1')).toBeLessThan(wire.lastIndexOf('answer'));
  });

  it('stops a cancelled run: the call ends at once and the next call is served', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = client().callTool(
      { name: 'test_echo', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { sleep_ms: 30_000 }, timeout_ms: 60_000 } },
      undefined,
      { signal: controller.signal, timeout: 60_000 },
    );
    setTimeout(() => controller.abort('analyst cancelled'), 400);
    await expect(pending).rejects.toThrow();
    // Before the tool's 30 s busy-wait could have ended (issue 27: a few seconds is no bound on a busy machine).
    expect(performance.now() - started).toBeLessThan(30_000);
    const next = await client().callTool({ name: 'test_echo', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: 'after' } } });
    expect((next.structuredContent as { text: string }).text).toBe('after');
  });
}

describe('sextant mcp serve over stdio', () => {
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SEXTANT, 'mcp', 'serve', '--enable-test-tools'], stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client.close();
  });
  contractChecks(() => client);

  it('says on stderr that the cancelled run\'s worker thread was terminated', async () => {
    await expect.poll(() => stderr, { timeout: 120_000 }).toMatch(/cancelled; its worker thread was terminated/);
  });
});

describe('sextant mcp serve --http', () => {
  let running: RunningHttpServer;
  let client: Client;
  const ends: string[] = [];
  let pool: RunnerPool;
  beforeAll(async () => {
    const registry = new ToolRegistry(builtinTools({ testTools: true }));
    const catalog = new CaptureCatalog(builtinCaptures());
    pool = new RunnerPool({ testTools: true, captures: [], concurrent: 2 }, (_request, kind) => ends.push(kind));
    const executor = createExecutor({ registry, catalog, runner: pool });
    running = await serveHttp({ host: '127.0.0.1', port: 0, createServer: () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' }), log: () => {} });
    client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
  });
  afterAll(async () => {
    await client.close();
    await running.close();
    pool.close();
  });
  contractChecks(() => client);

  it('terminated the cancelled run\'s worker thread', async () => {
    await expect.poll(() => ends, { timeout: 120_000 }).toContain('cancelled');
  });

  it('refuses a request with a foreign Origin (DNS-rebinding protection)', async () => {
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'http://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Invalid Origin');
  });

  it('refuses a foreign Host header', async () => {
    const { request } = await import('node:http');
    const url = new URL(running.url);
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end('{}');
    });
    expect(status).toBe(403);
  });

  it('lists the Host names and Origins it accepts; binding every interface needs --allow-host', async () => {
    const { allowLists } = await import('./http-serve.ts');
    expect(allowLists('127.0.0.1', 4360).hosts).toEqual(['127.0.0.1:4360', 'localhost:4360', '[::1]:4360']);
    expect(allowLists('0.0.0.0', 4360, ['lab-box']).origins).toEqual(['http://lab-box:4360', 'https://lab-box:4360']);
    const { code, stderr } = await runCli(['mcp', 'serve', '--http', '--host', '0.0.0.0']);
    expect(code).toBe(4);
    expect(stderr).toContain('--allow-host');
  });

  it('requires the bearer token when one is set', async () => {
    const registry = new ToolRegistry(builtinTools());
    const catalog = new CaptureCatalog(builtinCaptures());
    const executor = createExecutor({ registry, catalog, runner: pool });
    const guarded = await serveHttp({ host: '127.0.0.1', port: 0, token: 's3cret', createServer: () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' }), log: () => {} });
    try {
      const refused = new Client({ name: 'test', version: '1.0.0' });
      await expect(refused.connect(new StreamableHTTPClientTransport(new URL(guarded.url)))).rejects.toThrow(/bearer token is required/);
      const allowed = new Client({ name: 'test', version: '1.0.0' });
      await allowed.connect(new StreamableHTTPClientTransport(new URL(guarded.url), { requestInit: { headers: { authorization: 'Bearer s3cret' } } }));
      expect((await allowed.listTools()).tools.length).toBe(2);
      await allowed.close();
    } finally {
      await guarded.close();
    }
  });
});
