import type { InternalToolDefinition } from '../toolcanon/index.ts';
import type { Clock } from '../util/deadline.ts';

/**
 * The provider interface the planner loop talks to. Versioned: an adapter states the version
 * it implements, and the loop refuses one it does not know, so a stale adapter fails loudly.
 */
export const PROVIDER_INTERFACE_VERSION = 1;

export type ProviderKind = 'openai' | 'anthropic' | 'openai-compatible' | 'scripted';

/** One configured model endpoint; the loop cycles through a list of these on retries. */
export interface ProviderTarget {
  provider: ProviderKind;
  model: string;
  /** Base URL (required for `openai-compatible`; overrides the public endpoint otherwise). */
  baseUrl?: string;
  /** Secret. Never logged, never exported, sent only to this target's own endpoint. */
  apiKey?: string;
  /** Model capacity in tokens for the context guard; a per-kind default applies when absent. */
  contextWindow?: number;
  temperature?: number;
  /** For the scripted provider: the JSON array it replays (see scripted-provider.ts). */
  script?: unknown;
  /** Display name in the UI and accounting, e.g. `openai:gpt-4.1-mini`. */
  label?: string;
}

/** A tool call as the model sent it. `arguments` is the raw text: parsing and repair are the loop's job. */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Conversation messages with agent-contract §6's roles. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; name?: string; content: string };

export interface TokenUsage {
  /** Every prompt token, cached or not (OpenAI `prompt_tokens`; Anthropic input + cache read + cache write). */
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` served from the provider's prompt cache. */
  cacheReadTokens: number;
  /** The part of `inputTokens` written to the prompt cache (Anthropic only). */
  cacheWriteTokens: number;
}

/** Why the model stopped, normalized across providers. */
export type StopReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

/** Incremental output while a response streams, for the UI. */
export type StreamDelta = { kind: 'text'; text: string } | { kind: 'reasoning'; text: string } | { kind: 'tool_call'; id: string; name: string };

export interface LlmRequest {
  messages: ReadonlyArray<ChatMessage>;
  /** Tools offered on this request (possibly only `agent__final_report`). Empty for XML transport. */
  tools: ReadonlyArray<InternalToolDefinition>;
  maxOutputTokens?: number;
  /** Stop sequences (the XML transport uses them). */
  stop?: ReadonlyArray<string>;
  signal?: AbortSignal;
  /** Time limit for the whole request, streaming included, counted from the call; past it the outcome is a `timeout` failure. */
  timeoutMs?: number;
  /** Longest wait for the next stream event (keep-alive comments do not count); past it the outcome is a `timeout` failure. */
  idleTimeoutMs?: number;
  /** Most bytes of answer body read; a longer answer is an `invalid_response` failure (the stream is not kept whole). */
  maxResponseBytes?: number;
  onDelta?: (delta: StreamDelta) => void;
}

export interface LlmResponse {
  text: string;
  reasoning?: string;
  toolCalls: ChatToolCall[];
  stopReason: StopReason;
  usage: TokenUsage;
  /** The model the provider says answered (may differ from the requested one). */
  model: string;
  /** False when the provider sent no token counts (some local servers): `usage` is then all zeros. */
  usageReported?: boolean;
}

/**
 * How a request failed. `auth` and `quota` end the session at once; the others are retried
 * (cycling targets), honouring `retryAfterMs` when the provider sent one.
 */
export type ProviderFailureKind =
  | 'auth'
  | 'quota'
  | 'rate_limit'
  | 'network'
  | 'timeout'
  | 'invalid_response'
  | 'cors'
  | 'model_error'
  | 'cancelled';

export interface ProviderFailure {
  kind: ProviderFailureKind;
  /** One or two sentences saying what went wrong and what to do about it. No secrets. */
  message: string;
  httpStatus?: number;
  retryAfterMs?: number;
}

export type LlmOutcome = { ok: true; response: LlmResponse } | { ok: false; failure: ProviderFailure };

export interface LlmProvider {
  readonly interfaceVersion: typeof PROVIDER_INTERFACE_VERSION;
  readonly target: ProviderTarget;
  /** Never throws: every failure comes back classified. */
  complete(request: LlmRequest): Promise<LlmOutcome>;
}

/** `fetch` as the adapters use it; injected so the core stays DOM-free and tests can fake it. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** Time as the loop uses it; injected because the core may not touch timers itself. */
export type PlannerClock = Clock;
