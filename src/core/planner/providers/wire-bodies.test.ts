import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../provider-types.ts';
import { toAnthropicMessages, toAnthropicMessagesBody } from './anthropic-wire.ts';
import { describeWireRequest } from './http-provider.ts';
import { toOpenAIChatBody, toOpenAIChatMessages } from './openai-wire.ts';
import { BLE_TOOL, SECRET_KEY } from './test-support.ts';

// A repair round: two calls, one failed and one passed, then the loop's notice as a user message.
const conversation: ChatMessage[] = [
  { role: 'system', content: 'You plan statistical tool calls.' },
  { role: 'user', content: 'Link BLE addresses in capture c1.' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_1', name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' },
      { id: 'call_2', name: 'ble_address_linkage', arguments: "{capture_id: 'c1'" },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', name: 'ble_address_linkage', content: '{"status":"ok","summary":"3 devices"}' },
  { role: 'tool', tool_call_id: 'call_2', content: '{"status":"error","errors":[{"code":"INVALID_VALUE"}]}' },
  { role: 'user', content: 'Retry only the failed call.' },
  { role: 'assistant', content: 'Done.' },
];

describe('OpenAI Chat messages', () => {
  it('maps tool calls to tool_calls with null content and results to role "tool"', () => {
    expect(toOpenAIChatMessages(conversation)).toEqual([
      { role: 'system', content: 'You plan statistical tool calls.' },
      { role: 'user', content: 'Link BLE addresses in capture c1.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'ble_address_linkage', arguments: '{"capture_id":"c1"}' } },
          { id: 'call_2', type: 'function', function: { name: 'ble_address_linkage', arguments: "{capture_id: 'c1'" } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"status":"ok","summary":"3 devices"}' },
      { role: 'tool', tool_call_id: 'call_2', content: '{"status":"error","errors":[{"code":"INVALID_VALUE"}]}' },
      { role: 'user', content: 'Retry only the failed call.' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('leaves tools out when none are offered, and uses max_tokens for compatible servers', () => {
    const body = toOpenAIChatBody({ messages: conversation, tools: [], maxOutputTokens: 64 }, { model: 'llama3.2', dialect: 'openai-compatible' });
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens).toBe(64);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(toOpenAIChatBody({ messages: [], tools: [BLE_TOOL] }, { model: 'm', dialect: 'openai', stream: false }).stream).toBeUndefined();
  });
});

describe('Anthropic messages', () => {
  it('lifts the system prompt, turns results into tool_result blocks first in one user message, and alternates roles', () => {
    const { system, messages } = toAnthropicMessages(conversation);
    expect(system).toBe('You plan statistical tool calls.');
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Link BLE addresses in capture c1.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'ble_address_linkage', input: { capture_id: 'c1' } },
          // Malformed arguments cannot be an object; the model still sees what it wrote.
          { type: 'tool_use', id: 'call_2', name: 'ble_address_linkage', input: { _raw_arguments: "{capture_id: 'c1'" } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"status":"ok","summary":"3 devices"}' },
          { type: 'tool_result', tool_use_id: 'call_2', content: '{"status":"error","errors":[{"code":"INVALID_VALUE"}]}', is_error: true },
          { type: 'text', text: 'Retry only the failed call.' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('merges consecutive user messages and puts a late tool result before the text it follows', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'calling', tool_calls: [{ id: 't', name: 'x', arguments: '' }] },
      { role: 'user', content: 'note' },
      { role: 'tool', tool_call_id: 't', content: '(tool failed: timeout)' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 't', name: 'x', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: '(tool failed: timeout)', is_error: true }, { type: 'text', text: 'note' }] },
    ]);
  });

  it('sets max_tokens (required by the API) and stop_sequences', () => {
    const body = toAnthropicMessagesBody({ messages: conversation, tools: [BLE_TOOL], stop: ['</slot>'] }, { model: 'claude-sonnet-4-5' });
    expect(body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 4096, stop_sequences: ['</slot>'], stream: true, tools: [{ name: 'ble_address_linkage', description: BLE_TOOL.description, input_schema: BLE_TOOL.input_schema }] });
    expect((body.tools as unknown[])[0]).not.toHaveProperty('output_schema');
  });
});

describe('describeWireRequest', () => {
  it('gives the endpoint and body as sent, never the key', () => {
    const described = describeWireRequest({ provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: SECRET_KEY }, { messages: conversation, tools: [BLE_TOOL] });
    expect(described).toMatchObject({ ok: true, url: 'https://api.anthropic.com/v1/messages' });
    expect(JSON.stringify(described)).not.toContain(SECRET_KEY);
    expect(describeWireRequest({ provider: 'openai-compatible', model: 'm', baseUrl: 'ftp://x' }, { messages: [], tools: [] })).toMatchObject({ ok: false });
    expect(describeWireRequest({ provider: 'scripted', model: 's' }, { messages: [], tools: [] })).toMatchObject({ ok: false });
  });
});
