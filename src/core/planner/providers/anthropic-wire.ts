// Anthropic Messages on the wire (llm-wire.md §3).
import type { EventSourceMessage } from 'eventsource-parser';
import { isJsonObject, safeParseJson, type JsonObject, type JsonValue } from '../../util/json.ts';
import { internalToAnthropic } from '../../toolcanon/internal-definition.ts';
import type { ChatMessage, ChatToolCall, StopReason, TokenUsage } from '../provider-types.ts';
import type { WireRequest } from './openai-wire.ts';
import { argumentsText, arrayField, countField, field, idField, objectField, stringField } from './wire-json.ts';
import { CONTINUE, type StreamAccumulator, type StreamStep, type WireResult, type WireSession } from './wire-types.ts';

export const ANTHROPIC_VERSION = '2023-06-01';
/** `max_tokens` is required by the Messages API; this applies when the request sets no limit. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

export interface AnthropicBodyOptions {
  model: string;
  temperature?: number;
  /** Default true. */
  stream?: boolean;
}

type Role = 'user' | 'assistant';

/**
 * Tool-call arguments as the `input` object Anthropic requires. The conversation keeps the raw
 * text the model sent; text that is not a JSON object (a malformed call the loop rejected) is
 * carried as `{"_raw_arguments": text}` so the model still sees what it wrote.
 */
export function anthropicToolInput(rawArguments: string): JsonObject {
  if (rawArguments.trim() === '') return {};
  const parsed = safeParseJson(rawArguments);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : { _raw_arguments: rawArguments };
}

/** A tool result reads as an error when it is a ToolResult with status "error" or the loop's `(tool failed: …)` stub. */
function isErrorResult(content: string): boolean {
  if (content.startsWith('(tool failed')) return true;
  const parsed = safeParseJson(content);
  return parsed.ok && field(parsed.value, 'status') === 'error';
}

/**
 * The conversation as Messages API input: system text lifted into `system`, tool results as
 * `tool_result` blocks in a user message (before any text), assistant tool calls as `tool_use`
 * blocks, empty text blocks dropped (the API refuses them), and consecutive same-role messages
 * merged because the API requires roles to alternate.
 */
export function toAnthropicMessages(messages: ReadonlyArray<ChatMessage>): { system: string; messages: JsonObject[] } {
  const system: string[] = [];
  const turns: { role: Role; blocks: JsonObject[] }[] = [];
  const push = (role: Role, blocks: JsonObject[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  };
  const text = (value: string): JsonObject[] => (value === '' ? [] : [{ type: 'text', text: value }]);
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content !== '') system.push(message.content);
        break;
      case 'user':
        push('user', text(message.content));
        break;
      case 'assistant':
        push('assistant', [
          ...text(message.content),
          ...(message.tool_calls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: anthropicToolInput(call.arguments) })),
        ]);
        break;
      case 'tool': {
        const block: JsonObject = { type: 'tool_result', tool_use_id: message.tool_call_id, content: message.content };
        if (isErrorResult(message.content)) block.is_error = true;
        push('user', [block]);
        break;
      }
    }
  }
  return {
    system: system.join('\n\n'),
    messages: turns.map(({ role, blocks }) => ({
      role,
      // tool_result blocks must open the user message that answers the tool calls.
      content: role === 'user' ? [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')] : blocks,
    })),
  };
}

/** The complete Messages request body. */
export function toAnthropicMessagesBody(request: WireRequest, options: AnthropicBodyOptions): JsonObject {
  const { system, messages } = toAnthropicMessages(request.messages);
  const body: JsonObject = { model: options.model, max_tokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
  if (system !== '') body.system = system;
  body.messages = messages;
  if (request.tools.length > 0) body.tools = request.tools.map(internalToAnthropic);
  if (request.stop && request.stop.length > 0) body.stop_sequences = [...request.stop];
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.stream !== false) body.stream = true;
  return body;
}

