import { DeadlineError } from '../../util/deadline.ts';
import { isJsonObject, safeParseJson, type JsonValue } from '../../util/json.ts';
import type { ProviderFailure } from '../provider-types.ts';
import { displayEndpoint, isLoopbackUrl, localCorsHint, type HttpProviderKind } from './endpoints.ts';
import { retryAfterMs } from './retry-after.ts';
import { field, objectField, stringField } from './wire-json.ts';

/** What a failure message may say about the request that failed. Holds the key only to scrub it. */
export interface FailureContext {
  provider: HttpProviderKind;
  /** How the target is named to the user, e.g. `openai:gpt-4o-mini`. */
  label: string;
  model: string;
  endpoint: URL;
  apiKey?: string;
  /** The page's origin when running in a browser; absent in Node, where CORS does not exist. */
  pageOrigin?: string;
  nowMs: number;
  timeoutMs?: number;
  idleTimeoutMs?: number;
}

/** The parts of a provider's error body the classifier reads (OpenAI, Anthropic, Ollama, llama.cpp, OpenRouter shapes). */
export interface ProviderErrorInfo {
  message?: string;
  type?: string;
  /** OpenAI `code` (string), llama.cpp / OpenRouter `code` (the HTTP status as a number). */
  code?: string | number;
  /** Anthropic `error.details.error_code`, OpenRouter `error.metadata.limit_source`. */
  detailCode?: string;
}

/** The error inside a provider body, or undefined when the body carries none. */
export function readErrorInfo(payload: JsonValue | undefined): ProviderErrorInfo | undefined {
  const error = field(payload, 'error');
  if (typeof error === 'string') return { message: error };
  if (!isJsonObject(error)) return undefined;
  const code = field(error, 'code');
  return {
    message: stringField(error, 'message'),
    type: stringField(error, 'type'),
    code: typeof code === 'string' || typeof code === 'number' ? code : undefined,
    detailCode: stringField(objectField(error, 'details'), 'error_code') ?? stringField(objectField(error, 'metadata'), 'limit_source'),
  };
}

const KEY_PATTERN = /\b(?:sk|pk|rk)-[A-Za-z0-9_*.-]{3,}/g;
const BEARER_PATTERN = /Bearer\s+\S+/gi;

