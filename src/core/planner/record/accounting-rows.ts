/** One row of the accounting table: an LLM request or a tool execution (agent-contract §4). */
export interface AccountingRow {
  type: 'llm' | 'tool';
  /** Provider for an LLM request; `sextant` (the worker pool) for a tool. */
  provider: string;
  /** Model for an LLM request; the tool's name for a tool execution. */
  model: string;
  status: 'ok' | 'failed';
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  /** Cost in US dollars when the provider module priced it; null when unknown. */
  costUsd: number | null;
  timestamp: number;
  error?: string;
}

export interface AccountingTotals {
  llmRequests: number;
  toolExecutions: number;
  failed: number;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  /** Sum of the priced rows; null when no row has a price. */
  costUsd: number | null;
  /** Some rows had no price, so the cost is a lower bound. */
  costIncomplete: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/**
 * Reads the session's `accounting` array into rows; entries of another shape are skipped, so a
 * saved run from an older build still shows what it can. `priceOf` prices an LLM row when the
 * entry carries no `costUsd` (null: no price known).
 */
export function accountingRows(accounting: unknown, priceOf?: (row: AccountingRow) => number | null): AccountingRow[] {
  if (!Array.isArray(accounting)) return [];
  const rows: AccountingRow[] = [];
  for (const entry of accounting) {
    if (!isObject(entry) || (entry.type !== 'llm' && entry.type !== 'tool')) continue;
    const tokens = isObject(entry.tokens) ? entry.tokens : {};
    const row: AccountingRow = {
      type: entry.type,
      provider: entry.type === 'llm' ? stringOr(entry.provider, '?') : stringOr(entry.mcpServer, 'sextant'),
      model: entry.type === 'llm' ? stringOr(entry.model, '?') : stringOr(entry.command, '?'),
      status: entry.status === 'ok' ? 'ok' : 'failed',
      latencyMs: numberOr(entry.latency, 0),
      inputTokens: numberOr(tokens.inputTokens, 0),
      outputTokens: numberOr(tokens.outputTokens, 0),
      cachedTokens: numberOr(tokens.cachedTokens, numberOr(tokens.cacheReadTokens, 0)),
      costUsd: typeof entry.costUsd === 'number' ? entry.costUsd : null,
      timestamp: numberOr(entry.timestamp, 0),
      ...(typeof entry.error === 'string' ? { error: entry.error } : {}),
    };
    if (row.costUsd === null && row.type === 'llm' && priceOf) row.costUsd = priceOf(row);
    rows.push(row);
  }
  return rows;
}

export function accountingTotals(rows: ReadonlyArray<AccountingRow>): AccountingTotals {
  const priced = rows.filter((row) => row.costUsd !== null);
  const llm = rows.filter((row) => row.type === 'llm');
  return {
    llmRequests: llm.length,
    toolExecutions: rows.length - llm.length,
    failed: rows.filter((row) => row.status === 'failed').length,
    latencyMs: rows.reduce((sum, row) => sum + row.latencyMs, 0),
    inputTokens: rows.reduce((sum, row) => sum + row.inputTokens, 0),
    outputTokens: rows.reduce((sum, row) => sum + row.outputTokens, 0),
    cachedTokens: rows.reduce((sum, row) => sum + row.cachedTokens, 0),
    costUsd: priced.length === 0 ? null : priced.reduce((sum, row) => sum + row.costUsd!, 0),
    // Tool executions cost nothing in money; only unpriced LLM rows make the total incomplete.
    costIncomplete: llm.some((row) => row.costUsd === null) && priced.length > 0,
  };
}

/** `$0.0123`, or `—` when unknown. */
export function formatCost(costUsd: number | null): string {
  if (costUsd === null) return '—';
  return `$${costUsd < 0.01 ? costUsd.toFixed(5) : costUsd.toFixed(4)}`;
}
