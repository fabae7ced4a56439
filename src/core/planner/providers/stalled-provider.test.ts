// D1 (issue 24): every way an OpenAI-compatible server can stall an answer, over real HTTP on
// 127.0.0.1 with the real SSE wire format, through the planner: each request ends at its deadline
// (total or idle) or its byte cap, is retried, and the session ends with the synthetic failure
// report in bounded time. Small deadlines keep the suite fast.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerClock } from '../../util/deadline.ts';
import { harnessExecutor } from '../loop/loop-test-support.ts';
import { runPlannerSession } from '../loop/planner-session.ts';
import type { PlannerSettings } from '../loop/planner-settings.ts';
import type { LlmAccountingEntry } from '../loop/session-types.ts';
import { createHttpProvider } from './http-provider.ts';

type StallMode = (response: ServerResponse, stop: AbortSignal) => void;

const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'stall', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** Writes `piece()` every `ms` until the client goes away. */
function every(ms: number, piece: () => string): StallMode {
  return (response, stop) => {
    const timer = setInterval(() => {
      if (!response.writableEnded) response.write(piece());
    }, ms);
    stop.addEventListener('abort', () => clearInterval(timer));
  };
}

const FINAL_CALL = chunk({
  role: 'assistant',
  tool_calls: [{ index: 0, id: 'call_final', type: 'function', function: { name: 'agent__final_report', arguments: JSON.stringify({ report_format: 'markdown', report_content: 'All done.' }) } }],
});

const MODES: Record<string, StallMode> = {
  'headers, then no body': () => {},
  'a body trickled at 1 byte per 50 ms': (response, stop) => {
    const body = chunk({ role: 'assistant', content: 'Hello there, this is a slow answer.' }, 'stop') + 'data: [DONE]\n\n';
    let at = 0;
    every(50, () => body[at++] ?? '')(response, stop);
  },
  'endless `: keepalive` comments': every(20, () => ': keepalive\n\n'),
  'endless content deltas': every(5, () => chunk({ content: 'more ' })),
  'endless tool-argument deltas': (response, stop) => {
    response.write(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'test_echo', arguments: '{"arguments":{"message":"' } }] }));
    every(5, () => chunk({ tool_calls: [{ index: 0, function: { arguments: 'aaaa' } }] }))(response, stop);
  },
  'a complete final-report call, then no finish_reason and no [DONE]': (response) => {
    response.write(FINAL_CALL);
  },
  'content deltas as fast as the socket takes them': (response, stop) => {
    const pump = () => {
      while (!stop.aborted && response.write(chunk({ content: 'x'.repeat(1000) })));
      if (!stop.aborted) response.once('drain', pump);
    };
    pump();
  },
};

let server: Server;
let base = '';
const bytesSent = new Map<string, number>();

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const mode = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname.split('/')[1] ?? '');
    request.resume();
    const stop = new AbortController();
    response.on('close', () => stop.abort());
    const write = response.write.bind(response);
    response.write = ((data: string) => {
      bytesSent.set(mode, (bytesSent.get(mode) ?? 0) + Buffer.byteLength(data));
      return write(data);
    }) as typeof response.write;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.flushHeaders();
    MODES[mode]?.(response, stop.signal);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const SETTINGS = { maxTurns: 1, maxRetries: 2, llmTimeout: 1_500, llmIdleTimeout: 300, llmResponseMaxBytes: 256 * 1024 } satisfies Partial<PlannerSettings>;
/** For the modes that keep sending: an idle limit a loaded machine cannot trip by accident. */
const BUSY = { llmIdleTimeout: 1_200 };

async function planAgainst(mode: string, settings: Partial<PlannerSettings>) {
  const clock = timerClock({ setTimeout, clearTimeout });
  const { executor, registry } = harnessExecutor();
  const target = createHttpProvider({ provider: 'openai-compatible', model: 'stall', baseUrl: `${base}/${encodeURIComponent(mode)}/v1` }, { fetch: (url, init) => fetch(url, init), clock });
  const started = Date.now();
  const result = await runPlannerSession({
    question: 'Echo something, then report.',
    targets: [target],
    executor,
    manifests: registry.manifests(),
    captures: [],
    settings,
    clock,
    nonce: 'c0ffee42',
  });
  return { result, elapsedMs: Date.now() - started };
}

describe('D1: a stalled LLM answer ends at its deadline, is retried, and the session reports failure', () => {
  it.each([
    ['headers, then no body', {}, /sent nothing for 300 ms/],
    ['a body trickled at 1 byte per 50 ms', {}, /sent nothing for 300 ms/],
    ['endless `: keepalive` comments', {}, /sent nothing for 300 ms/],
    ['endless content deltas', BUSY, /within 1500 ms/],
    ['endless tool-argument deltas', BUSY, /within 1500 ms/],
    ['a complete final-report call, then no finish_reason and no [DONE]', {}, /sent nothing for 300 ms/],
    ['content deltas as fast as the socket takes them', { ...BUSY, llmTimeout: 10_000 }, /262144-byte limit/],
  ])('%s', async (mode, overrides, failure) => {
    const { result, elapsedMs } = await planAgainst(mode, { ...SETTINGS, ...overrides });
    expect(result.success).toBe(false);
    expect(result.finalReport).toMatchObject({ status: 'failure', source: 'synthetic' });
    const llm = result.accounting.filter((entry): entry is LlmAccountingEntry => entry.type === 'llm');
    expect(llm).toHaveLength(SETTINGS.maxRetries);
    for (const entry of llm) {
      expect(entry.status).toBe('failed');
      expect(entry.error).toMatch(failure);
    }
    // Two attempts, each under its deadline, with slack for a loaded machine.
    expect(elapsedMs).toBeLessThan(25_000);
    if (mode.startsWith('content deltas as fast')) expect(bytesSent.get(mode)!).toBeLessThan(64 * 1024 * 1024);
  });
});
