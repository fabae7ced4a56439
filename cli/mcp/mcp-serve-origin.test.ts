// `sextant mcp serve --http --allow-origin ORIGIN`: the CORS a browser page needs to use the
// server (issue 23), checked against the real server on a free loopback port.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, createExecutor } from '../../src/core/index.ts';
import { main, type Io } from '../main.ts';
import { normalizeOrigin, serveHttp, type HttpServeOptions, type RunningHttpServer } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const PAGE = 'http://127.0.0.1:4173';
const OTHER_PAGE = 'http://127.0.0.1:9999';
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } } });
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let pool: RunnerPool;
const servers: RunningHttpServer[] = [];

async function start(options: Partial<HttpServeOptions> = {}): Promise<RunningHttpServer> {
  const registry = new ToolRegistry(builtinTools({ testTools: true }));
  const catalog = new CaptureCatalog(builtinCaptures());
  const executor = createExecutor({ registry, catalog, runner: pool });
  const running = await serveHttp({ host: '127.0.0.1', port: 0, createServer: () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' }), log: () => {}, ...options });
  servers.push(running);
  return running;
}

function preflight(url: string, origin: string, requestHeaders = 'content-type, mcp-session-id, mcp-protocol-version'): Promise<Response> {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders } });
}

async function runCli(argv: string[]) {
  let stderr = '';
  const io: Io = { stdout: () => {}, stderr: (text) => void (stderr += text), readStdin: async () => '' };
  return { code: await main(argv, io), stderr };
}

beforeAll(() => {
  pool = new RunnerPool({ testTools: true, captures: [], concurrent: 1 }, () => {});
});
afterAll(async () => {
  for (const running of servers) await running.close();
  pool.close();
});

describe('sextant mcp serve --http --allow-origin', () => {
  it('answers the preflight of an allowed origin with exactly that origin and the MCP request headers', async () => {
    const running = await start({ allowOrigins: [PAGE] });
    const response = await preflight(running.url, PAGE);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'accept', 'authorization', 'mcp-session-id', 'mcp-protocol-version']));
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('initializes from the allowed origin and exposes Mcp-Session-Id; the SDK client works end to end', async () => {
    const running = await start({ allowOrigins: [PAGE] });
    const response = await fetch(running.url, { method: 'POST', headers: { ...POST_HEADERS, origin: PAGE }, body: INITIALIZE });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id');
    expect(response.headers.get('mcp-session-id')).toMatch(/^[0-9a-f-]{36}$/);
    await response.body?.cancel();

    // Every request the SDK client sends carries the page's Origin, as a browser's would.
    const withOrigin: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), origin: PAGE } });
    const client = new Client({ name: 'page', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: withOrigin }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('test_echo');
    expect((await client.listResources()).resources.length).toBeGreaterThan(0);
    await client.close();
  });

  it('gives another origin no CORS headers: its preflight and its requests are refused with 403', async () => {
    const running = await start({ allowOrigins: [PAGE] });
    const refused = await preflight(running.url, OTHER_PAGE);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const post = await fetch(running.url, { method: 'POST', headers: { ...POST_HEADERS, origin: OTHER_PAGE }, body: INITIALIZE });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('by default allows no cross-origin access at all', async () => {
    const running = await start();
    const refused = await preflight(running.url, PAGE);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const post = await fetch(running.url, { method: 'POST', headers: { ...POST_HEADERS, origin: PAGE }, body: INITIALIZE });
    expect(post.status).toBe(403);
  });

  it('with --token: the preflight needs no token, and the 401 is readable by the page', async () => {
    const running = await start({ allowOrigins: [PAGE], token: 's3cret' });
    expect((await preflight(running.url, PAGE, 'authorization, content-type')).status).toBe(204);
    const unauthorized = await fetch(running.url, { method: 'POST', headers: { ...POST_HEADERS, origin: PAGE }, body: INITIALIZE });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(PAGE);
    const authorized = await fetch(running.url, { method: 'POST', headers: { ...POST_HEADERS, origin: PAGE, authorization: 'Bearer s3cret' }, body: INITIALIZE });
    expect(authorized.status).toBe(200);
    await authorized.body?.cancel();
  });

  it('normalizes origins and refuses what is not one', () => {
    expect(normalizeOrigin('http://127.0.0.1:4173')).toBe('http://127.0.0.1:4173');
    expect(normalizeOrigin('http://LOCALHOST:4173/')).toBe('http://localhost:4173');
    for (const bad of ['*', 'null', 'http://127.0.0.1:4173/app', 'ftp://host', 'http://user:pw@host', '127.0.0.1:4173']) expect(normalizeOrigin(bad)).toBeNull();
  });

  it('the command refuses a wildcard origin and --allow-origin without --http (exit 4)', async () => {
    const wildcard = await runCli(['mcp', 'serve', '--http', '--port', '0', '--allow-origin', '*']);
    expect(wildcard.code).toBe(4);
    expect(wildcard.stderr).toContain("--allow-origin needs a web page origin");
    const stdio = await runCli(['mcp', 'serve', '--allow-origin', PAGE]);
    expect(stdio.code).toBe(4);
    expect(stdio.stderr).toContain('--allow-origin');
  });
});
