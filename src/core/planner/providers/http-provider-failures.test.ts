import { describe, expect, it } from 'vitest';
import type { LlmOutcome, ProviderTarget } from '../provider-types.ts';
import { createHttpProvider } from './http-provider.ts';
import { SECRET_KEY, cannedResponse, chatSse, fakeFetch, hangingFetch, jsonResponse, namedSse, request } from './test-support.ts';

const openai: ProviderTarget = { provider: 'openai', model: 'gpt-4o-mini', apiKey: SECRET_KEY };
const anthropic: ProviderTarget = { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: SECRET_KEY };
const ollama: ProviderTarget = { provider: 'openai-compatible', model: 'llama3.2', baseUrl: 'http://localhost:11434' };

function failureOf(outcome: LlmOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.response)}`);
  return outcome.failure;
}

function responseOf(outcome: LlmOutcome) {
  if (!outcome.ok) throw new Error(`expected a response, got ${outcome.failure.kind}: ${outcome.failure.message}`);
  return outcome.response;
}

const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, delta, finish_reason: finish }] });

// Two parallel calls whose argument fragments interleave by index, as llm-wire.md §1 describes.
const OPENAI_STREAM = chatSse([
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Linking ' }),
  chunk({ content: 'now.' }),
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'ble_address_linkage', arguments: '' } }] }),
  chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'ble_address_linkage', arguments: '{"capture_' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"capture_id":' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: 'id":"c2"}' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"c1"}' } }] }),
  chunk({}, 'tool_calls'),
  { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4o-mini-2024-07-18', choices: [], usage: { prompt_tokens: 182, completion_tokens: 41, total_tokens: 223, prompt_tokens_details: { cached_tokens: 128 } } },
]);



describe('failure classification', () => {
  const httpFailure = async (target: ProviderTarget, status: number, body: unknown, headers: Record<string, string> = {}, now = 0) =>
    failureOf(await createHttpProvider(target, { fetch: fakeFetch(jsonResponse(body, status, headers)), now: () => now }).complete(request()));

  it('401 and 403 are auth', async () => {
    expect(await httpFailure(openai, 401, { error: { message: 'Incorrect API key provided: sk-SEC***XYZ.', type: 'invalid_request_error', code: 'invalid_api_key' } })).toMatchObject({ kind: 'auth', httpStatus: 401 });
    expect(await httpFailure(anthropic, 403, { type: 'error', error: { type: 'permission_error', message: 'no' } })).toMatchObject({ kind: 'auth', httpStatus: 403 });
  });

  it('402, insufficient_quota, spend limits and low credit are quota', async () => {
    expect((await httpFailure(ollama, 402, { error: { code: 402, message: 'Insufficient credits', metadata: { limit_source: 'openrouter_credits' } } })).kind).toBe('quota');
    expect((await httpFailure(openai, 429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } })).kind).toBe('quota');
    expect((await httpFailure(anthropic, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'limit', details: { error_code: 'enforced_spend_limit_reached' } } })).kind).toBe('quota');
    expect((await httpFailure(anthropic, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } })).kind).toBe('quota');
    expect((await httpFailure(anthropic, 402, { type: 'error', error: { type: 'billing_error', message: 'pay' } })).kind).toBe('quota');
  });

  it('429 is rate_limit, with the wait from retry-after-ms, Retry-After seconds or date, or the message', async () => {
    const limited = { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } };
    expect(await httpFailure(openai, 429, limited)).toMatchObject({ kind: 'rate_limit', httpStatus: 429 });
    expect((await httpFailure(openai, 429, limited)).retryAfterMs).toBeUndefined();
    expect((await httpFailure(openai, 429, limited, { 'retry-after': '7' })).retryAfterMs).toBe(7000);
    expect((await httpFailure(openai, 429, limited, { 'retry-after-ms': '1500', 'retry-after': '7' })).retryAfterMs).toBe(1500);
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect((await httpFailure(openai, 429, limited, { 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' }, now)).retryAfterMs).toBe(30_000);
    const worded = { error: { message: 'Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3. Please try again in 20s. Visit https://platform.openai.com/account/billing to add a payment method.', type: 'requests', code: 'rate_limit_exceeded' } };
    expect(await httpFailure(openai, 429, worded)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 20_000 });
    expect(await httpFailure(anthropic, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } }, { 'retry-after': '3' })).toMatchObject({ kind: 'rate_limit', retryAfterMs: 3000 });
  });

  it('408 and 504 are timeout; 500, 502, 503 and 529 are model_error', async () => {
    expect((await httpFailure(openai, 408, { error: { message: 'timeout' } })).kind).toBe('timeout');
    expect((await httpFailure(openai, 504, 'gateway')).kind).toBe('timeout');
    for (const status of [500, 502, 503]) expect((await httpFailure(openai, status, { error: { message: 'The server had an error', type: 'server_error' } })).kind).toBe('model_error');
    const overloaded = await httpFailure(anthropic, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(overloaded).toMatchObject({ kind: 'model_error', httpStatus: 529 });
    expect(overloaded.message).toMatch(/overloaded/);
    expect((await httpFailure(ollama, 503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } })).message).toMatch(/still loading the model/);
  });

  it('404 names the model and the base URL; an HTML error page is quoted without markup', async () => {
    const missing = await httpFailure(ollama, 404, { error: { message: 'model "llama3.2" not found, try pulling it first', type: 'not_found_error', param: null, code: null } });
    expect(missing.message).toMatch(/ollama pull llama3\.2/);
    const fetch = fakeFetch(cannedResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, contentType: 'text/html' }));
    const failure = failureOf(await createHttpProvider(openai, { fetch }).complete(request()));
    expect(failure.kind).toBe('model_error');
    expect(failure.message).toContain('502 Bad Gateway');
    expect(failure.message).not.toContain('<h1>');
  });

  it('malformed JSON in a stream, a cut-short stream and an unreadable body are invalid_response', async () => {
    const cases = [
      cannedResponse('data: {"id": "x", "choices": [\n\n'),
      cannedResponse(chatSse([chunk({ content: 'Hel' }), chunk({ content: 'lo' })], false)),
      cannedResponse(chatSse([chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'x', arguments: '{"a":' } }] })], false)),
      cannedResponse('<html>welcome</html>', { contentType: 'text/html' }),
      jsonResponse({ object: 'chat.completion', choices: [] }),
    ];
    for (const answer of cases) {
      const failure = failureOf(await createHttpProvider(openai, { fetch: fakeFetch(answer) }).complete(request()));
      expect(failure.kind).toBe('invalid_response');
    }
    const cut = namedSse([
      ['message_start', { message: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }],
      ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hel' } }],
    ]);
    const failure = failureOf(await createHttpProvider(anthropic, { fetch: fakeFetch(cannedResponse(cut)) }).complete(request()));
    expect(failure).toMatchObject({ kind: 'invalid_response' });
    expect(failure.message).toMatch(/ended before the model finished/);
  });

  it('reads errors inside a stream: OpenAI data error, Anthropic error event, OpenRouter finish error', async () => {
    const openaiError = chatSse([chunk({ content: 'x' }), { error: { message: 'The server had an error', type: 'server_error', param: null, code: null } }], false);
    expect(failureOf(await createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(openaiError)) }).complete(request())).kind).toBe('model_error');
    const anthropicError = namedSse([
      ['message_start', { message: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ]);
    expect(failureOf(await createHttpProvider(anthropic, { fetch: fakeFetch(cannedResponse(anthropicError)) }).complete(request())).kind).toBe('model_error');
    const anthropicLimit = namedSse([['error', { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }]]);
    expect(failureOf(await createHttpProvider(anthropic, { fetch: fakeFetch(cannedResponse(anthropicLimit)) }).complete(request())).kind).toBe('rate_limit');
    const openRouter = chatSse([{ id: 'gen-1', model: 'openai/gpt-4o-mini', error: { code: 'server_error', message: 'Provider disconnected unexpectedly' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }]);
    const failure = failureOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(openRouter)) }).complete(request()));
    expect(failure).toMatchObject({ kind: 'model_error', httpStatus: 200 });
    expect(failure.message).toContain('Provider disconnected unexpectedly');
    const numericCode = chatSse([{ error: { code: 429, message: 'Rate limit exceeded: free-models-per-min.' } }], false);
    expect(failureOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(numericCode)) }).complete(request())).kind).toBe('rate_limit');
  });

  it("reads Ollama's raw-JSON mid-stream error whole, split across reads, or without a final newline", async () => {
    const start = chatSse([chunk({ content: 'partial' })], false);
    const raw = '{"error":{"message":"an error was encountered while running the model: unexpected EOF","type":"api_error","param":null,"code":null}}';
    for (const [body, chunkSize] of [[`${start}${raw}\n`, undefined], [`${start}${raw}\n`, 9], [`${start}${raw}`, undefined], [`${start}${raw}`, 4]] as const) {
      const failure = failureOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(body, { chunkSize })) }).complete(request()));
      expect(failure.kind).toBe('model_error');
      expect(failure.message).toContain('unexpected EOF');
    }
  });

  it('a fetch TypeError is network in Node, and cors from a cross-origin page with a fix for the local server', async () => {
    const refused = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const node = failureOf(await createHttpProvider(ollama, { fetch: fakeFetch(refused()) }).complete(request()));
    expect(node.kind).toBe('network');
    expect(node.message).toMatch(/ECONNREFUSED/);
    const page = 'http://192.168.1.20:5173';
    const cases: Array<[string, RegExp]> = [
      ['http://localhost:11434/v1', /OLLAMA_ORIGINS=http:\/\/192\.168\.1\.20:5173/],
      ['http://localhost:1234/v1', /Enable CORS/],
      ['http://127.0.0.1:8080/v1', /--cors-origins/],
    ];
    for (const [baseUrl, hint] of cases) {
      const failure = failureOf(await createHttpProvider({ ...ollama, baseUrl }, { fetch: fakeFetch(new TypeError('Failed to fetch')), pageOrigin: page }).complete(request()));
      expect(failure.kind).toBe('cors');
      expect(failure.message).toMatch(hint);
      expect(failure.message).toMatch(/not reachable/);
    }
    const sameOrigin = failureOf(await createHttpProvider({ ...ollama, baseUrl: 'http://127.0.0.1:4173/v1' }, { fetch: fakeFetch(new TypeError('Failed to fetch')), pageOrigin: 'http://127.0.0.1:4173' }).complete(request()));
    expect(sameOrigin.kind).toBe('network');
    const viaAnthropic = failureOf(await createHttpProvider(anthropic, { fetch: fakeFetch(new TypeError('Failed to fetch')), pageOrigin: page }).complete(request()));
    expect(viaAnthropic.kind).toBe('cors');
    expect(viaAnthropic.message).toMatch(/anthropic-dangerous-direct-browser-access/);
  });

  it("an error body inside HTTP 200 (LM Studio's wrong-path answer) points at the base URL", async () => {
    const fetch = fakeFetch(jsonResponse({ error: 'Unexpected endpoint or method. (POST /chat/completions)' }));
    const failure = failureOf(await createHttpProvider({ ...ollama, baseUrl: 'http://localhost:1234/' }, { fetch }).complete(request()));
    expect(failure).toMatchObject({ kind: 'model_error', httpStatus: 200 });
    expect(failure.message).toMatch(/base URL/);
  });

  it('an opaque TypeError from api.openai.com is network even from a page: it answers every origin', async () => {
    const failure = failureOf(await createHttpProvider(openai, { fetch: fakeFetch(new TypeError('Failed to fetch')), pageOrigin: 'http://127.0.0.1:4173' }).complete(request()));
    expect(failure.kind).toBe('network');
  });

  it('the caller aborting is cancelled; timeoutMs or a TimeoutError reason is timeout', async () => {
    const controller = new AbortController();
    const pending = createHttpProvider(openai, { fetch: hangingFetch }).complete(request({ signal: controller.signal }));
    controller.abort();
    expect(failureOf(await pending).kind).toBe('cancelled');
    expect(failureOf(await createHttpProvider(openai, { fetch: hangingFetch }).complete(request({ timeoutMs: 20 })))).toMatchObject({ kind: 'timeout' });
    expect(failureOf(await createHttpProvider(openai, { fetch: hangingFetch }).complete(request({ signal: AbortSignal.timeout(20) }))).kind).toBe('timeout');
    const already = new AbortController();
    already.abort();
    const fetch = fakeFetch();
    expect(failureOf(await createHttpProvider(openai, { fetch }).complete(request({ signal: already.signal }))).kind).toBe('cancelled');
    expect(fetch.calls).toHaveLength(0);
  });

  it('a stream stopped by timeoutMs halfway is timeout', async () => {
    const fetch = fakeFetch(() => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(chatSse([chunk({ content: 'slow' })], false)));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const provider = createHttpProvider(openai, {
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        // Tie the body to the signal as a real fetch does.
        const reader = response.body!.getReader();
        const body = new ReadableStream<Uint8Array>({
          pull: (controller) =>
            new Promise<void>((resolve, reject) => {
              init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
              reader.read().then(({ done, value }) => {
                if (done) controller.close();
                else controller.enqueue(value);
                resolve();
              }, reject);
            }),
        });
        return new Response(body, { headers: response.headers });
      },
    });
    expect(failureOf(await provider.complete(request({ timeoutMs: 30 }))).kind).toBe('timeout');
  });

  it('openai and anthropic targets without a key fail as auth before sending anything', async () => {
    for (const target of [{ ...openai, apiKey: undefined }, { ...anthropic, apiKey: '  ' }]) {
      const fetch = fakeFetch();
      expect(failureOf(await createHttpProvider(target, { fetch }).complete(request())).kind).toBe('auth');
      expect(fetch.calls).toHaveLength(0);
    }
  });

  it('never puts the key in a message, even when the server echoes it', async () => {
    const echo = { error: { message: `Incorrect API key provided: ${SECRET_KEY} (also sk-SEC***XYZ)`, type: 'invalid_request_error', code: 'invalid_api_key' } };
    const answers: Array<() => Response | Error> = [
      () => jsonResponse(echo, 401),
      () => jsonResponse(echo, 429),
      () => jsonResponse(echo, 500),
      () => jsonResponse(echo, 200),
      () => cannedResponse(chatSse([echo], false)),
      () => cannedResponse(`data: ${SECRET_KEY}\n\n`),
      () => new TypeError(`connect failed for ${SECRET_KEY}`),
      () => new Error(`Bearer ${SECRET_KEY}`),
    ];
    for (const target of [openai, anthropic, { ...ollama, apiKey: SECRET_KEY, label: 'local' }]) {
      for (const answer of answers) {
        for (const pageOrigin of [undefined, 'http://192.168.1.20:5173']) {
          const failure = failureOf(await createHttpProvider(target, { fetch: fakeFetch(answer()), pageOrigin }).complete(request()));
          expect(failure.message).not.toContain(SECRET_KEY);
          expect(failure.message).not.toContain('sk-SEC');
          expect(failure.message.length).toBeGreaterThan(20);
        }
      }
    }
  });

  it('never throws, even when onDelta does or the target is scripted', async () => {
    const provider = createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(OPENAI_STREAM)) });
    const response = responseOf(
      await provider.complete(
        request({
          onDelta: () => {
            throw new Error('UI broke');
          },
        }),
      ),
    );
    expect(response.toolCalls).toHaveLength(2);
    const scripted = await createHttpProvider({ provider: 'scripted', model: 's' }, { fetch: fakeFetch() }).complete(request());
    expect(failureOf(scripted).kind).toBe('invalid_response');
  });
});
