// The adapters against e2e/fixtures/mock-llm-server.mjs, started as Playwright starts it (a Node
// process on a free loopback port), over Node's real fetch.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LlmOutcome, ProviderTarget } from '../provider-types.ts';
import { createHttpProvider } from './http-provider.ts';
import { BLE_TOOL, request } from './test-support.ts';

const SERVER = fileURLToPath(new URL('../../../../e2e/fixtures/mock-llm-server.mjs', import.meta.url));
const OPENAI_KEY = 'sk-openai-test-5f1c2b9a7e';
const ANTHROPIC_KEY = 'sk-ant-test-91ab22cd33';

let child: ChildProcess;
let base = '';

const fingerprint = (secret: string) => `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
const fetchFn = (url: string, init: RequestInit) => fetch(url, init);

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)));
  });
});

afterAll(() => {
  child?.kill('SIGTERM');
});

beforeEach(async () => {
  await fetch(`${base}/__mock/reset`, { method: 'POST' });
});

async function script(steps: unknown[]) {
  const response = await fetch(`${base}/__mock/script`, { method: 'POST', body: JSON.stringify(steps) });
  expect(response.status).toBe(200);
}

async function received(): Promise<Array<{ path: string; headers: Record<string, string>; body: Record<string, unknown>; outcome: string }>> {
  return (await fetch(`${base}/__mock/requests`)).json();
}

const targets = (): Record<string, ProviderTarget> => ({
  openai: { provider: 'openai', model: 'gpt-4o-mini', baseUrl: `${base}/v1`, apiKey: OPENAI_KEY },
  anthropic: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: base, apiKey: ANTHROPIC_KEY },
  ollama: { provider: 'openai-compatible', model: 'llama3.2', baseUrl: `${base}/ollama` },
  lmstudio: { provider: 'openai-compatible', model: 'qwen', baseUrl: `${base}/lmstudio/v1` },
  llamacpp: { provider: 'openai-compatible', model: 'gguf', baseUrl: `${base}/llamacpp/v1/` },
});

const complete = (target: ProviderTarget, overrides: Parameters<typeof request>[0] = {}) => createHttpProvider(target, { fetch: fetchFn }).complete(request(overrides));

function ok(outcome: LlmOutcome) {
  if (!outcome.ok) throw new Error(`${outcome.failure.kind}: ${outcome.failure.message}`);
  return outcome.response;
}

function failed(outcome: LlmOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.response)}`);
  return outcome.failure;
}

const TOOL_STEP = {
  text: 'Linking the addresses now.',
  tool_calls: [
    { id: 'call_1', name: 'ble_address_linkage', arguments: '{"capture_id":"c1","time_range":{"start":"10:00","end":"10:05"}}' },
    { id: 'call_2', name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: 'Done', encoding: 'raw' } },
  ],
  usage: { input_tokens: 600, output_tokens: 80, cached_tokens: 200 },
};

