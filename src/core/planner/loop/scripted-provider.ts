import {
  PROVIDER_INTERFACE_VERSION,
  type ChatToolCall,
  type LlmOutcome,
  type LlmProvider,
  type LlmRequest,
  type ProviderFailureKind,
  type ProviderTarget,
  type StopReason,
  type TokenUsage,
} from '../provider-types.ts';
import { isJsonObject } from '../../util/json.ts';

/**
 * The scripted provider replays a JSON array, one entry per request it receives:
 *
 * - `{"tool_calls": [{"id", "name", "arguments"}], "text"?, "reasoning"?, "usage"?, "stop_reason"?}`:
 *   `arguments` is an object or a raw string (so malformed JSON can be scripted);
 * - `{"text": "..."}`, `{"reasoning": "..."}`, `{}` (an empty response);
 * - `{"failure": {"kind": ..., "retry_after_ms"?: n, "message"?: "..."}}`.
 *
 * `usage` is `{input_tokens, output_tokens, cache_read_tokens?, cache_write_tokens?}` (camelCase
 * accepted too). A provider asked for more entries than its array holds answers `invalid_response`.
 */
export type ScriptEntry =
  | { kind: 'response'; text: string; reasoning?: string; toolCalls: ChatToolCall[]; usage: TokenUsage | null; stopReason: StopReason | null }
  | { kind: 'failure'; failureKind: ProviderFailureKind; retryAfterMs?: number; message?: string };

/** Why a script cannot be replayed; `index` is the bad entry's position in the array (-1: the script itself). */
export interface ScriptProblem {
  code: 'INVALID_SCRIPT';
  index: number;
  /** JSON path of the problem, e.g. `$[2].tool_calls[0].name`. */
  field: string;
  message: string;
}

export const SCRIPTED_FAILURE_KINDS: readonly ProviderFailureKind[] = [
  'auth',
  'quota',
  'rate_limit',
  'network',
  'timeout',
  'invalid_response',
  'cors',
  'model_error',
];

const STOP_REASONS: readonly StopReason[] = ['stop', 'tool_calls', 'length', 'content_filter', 'other'];
const ENTRY_KEYS = new Set(['tool_calls', 'text', 'reasoning', 'usage', 'stop_reason', 'failure']);
const USAGE_KEYS: Record<string, keyof TokenUsage> = {
  input_tokens: 'inputTokens',
  inputTokens: 'inputTokens',
  output_tokens: 'outputTokens',
  outputTokens: 'outputTokens',
  cache_read_tokens: 'cacheReadTokens',
  cacheReadTokens: 'cacheReadTokens',
  cache_write_tokens: 'cacheWriteTokens',
  cacheWriteTokens: 'cacheWriteTokens',
};

type Parsed<T> = { ok: true; value: T } | { ok: false; error: ScriptProblem };

function problem(index: number, field: string, message: string): { ok: false; error: ScriptProblem } {
  return { ok: false, error: { code: 'INVALID_SCRIPT', index, field, message: `Script entry ${index} (${field}): ${message}` } };
}

function parseUsage(value: unknown, index: number): Parsed<TokenUsage> {
  const field = `$[${index}].usage`;
  if (!isJsonObject(value)) return problem(index, field, 'usage must be an object of token counts');
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  for (const [key, count] of Object.entries(value)) {
    const name = USAGE_KEYS[key];
    if (!name) return problem(index, `${field}.${key}`, `unknown usage field; use input_tokens, output_tokens, cache_read_tokens, cache_write_tokens`);
    if (!Number.isInteger(count) || (count as number) < 0) return problem(index, `${field}.${key}`, 'a token count must be an integer >= 0');
    usage[name] = count as number;
  }
  return { ok: true, value: usage };
}

