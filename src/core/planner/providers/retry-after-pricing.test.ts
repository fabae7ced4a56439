import { describe, expect, it } from 'vitest';
import { estimateCostUsd, modelPrice } from './pricing.ts';
import { MAX_RETRY_AFTER_MS, parseRetryAfter, retryAfterMs } from './retry-after.ts';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('retryAfterMs', () => {
  const now = Date.parse('2026-10-21T07:28:00Z');

  it('reads retry-after-ms first, then Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), undefined, now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '9' }), undefined, now)).toBe(9000);
    expect(retryAfterMs(headers({ 'retry-after': '1.5' }), undefined, now)).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:12 GMT' }), undefined, now)).toBe(12_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 21 Oct 2026 07:27:00 GMT' }), undefined, now)).toBe(0);
  });

  it('falls back to the "try again in" wording when the header is absent or unreadable', () => {
    expect(retryAfterMs(headers({}), 'Please try again in 20s.', now)).toBe(20_000);
    expect(retryAfterMs(undefined, 'Please try again in 350ms.', now)).toBe(350);
    expect(retryAfterMs(undefined, 'Please try again in 1.5 seconds', now)).toBe(1500);
    expect(retryAfterMs(undefined, 'Please try again in 6m0s.', now)).toBe(360_000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), 'no hint here', now)).toBeUndefined();
  });

  it('ignores junk and caps absurd waits', () => {
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('2 3', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '999999' }), undefined, now)).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('estimateCostUsd', () => {
  it('prices listed models and their dated snapshots, charging cached tokens at their own rate', () => {
    // gpt-4o-mini: $0.15 input, $0.075 cached input, $0.60 output per million tokens.
    expect(estimateCostUsd('gpt-4o-mini-2024-07-18', { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 0 })).toBeCloseTo(0.075 + 0.0375 + 0.6, 10);
    // claude-sonnet-4-5: $3 input, $3.75 cache write, $0.30 cache read, $15 output.
    expect(estimateCostUsd('claude-sonnet-4-5-20250929', { inputTokens: 1200, outputTokens: 100, cacheReadTokens: 100, cacheWriteTokens: 100 })).toBeCloseTo((1000 * 3 + 100 * 0.3 + 100 * 3.75 + 100 * 15) / 1e6, 12);
  });

  it('returns null for unknown and look-alike models', () => {
    expect(estimateCostUsd('llama3.2', { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeNull();
    expect(modelPrice('gpt-4o-mini-realtime')).toBeNull();
    expect(modelPrice('gpt-4.1-nano')).toBeNull();
    expect(modelPrice('GPT-4o')).toEqual(modelPrice('gpt-4o'));
  });
});
