// OpenAI Chat Completions on the wire (llm-wire.md §1), also spoken by Ollama, LM Studio,
// llama.cpp, vLLM and OpenRouter with the quirks of §4–§7.
import type { EventSourceMessage } from 'eventsource-parser';
import { safeParseJson, type JsonObject, type JsonValue } from '../../util/json.ts';
import { internalToOpenAI } from '../../toolcanon/internal-definition.ts';
import type { ChatMessage, ChatToolCall, LlmRequest, StopReason, TokenUsage } from '../provider-types.ts';
import { argumentsText, arrayField, countField, field, idField, objectField, stringField } from './wire-json.ts';
import { CONTINUE, type StreamAccumulator, type StreamStep, type WireResult, type WireSession } from './wire-types.ts';

export type OpenAIDialect = 'openai' | 'openai-compatible';

/** The request fields the body depends on (what the UI's "as sent" view needs, no signal or callbacks). */
export type WireRequest = Pick<LlmRequest, 'messages' | 'tools' | 'maxOutputTokens' | 'stop'>;

export interface OpenAIBodyOptions {
  model: string;
  dialect: OpenAIDialect;
  temperature?: number;
  /** Default true: stream with `stream_options.include_usage`. */
  stream?: boolean;
}

/** The conversation as Chat Completions messages: assistant tool calls as `tool_calls`, results as `role: "tool"`. */
export function toOpenAIChatMessages(messages: ReadonlyArray<ChatMessage>): JsonObject[] {
  return messages.map((message): JsonObject => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          // OpenAI documents `content: null` beside tool calls; an empty string is refused by some servers.
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
        };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    }
  });
}

/** The complete Chat Completions request body. */
export function toOpenAIChatBody(request: WireRequest, options: OpenAIBodyOptions): JsonObject {
  const body: JsonObject = { model: options.model, messages: toOpenAIChatMessages(request.messages) };
  // An empty `tools` array is refused by some servers; leaving it out means "no tools".
  if (request.tools.length > 0) body.tools = request.tools.map(internalToOpenAI);
  if (request.maxOutputTokens !== undefined) {
    // OpenAI replaced `max_tokens` (refused by its reasoning models); local servers know only `max_tokens`.
    body[options.dialect === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
  }
  if (request.stop && request.stop.length > 0) body.stop = [...request.stop];
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.stream !== false) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/** `finish_reason` → StopReason (llm-wire.md §8.1). A call present under a plain `stop` (older Ollama) counts as tool calls. */
export function openAIStopReason(finish: string | undefined, hasToolCalls: boolean): StopReason {
  switch (finish) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return hasToolCalls ? 'tool_calls' : 'other';
  }
}

/** `usage` → TokenUsage: cached tokens are a part of `prompt_tokens` on this API. */
export function openAIUsage(usage: JsonValue | undefined): TokenUsage | undefined {
  const input = countField(usage, 'prompt_tokens');
  const output = countField(usage, 'completion_tokens');
  if (input === undefined && output === undefined) return undefined;
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    cacheReadTokens: countField(objectField(usage, 'prompt_tokens_details'), 'cached_tokens') ?? 0,
    cacheWriteTokens: 0,
  };
}

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** Reasoning text: `reasoning` (Ollama, LM Studio, OpenRouter) or `reasoning_content` (llama.cpp, vLLM). */
function reasoningOf(part: JsonValue | undefined): string | undefined {
  return stringField(part, 'reasoning') ?? stringField(part, 'reasoning_content');
}

interface CallDraft {
  id?: string;
  name?: string;
  arguments: string;
  announced: boolean;
}

/**
 * Accumulates a Chat Completions stream: text and reasoning deltas, tool calls by
 * `tool_calls[].index` (id and name only on the first fragment; Ollama sends each call whole),
 * the finish reason, and the usage chunk (`choices: []`) when the server sends one.
 */
