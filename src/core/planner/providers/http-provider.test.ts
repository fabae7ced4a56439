import { describe, expect, it } from 'vitest';
import type { LlmOutcome, ProviderTarget } from '../provider-types.ts';
import { createHttpProvider } from './http-provider.ts';
import { SECRET_KEY, cannedResponse, chatSse, fakeFetch, jsonResponse, namedSse, request } from './test-support.ts';

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

const ANTHROPIC_STREAM = namedSse([
  ['message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, usage: { input_tokens: 472, output_tokens: 1, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll link the addresses." } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01XYZ', name: 'ble_address_linkage', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"capture_id": "c1"' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_02', name: 'agent__final_report', input: {} } }],
  ['content_block_stop', { type: 'content_block_stop', index: 2 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 89 } }],
  ['message_stop', { type: 'message_stop' }],
]);

describe('OpenAI streaming', () => {
  it('accumulates text and interleaved parallel tool calls by index, with usage from the final chunk', async () => {
    const fetch = fakeFetch(cannedResponse(OPENAI_STREAM));
    const req = request();
    const response = responseOf(await createHttpProvider(openai, { fetch }).complete(req));
    expect(response).toEqual({
      text: 'Linking now.',
      toolCalls: [
        { id: 'call_a', name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' },
        { id: 'call_b', name: 'ble_address_linkage', arguments: '{"capture_id":"c2"}' },
      ],
      stopReason: 'tool_calls',
      usage: { inputTokens: 182, outputTokens: 41, cacheReadTokens: 128, cacheWriteTokens: 0 },
      usageReported: true,
      model: 'gpt-4o-mini-2024-07-18',
    });
    expect(req.deltas).toEqual([
      { kind: 'text', text: 'Linking ' },
      { kind: 'text', text: 'now.' },
      { kind: 'tool_call', id: 'call_a', name: 'ble_address_linkage' },
      { kind: 'tool_call', id: 'call_b', name: 'ble_address_linkage' },
    ]);
  });

  it('gives the same answer when the body arrives in 1-, 7- and 64-character reads', async () => {
    const whole = responseOf(await createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(OPENAI_STREAM)) }).complete(request()));
    for (const chunkSize of [1, 7, 64]) {
      const split = await createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(OPENAI_STREAM, { chunkSize })) }).complete(request());
      expect(responseOf(split)).toEqual(whole);
    }
  });

  it('sends the Chat Completions body with tools, streaming usage and the key only as a Bearer header', async () => {
    const fetch = fakeFetch(cannedResponse(OPENAI_STREAM));
    await createHttpProvider({ ...openai, temperature: 0.2 }, { fetch }).complete(request({ maxOutputTokens: 500, stop: ['</plan>'] }));
    const [call] = fetch.calls;
    expect(call.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(call.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(call.headers['x-api-key']).toBeUndefined();
    expect(call.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 500,
      stop: ['</plan>'],
      temperature: 0.2,
      tools: [{ type: 'function', function: { name: 'ble_address_linkage', parameters: { type: 'object', required: ['capture_id'] } } }],
    });
    expect(JSON.stringify(call.body)).not.toContain(SECRET_KEY);
  });

  it('passes malformed tool-argument text through untouched', async () => {
    const body = chatSse([chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'ble_address_linkage', arguments: "{capture_id: 'c1',," } }] }), chunk({}, 'tool_calls')]);
    const response = responseOf(await createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
    expect(response.toolCalls[0].arguments).toBe("{capture_id: 'c1',,");
  });

  it('normalizes finish reasons', async () => {
    const cases: Array<[string, string]> = [['stop', 'stop'], ['length', 'length'], ['content_filter', 'content_filter'], ['load', 'other']];
    for (const [wire, expected] of cases) {
      const body = chatSse([chunk({ content: 'x' }), chunk({}, wire)]);
      const response = responseOf(await createHttpProvider(openai, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
      expect(response.stopReason).toBe(expected);
    }
  });

  it('reads a JSON answer when the server does not stream', async () => {
    const fetch = fakeFetch(
      jsonResponse({
        id: 'chatcmpl-9xYz',
        object: 'chat.completion',
        model: 'gpt-4o-mini-2024-07-18',
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc123', type: 'function', function: { name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' } }] }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 182, completion_tokens: 41, total_tokens: 223, prompt_tokens_details: { cached_tokens: 0 } },
      }),
    );
    const req = request();
    const response = responseOf(await createHttpProvider(openai, { fetch }).complete(req));
    expect(response.toolCalls).toEqual([{ id: 'call_abc123', name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' }]);
    expect(response.usage).toEqual({ inputTokens: 182, outputTokens: 41, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(req.deltas).toContainEqual({ kind: 'tool_call', id: 'call_abc123', name: 'ble_address_linkage' });
  });
});

describe('Anthropic streaming', () => {
  it('accumulates blocks, input_json_delta fragments and usage split across message_start and message_delta', async () => {
    const fetch = fakeFetch(cannedResponse(ANTHROPIC_STREAM, { chunkSize: 5 }));
    const req = request();
    const response = responseOf(await createHttpProvider(anthropic, { fetch }).complete(req));
    expect(response).toEqual({
      text: "I'll link the addresses.",
      toolCalls: [
        { id: 'toolu_01XYZ', name: 'ble_address_linkage', arguments: '{"capture_id": "c1"}' },
        { id: 'toolu_02', name: 'agent__final_report', arguments: '{}' },
      ],
      stopReason: 'tool_calls',
      // input_tokens excludes cached tokens on this API; TokenUsage counts them all.
      usage: { inputTokens: 592, outputTokens: 89, cacheReadTokens: 100, cacheWriteTokens: 20 },
      usageReported: true,
      model: 'claude-sonnet-4-5-20250929',
    });
    expect(req.deltas.filter((d) => d.kind === 'tool_call')).toEqual([
      { kind: 'tool_call', id: 'toolu_01XYZ', name: 'ble_address_linkage' },
      { kind: 'tool_call', id: 'toolu_02', name: 'agent__final_report' },
    ]);
  });

  it('sends the Messages headers, x-api-key and never a Bearer header', async () => {
    const fetch = fakeFetch(cannedResponse(ANTHROPIC_STREAM));
    await createHttpProvider(anthropic, { fetch }).complete(request());
    const [call] = fetch.calls;
    expect(call.url).toBe('https://api.anthropic.com/v1/messages');
    expect(call.headers).toMatchObject({ 'x-api-key': SECRET_KEY, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' });
    expect(call.headers.authorization).toBeUndefined();
    expect(call.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 4096, stream: true, system: 'You plan statistical tool calls.', tools: [{ name: 'ble_address_linkage', input_schema: { type: 'object' } }] });
  });

  it('reads thinking as reasoning, and a JSON (non-streamed) message', async () => {
    const body = {
      id: 'msg_01ABC',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        { type: 'thinking', thinking: 'Need the capture.', signature: 's' },
        { type: 'text', text: "I'll link the addresses." },
        { type: 'tool_use', id: 'toolu_01XYZ', name: 'ble_address_linkage', input: { capture_id: 'c1' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 472, output_tokens: 89, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    };
    const response = responseOf(await createHttpProvider(anthropic, { fetch: fakeFetch(jsonResponse(body)) }).complete(request()));
    expect(response).toMatchObject({ text: "I'll link the addresses.", reasoning: 'Need the capture.', stopReason: 'tool_calls', toolCalls: [{ id: 'toolu_01XYZ', arguments: '{"capture_id":"c1"}' }], usage: { inputTokens: 472, outputTokens: 89 } });
  });

  it('normalizes stop reasons', async () => {
    const cases: Array<[string, string]> = [['end_turn', 'stop'], ['stop_sequence', 'stop'], ['max_tokens', 'length'], ['refusal', 'content_filter'], ['pause_turn', 'other']];
    for (const [wire, expected] of cases) {
      const body = namedSse([
        ['message_start', { message: { model: 'm', usage: { input_tokens: 1, output_tokens: 1 } } }],
        ['message_delta', { delta: { stop_reason: wire }, usage: { output_tokens: 2 } }],
        ['message_stop', {}],
      ]);
      const response = responseOf(await createHttpProvider(anthropic, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
      expect(response.stopReason).toBe(expected);
    }
  });
});

describe('OpenAI-compatible servers', () => {
  it('appends /v1/chat/completions whether or not the base URL ends in /v1, and sends no key when none is set', async () => {
    const body = chatSse([chunk({ content: 'hi' }), chunk({}, 'stop')]);
    const urls: Array<[string, string]> = [
      ['http://localhost:11434', 'http://localhost:11434/v1/chat/completions'],
      ['http://localhost:11434/', 'http://localhost:11434/v1/chat/completions'],
      ['http://localhost:11434/v1', 'http://localhost:11434/v1/chat/completions'],
      ['http://localhost:11434/v1/', 'http://localhost:11434/v1/chat/completions'],
      ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
      ['http://127.0.0.1:8080/v1/chat/completions', 'http://127.0.0.1:8080/v1/chat/completions'],
    ];
    for (const [baseUrl, expected] of urls) {
      const fetch = fakeFetch(cannedResponse(body));
      responseOf(await createHttpProvider({ ...ollama, baseUrl }, { fetch }).complete(request({ maxOutputTokens: 100 })));
      expect(fetch.calls[0].url).toBe(expected);
      expect(fetch.calls[0].headers.authorization).toBeUndefined();
      expect(fetch.calls[0].body.max_tokens).toBe(100);
    }
  });

  it('accepts Ollama-style whole calls with object arguments and no ids, and no usage', async () => {
    const body = chatSse([
      chunk({ role: 'assistant', content: '' }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'ble_address_linkage', arguments: { capture_id: 'c1' } } }, { index: 1, type: 'function', function: { name: 'agent__final_report', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    const response = responseOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
    expect(response.toolCalls).toEqual([
      { id: 'call_generated_1', name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' },
      { id: 'call_generated_2', name: 'agent__final_report', arguments: '{}' },
    ]);
    // Older Ollama says "stop" beside tool calls.
    expect(response.stopReason).toBe('tool_calls');
    expect(response.usageReported).toBe(false);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('reads reasoning from `reasoning` and `reasoning_content`, and numeric ids as text', async () => {
    const body = chatSse([
      chunk({ reasoning: 'think ' }),
      chunk({ reasoning_content: 'more' }),
      chunk({ tool_calls: [{ index: 0, id: 814890118, function: { name: 'ble_address_linkage', arguments: '{}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const response = responseOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
    expect(response.reasoning).toBe('think more');
    expect(response.toolCalls[0].id).toBe('814890118');
  });

  it('treats a second call at an index already holding another id as a new call', async () => {
    const body = chatSse([
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'x', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'y', arguments: '{"k":1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    const response = responseOf(await createHttpProvider(ollama, { fetch: fakeFetch(cannedResponse(body)) }).complete(request()));
    expect(response.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([['a', 'x', '{}'], ['b', 'y', '{"k":1}']]);
  });

  it('refuses a target without a base URL before sending anything', async () => {
    const fetch = fakeFetch();
    const failure = failureOf(await createHttpProvider({ provider: 'openai-compatible', model: 'm' }, { fetch }).complete(request()));
    expect(failure.message).toMatch(/needs a base URL/);
    expect(fetch.calls).toHaveLength(0);
  });
});