/** Removes the target's key, and anything shaped like a key, from text meant for people. */
export function scrubSecrets(text: string, apiKey: string | undefined): string {
  let scrubbed = text;
  if (apiKey && apiKey.length >= 4) scrubbed = scrubbed.split(apiKey).join('[redacted]');
  return scrubbed.replace(KEY_PATTERN, '[redacted key]').replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/** A server's own error text, cleaned up for quoting: no secrets, no markup, one line, bounded. */
function quote(text: string | undefined, ctx: FailureContext): string {
  if (!text) return '';
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  if (plain === '') return '';
  const bounded = plain.length > 240 ? `${plain.slice(0, 240)}…` : plain;
  return scrubSecrets(bounded, ctx.apiKey);
}

function statusText(status: number | undefined, serverMessage: string): string {
  const parts = [status === undefined ? '' : `HTTP ${status}`, serverMessage ? `"${serverMessage}"` : ''].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(': ')})` : '';
}

// Wording only: OpenAI's ordinary 429 text mentions a billing page, so the bare word is not a sign.
const QUOTA_TEXT = /credit balance|spend(?:ing)? limit|exceeded your current quota|out of credits|insufficient credits/i;
const QUOTA_TAGS = /insufficient_quota|billing_error|enforced_spend_limit|openrouter_credits|openrouter_key_limit/;

/**
 * Classifies an error the provider reported, either as a non-2xx HTTP answer (`status` set) or
 * inside a 200 answer or stream (`status` undefined: OpenAI `data: {"error":…}`, Anthropic
 * `event: error`, Ollama's raw JSON, OpenRouter's numeric `error.code`).
 */
export function classifyProviderError(ctx: FailureContext, info: ProviderErrorInfo, status?: number, headers?: Headers): ProviderFailure {
  const effective = status ?? (typeof info.code === 'number' ? info.code : undefined);
  const said = quote(info.message, ctx);
  const where = statusText(status, said);
  const tags = `${info.type ?? ''} ${typeof info.code === 'string' ? info.code : ''} ${info.detailCode ?? ''}`.toLowerCase();
  const base = { ...(status === undefined ? {} : { httpStatus: status }) };
  const retryAfter = retryAfterMs(headers, info.message, ctx.nowMs);

  if (QUOTA_TAGS.test(tags) || (effective !== 402 && QUOTA_TEXT.test(info.message ?? ''))) {
    return { ...base, kind: 'quota', message: `${ctx.label} says the account has no quota or credit left${where}. Add credit or raise the spending limit in the provider's billing settings, or choose another target; retrying will not help.` };
  }
  if (effective === 402) {
    if (retryAfter !== undefined) return { ...base, kind: 'rate_limit', retryAfterMs: retryAfter, message: `${ctx.label} is over its in-flight budget${where}; the planner waits ${seconds(retryAfter)} as the server asked, then retries.` };
    return { ...base, kind: 'quota', message: `${ctx.label} needs payment${where}. Add credit in the provider's billing settings, or choose another target; retrying will not help.` };
  }
  if (effective === 401 || /authentication_error|invalid_api_key|unauthorized/.test(tags)) {
    return { ...base, kind: 'auth', message: `${ctx.label} did not accept the API key${where}. Check the key entered for this target (it must be ${keyKind(ctx.provider)}) and that it is still active.` };
  }
  if (effective === 403 || /permission_error/.test(tags)) {
    const local = isLoopbackUrl(ctx.endpoint) && ctx.provider === 'openai-compatible' ? ` A local Ollama answers 403 when it refuses the page's origin: ${localCorsHint(ctx.endpoint, ctx.pageOrigin ?? 'this page\'s origin')}` : '';
    return { ...base, kind: 'auth', message: `${ctx.label} refused the request as not permitted${where}. Check that the key has access to model ${ctx.model}.${local}` };
  }
  if (effective === 429 || /rate_limit/.test(tags)) {
    const wait = retryAfter === undefined ? 'retries with backoff' : `waits ${seconds(retryAfter)} as the server asked, then retries`;
    return { ...base, kind: 'rate_limit', ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }), message: `${ctx.label} is rate limiting requests${where}; the planner ${wait}. If this keeps happening, lower the request rate or use another target.` };
  }
  if (effective === 408 || effective === 504 || /timeout/.test(tags)) {
    return { ...base, kind: 'timeout', message: `${ctx.label} timed out before answering${where}. The planner retries; if it keeps happening, shorten the conversation or choose a faster model.` };
  }
  if (effective === 529 || /overloaded/.test(tags)) {
    return { ...base, kind: 'model_error', message: `${ctx.label} is overloaded${where}. This is temporary: the planner retries with backoff or moves to the next target.` };
  }
  if (effective === 503 && /loading/i.test(info.message ?? '')) {
    return { ...base, kind: 'model_error', message: `${ctx.label} is still loading the model${where}. Wait for it to finish loading; the planner retries.` };
  }
  if (effective !== undefined && effective >= 500) {
    return { ...base, kind: 'model_error', ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }), message: `${ctx.label} had a server error${where}. This is usually temporary: the planner retries or moves to the next target.` };
  }
  if (/context_length|exceed_context|context window|too long|maximum context/i.test(`${tags} ${info.message ?? ''}`)) {
    return { ...base, kind: 'model_error', message: `${ctx.label} refused the request because the conversation is longer than the model's context window${where}. Lower the context window setting for this target so the planner trims earlier, or choose a model with a larger window.` };
  }
  if (effective === 404 || /not_found|unexpected endpoint/.test(`${tags} ${(info.message ?? '').toLowerCase()}`)) {
    return { ...base, kind: 'model_error', message: `${ctx.label} did not find the model or the endpoint${where}. Check the model name (for Ollama, \`ollama pull ${ctx.model}\` first) and that the base URL points at the server's /v1 API (${displayEndpoint(ctx.endpoint)}).` };
  }
  if (effective !== undefined && effective >= 400) {
    return { ...base, kind: 'model_error', message: `${ctx.label} refused the request${where}. Check the model name and the target's settings; the planner moves to the next target if there is one.` };
  }
  return { ...base, kind: 'model_error', message: `${ctx.label} reported an error while answering${where}. The planner retries or moves to the next target.` };
}

/** A non-2xx answer. Bodies that are not JSON (an HTML error page, a proxy's text) are quoted, briefly. */
export function classifyHttpFailure(ctx: FailureContext, status: number, headers: Headers, bodyText: string): ProviderFailure {
  const parsed = safeParseJson(bodyText);
  const info = parsed.ok ? readErrorInfo(parsed.value) ?? { message: stringField(parsed.value, 'message') } : { message: bodyText };
  return classifyProviderError(ctx, info, status, headers);
}