export function createOpenAIStream(session: WireSession): StreamAccumulator {
  let text = '';
  let reasoning = '';
  const calls: CallDraft[] = [];
  const slotByIndex = new Map<number, number>();
  let finish: string | undefined;
  let usage: TokenUsage | undefined;
  let model = '';
  let done = false;

  const announce = (call: CallDraft) => {
    if (call.announced || call.name === undefined) return;
    call.id ??= session.newCallId();
    call.announced = true;
    session.onDelta?.({ kind: 'tool_call', id: call.id, name: call.name });
  };

  const slotFor = (fragment: JsonValue, position: number): CallDraft => {
    const index = field(fragment, 'index');
    const id = idField(fragment, 'id');
    const key = typeof index === 'number' ? index : -1 - position;
    const existing = slotByIndex.get(key);
    // Some servers number every complete call 0: a second id at a used index is a new call.
    if (existing !== undefined && !(id && calls[existing].id && calls[existing].id !== id)) return calls[existing];
    calls.push({ arguments: '', announced: false });
    slotByIndex.set(key, calls.length - 1);
    return calls[calls.length - 1];
  };

  const event = (message: EventSourceMessage): StreamStep => {
    if (done) return { type: 'done' };
    if (message.data.trim() === '[DONE]') {
      done = true;
      return { type: 'done' };
    }
    const parsed = safeParseJson(message.data);
    if (!parsed.ok) return { type: 'malformed', detail: `a stream event is not JSON (${parsed.message})` };
    const chunk = parsed.value;
    if (field(chunk, 'error') !== undefined) return { type: 'error', payload: chunk };
    model = stringField(chunk, 'model') ?? model;
    usage = openAIUsage(field(chunk, 'usage')) ?? usage;
    for (const choice of arrayField(chunk, 'choices') ?? []) {
      const delta = field(choice, 'delta') ?? field(choice, 'message');
      const content = stringField(delta, 'content');
      if (content) {
        text += content;
        session.onDelta?.({ kind: 'text', text: content });
      }
      const thought = reasoningOf(delta);
      if (thought) {
        reasoning += thought;
        session.onDelta?.({ kind: 'reasoning', text: thought });
      }
      (arrayField(delta, 'tool_calls') ?? []).forEach((fragment, position) => {
        const call = slotFor(fragment, position);
        call.id ??= idField(fragment, 'id');
        const fn = field(fragment, 'function');
        call.name ??= stringField(fn, 'name') || undefined;
        call.arguments += argumentsText(field(fn, 'arguments')) ?? '';
        announce(call);
      });
      const reason = stringField(choice, 'finish_reason');
      if (reason === 'error') return { type: 'error', payload: { error: { message: 'the model stopped with finish_reason "error"' } } };
      if (reason) finish = reason;
    }
    return CONTINUE;
  };

  const end = (): WireResult => {
    if (finish === undefined) {
      return { type: 'malformed', detail: done ? 'the stream ended with [DONE] but no finish_reason' : 'the stream ended before the model finished (no finish_reason, no [DONE])' };
    }
    calls.forEach(announce);
    const toolCalls: ChatToolCall[] = calls.map((call) => ({ id: call.id ?? session.newCallId(), name: call.name ?? '', arguments: call.arguments }));
    return {
      type: 'response',
      response: {
        text,
        ...(reasoning ? { reasoning } : {}),
        toolCalls,
        stopReason: openAIStopReason(finish, toolCalls.length > 0),
        usage: usage ?? NO_USAGE,
        usageReported: usage !== undefined,
        model,
      },
    };
  };

  return { event, end };
}

/** A non-streamed `chat.completion` body (a server that ignored `stream: true`, or a JSON answer). */
export function parseOpenAICompletion(body: JsonValue, session: WireSession): WireResult {
  if (field(body, 'error') !== undefined) return { type: 'error', payload: body };
  const choice = (arrayField(body, 'choices') ?? [])[0];
  const message = field(choice, 'message');
  if (message === undefined) return { type: 'malformed', detail: 'the body has no choices[0].message' };
  const toolCalls: ChatToolCall[] = (arrayField(message, 'tool_calls') ?? []).map((call) => {
    const fn = field(call, 'function');
    const id = idField(call, 'id') ?? session.newCallId();
    const name = stringField(fn, 'name') ?? '';
    session.onDelta?.({ kind: 'tool_call', id, name });
    return { id, name, arguments: argumentsText(field(fn, 'arguments')) ?? '' };
  });
  const text = stringField(message, 'content') ?? '';
  const reasoning = reasoningOf(message);
  if (reasoning) session.onDelta?.({ kind: 'reasoning', text: reasoning });
  if (text) session.onDelta?.({ kind: 'text', text });
  const usage = openAIUsage(field(body, 'usage'));
  return {
    type: 'response',
    response: {
      text,
      ...(reasoning ? { reasoning } : {}),
      toolCalls,
      stopReason: openAIStopReason(stringField(choice, 'finish_reason'), toolCalls.length > 0),
      usage: usage ?? NO_USAGE,
      usageReported: usage !== undefined,
      model: stringField(body, 'model') ?? '',
    },
  };
}
