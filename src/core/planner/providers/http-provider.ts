import { signalClock, startDeadline, type Clock } from '../../util/deadline.ts';
import { safeParseJson, type JsonObject } from '../../util/json.ts';
import {
  PROVIDER_INTERFACE_VERSION,
  type FetchFunction,
  type LlmOutcome,
  type LlmProvider,
  type LlmRequest,
  type ProviderFailure,
  type ProviderTarget,
  type StreamDelta,
} from '../provider-types.ts';
import { ANTHROPIC_VERSION, createAnthropicStream, parseAnthropicMessage, toAnthropicMessagesBody } from './anthropic-wire.ts';
import { displayEndpoint, resolveEndpoint, type HttpProviderKind } from './endpoints.ts';
import { abortFailure, classifyFetchError, classifyHttpFailure, classifyProviderError, invalidResponse, readErrorInfo, scrubSecrets, type FailureContext } from './failure.ts';
import { createOpenAIStream, parseOpenAICompletion, toOpenAIChatBody, type WireRequest } from './openai-wire.ts';
import { readBodyText, readSse, ResponseTooLargeError, type SseLimits } from './sse.ts';
import type { StreamAccumulator, WireResult, WireSession } from './wire-types.ts';

export interface HttpProviderDeps {
  fetch: FetchFunction;
  /**
   * The page's origin (`location.origin`) when running in a browser. It tells a possible CORS
   * refusal from a network failure, which a browser reports with the same opaque TypeError.
   * Leave it out in Node, where there is no CORS.
   */
  pageOrigin?: string;
  /** Milliseconds since the epoch, to turn a `Retry-After` date into a wait. Defaults to `Date.now`. */
  now?: () => number;
  /** Time for the request's deadlines (total and idle). Defaults to a wall clock on `AbortSignal.timeout`. */
  clock?: Clock;
}

/** How a target is named in messages and accounting. */
export function targetLabel(target: ProviderTarget): string {
  return target.label ?? `${target.provider}:${target.model}`;
}

function isHttpTarget(target: ProviderTarget): target is ProviderTarget & { provider: HttpProviderKind } {
  return target.provider === 'openai' || target.provider === 'anthropic' || target.provider === 'openai-compatible';
}

/** The body a target would be sent for `request`, with the endpoint it goes to (never headers: they hold the key). */
export function describeWireRequest(target: ProviderTarget, request: WireRequest): { ok: true; url: string; body: JsonObject } | { ok: false; message: string } {
  if (!isHttpTarget(target)) return { ok: false, message: `A ${target.provider} target sends nothing over HTTP.` };
  const endpoint = resolveEndpoint(target);
  if (!endpoint.ok) return endpoint;
  return { ok: true, url: displayEndpoint(endpoint.url), body: wireBody(target, request) };
}

function wireBody(target: ProviderTarget & { provider: HttpProviderKind }, request: WireRequest): JsonObject {
  const options = { model: target.model, ...(target.temperature === undefined ? {} : { temperature: target.temperature }) };
  return target.provider === 'anthropic' ? toAnthropicMessagesBody(request, options) : toOpenAIChatBody(request, { ...options, dialect: target.provider });
}

function wireHeaders(target: ProviderTarget & { provider: HttpProviderKind }): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
  const key = target.apiKey?.trim();
  if (target.provider === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    // Without it Anthropic answers a browser (Origin-bearing) request 401 with no CORS headers.
    headers['anthropic-dangerous-direct-browser-access'] = 'true';
    if (key) headers['x-api-key'] = key;
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  return headers;
}

/**
 * An `LlmProvider` for an OpenAI, Anthropic or OpenAI-compatible target over the injected
 * `fetch`: streams the answer (falling back to a JSON body when the server sends one), reports
 * text, reasoning and tool names through `onDelta` as they arrive, and never throws: every
 * failure comes back classified, with a message that says what to do and never holds the key.
 */