/** The body or stream did not follow the provider's format. */
export function invalidResponse(ctx: FailureContext, detail: string, httpStatus?: number): ProviderFailure {
  return {
    kind: 'invalid_response',
    ...(httpStatus === undefined ? {} : { httpStatus }),
    message: `${ctx.label} sent an answer the planner could not read: ${quote(detail, ctx)}. The planner retries; if it keeps happening, check that ${displayEndpoint(ctx.endpoint)} is an ${dialectName(ctx.provider)} endpoint.`,
  };
}

export interface AbortSignals {
  caller?: AbortSignal;
  timeout?: AbortSignal;
}

function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

/** A failure caused by one of the request's signals, or undefined when neither has aborted. */
export function abortFailure(ctx: FailureContext, signals: AbortSignals): ProviderFailure | undefined {
  const fired = signals.timeout?.aborted ? signals.timeout.reason : undefined;
  if (fired instanceof DeadlineError && fired.reason === 'idle') {
    return { kind: 'timeout', message: `${ctx.label} sent nothing for ${ctx.idleTimeoutMs ?? fired.limitMs} ms (llmIdleTimeout). The planner retries; if it keeps happening, raise llmIdleTimeout or choose a faster model.` };
  }
  if ((signals.timeout?.aborted && !(fired instanceof DeadlineError && fired.reason === 'cancelled')) || (signals.caller?.aborted && isTimeoutReason(signals.caller.reason))) {
    const limit = ctx.timeoutMs === undefined ? '' : ` within ${ctx.timeoutMs} ms (llmTimeout)`;
    return { kind: 'timeout', message: `${ctx.label} did not finish answering${limit}. The planner retries; if it keeps happening, raise llmTimeout or choose a faster model.` };
  }
  if (signals.caller?.aborted) return { kind: 'cancelled', message: `The request to ${ctx.label} was cancelled.` };
  return undefined;
}

/**
 * `fetch` rejected. A browser reports an unreachable server and a CORS refusal with the same
 * opaque TypeError, so a cross-origin target from a page is classified `cors` and the message
 * names both causes; in Node (no page origin) or same-origin it is `network`.
 */
export function classifyFetchError(ctx: FailureContext, error: unknown, signals: AbortSignals): ProviderFailure {
  const aborted = abortFailure(ctx, signals);
  if (aborted) return aborted;
  const detail = quote(describeError(error), ctx);
  const endpoint = displayEndpoint(ctx.endpoint);
  const local = isLoopbackUrl(ctx.endpoint);
  const crossOrigin = ctx.pageOrigin !== undefined && ctx.pageOrigin !== ctx.endpoint.origin;
  // api.openai.com answers every origin, so from there an opaque TypeError is a network problem.
  const corsPossible = crossOrigin && !(ctx.provider === 'openai' && ctx.endpoint.hostname === 'api.openai.com');
  if (corsPossible) {
    const origin = ctx.pageOrigin ?? '';
    const fix = local
      ? localCorsHint(ctx.endpoint, origin)
      : ctx.provider === 'anthropic'
        ? 'Anthropic allows browser calls only with the anthropic-dangerous-direct-browser-access header, which the planner sends; an organization can still disable browser (CORS) access in its settings, in which case use the command-line runner.'
        : `Check that ${ctx.endpoint.host} allows browser requests from ${origin} (it must answer the CORS preflight and send Access-Control-Allow-Origin).`;
    return {
      kind: 'cors',
      message: `The browser could not read an answer from ${ctx.label} at ${endpoint}${detail ? ` (${detail})` : ''}. Either the server is not reachable (not running, wrong address, offline), or it refused this page's origin ${origin}: browsers report both the same way. If the server is running: ${fix}`,
    };
  }
  const start = local ? ' Start the local server (for example `ollama serve`, LM Studio\'s server, or llama-server) and check the port.' : ' Check the address and the network connection.';
  return { kind: 'network', message: `Could not reach ${ctx.label} at ${endpoint}${detail ? ` (${detail})` : ''}.${start} The planner retries.` };
}

/** A TypeError's message and, in Node, its cause (ECONNREFUSED, ENOTFOUND, "bad port"…), which says more. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return `${error.message}: ${code}`;
  return cause instanceof Error && cause.message ? `${error.message}: ${cause.message}` : error.message;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

function keyKind(provider: HttpProviderKind): string {
  if (provider === 'openai') return 'an OpenAI key, sk-…';
  if (provider === 'anthropic') return 'an Anthropic key, sk-ant-…';
  return "the server's own key, if it asks for one";
}

function dialectName(provider: HttpProviderKind): string {
  return provider === 'anthropic' ? 'Anthropic Messages' : 'OpenAI Chat Completions';
}
