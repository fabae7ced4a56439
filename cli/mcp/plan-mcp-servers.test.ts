// `sextant plan` with the agent contract's mcpServers (issue 24): the reference server-everything
// over stdio and Streamable HTTP (started for real, on 127.0.0.1), its capture-free tools called
// through the planner, and exit 3 with a coded error for a server that is missing, dies or hangs.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, createExecutor, type FetchFunction } from '../../src/core/index.ts';
import type { Io } from '../io.ts';
import { runPlan, systemClock } from '../commands/plan-command.ts';
import { serveHttp, type RunningHttpServer } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
/** Makes server-everything (it has no host option) listen on 127.0.0.1 only. */
const LOOPBACK_ONLY = fileURLToPath(new URL('../../e2e/fixtures/loopback-only.mjs', import.meta.url));
const STDIO_EVERYTHING = { command: process.execPath, args: [EVERYTHING] };

const refusingFetch: FetchFunction = () => Promise.reject(new Error('no network in this test'));

interface Box {
  cwd: string;
  home: string;
}

async function sandbox(files: Record<string, unknown>): Promise<Box> {
  const root = await mkdtemp(join(tmpdir(), 'sextant-plan-mcp-'));
  const box = { cwd: join(root, 'work'), home: join(root, 'home') };
  await mkdir(join(box.home, '.sextant'), { recursive: true });
  await mkdir(box.cwd, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const path = name.startsWith('~/') ? join(box.home, name.slice(2)) : join(box.cwd, name);
    await writeFile(path, JSON.stringify(content));
  }
  return box;
}

async function plan(argv: string[], box: Box) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await runPlan(argv, io, { env: { SEXTANT_SECRET: 'from-the-environment' }, cwd: box.cwd, home: box.home, fetch: refusingFetch, clock: systemClock });
  return { code, stdout, stderr, result: stdout ? JSON.parse(stdout) : null };
}

const finalTurn = { tool_calls: [{ id: 'f', name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: 'Done.' } }] };
const call = (id: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id, name, arguments: { arguments: args, ...extra } });

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

