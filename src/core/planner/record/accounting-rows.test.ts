import { describe, expect, it } from 'vitest';
import { accountingRows, accountingTotals, formatCost } from './accounting-rows.ts';
import { failedInvocations } from './run-summary.ts';
import type { TimelineStep } from './timeline-steps.ts';

const llm = (status: 'ok' | 'failed', input: number, output: number, extra: Record<string, unknown> = {}) => ({
  type: 'llm',
  provider: 'openai-compatible',
  model: 'mock',
  status,
  latency: 120,
  tokens: { inputTokens: input, outputTokens: output, cachedTokens: 10, totalTokens: input + output },
  timestamp: 1,
  ...extra,
});
const tool = { type: 'tool', mcpServer: 'sextant', command: 'statistical_regression_tool', status: 'ok', latency: 40, timestamp: 2, charactersIn: 10, charactersOut: 20 };

describe('accounting', () => {
  it('reads the contract entries, skips foreign ones, and totals tokens and latency', () => {
    const rows = accountingRows([llm('failed', 0, 0, { error: 'rate limited' }), llm('ok', 1000, 200), tool, { type: 'other' }, 'junk']);
    expect(rows.map((row) => [row.type, row.model, row.status])).toEqual([
      ['llm', 'mock', 'failed'],
      ['llm', 'mock', 'ok'],
      ['tool', 'statistical_regression_tool', 'ok'],
    ]);
    expect(rows[0].error).toBe('rate limited');
    const totals = accountingTotals(rows);
    expect(totals).toMatchObject({ llmRequests: 2, toolExecutions: 1, failed: 1, latencyMs: 280, inputTokens: 1000, outputTokens: 200, costUsd: null, costIncomplete: false });
    expect(formatCost(totals.costUsd)).toBe('—');
  });

  it('uses the entry cost, or the price function, and flags a partial total', () => {
    const rows = accountingRows([llm('ok', 1000, 100, { costUsd: 0.002 }), llm('ok', 1000, 100)], (row) => (row.model === 'priced' ? 1 : null));
    const totals = accountingTotals(rows);
    expect(totals.costUsd).toBeCloseTo(0.002);
    expect(totals.costIncomplete).toBe(true);
    expect(formatCost(0.002)).toBe('$0.00200');
    expect(formatCost(1.5)).toBe('$1.5000');
  });
});

describe('failedInvocations', () => {
  it('lists the invocations rejected by validation and the ones whose execution failed', () => {
    const record = (status: 'ok' | 'error') => ({
      requestId: 'r',
      toolName: 'test_echo',
      resolvedVersion: '1.0.0',
      phase: 'execution' as const,
      result: { status, summary: '', warnings: [], errors: [], confidence: 1 },
      durationMs: 1,
    });
    const steps: TimelineStep[] = [
      { kind: 'invocation', turn: 1, callId: 'a', toolName: 'test_echo', invocation: { request_id: 'ra' }, argumentsRepaired: false, valid: false, errors: [] },
      { kind: 'invocation', turn: 1, callId: 'b', toolName: 'test_echo', invocation: { request_id: 'rb' }, argumentsRepaired: false, valid: true, errors: [] },
      { kind: 'execution', turn: 1, callId: 'b', record: record('error') },
      { kind: 'invocation', turn: 1, callId: 'c', toolName: 'test_echo', invocation: { request_id: 'rc' }, argumentsRepaired: false, valid: true, errors: [] },
      { kind: 'execution', turn: 1, callId: 'c', record: record('ok') },
    ];
    expect(failedInvocations(steps)).toEqual([{ request_id: 'ra' }, { request_id: 'rb' }]);
  });
});