export function createHttpProvider(target: ProviderTarget, deps: HttpProviderDeps): LlmProvider {
  let generatedIds = 0;
  const newCallId = () => `call_generated_${++generatedIds}`;
  const label = targetLabel(target);
  const scrub = (failure: ProviderFailure): LlmOutcome => ({ ok: false, failure: { ...failure, message: scrubSecrets(failure.message, target.apiKey) } });

  async function complete(request: LlmRequest): Promise<LlmOutcome> {
    if (!isHttpTarget(target)) return scrub({ kind: 'invalid_response', message: `${label} is a ${target.provider} target; the HTTP provider serves only openai, anthropic and openai-compatible targets.` });
    const endpoint = resolveEndpoint(target);
    if (!endpoint.ok) return scrub({ kind: 'network', message: `${label}: ${endpoint.message}` });
    const ctx: FailureContext = {
      provider: target.provider,
      label,
      model: target.model,
      endpoint: endpoint.url,
      apiKey: target.apiKey,
      pageOrigin: deps.pageOrigin,
      nowMs: (deps.now ?? Date.now)(),
      timeoutMs: request.timeoutMs,
    };
    if (target.provider !== 'openai-compatible' && !target.apiKey?.trim()) {
      return scrub({ kind: 'auth', message: `No API key is set for ${label}: enter ${target.provider === 'openai' ? 'an OpenAI' : 'an Anthropic'} API key for this target.` });
    }
    // One deadline for the whole request: total time from this call, idle time between events, the caller's cancel.
    const clock = deps.clock ?? signalClock;
    const deadline = startDeadline({
      clock,
      ...(request.timeoutMs === undefined ? {} : { totalMs: Math.max(0, request.timeoutMs) }),
      ...(request.idleTimeoutMs === undefined ? {} : { idleMs: Math.max(0, request.idleTimeoutMs) }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    ctx.idleTimeoutMs = request.idleTimeoutMs;
    const signals = { caller: request.signal, timeout: deadline.signal };
    try {
      const alreadyAborted = abortFailure(ctx, signals);
      if (alreadyAborted) return scrub(alreadyAborted);
      const signal = deadline.signal;

      let response: Response;
      try {
        response = await deps.fetch(endpoint.url.href, {
          method: 'POST',
          headers: wireHeaders(target),
          body: JSON.stringify(wireBody(target, request)),
          signal,
        });
      } catch (error) {
        return scrub(classifyFetchError(ctx, error, signals));
      }
      deadline.touch();
      const limits: SseLimits = { onActivity: () => deadline.touch(), ...(request.maxResponseBytes === undefined ? {} : { maxBytes: request.maxResponseBytes }) };

      if (!response.ok) {
        const text = await readBodyText(response.body, { ...limits, maxBytes: Math.min(limits.maxBytes ?? ERROR_BODY_MAX_BYTES, ERROR_BODY_MAX_BYTES) }).catch(() => '');
        return scrub(abortFailure(ctx, signals) ?? classifyHttpFailure(ctx, response.status, response.headers, text));
      }

      const session: WireSession = { newCallId, ...(request.onDelta ? { onDelta: guardDelta(request.onDelta) } : {}) };
      let result: WireResult;
      try {
        result = await readAnswer(target.provider, response, session, limits);
      } catch (error) {
        if (error instanceof ResponseTooLargeError) {
          return scrub(invalidResponse(ctx, `the answer went past the ${error.limitBytes}-byte limit (llmResponseMaxBytes) and was dropped unread`, response.status));
        }
        const detail = error instanceof Error ? error.message : String(error);
        return scrub(abortFailure(ctx, signals) ?? { kind: 'network', message: `The connection to ${label} broke off while the answer was arriving (${detail}). The planner retries.` });
      }
      switch (result.type) {
        case 'response':
          return { ok: true, response: result.response };
        case 'error': {
          const info = readErrorInfo(result.payload) ?? { message: 'the server reported an error without details' };
          return scrub({ ...classifyProviderError(ctx, info, undefined, response.headers), httpStatus: response.status });
        }
        case 'malformed':
          return scrub(invalidResponse(ctx, result.detail, response.status));
      }
    } finally {
      deadline.dispose();
    }
  }

  return {
    interfaceVersion: PROVIDER_INTERFACE_VERSION,
    target,
    async complete(request) {
      try {
        return await complete(request);
      } catch (error) {
        // A bug here must still come back as a value: the loop relies on "never throws".
        const detail = error instanceof Error ? error.message : String(error);
        return scrub({ kind: 'invalid_response', message: `${label}: the answer could not be processed (${detail}). The planner retries.` });
      }
    },
  };
}

/** A UI callback that throws must not fail the request it is watching. */
function guardDelta(onDelta: (delta: StreamDelta) => void): (delta: StreamDelta) => void {
  return (delta) => {
    try {
      onDelta(delta);
    } catch {
      // The delta is for display only; the full answer still arrives in the response.
    }
  };
}

/** An error body is read only for its message: a few KiB say everything. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

async function readAnswer(provider: HttpProviderKind, response: Response, session: WireSession, limits: SseLimits): Promise<WireResult> {
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
  if (contentType.includes('text/event-stream')) {
    if (!response.body) return { type: 'malformed', detail: 'the event stream has no body' };
    return readStream(provider === 'anthropic' ? createAnthropicStream(session) : createOpenAIStream(session), response.body, limits);
  }
  const text = await readBodyText(response.body, limits);
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    const kind = contentType.split(';')[0].trim() || 'no content type';
    return { type: 'malformed', detail: `the body (${kind}) is neither an event stream nor JSON` };
  }
  return provider === 'anthropic' ? parseAnthropicMessage(parsed.value, session) : parseOpenAICompletion(parsed.value, session);
}

async function readStream(accumulator: StreamAccumulator, body: ReadableStream<Uint8Array>, limits: SseLimits): Promise<WireResult> {
  let early: WireResult | undefined;
  await readSse(body, {
    onEvent(event) {
      const step = accumulator.event(event);
      if (step.type === 'continue') return 'continue';
      if (step.type !== 'done') early = step;
      return 'stop';
    },
    onStrayJson(line) {
      const parsed = safeParseJson(line);
      early = parsed.ok && readErrorInfo(parsed.value) ? { type: 'error', payload: parsed.value } : { type: 'malformed', detail: `a line outside the event-stream format: ${line.slice(0, 120)}` };
      return 'stop';
    },
  }, limits);
  return early ?? accumulator.end();
}
