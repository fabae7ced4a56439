import type { TokenUsage } from '../provider-types.ts';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  /** Input tokens read from the prompt cache. */
  cacheRead: number;
  /** Input tokens written to the prompt cache (Anthropic's 5-minute rate; OpenAI has no write charge). */
  cacheWrite: number;
  output: number;
}

/** When the prices below were read from the providers' pricing pages; prices change, so the UI shows this date. */
export const PRICES_AS_OF = '2026-06';

/**
 * Standard-tier list prices of a few models, from the providers' public pricing pages
 * (platform.claude.com/docs/en/about-claude/pricing; OpenAI's API pricing page). Only models
 * whose every rate was confirmed are listed; anything else has no known price.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o-mini': { input: 0.15, cacheRead: 0.075, cacheWrite: 0, output: 0.6 },
  'gpt-4o': { input: 2.5, cacheRead: 1.25, cacheWrite: 0, output: 10 },
  'gpt-4.1': { input: 2, cacheRead: 0.5, cacheWrite: 0, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cacheRead: 0.1, cacheWrite: 0, output: 1.6 },
  'claude-opus-4-5': { input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
  'claude-sonnet-4-5': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-sonnet-4': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-haiku-4-5': { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cacheRead: 0.08, cacheWrite: 1, output: 4 },
};

/** A dated snapshot id (`-2024-07-18`, `-20250929`) or Anthropic's `-latest` alias after a listed name. */
const SNAPSHOT_SUFFIX = /^-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** The price of `model`, matching listed names exactly or followed by a snapshot suffix; null when unknown. */
export function modelPrice(model: string): ModelPrice | null {
  const name = model.trim().toLowerCase();
  if (Object.hasOwn(MODEL_PRICES, name)) return MODEL_PRICES[name];
  for (const [listed, price] of Object.entries(MODEL_PRICES)) {
    if (name.startsWith(listed) && SNAPSHOT_SUFFIX.test(name.slice(listed.length))) return price;
  }
  return null;
}

/**
 * The list-price cost of one request in USD, or null when the model's price is not known
 * (local models, unlisted or renamed ones). Cached and cache-written input tokens are part of
 * `usage.inputTokens` and are charged at their own rates.
 */
export function estimateCostUsd(model: string, usage: TokenUsage): number | null {
  const price = modelPrice(model);
  if (!price) return null;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const dollars = uncached * price.input + usage.cacheReadTokens * price.cacheRead + usage.cacheWriteTokens * price.cacheWrite + usage.outputTokens * price.output;
  return dollars / 1_000_000;
}
