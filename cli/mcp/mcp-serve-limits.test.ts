// Issue 24, D4 and D5: `sextant mcp serve --http` bounds concurrent calls (one queue, deadlines
// counted from the request) and its sessions (idle expiry, a maximum), over the SDK's real
// Streamable HTTP client on 127.0.0.1.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, builtinCaptures, builtinTools, createExecutor } from '../../src/core/index.ts';
import { serveHttp, type RunningHttpServer } from './http-serve.ts';
import { RunnerPool } from './runner-pool.ts';
import { createSextantMcpServer } from './sextant-mcp-server.ts';

const registry = new ToolRegistry(builtinTools({ testTools: true }));
const catalog = new CaptureCatalog(builtinCaptures());

function serve(pool: RunnerPool, limits: { maxSessions?: number; sessionIdleMs?: number } = {}): Promise<RunningHttpServer> {
  const executor = createExecutor({ registry, catalog, runner: pool });
  return serveHttp({ host: '127.0.0.1', port: 0, createServer: () => createSextantMcpServer({ registry, catalog, executor, log: () => {}, version: 'test' }), log: () => {}, ...limits });
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'limits-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('D4: concurrent calls are bounded and each timeout_ms counts from the request', () => {
  let pool: RunnerPool;
  let running: RunningHttpServer;
  let client: Client;
  beforeAll(async () => {
    pool = new RunnerPool({ testTools: true, captures: [], concurrent: 2 });
    running = await serve(pool);
    client = await connect(running.url);
  });
  afterAll(async () => {
    await client.close();
    await running.close();
    pool.close();
  });

  it('runs at most 2 of 8 runaway calls at once, and answers every one TIMEOUT near its 1.5 s deadline', async () => {
    let mostRunning = 0;
    const watch = setInterval(() => (mostRunning = Math.max(mostRunning, pool.snapshot().running)), 5);
    const started = Date.now();
    const calls = Array.from({ length: 8 }, (_, index) =>
      client.callTool(
        { name: 'test_echo', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: `call ${index}`, sleep_ms: 60_000 }, timeout_ms: 1500 } },
        undefined,
        { timeout: 30_000 },
      ),
    );
    const results = await Promise.all(calls);
    const elapsed = Date.now() - started;
    clearInterval(watch);
    expect(mostRunning).toBeLessThanOrEqual(2);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content as Array<{ text: string }>)[0].text).errors).toContainEqual(expect.objectContaining({ code: 'TIMEOUT' }));
    }
    // The waiting calls time out in the queue at their own deadline, not after the calls ahead of them (4 rounds × 1.5 s).
    expect(elapsed).toBeLessThan(5_500);
    expect(pool.snapshot()).toMatchObject({ running: 0, waiting: 0 });
  });

  it('D6: a 3 MB arguments.target (under the SDK 4 MB body limit) comes back in a message with the value cut at 200 characters', async () => {
    const target = 'x'.repeat(3 * 1024 * 1024);
    const result = await client.callTool({ name: 'statistical_regression_tool', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { operation: 'linear_regression', target, features: ['rssi'] } } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0].text;
    expect(text.length).toBeLessThan(4_000);
    const { errors } = JSON.parse(text) as { errors: Array<{ message: string }> };
    for (const error of errors) {
      expect(error.message.length).toBeLessThan(2_100);
      expect(error.message).not.toMatch(/x{201}/);
    }
  });
});

describe('D5: HTTP sessions expire when idle and are bounded', () => {
  let pool: RunnerPool;
  let running: RunningHttpServer;
  beforeAll(async () => {
    pool = new RunnerPool({ testTools: true, captures: [], concurrent: 1 });
    running = await serve(pool, { maxSessions: 3, sessionIdleMs: 300 });
  });
  afterAll(async () => {
    await running.close();
    pool.close();
  });

  it('refuses a session past the maximum with 503, closes idle ones, and then accepts new ones', async () => {
    const clients = await Promise.all([connect(running.url), connect(running.url), connect(running.url)]);
    expect(running.sessionCount()).toBe(3);
    await expect(connect(running.url)).rejects.toThrow(/Too many sessions \(3\)/);
    await expect.poll(() => running.sessionCount(), { timeout: 5_000, interval: 50 }).toBe(0);
    // An expired session's client is told so, and a new session is accepted.
    await expect(clients[0].listTools()).rejects.toThrow(/Session not found/);
    const fresh = await connect(running.url);
    expect((await fresh.listTools()).tools.length).toBeGreaterThan(0);
    for (const client of [...clients, fresh]) await client.close().catch(() => {});
  });

  it('keeps a session that is in use', async () => {
    const client = await connect(running.url);
    // Pings, not listTools: the SDK client compiles every output schema after a listing, time the server sees as idle.
    for (let round = 0; round < 12; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.ping();
    }
    expect(running.sessionCount()).toBeGreaterThanOrEqual(1);
    await client.close();
  });
});