describe('each provider against the mock server', () => {
  for (const name of ['openai', 'anthropic', 'ollama', 'lmstudio', 'llamacpp']) {
    it(`${name}: streams text and tool calls, with the tools sent`, async () => {
      await script([TOOL_STEP]);
      const req = request();
      const response = ok(await createHttpProvider(targets()[name], { fetch: fetchFn }).complete(req));
      expect(response.text).toBe('Linking the addresses now.');
      expect(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
        ['ble_address_linkage', { capture_id: 'c1', time_range: { start: '10:00', end: '10:05' } }],
        ['agent__final_report', { report_format: 'markdown', report_content: 'Done', encoding: 'raw' }],
      ]);
      expect(response.stopReason).toBe('tool_calls');
      expect(req.deltas.filter((d) => d.kind === 'tool_call').map((d) => (d.kind === 'tool_call' ? d.name : ''))).toEqual(['ble_address_linkage', 'agent__final_report']);
      expect(req.deltas.filter((d) => d.kind === 'text').length).toBeGreaterThan(1);
      if (name === 'ollama') {
        // Ollama reports only prompt/completion counts, no cache detail.
        expect(response.usage).toEqual({ inputTokens: 600, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0 });
      } else {
        expect(response.usage).toEqual({ inputTokens: 600, outputTokens: 80, cacheReadTokens: 200, cacheWriteTokens: 0 });
      }
      if (name === 'lmstudio') expect(response.toolCalls[0].id).toBe('call_1');
      const [sent] = await received();
      const tools = sent.body.tools as Array<Record<string, unknown>>;
      expect(tools).toHaveLength(1);
      expect(JSON.stringify(tools[0])).toContain(BLE_TOOL.name);
    });
  }

  it('sends each key only to its own provider, and none to a keyless local server', async () => {
    await script([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const all = targets();
    for (const name of ['openai', 'anthropic', 'ollama']) ok(await complete(all[name]));
    const [toOpenAI, toAnthropic, toOllama] = await received();
    expect(toOpenAI.headers.authorization).toBe(`Bearer ${fingerprint(OPENAI_KEY)}`);
    expect(toOpenAI.headers['x-api-key']).toBeUndefined();
    expect(toAnthropic.headers['x-api-key']).toBe(fingerprint(ANTHROPIC_KEY));
    expect(toAnthropic.headers.authorization).toBeUndefined();
    expect(toAnthropic.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(toOllama.headers.authorization).toBeUndefined();
    expect(toOllama.headers['x-api-key']).toBeUndefined();
    const log = JSON.stringify(await received());
    expect(log).not.toContain(OPENAI_KEY);
    expect(log).not.toContain(ANTHROPIC_KEY);
  });

  it('answers JSON when a step says so, and the adapters read it', async () => {
    await script([{ ...TOOL_STEP, stream: false }, { ...TOOL_STEP, stream: false }]);
    for (const name of ['openai', 'anthropic']) {
      const response = ok(await complete(targets()[name]));
      expect(response.toolCalls).toHaveLength(2);
      expect(response.usage.inputTokens).toBe(600);
    }
  });

  it('passes malformed tool arguments through untouched in every dialect', async () => {
    const broken = "{capture_id: 'c1', time_range: {start: '10:00'";
    await script([1, 2, 3].map(() => ({ tool_calls: [{ name: 'ble_address_linkage', arguments: broken }], finish: undefined })));
    for (const name of ['openai', 'anthropic', 'ollama']) {
      expect(ok(await complete(targets()[name])).toolCalls[0].arguments).toBe(broken);
    }
  });

  it('handles Ollama quirks: object arguments and missing ids', async () => {
    await script([{ tool_calls: [{ name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' }], quirks: { arguments_as_object: true, omit_ids: true } }]);
    const response = ok(await complete(targets().ollama));
    expect(response.toolCalls).toEqual([{ id: 'call_generated_1', name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' }]);
    expect(response.usageReported).toBe(true);
  });
});

describe('failure modes of the mock server', () => {
  it('429 with and without Retry-After', async () => {
    await script([
      { failure: { kind: 'rate_limit', retry_after: '2' } },
      { failure: { kind: 'rate_limit' } },
      { failure: { kind: 'rate_limit', retry_after: '4' } },
      { failure: { kind: 'rate_limit', retry_after_ms: 750 } },
    ]);
    expect(failed(await complete(targets().openai))).toMatchObject({ kind: 'rate_limit', httpStatus: 429, retryAfterMs: 2000 });
    const bare = failed(await complete(targets().openai));
    expect(bare.kind).toBe('rate_limit');
    expect(bare.retryAfterMs).toBeUndefined();
    expect(failed(await complete(targets().anthropic))).toMatchObject({ kind: 'rate_limit', retryAfterMs: 4000 });
    expect(failed(await complete(targets().ollama))).toMatchObject({ kind: 'rate_limit', retryAfterMs: 750 });
  });

  it('401, 402, quota, 500, 503 loading and 529', async () => {
    const kinds: Array<[string, string, string]> = [
      ['openai', 'auth', 'auth'],
      ['anthropic', 'auth', 'auth'],
      ['openai', 'payment_required', 'quota'],
      ['anthropic', 'payment_required', 'quota'],
      ['openai', 'quota', 'quota'],
      ['anthropic', 'quota', 'quota'],
      ['openai', 'server_error', 'model_error'],
      ['llamacpp', 'unavailable', 'model_error'],
      ['anthropic', 'overloaded', 'model_error'],
      ['openai', 'gateway_timeout', 'timeout'],
    ];
    await script(kinds.map(([, kind]) => ({ failure: { kind } })));
    for (const [target, , expected] of kinds) {
      const failure = failed(await complete(targets()[target]));
      expect([target, failure.kind]).toEqual([target, expected]);
      expect(failure.message).not.toContain(OPENAI_KEY.slice(0, 8));
    }
  });

  it('streams cut short, mid-stream errors in each dialect, malformed events and HTML are classified', async () => {
    const text = 'A reply long enough to be split into several chunks.';
    const cases: Array<[string, unknown, string]> = [
      ['openai', { text, failure: { kind: 'cut_short' } }, 'invalid_response'],
      ['anthropic', { text, failure: { kind: 'cut_short' } }, 'invalid_response'],
      ['ollama', { text, tool_calls: [{ name: 'x', arguments: '{"a":1}' }], failure: { kind: 'cut_short' } }, 'invalid_response'],
      ['openai', { text, failure: { kind: 'mid_stream_error' } }, 'model_error'],
      ['anthropic', { text, failure: { kind: 'mid_stream_error' } }, 'model_error'],
      ['ollama', { text, failure: { kind: 'mid_stream_error', message: 'model runner crashed' } }, 'model_error'],
      ['llamacpp', { text, failure: { kind: 'mid_stream_error' } }, 'model_error'],
      ['lmstudio', { text, failure: { kind: 'openrouter_error' } }, 'model_error'],
      ['openai', { text, failure: { kind: 'malformed_json' } }, 'invalid_response'],
      ['anthropic', { text, failure: { kind: 'malformed_json' } }, 'invalid_response'],
      ['openai', { failure: { kind: 'html' } }, 'invalid_response'],
      ['openai', { stream: false, failure: { kind: 'cut_short' } }, 'invalid_response'],
    ];
    await script(cases.map(([, step]) => step));
    for (const [target, , expected] of cases) {
      const failure = failed(await complete(targets()[target]));
      expect([target, failure.kind]).toEqual([target, expected]);
    }
  });

  it('a reset connection is network; a hung server hits timeoutMs', async () => {
    await script([{ failure: { kind: 'reset' } }, { failure: { kind: 'hang' } }, { text: 'slow', failure: { kind: 'stall' } }]);
    expect(failed(await complete(targets().openai)).kind).toBe('network');
    expect(failed(await complete(targets().openai, { timeoutMs: 150 })).kind).toBe('timeout');
    expect(failed(await complete(targets().anthropic, { timeoutMs: 150 })).kind).toBe('timeout');
  });

  it('a stopped server is network', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const failure = failed(await complete({ provider: 'openai-compatible', model: 'm', baseUrl: `http://127.0.0.1:${port}/v1` }));
    expect(failure.kind).toBe('network');
    expect(failure.message).toMatch(/ECONNREFUSED/);
  });

  it('with an empty queue the mock answers 500 so a missing step is loud', async () => {
    const failure = failed(await complete(targets().openai));
    expect(failure.kind).toBe('model_error');
    expect(failure.message).toMatch(/no scripted step left/);
  });
});

describe('mock server CORS and browser behaviour', () => {
  const chat = (path: string, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) });

  it('answers preflights in allow mode and refuses them in deny mode', async () => {
    const preflight = () => fetch(`${base}/v1/chat/completions`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:4173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    const allowed = await preflight();
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    await fetch(`${base}/__mock/config`, { method: 'POST', body: JSON.stringify({ cors: 'deny' }) });
    const denied = await preflight();
    expect(denied.status).toBe(404);
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('origin-gate mode refuses other origins with 403 and no CORS headers, as Ollama does', async () => {
    await fetch(`${base}/__mock/config`, { method: 'POST', body: JSON.stringify({ cors: 'origin-gate' }) });
    await script([{ text: 'hi' }]);
    const refused = await chat('/ollama/v1/chat/completions', { origin: 'http://192.168.1.20:5173' });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const local = await chat('/ollama/v1/chat/completions', { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('Anthropic refuses a browser request without the direct-browser-access header, with no CORS headers', async () => {
    await script([{ text: 'hi' }]);
    const refused = await chat('/v1/messages', { origin: 'http://127.0.0.1:4173', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(JSON.stringify(await refused.json())).toContain('anthropic-dangerous-direct-browser-access');
    const accepted = await chat('/v1/messages', { origin: 'http://127.0.0.1:4173', 'x-api-key': 'k', 'anthropic-dangerous-direct-browser-access': 'true' });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('access-control-expose-headers')).toBe('*');
  });

  it('refuses a request whose Host is not loopback', async () => {
    // fetch will not send a foreign Host header, so use node:http directly.
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${base}/__mock/health`);
      httpGet({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'attacker.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      }).on('error', reject);
    });
    expect(status).toBe(403);
  });
});