function parseToolCalls(value: unknown, index: number): Parsed<ChatToolCall[]> {
  const field = `$[${index}].tool_calls`;
  if (!Array.isArray(value)) return problem(index, field, 'tool_calls must be an array');
  const calls: ChatToolCall[] = [];
  for (const [position, call] of value.entries()) {
    const at = `${field}[${position}]`;
    if (!isJsonObject(call)) return problem(index, at, 'a tool call must be an object {id, name, arguments}');
    const unknown = Object.keys(call).find((key) => key !== 'id' && key !== 'name' && key !== 'arguments');
    if (unknown) return problem(index, `${at}.${unknown}`, 'a tool call has only id, name and arguments');
    if (typeof call.name !== 'string' || call.name === '') return problem(index, `${at}.name`, 'name must be a non-empty string');
    if (call.id !== undefined && (typeof call.id !== 'string' || call.id === '')) return problem(index, `${at}.id`, 'id must be a non-empty string');
    const args = call.arguments;
    if (args !== undefined && typeof args !== 'string' && !isJsonObject(args)) {
      return problem(index, `${at}.arguments`, 'arguments must be an object, or a string holding the raw (possibly malformed) JSON');
    }
    calls.push({
      id: typeof call.id === 'string' ? call.id : `call_${index}_${position}`,
      name: call.name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    });
  }
  return { ok: true, value: calls };
}

function parseEntry(entry: unknown, index: number): Parsed<ScriptEntry> {
  if (!isJsonObject(entry)) return problem(index, `$[${index}]`, 'each entry must be an object');
  const unknown = Object.keys(entry).find((key) => !ENTRY_KEYS.has(key));
  if (unknown) return problem(index, `$[${index}].${unknown}`, `unknown key; an entry has ${[...ENTRY_KEYS].join(', ')}`);
  if (entry.failure !== undefined) {
    if (Object.keys(entry).length > 1) return problem(index, `$[${index}]`, 'a failure entry has only the failure key');
    const failure = entry.failure;
    const field = `$[${index}].failure`;
    if (!isJsonObject(failure)) return problem(index, field, 'failure must be an object {kind, retry_after_ms?}');
    if (typeof failure.kind !== 'string' || !SCRIPTED_FAILURE_KINDS.includes(failure.kind as ProviderFailureKind)) {
      return problem(index, `${field}.kind`, `kind must be one of ${SCRIPTED_FAILURE_KINDS.join(', ')}`);
    }
    const extra = Object.keys(failure).find((key) => key !== 'kind' && key !== 'retry_after_ms' && key !== 'message');
    if (extra) return problem(index, `${field}.${extra}`, 'a failure has only kind, retry_after_ms and message');
    if (failure.retry_after_ms !== undefined && (!Number.isInteger(failure.retry_after_ms) || (failure.retry_after_ms as number) < 0)) {
      return problem(index, `${field}.retry_after_ms`, 'retry_after_ms must be an integer >= 0');
    }
    if (failure.message !== undefined && typeof failure.message !== 'string') return problem(index, `${field}.message`, 'message must be a string');
    return {
      ok: true,
      value: {
        kind: 'failure',
        failureKind: failure.kind as ProviderFailureKind,
        ...(typeof failure.retry_after_ms === 'number' ? { retryAfterMs: failure.retry_after_ms } : {}),
        ...(typeof failure.message === 'string' ? { message: failure.message } : {}),
      },
    };
  }
  for (const key of ['text', 'reasoning'] as const) {
    if (entry[key] !== undefined && typeof entry[key] !== 'string') return problem(index, `$[${index}].${key}`, `${key} must be a string`);
  }
  if (entry.stop_reason !== undefined && !STOP_REASONS.includes(entry.stop_reason as StopReason)) {
    return problem(index, `$[${index}].stop_reason`, `stop_reason must be one of ${STOP_REASONS.join(', ')}`);
  }
  let toolCalls: ChatToolCall[] = [];
  if (entry.tool_calls !== undefined) {
    const parsed = parseToolCalls(entry.tool_calls, index);
    if (!parsed.ok) return parsed;
    toolCalls = parsed.value;
  }
  let usage: TokenUsage | null = null;
  if (entry.usage !== undefined) {
    const parsed = parseUsage(entry.usage, index);
    if (!parsed.ok) return parsed;
    usage = parsed.value;
  }
  return {
    ok: true,
    value: {
      kind: 'response',
      text: typeof entry.text === 'string' ? entry.text : '',
      ...(typeof entry.reasoning === 'string' ? { reasoning: entry.reasoning } : {}),
      toolCalls,
      usage,
      stopReason: (entry.stop_reason as StopReason | undefined) ?? null,
    },
  };
}

