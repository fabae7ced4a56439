/** Longest wait the adapters pass on; a server asking for more is capped (the loop's backoff caps at 60 s too). */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * How long the server asked us to wait, in milliseconds, or undefined when it did not say.
 * Sources in order: `retry-after-ms` (OpenAI SDK convention), `retry-after` as seconds or as an
 * HTTP date (measured from `nowMs`), then OpenAI's "try again in 20s" / "in 350ms" wording in
 * the error message, which is all a browser sees when the header is not CORS-exposed.
 */
export function retryAfterMs(headers: Headers | undefined, message: string | undefined, nowMs: number): number | undefined {
  const fromMsHeader = parseMilliseconds(headers?.get('retry-after-ms'));
  if (fromMsHeader !== undefined) return cap(fromMsHeader);
  const fromHeader = parseRetryAfter(headers?.get('retry-after'), nowMs);
  if (fromHeader !== undefined) return cap(fromHeader);
  const fromText = message ? parseTryAgainIn(message) : undefined;
  return fromText === undefined ? undefined : cap(fromText);
}

function parseMilliseconds(value: string | null | undefined): number | undefined {
  if (!value || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Math.round(Number(value));
}

/** `Retry-After`: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Only a date with a weekday or month name: a bare number was handled above, and Date.parse
  // accepts odd strings ("1", "2 3") we should not read as dates.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

const DURATION_PART = /(\d+(?:\.\d+)?)\s*(ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|m|hours?|h)/gi;
const TRY_AGAIN = /try again in\s+((?:\d+(?:\.\d+)?\s*(?:ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|m|hours?|h)\s*)+)/i;

/** "try again in 20s", "in 1.5 seconds", "in 350ms", "in 6m0s". */
function parseTryAgainIn(message: string): number | undefined {
  const match = TRY_AGAIN.exec(message);
  if (!match) return undefined;
  let total = 0;
  for (const [, amount, unit] of match[1].matchAll(DURATION_PART)) {
    const value = Number(amount);
    const u = unit.toLowerCase();
    if (u === 'ms' || u.startsWith('milli')) total += value;
    else if (u === 'h' || u.startsWith('hour')) total += value * 3_600_000;
    else if (u === 'm' || u.startsWith('min')) total += value * 60_000;
    else total += value * 1000;
  }
  return Math.round(total);
}

function cap(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}
