// Sextant's MCP client against real servers: the reference server-everything over stdio and
// Streamable HTTP, Sextant's own server, and small misbehaving servers built with the SDK.

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, callMcpTool, createExecutor, listMcpTools } from '../../src/core/index.ts';
import { connectMcp } from './connect.ts';
import { main, type Io } from '../main.ts';
import { serveHttp, type RunningHttpServer } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const STDIO = `"${process.execPath}" "${EVERYTHING}"`;
/** Makes server-everything (it has no host option) listen on 127.0.0.1 only. */
const LOOPBACK_ONLY = fileURLToPath(new URL('../../e2e/fixtures/loopback-only.mjs', import.meta.url));

/** A port free on 127.0.0.1 now, so parallel runs and leftover servers never answer for ours. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

function startEverythingHttp(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes('listening')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${said}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('sextant mcp against server-everything over stdio', () => {
  it('lists its tools as canonical tools with draft manifests', async () => {
    const { code, stdout } = await run(['mcp', 'tools', '--stdio', STDIO]);
    expect(code).toBe(0);
    const listed = JSON.parse(stdout);
    expect(listed.problems).toEqual([]);
    const echo = listed.tools.find((tool: { name: string }) => tool.name === 'echo');
    expect(echo.canonical.tool.source_format).toBe('mcp');
    expect(echo.manifest.input_schema.required).toEqual(['message']);
    expect(Array.isArray(echo.review)).toBe(true);
    // An MCP tool gets only its arguments: every draft says it reads no capture, so a saved draft's invocations carry none.
    expect(listed.tools.map((tool: { manifest: { execution_constraints: { capture_selection?: string } } }) => tool.manifest.execution_constraints.capture_selection)).toEqual(listed.tools.map(() => 'none'));
  });

  it('calls echo and maps the answer to a ToolResult', async () => {
    const { code, stdout } = await run(['mcp', 'call', '--stdio', STDIO, 'echo', '{"message":"over stdio"}']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok', summary: 'Echo: over stdio' });
  });

  it('refuses broken arguments before sending, one coded error per problem (draft-07 schema)', async () => {
    const { code, stdout } = await run(['mcp', 'call', '--stdio', STDIO, 'echo', '{"msg":"hi"}']);
    expect(code).toBe(5);
    const result = JSON.parse(stdout);
    expect(result.summary).toContain('nothing was sent');
    expect(result.errors.map((error: { code: string; field: string }) => [error.code, error.field])).toEqual([
      ['MISSING_REQUIRED_ARGUMENT', 'arguments.message'],
      ['UNKNOWN_ARGUMENT', 'arguments.msg'],
    ]);
  });

  it('checks that the server honours its own schemas', async () => {
    const { code, stdout } = await run(['mcp', 'check', '--stdio', STDIO, '--tool', 'get-sum', '--tool', 'get-structured-content', '--json']);
    const report = JSON.parse(stdout);
    expect(report.rows.find((row: { tool: string; caseId: string }) => row.tool === 'get-structured-content' && row.caseId === 'valid')).toMatchObject({ outcome: 'accepted', outputMatches: true, passed: true });
    expect(report.rows.find((row: { caseId: string }) => row.caseId === 'wrong-type.a')).toMatchObject({ outcome: 'rejected-is-error', passed: true });
    expect(report.honoured).toBe(true);
    expect(code).toBe(0);
  });

  it('a deadline: TIMEOUT, and the request is cancelled', async () => {
    const { code, stdout } = await run(['mcp', 'call', '--stdio', STDIO, 'trigger-long-running-operation', '{"duration":600,"steps":4}', '--timeout-ms', '20000']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).errors).toEqual([{ code: 'TIMEOUT', field: '', message: 'No result within 20000 ms; the request was cancelled (notifications/cancelled sent)' }]);
  });

  it('says what happened when the command is no MCP server', async () => {
    const { code, stderr } = await run(['mcp', 'tools', '--stdio', `"${process.execPath}" -e "process.stdout.write('garbage\\\\n'); setTimeout(() => {}, 20000)"`, '--timeout-ms', '1500']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot connect/);
  });
});

describe('sextant mcp against server-everything over Streamable HTTP', () => {
  let child: ChildProcess;
  let port: number;
  let url: string;
  beforeAll(async () => {
    port = await freeLoopbackPort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = await startEverythingHttp(port);
  });
  afterAll(async () => {
    await stop(child);
  });

  it('calls a tool and checks another', async () => {
    const called = await run(['mcp', 'call', url, 'get-sum', '{"a":2,"b":3}']);
    expect(called.code).toBe(0);
    expect(JSON.parse(called.stdout).summary).toContain('5');
    const checked = await run(['mcp', 'check', url, '--tool', 'echo']);
    expect(checked.stdout).toMatch(/echo\s+valid\s+accept\s+accepted/);
    expect(checked.code).toBe(0);
  });

  it('a dropped session (the server restarted): a coded error that says to reconnect', async () => {
    const opened = await connectMcp({ kind: 'http', url: new URL(url) }, 10_000);
    if (!opened.ok) throw new Error('could not connect');
    try {
      const listed = await listMcpTools(opened.value.connection, { timeoutMs: 10_000 });
      const echo = listed.ok ? listed.list.tools.find((tool) => tool.name === 'echo') : undefined;
      if (!echo) throw new Error('echo is not listed');
      await stop(child);
      child = await startEverythingHttp(port);
      const record = await callMcpTool(opened.value.connection, echo, { message: 'still there?' }, { timeoutMs: 10_000, now: () => performance.now() });
      expect(record.phase).toBe('execution');
      expect(record.result.errors[0]).toMatchObject({ code: 'EXECUTION_ERROR' });
      expect(record.result.errors[0].message).toMatch(/no longer knows this session .*reconnect/);
    } finally {
      await opened.value.close().catch(() => {});
    }
  });

  it('refuses broken arguments before sending', async () => {
    const { code, stdout } = await run(['mcp', 'call', url, 'get-sum', '{"a":"two","b":3}']);
    expect(code).toBe(5);
    expect(JSON.parse(stdout).errors).toEqual([{ code: 'INVALID_TYPE', field: 'arguments.a', message: 'arguments.a must be number, got string' }]);
  });
});

describe('bad servers', () => {
  it('a server that is down: exit 1 and a message that says so', async () => {
    const { code, stderr } = await run(['mcp', 'call', 'http://127.0.0.1:4379/mcp', 'echo', '{}']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:4379\/mcp: Could not reach the server/);
  });

  it('a server that answers garbage: a coded error, not a crash', async () => {
    const garbage: HttpServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    try {
      const { code, stderr } = await run(['mcp', 'tools', `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/mcp`]);
      expect(code).toBe(1);
      expect(stderr).toMatch(/not answer with JSON or an event stream|not a valid MCP message/);
    } finally {
      garbage.close();
    }
  });

  describe('with Sextant\'s own server', () => {
    let running: RunningHttpServer;
    let pool: RunnerPool;
    beforeAll(async () => {
      const registry = new ToolRegistry(builtinTools({ testTools: true }));
      const catalog = new CaptureCatalog(builtinCaptures());
      pool = new RunnerPool({ testTools: true, captures: [], concurrent: 2 });
      const executor = createExecutor({ registry, catalog, runner: pool });
      running = await serveHttp({ host: '127.0.0.1', port: 0, createServer: () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' }), log: () => {} });
    });
    afterAll(async () => {
      await running.close();
      pool.close();
    });

    it('a 10 MB result: PAYLOAD_TOO_LARGE with its size', async () => {
      const args = JSON.stringify({ capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { bytes: 10_000_000 } });
      const { code, stdout } = await run(['mcp', 'call', running.url, 'test_echo', args]);
      expect(code).toBe(1);
      const result = JSON.parse(stdout);
      expect(result.errors[0].code).toBe('PAYLOAD_TOO_LARGE');
      expect(result.errors[0].message).toMatch(/9\.5 MB .* the limit is 4\.0 MB/);
    });

    it('a server-side validation failure comes back as EXECUTION_ERROR with the coded errors as text', async () => {
      const args = JSON.stringify({ capture_selection: { capture_id: 'no_such_capture' }, arguments: {} });
      const { code, stdout } = await run(['mcp', 'call', running.url, 'test_echo', args]);
      expect(code).toBe(1);
      const result = JSON.parse(stdout);
      expect(result.errors[0].code).toBe('EXECUTION_ERROR');
      expect(result.errors[0].message).toContain('INVALID_CAPTURE_SELECTION');
    });
  });

  it('a server listing invalid tool schemas: a partial list with the bad entries named', async () => {
    // A stdio server built with the SDK whose tools/list mixes good and bad entries.
    const script = `
      import { Server } from '@modelcontextprotocol/sdk/server/index.js';
      import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
      import { ListToolsRequestSchema, CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
      const server = new Server({ name: 'bad', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [
        { name: 'good', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
        { name: 'flat', inputSchema: { type: 'string' } },
        { name: 'broken', inputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } },
        { description: 'no name', inputSchema: { type: 'object' } },
      ] }));
      server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: 'text', text: 'n=' + request.params.arguments.n }] }));
      await server.connect(new StdioServerTransport());
    `;
    const command = `"${process.execPath}" --input-type=module -e "${script.replace(/\s*\n\s*/g, ' ').replace(/"/g, '\\"')}"`;
    const { code, stdout, stderr } = await run(['mcp', 'tools', '--stdio', command]);
    expect(code).toBe(1);
    const listed = JSON.parse(stdout);
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(['good']);
    expect(listed.problems.map((problem: { name: string | null }) => problem.name)).toEqual(['flat', 'broken', null]);
    expect(stderr).toMatch(/tool flat refused: inputSchema must have "type": "object"/);
    const called = await run(['mcp', 'call', '--stdio', command, 'good', '{"n":4}']);
    expect(JSON.parse(called.stdout).summary).toBe('n=4');
  });
});