/** `stop_reason` → StopReason (llm-wire.md §8.1); `pause_turn` and unknown values are `other`. */
export function anthropicStopReason(reason: string | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/** Anthropic's counts, which arrive split between `message_start` and `message_delta`. */
interface AnthropicCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

function mergeCounts(counts: AnthropicCounts, usage: JsonValue | undefined): AnthropicCounts {
  return {
    input: countField(usage, 'input_tokens') ?? counts.input,
    output: countField(usage, 'output_tokens') ?? counts.output,
    cacheRead: countField(usage, 'cache_read_input_tokens') ?? counts.cacheRead,
    cacheWrite: countField(usage, 'cache_creation_input_tokens') ?? counts.cacheWrite,
  };
}

/** `input_tokens` excludes cached tokens on this API; TokenUsage.inputTokens counts all of them. */
function toUsage(counts: AnthropicCounts): TokenUsage {
  const cacheRead = counts.cacheRead ?? 0;
  const cacheWrite = counts.cacheWrite ?? 0;
  return { inputTokens: (counts.input ?? 0) + cacheRead + cacheWrite, outputTokens: counts.output ?? 0, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite };
}

const reported = (counts: AnthropicCounts) => counts.input !== undefined || counts.output !== undefined;

interface BlockDraft {
  type: string;
  id?: string;
  name?: string;
  /** Text, thinking text, or the concatenated `partial_json` of a tool_use block. */
  text: string;
  /** A tool_use block's `input` from content_block_start, used when no partial_json follows. */
  initialInput?: JsonValue;
}

/**
 * Accumulates a Messages stream: blocks by `index`, `input_json_delta` fragments concatenated
 * untouched (parsing is the loop's job), `thinking_delta` as reasoning, `ping` ignored, `error`
 * reported. Complete once `message_delta` has carried a stop reason.
 */
export function createAnthropicStream(session: WireSession): StreamAccumulator {
  const blocks = new Map<number, BlockDraft>();
  let counts: AnthropicCounts = {};
  let stopReason: string | undefined;
  let model = '';
  let stopped = false;

  const event = (message: EventSourceMessage): StreamStep => {
    const parsed = safeParseJson(message.data);
    if (!parsed.ok) return { type: 'malformed', detail: `a stream event is not JSON (${parsed.message})` };
    const data = parsed.value;
    const type = message.event ?? stringField(data, 'type');
    switch (type) {
      case 'message_start': {
        const start = objectField(data, 'message');
        model = stringField(start, 'model') ?? model;
        counts = mergeCounts(counts, field(start, 'usage'));
        return CONTINUE;
      }
      case 'content_block_start': {
        const index = field(data, 'index');
        const block = field(data, 'content_block');
        if (typeof index !== 'number' || !isJsonObject(block)) return { type: 'malformed', detail: 'content_block_start without index or content_block' };
        const draft: BlockDraft = { type: stringField(block, 'type') ?? 'unknown', id: idField(block, 'id'), name: stringField(block, 'name'), text: stringField(block, 'text') ?? '', initialInput: field(block, 'input') };
        blocks.set(index, draft);
        if (draft.type === 'tool_use') {
          draft.id ??= session.newCallId();
          session.onDelta?.({ kind: 'tool_call', id: draft.id, name: draft.name ?? '' });
        } else if (draft.type === 'text' && draft.text) {
          session.onDelta?.({ kind: 'text', text: draft.text });
        }
        return CONTINUE;
      }
      case 'content_block_delta': {
        const index = field(data, 'index');
        const draft = typeof index === 'number' ? blocks.get(index) : undefined;
        const delta = field(data, 'delta');
        if (!draft) return { type: 'malformed', detail: 'content_block_delta for a block that never started' };
        const deltaType = stringField(delta, 'type');
        if (deltaType === 'text_delta') {
          const piece = stringField(delta, 'text') ?? '';
          draft.text += piece;
          if (piece) session.onDelta?.({ kind: 'text', text: piece });
        } else if (deltaType === 'input_json_delta') {
          draft.text += stringField(delta, 'partial_json') ?? '';
        } else if (deltaType === 'thinking_delta') {
          const piece = stringField(delta, 'thinking') ?? '';
          draft.text += piece;
          if (piece) session.onDelta?.({ kind: 'reasoning', text: piece });
        }
        return CONTINUE;
      }
      case 'message_delta':
        stopReason = stringField(field(data, 'delta'), 'stop_reason') ?? stopReason;
        counts = mergeCounts(counts, field(data, 'usage'));
        return CONTINUE;
      case 'message_stop':
        stopped = true;
        return { type: 'done' };
      case 'error':
        return { type: 'error', payload: data };
      default:
        // ping, content_block_stop, and event types added after this adapter was written.
        return CONTINUE;
    }
  };

  const end = (): WireResult => {
    if (stopReason === undefined) {
      return { type: 'malformed', detail: stopped ? 'the stream ended without a stop_reason' : 'the stream ended before the model finished (no message_delta stop_reason, no message_stop)' };
    }
    return { type: 'response', response: assemble([...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block), stopReason, counts, model, session) };
  };

  return { event, end };
}

function assemble(blocks: BlockDraft[], stopReason: string, counts: AnthropicCounts, model: string, session: WireSession) {
  let text = '';
  let reasoning = '';
  const toolCalls: ChatToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') text += block.text;
    else if (block.type === 'thinking') reasoning += block.text;
    else if (block.type === 'tool_use') {
      // An empty input streams as no fragments at all; the start event's `input` ({}) stands then.
      const args = block.text !== '' ? block.text : (argumentsText(block.initialInput) ?? '{}');
      toolCalls.push({ id: block.id ?? session.newCallId(), name: block.name ?? '', arguments: args });
    }
  }
  return {
    text,
    ...(reasoning ? { reasoning } : {}),
    toolCalls,
    stopReason: anthropicStopReason(stopReason),
    usage: toUsage(counts),
    usageReported: reported(counts),
    model,
  };
}

/** A non-streamed `message` body. */
export function parseAnthropicMessage(body: JsonValue, session: WireSession): WireResult {
  if (stringField(body, 'type') === 'error' || field(body, 'error') !== undefined) return { type: 'error', payload: body };
  const content = arrayField(body, 'content');
  if (content === undefined) return { type: 'malformed', detail: 'the body has no content array' };
  const blocks: BlockDraft[] = content.map((block) => {
    const type = stringField(block, 'type') ?? 'unknown';
    const draft: BlockDraft = { type, id: idField(block, 'id'), name: stringField(block, 'name'), text: stringField(block, type === 'thinking' ? 'thinking' : 'text') ?? '' };
    if (type === 'tool_use') {
      draft.text = argumentsText(field(block, 'input')) ?? '{}';
      draft.id ??= session.newCallId();
      session.onDelta?.({ kind: 'tool_call', id: draft.id, name: draft.name ?? '' });
    } else if (type === 'text' && draft.text) session.onDelta?.({ kind: 'text', text: draft.text });
    else if (type === 'thinking' && draft.text) session.onDelta?.({ kind: 'reasoning', text: draft.text });
    return draft;
  });
  return { type: 'response', response: assemble(blocks, stringField(body, 'stop_reason') ?? 'end_turn', mergeCounts({}, field(body, 'usage')), stringField(body, 'model') ?? '', session) };
}