/** Checks a script; the error names the first bad entry by index. */
export function parseProviderScript(script: unknown): Parsed<ScriptEntry[]> {
  if (!Array.isArray(script)) {
    return { ok: false, error: { code: 'INVALID_SCRIPT', index: -1, field: '$', message: 'A provider script must be a JSON array of entries' } };
  }
  const entries: ScriptEntry[] = [];
  for (const [index, entry] of script.entries()) {
    const parsed = parseEntry(entry, index);
    if (!parsed.ok) return parsed;
    entries.push(parsed.value);
  }
  return { ok: true, value: entries };
}

/** A scripted `LlmProvider`, with what it has left and why its script was refused, if it was. */
export interface ScriptedProvider extends LlmProvider {
  /** Non-null when the script is invalid: then every request answers `invalid_response` with this message. */
  readonly problem: ScriptProblem | null;
  /** Entries not yet replayed. */
  remaining(): number;
}

const FAILURE_MESSAGES: Record<ProviderFailureKind, string> = {
  auth: 'Scripted authentication failure: the API key was refused. Check the key.',
  quota: 'Scripted quota failure: the account is out of credit. Add credit or use another target.',
  rate_limit: 'Scripted rate limit: too many requests. Wait and retry.',
  network: 'Scripted network failure: the endpoint could not be reached.',
  timeout: 'Scripted timeout: the request took too long.',
  invalid_response: 'Scripted invalid response: the answer could not be read.',
  cors: 'Scripted CORS refusal: the endpoint does not allow this page origin.',
  model_error: 'Scripted model error: the model failed while answering.',
  cancelled: 'The request was cancelled.',
};

/** Replays `target.script` (one entry per request; each target keeps its own position). */
export function createScriptedProvider(target: ProviderTarget): ScriptedProvider {
  const parsed = parseProviderScript(target.script);
  const entries = parsed.ok ? parsed.value : [];
  let next = 0;
  const label = target.label ?? `${target.provider}:${target.model}`;

  function complete(request: LlmRequest): Promise<LlmOutcome> {
    if (request.signal?.aborted) return Promise.resolve({ ok: false, failure: { kind: 'cancelled', message: FAILURE_MESSAGES.cancelled } });
    if (!parsed.ok) return Promise.resolve({ ok: false, failure: { kind: 'invalid_response', message: parsed.error.message } });
    if (next >= entries.length) {
      return Promise.resolve({
        ok: false,
        failure: { kind: 'invalid_response', message: `${label} has no scripted response left: its script holds ${entries.length} entries and this is request ${next + 1}.` },
      });
    }
    const entry = entries[next++];
    if (entry.kind === 'failure') {
      return Promise.resolve({
        ok: false,
        failure: {
          kind: entry.failureKind,
          message: entry.message ?? FAILURE_MESSAGES[entry.failureKind],
          ...(entry.retryAfterMs !== undefined ? { retryAfterMs: entry.retryAfterMs } : {}),
        },
      });
    }
    if (entry.reasoning) request.onDelta?.({ kind: 'reasoning', text: entry.reasoning });
    if (entry.text) request.onDelta?.({ kind: 'text', text: entry.text });
    for (const call of entry.toolCalls) request.onDelta?.({ kind: 'tool_call', id: call.id, name: call.name });
    return Promise.resolve({
      ok: true,
      response: {
        text: entry.text,
        ...(entry.reasoning !== undefined ? { reasoning: entry.reasoning } : {}),
        toolCalls: entry.toolCalls.map((call) => ({ ...call })),
        stopReason: entry.stopReason ?? (entry.toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        usage: entry.usage ?? { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        usageReported: entry.usage !== null,
        model: target.model,
      },
    });
  }

  return {
    interfaceVersion: PROVIDER_INTERFACE_VERSION,
    target,
    problem: parsed.ok ? null : parsed.error,
    remaining: () => entries.length - next,
    complete,
  };
}