describe('sextant plan with mcpServers: server-everything over stdio', () => {
  it('offers its tools as NAME__TOOL without capture_selection, calls them, and accounts them to the server', async () => {
    const box = await sandbox({
      'config.json': { mcpServers: { everything: { ...STDIO_EVERYTHING, env: { SEXTANT_PASSED: '${SEXTANT_SECRET}' } } } },
      'script.json': [
        {
          tool_calls: [
            call('c1', 'everything__echo', { message: 'through sextant plan' }),
            call('c2', 'everything__get_sum', { a: 2, b: 40 }),
            call('c3', 'everything__get_env', {}),
          ],
        },
        finalTurn,
      ],
    });
    const { code, stderr, result } = await plan(['--prompt', 'Echo and add', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(result.mcpServers).toEqual([expect.objectContaining({ name: 'everything', transport: 'stdio', status: 'ready', problems: [] })]);
    expect(result.mcpServers[0].tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-env']));
    const statuses = result.toolCalls.map((entry: { toolName: string; status: string }) => [entry.toolName, entry.status]);
    expect(statuses).toEqual([
      ['everything__echo', 'ok'],
      ['everything__get_sum', 'ok'],
      ['everything__get_env', 'ok'],
    ]);
    const tools = result.conversation.filter((message: { role: string }) => message.role === 'tool').map((message: { content: string }) => message.content);
    expect(tools[0]).toContain('Echo: through sextant plan');
    expect(tools[1]).toContain('42');
    // env is passed as written, never `${VAR}`-expanded (agent-contract.md §7); the full result has the whole environment.
    const environment = JSON.stringify(result.toolCalls[2].result);
    expect(environment).toContain('SEXTANT_PASSED');
    expect(environment).toContain('${SEXTANT_SECRET}');
    expect(environment).not.toContain('from-the-environment');
    const executions = result.accounting.filter((entry: { type: string; command: string }) => entry.type === 'tool' && entry.command !== 'agent__final_report');
    expect(executions.map((entry: { mcpServer: string }) => entry.mcpServer)).toEqual(['everything', 'everything', 'everything']);
  });

  it('refuses a capture_selection on a capture-free tool with a coded error, and the offline repairer leaves it out', async () => {
    const selection = { capture_selection: { capture_id: 'cap_2026_03_14_a' } };
    const box = await sandbox({
      'config.json': { mcpServers: { everything: STDIO_EVERYTHING } },
      'script.json': [{ tool_calls: [call('c1', 'everything__echo', { message: 'x' }, selection)] }, { tool_calls: [call('c2', 'everything__echo', { message: 'y' }, selection)] }, finalTurn],
    });
    const strict = await plan(['--prompt', 'Echo', '--config', 'config.json', '--provider', 'scripted:script.json', '--no-offline-repair'], box);
    expect(strict.code).toBe(0);
    const refused = strict.result.conversation.find((message: { role: string }) => message.role === 'tool').content;
    expect(refused).toContain('UNKNOWN_ARGUMENT');
    expect(refused).toContain('capture_selection');
    // Refused before anything was sent: the calls are validation failures.
    expect(strict.result.toolCalls.map((entry: { status: string }) => entry.status)).toEqual(['error', 'error']);
    expect(strict.result.toolCalls[0].result.errors).toEqual([expect.objectContaining({ code: 'UNKNOWN_ARGUMENT', field: 'capture_selection' })]);

    const repaired = await plan(['--prompt', 'Echo', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(repaired.code).toBe(0);
    expect(repaired.result.toolCalls[0]).toMatchObject({ toolName: 'everything__echo', status: 'ok' });
  });

  it('binds a server to a named queue, and refuses a binding to a queue that is not configured (exit 4)', async () => {
    const box = await sandbox({
      'bound.json': { queues: { slow: { concurrent: 1 } }, mcpServers: { everything: { ...STDIO_EVERYTHING, queue: 'slow' } } },
      'unbound.json': { mcpServers: { everything: { ...STDIO_EVERYTHING, queue: 'nowhere' } } },
      'script.json': [{ tool_calls: [call('c1', 'everything__echo', { message: 'queued' })] }, finalTurn],
    });
    const bound = await plan(['--prompt', 'Echo', '--config', 'bound.json', '--provider', 'scripted:script.json'], box);
    expect(bound.code).toBe(0);
    expect(bound.result.accounting.find((entry: { command?: string }) => entry.command === 'everything__echo')).toMatchObject({ queue: 'slow', mcpServer: 'everything' });
    const unbound = await plan(['--prompt', 'Echo', '--config', 'unbound.json', '--provider', 'scripted:script.json'], box);
    expect(unbound.code).toBe(4);
    expect(unbound.stderr).toContain("mcpServers.everything is bound to queue 'nowhere'");
  });
});

describe('sextant plan with mcpServers: server-everything over Streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freeLoopbackPort();
    server = await startEverythingHttp(port);
    url = `http://127.0.0.1:${port}/mcp`;
  }, 30_000);
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('connects with the configured headers and calls a tool; a header value never reaches the output', async () => {
    const box = await sandbox({
      'config.json': { mcpServers: { remote: { type: 'http', url, headers: { authorization: 'Bearer secret-token-1234' } } } },
      'script.json': [{ tool_calls: [call('c1', 'remote__echo', { message: 'over http' })] }, finalTurn],
    });
    const { code, stdout, result } = await plan(['--prompt', 'Echo', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(code).toBe(0);
    expect(result.mcpServers[0]).toMatchObject({ name: 'remote', transport: 'http', status: 'ready' });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'remote__echo', status: 'ok' });
    expect(result.toolCalls[0].modelContent).toContain('Echo: over http');
    expect(stdout).not.toContain('secret-token-1234');
  });
});

describe('sextant plan with mcpServers: a Streamable HTTP server that requires a token', () => {
  let running: RunningHttpServer;
  let pool: RunnerPool;
  beforeAll(async () => {
    const registry = new ToolRegistry(builtinTools({ testTools: true }));
    const catalog = new CaptureCatalog(builtinCaptures());
    pool = new RunnerPool({ testTools: true, captures: [], concurrent: 1 });
    const executor = createExecutor({ registry, catalog, runner: pool });
    const createServer = () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' });
    running = await serveHttp({ host: '127.0.0.1', port: 0, token: 'token-for-the-test', createServer, log: () => {} });
  });
  afterAll(async () => {
    await running.close();
    pool.close();
  });

  it('sends the configured headers (401 without them is MCP_SERVER_FAILED, exit 3)', async () => {
    const box = await sandbox({
      'with.json': { mcpServers: { own: { url: running.url, headers: { Authorization: 'Bearer token-for-the-test' } } } },
      'without.json': { mcpServers: { own: { url: running.url } } },
      'script.json': [finalTurn],
    });
    const refused = await plan(['--prompt', 'Anything', '--config', 'without.json', '--provider', 'scripted:script.json'], box);
    expect(refused.code).toBe(3);
    expect(refused.result.mcpServers[0]).toMatchObject({ name: 'own', status: 'failed', code: 'MCP_SERVER_FAILED' });
    expect(refused.result.mcpServers[0].message).toContain('401');
    const accepted = await plan(['--prompt', 'Anything', '--config', 'with.json', '--provider', 'scripted:script.json'], box);
    expect(accepted.code).toBe(0);
    expect(accepted.result.mcpServers[0]).toMatchObject({ name: 'own', status: 'ready' });
    expect(accepted.result.mcpServers[0].tools).toContain('statistical_regression_tool');
  });
});

describe('sextant plan with a missing or failing MCP server (exit 3)', () => {
  const script = [finalTurn];

  it('a command that does not exist is MCP_SERVER_MISSING; the others are closed and nothing runs', async () => {
    const box = await sandbox({
      'config.json': { mcpServers: { everything: STDIO_EVERYTHING, ghost: { command: 'sextant-no-such-mcp-server' } } },
      'script.json': script,
    });
    const { code, stderr, result } = await plan(['--prompt', 'Anything', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(code).toBe(3);
    expect(stderr).toContain('[MCP_SERVER_MISSING]');
    expect(stderr).toContain("MCP server 'ghost'");
    expect(result).toMatchObject({ success: false, conversation: [], accounting: [], toolCalls: [] });
    expect(result.error).toContain('MCP_SERVER_MISSING');
    expect(result.mcpServers).toEqual([
      expect.objectContaining({ name: 'everything', status: 'ready' }),
      expect.objectContaining({ name: 'ghost', status: 'failed', code: 'MCP_SERVER_MISSING' }),
    ]);
  });

  it('a server that exits at once is MCP_SERVER_FAILED, with what it wrote on stderr', async () => {
    const box = await sandbox({
      'config.json': { mcpServers: { crashing: { command: process.execPath, args: ['-e', "process.stderr.write('cannot open the database'); process.exit(2)"] } } },
      'script.json': script,
    });
    const { code, result } = await plan(['--prompt', 'Anything', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(code).toBe(3);
    expect(result.mcpServers[0]).toMatchObject({ name: 'crashing', status: 'failed', code: 'MCP_SERVER_FAILED' });
    expect(result.mcpServers[0].message).toContain('cannot open the database');
  });

  it('a server that never answers initialize is MCP_SERVER_TIMEOUT at --mcp-timeout-ms', async () => {
    const box = await sandbox({
      'config.json': { mcpServers: { silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } } },
      'script.json': script,
    });
    const { code, result } = await plan(['--prompt', 'Anything', '--config', 'config.json', '--provider', 'scripted:script.json', '--mcp-timeout-ms', '1500'], box);
    expect(code).toBe(3);
    expect(result.mcpServers[0]).toMatchObject({ name: 'silent', status: 'failed', code: 'MCP_SERVER_TIMEOUT' });
    expect(result.mcpServers[0].message).toContain('within 1500 ms');
  });

  it('an HTTP server nobody listens at is MCP_SERVER_FAILED', async () => {
    const port = await freeLoopbackPort();
    const box = await sandbox({ 'config.json': { mcpServers: { gone: { url: `http://127.0.0.1:${port}/mcp` } } }, 'script.json': script });
    const { code, result } = await plan(['--prompt', 'Anything', '--config', 'config.json', '--provider', 'scripted:script.json'], box);
    expect(code).toBe(3);
    expect(result.mcpServers[0]).toMatchObject({ name: 'gone', transport: 'http', status: 'failed', code: 'MCP_SERVER_FAILED' });
  });
});

describe('mcpServers in the configuration layers', () => {
  it('./.sextant.json may not list servers (UNTRUSTED_SETTING, exit 4); the home file may', async () => {
    const box = await sandbox({ '.sextant.json': { mcpServers: { everything: STDIO_EVERYTHING } }, 'script.json': [finalTurn] });
    const refused = await plan(['--prompt', 'Anything', '--provider', 'scripted:script.json'], box);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('UNTRUSTED_SETTING');
    expect(refused.stderr).toContain('./.sextant.json');

    const home = await sandbox({ '~/.sextant/sextant.json': { mcpServers: { everything: STDIO_EVERYTHING } }, 'script.json': [finalTurn] });
    const allowed = await plan(['--prompt', 'Anything', '--provider', 'scripted:script.json'], home);
    expect(allowed.code).toBe(0);
    expect(allowed.result.mcpServers[0]).toMatchObject({ name: 'everything', status: 'ready' });
  });

  it('a malformed entry is INVALID_SETTING naming the field (exit 4)', async () => {
    const box = await sandbox({
      'both.json': { mcpServers: { odd: { command: 'x', url: 'http://127.0.0.1:1/mcp' } } },
      'extra.json': { mcpServers: { odd: { command: 'x', cwd: '/tmp' } } },
      'script.json': [finalTurn],
    });
    const both = await plan(['--prompt', 'Anything', '--config', 'both.json', '--provider', 'scripted:script.json'], box);
    expect(both.code).toBe(4);
    expect(both.stderr).toContain('mcpServers.odd has both command and url');
    const extra = await plan(['--prompt', 'Anything', '--config', 'extra.json', '--provider', 'scripted:script.json'], box);
    expect(extra.code).toBe(4);
    expect(extra.stderr).toContain('mcpServers.odd.cwd is not a field of a stdio server');
  });
});
