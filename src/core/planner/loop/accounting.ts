import { estimateCostUsd } from '../providers/pricing.ts';
import type { LlmResponse, ProviderFailure } from '../provider-types.ts';
import type { AccountingEntry, ToolAccountingEntry } from './session-types.ts';

const EXECUTOR_NAME = 'sextant';

export interface LlmAccountingTarget {
  provider: string;
  model: string;
  label: string;
}

/** One accounting entry for every LLM request and every tool execution (agent-contract.md §8). */
export class SessionAccounting {
  readonly entries: AccountingEntry[] = [];

  /** `serverFor`: the MCP server a tool runs on (by name); tools without one run in the local executor, `sextant`. */
  constructor(
    private readonly now: () => number,
    private readonly serverFor: (command: string) => string | undefined = () => undefined,
  ) {}

  llm(target: LlmAccountingTarget, started: number, latency: number, outcome: { failure?: ProviderFailure; response?: LlmResponse; error?: string }): void {
    const usage = outcome.response?.usage;
    const error = outcome.failure ? `${outcome.failure.kind}: ${outcome.failure.message}` : outcome.error;
    const entry: AccountingEntry = {
      type: 'llm',
      provider: target.provider,
      model: target.model,
      target: target.label,
      status: error ? 'failed' : 'ok',
      latency,
      tokens: {
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
        ...(usage && usage.cacheReadTokens > 0 ? { cachedTokens: usage.cacheReadTokens } : {}),
        totalTokens: (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      },
      timestamp: started,
      ...(error ? { error } : {}),
    };
    if (outcome.response) {
      entry.stopReason = outcome.response.stopReason;
      if (outcome.response.model && outcome.response.model !== target.model) entry.actualModel = outcome.response.model;
      const cost = outcome.response.usageReported === false ? null : estimateCostUsd(outcome.response.model || target.model, outcome.response.usage);
      if (cost !== null) entry.costUsd = cost;
    }
    this.entries.push(entry);
  }

  tool(
    command: string,
    started: number,
    charactersIn: number,
    charactersOut: number,
    source: 'native' | 'xml',
    extra: { error?: string; requestId?: string; latency?: number; originalTokens?: number; replacementTokens?: number; queue?: string; queueDepth?: number; queueWaitMs?: number } = {},
  ): void {
    const { latency, ...rest } = extra;
    this.entries.push({
      type: 'tool',
      mcpServer: this.serverFor(command) ?? EXECUTOR_NAME,
      command,
      status: extra.error ? 'failed' : 'ok',
      latency: latency ?? this.now() - started,
      timestamp: started,
      charactersIn,
      charactersOut,
      source,
      ...rest,
    });
  }

  /** Completes a request's execution entry once the model's text is known (its size; a context drop). */
  completeTool(requestId: string, patch: Partial<ToolAccountingEntry>): void {
    for (let index = this.entries.length - 1; index >= 0; index -= 1) {
      const entry = this.entries[index];
      if (entry.type === 'tool' && entry.requestId === requestId) {
        Object.assign(entry, patch);
        return;
      }
    }
  }
}
