import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../provider-types.ts';
import { createScriptedProvider, parseProviderScript } from './scripted-provider.ts';

const request: LlmRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

describe('the scripted provider', () => {
  it('replays each entry kind in order, one per request', async () => {
    const provider = createScriptedProvider({
      provider: 'scripted',
      model: 'demo',
      script: [
        { tool_calls: [{ id: 'c1', name: 'test_echo', arguments: { a: 1 } }], text: 'calling', usage: { input_tokens: 10, output_tokens: 2 } },
        { tool_calls: [{ id: 'c2', name: 'test_echo', arguments: '{"a": 1,' }] },
        { text: 'plain' },
        { reasoning: 'thinking' },
        {},
        { failure: { kind: 'rate_limit', retry_after_ms: 1500 } },
      ],
    });
    const outcomes = [];
    for (let index = 0; index < 7; index += 1) outcomes.push(await provider.complete(request));
    expect(outcomes[0]).toEqual({
      ok: true,
      response: {
        text: 'calling',
        toolCalls: [{ id: 'c1', name: 'test_echo', arguments: '{"a":1}' }],
        stopReason: 'tool_calls',
        usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
        usageReported: true,
        model: 'demo',
      },
    });
    expect(outcomes[1].ok && outcomes[1].response.toolCalls[0].arguments).toBe('{"a": 1,');
    expect(outcomes[2]).toMatchObject({ ok: true, response: { text: 'plain', toolCalls: [], stopReason: 'stop', usageReported: false } });
    expect(outcomes[3]).toMatchObject({ ok: true, response: { text: '', reasoning: 'thinking' } });
    expect(outcomes[4]).toMatchObject({ ok: true, response: { text: '', toolCalls: [] } });
    expect(outcomes[5]).toMatchObject({ ok: false, failure: { kind: 'rate_limit', retryAfterMs: 1500 } });
    expect(outcomes[6]).toMatchObject({ ok: false, failure: { kind: 'invalid_response' } });
    expect(!outcomes[6].ok && outcomes[6].failure.message).toMatch(/script holds 6 entries and this is request 7/);
    expect(provider.remaining()).toBe(0);
  });

  it('gives each target its own position in its own array', async () => {
    const first = createScriptedProvider({ provider: 'scripted', model: 'a', script: [{ text: 'a1' }, { text: 'a2' }] });
    const second = createScriptedProvider({ provider: 'scripted', model: 'b', script: [{ text: 'b1' }] });
    const texts = [];
    for (const provider of [first, second, first]) {
      const outcome = await provider.complete(request);
      texts.push(outcome.ok ? outcome.response.text : outcome.failure.kind);
    }
    expect(texts).toEqual(['a1', 'b1', 'a2']);
  });

  it('streams deltas for a live view', async () => {
    const deltas: string[] = [];
    const provider = createScriptedProvider({ provider: 'scripted', model: 'a', script: [{ text: 'x', reasoning: 'r', tool_calls: [{ id: 'c', name: 't', arguments: {} }] }] });
    await provider.complete({ ...request, onDelta: (delta) => deltas.push(delta.kind) });
    expect(deltas).toEqual(['reasoning', 'text', 'tool_call']);
  });

  it.each([
    ['not an array', { text: 'x' }, -1, '$'],
    ['an unknown key', [{ text: 'ok' }, { txet: 'typo' }], 1, '$[1].txet'],
    ['an unknown failure kind', [{ failure: { kind: 'teapot' } }], 0, '$[0].failure.kind'],
    ['a failure with more keys', [{}, {}, { failure: { kind: 'network' }, text: 'x' }], 2, '$[2]'],
    ['a nameless tool call', [{ tool_calls: [{ id: 'c', arguments: {} }] }], 0, '$[0].tool_calls[0].name'],
    ['array arguments', [{ tool_calls: [{ name: 't', arguments: [1] }] }], 0, '$[0].tool_calls[0].arguments'],
    ['a negative retry_after_ms', [{ failure: { kind: 'rate_limit', retry_after_ms: -1 } }], 0, '$[0].failure.retry_after_ms'],
    ['a bad usage field', [{ text: 'x', usage: { tokens: 3 } }], 0, '$[0].usage.tokens'],
  ])('refuses %s with a coded error naming the entry', (_name, script, index, field) => {
    const parsed = parseProviderScript(script);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatchObject({ code: 'INVALID_SCRIPT', index, field });
    if (index >= 0) expect(parsed.error.message).toMatch(new RegExp(`^Script entry ${index} `));
  });

  it('answers every request of an invalid script with invalid_response naming the problem', async () => {
    const provider = createScriptedProvider({ provider: 'scripted', model: 'a', script: [{ bogus: true }] });
    expect(provider.problem?.index).toBe(0);
    expect(await provider.complete(request)).toMatchObject({ ok: false, failure: { kind: 'invalid_response', message: expect.stringMatching(/Script entry 0/) } });
  });
});
