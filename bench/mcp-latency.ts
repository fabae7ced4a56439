// MCP call latency (issue 13): median and p95 wall time of one tools/call, client side, over
// stdio and Streamable HTTP, in both directions:
//   Sextant's client (validation + mapping) → server-everything `echo`
//   the SDK client → `sextant mcp serve` `test_echo` (validation, executor, worker thread)
// Run: node --import tsx bench/mcp-latency.ts [CALLS]

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { callMcpTool, createSdkConnection, listMcpTools } from '../src/core/index.ts';

const CALLS = Number(process.argv[2] ?? 200);
const EVERYTHING = fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
const SEXTANT = fileURLToPath(new URL('../cli/sextant.mjs', import.meta.url));

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms (${samples.length} calls)`;
}

async function timeCalls(call: () => Promise<unknown>): Promise<number[]> {
  for (let warm = 0; warm < 10; warm++) await call();
  const samples: number[] = [];
  for (let index = 0; index < CALLS; index++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

async function sextantClient(label: string, transport: Transport): Promise<void> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const connection = createSdkConnection(client, ResultSchema);
  const listed = await listMcpTools(connection, { timeoutMs: 10_000 });
  const echo = listed.ok ? listed.list.tools.find((tool) => tool.name === 'echo') : undefined;
  if (!echo) throw new Error('server-everything lists no echo');
  const samples = await timeCalls(async () => {
    const record = await callMcpTool(connection, echo, { message: 'bench' }, { timeoutMs: 10_000, now: () => performance.now() });
    if (record.result.status !== 'ok') throw new Error(record.result.summary);
  });
  console.log(`${label}: ${stats(samples)}`);
  await client.close();
}

async function sdkClientToSextant(label: string, transport: Transport): Promise<void> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const samples = await timeCalls(async () => {
    const result = await client.callTool({ name: 'test_echo', arguments: { capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: 'bench' } } });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  });
  console.log(`${label}: ${stats(samples)}`);
  await client.close();
}

function startHttp(command: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, command, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise<typeof child>((resolve) => {
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (ready.test(said)) resolve(child);
    });
  });
}

await sextantClient('Sextant client → server-everything echo, stdio', new StdioClientTransport({ command: process.execPath, args: [EVERYTHING], stderr: 'ignore' }));
const everything = await startHttp([EVERYTHING, 'streamableHttp'], { PORT: '4370' }, /listening/);
await sextantClient('Sextant client → server-everything echo, Streamable HTTP', new StreamableHTTPClientTransport(new URL('http://127.0.0.1:4370/mcp')));
everything.kill();
await sdkClientToSextant('SDK client → sextant mcp serve test_echo, stdio', new StdioClientTransport({ command: process.execPath, args: [SEXTANT, 'mcp', 'serve', '--enable-test-tools'], stderr: 'ignore' }));
const sextant = await startHttp([SEXTANT, 'mcp', 'serve', '--http', '--port', '4371', '--enable-test-tools'], {}, /serving Streamable HTTP/);
await sdkClientToSextant('SDK client → sextant mcp serve test_echo, Streamable HTTP', new StreamableHTTPClientTransport(new URL('http://127.0.0.1:4371/mcp')));
sextant.kill();
