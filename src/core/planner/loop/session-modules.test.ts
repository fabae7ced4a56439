import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../contract/types.ts';
import { createScriptedProvider } from './scripted-provider.ts';
import { SessionAccounting } from './accounting.ts';
import { CONTEXT_BUDGET_STUB, limitFor, tightestLimit, toolPreflight, turnPreflight } from './context-guard.ts';
import { FakeClock, harnessExecutor } from './loop-test-support.ts';
import { MAX_BACKOFF_MS, RetryPolicy } from './retry-policy.ts';
import { SessionCore } from './session-core.ts';
import { canonicalJson, invocationKey, modelContentOf, TOOL_TIMEOUT_MESSAGE } from './tool-results.ts';
import { ephemeralMessages, isOffered, providerTools } from './transports.ts';

/** The planner's modules one by one (the loop's scenarios are in planner-session.test.ts). */

const rateLimit = (retryAfterMs?: number) => ({ kind: 'rate_limit' as const, message: 'slow down', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('RetryPolicy', () => {
  it('cycles targets round-robin and backs off 1 s, 2 s, 4 s … capped at 60 s', () => {
    const policy = new RetryPolicy(1);
    policy.startTurn();
    expect([1, 2, 3].map((attempt) => policy.targetOf(attempt))).toEqual([0, 0, 0]);
    const waits = Array.from({ length: 8 }, () => policy.onFailure(0, rateLimit(), 0));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(policy.waitBefore(0, 10_000)).toBe(50_000);
  });

  it('honours Retry-After, and waits the maximum for all when every target of a cycle was limited', () => {
    const policy = new RetryPolicy(2);
    policy.startTurn();
    expect(policy.targetOf(1)).toBe(0);
    expect(policy.onFailure(0, rateLimit(7000), 0)).toBe(7000);
    expect(policy.targetOf(2)).toBe(1);
    expect(policy.onFailure(1, rateLimit(), 0)).toBe(MAX_BACKOFF_MS);
    expect([policy.waitBefore(0, 0), policy.waitBefore(1, 0)]).toEqual([MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  it('imposes no wait on other failures; auth and quota are fatal', () => {
    const policy = new RetryPolicy(1);
    expect(policy.onFailure(0, { kind: 'network', message: 'x' }, 0)).toBe(0);
    expect(RetryPolicy.isFatal({ kind: 'auth', message: 'x' })).toBe(true);
    expect(RetryPolicy.isFatal({ kind: 'quota', message: 'x' })).toBe(true);
    expect(RetryPolicy.isFatal({ kind: 'timeout', message: 'x' })).toBe(false);
  });
});

describe('SessionAccounting', () => {
  it('records LLM requests with tokens and cost, tool runs, and completes a tool entry later', () => {
    const accounting = new SessionAccounting(() => 5000);
    accounting.llm({ provider: 'openai', model: 'gpt-4.1-mini', label: 'openai:gpt-4.1-mini' }, 1000, 250, {
      response: { text: '', toolCalls: [], stopReason: 'stop', model: 'gpt-4.1-mini', usage: { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    });
    accounting.tool('test_echo', 4000, 10, 0, 'native', { requestId: 'r1' });
    accounting.completeTool('r1', { charactersOut: 77 });
    const [llm, tool] = accounting.entries;
    expect(llm).toMatchObject({ type: 'llm', status: 'ok', latency: 250, tokens: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 } });
    expect(llm.type === 'llm' && typeof llm.costUsd).toBe('number');
    expect(tool).toMatchObject({ type: 'tool', command: 'test_echo', status: 'ok', latency: 1000, charactersOut: 77, mcpServer: 'sextant' });
  });
});

function core(settings: Record<string, unknown> = {}, contextWindow?: number): SessionCore {
  const { executor, registry } = harnessExecutor();
  return new SessionCore({
    question: 'q',
    targets: [createScriptedProvider({ provider: 'scripted', model: 'm', script: [], ...(contextWindow ? { contextWindow } : {}) })],
    executor,
    manifests: registry.manifests(),
    captures: [],
    settings,
    clock: new FakeClock(),
    nonce: 'c0ffee42',
  });
}

describe('transports', () => {
  it('native offers every tool plus the final report; xml offers no provider tools; xml-final no final report', () => {
    expect(providerTools(core()).map((tool) => tool.name)).toContain('agent__final_report');
    expect(providerTools(core({ transport: 'xml' }))).toEqual([]);
    expect(providerTools(core({ transport: 'xml-final' })).map((tool) => tool.name)).not.toContain('agent__final_report');
    expect(isOffered(core({ transport: 'xml' }), 'agent__final_report')).toBe(false);
  });

  it('forced final: only the final report, and the notice; XML-NEXT carries the nonce', () => {
    const forced = core();
    forced.forcedFinal = 'max_turns';
    expect(providerTools(forced).map((tool) => tool.name)).toEqual(['agent__final_report']);
    expect(isOffered(forced, 'test_echo')).toBe(false);
    expect(ephemeralMessages(forced, [])[0].role).toBe('system');
    expect(ephemeralMessages(core({ transport: 'xml' }), []).at(-1)!.content).toContain('Session nonce c0ffee42');
  });
});

describe('context guard', () => {
  it('budgets contextWindow - buffer - maxOutputTokens, the tightest over the targets', () => {
    const session = core({ contextWindowBufferTokens: 100, maxOutputTokens: 400 }, 10_000);
    expect(limitFor(session, session.options.targets[0])).toBe(9500);
    expect(tightestLimit(session)).toEqual([9500, 'scripted:m']);
  });

  it('turn_preflight forces the final turn when the request would not fit', () => {
    const session = core({ contextWindowBufferTokens: 0, maxOutputTokens: 100 }, 1200);
    const plan = turnPreflight(session, session.options.targets[0], []);
    expect(session.forcedFinal).toBe('context');
    expect(plan.tools.map((tool) => tool.name)).toEqual(['agent__final_report']);
  });

  it('tool_preflight replaces an output that would overflow with the stub and stops new tools', () => {
    const session = core({ contextWindowBufferTokens: 0, maxOutputTokens: 100 }, 3000);
    expect(toolPreflight(session, 'short').dropped).toBe(false);
    const guarded = toolPreflight(session, 'x'.repeat(40_000));
    expect(guarded).toMatchObject({ content: CONTEXT_BUDGET_STUB, dropped: true });
    expect(session.toolBudgetExceeded).toBe(true);
    expect(session.forcedFinal).toBe('context');
  });
});

describe('tool results', () => {
  it('dedups invocations whatever the key order, ignoring request ids and timeouts', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const one = invocationKey({ tool_name: 't', request_id: 'r1', timeout_ms: 5, arguments: { x: 1, y: 2 } });
    expect(invocationKey({ arguments: { y: 2, x: 1 }, tool_name: 't', request_id: 'r2' })).toBe(one);
  });

  it('a timeout is the contract message; a failure is led by its coded errors', () => {
    const timeout: ToolResult = { status: 'error', summary: 's', warnings: [], errors: [{ code: 'TIMEOUT', field: 'timeout_ms', message: 'late' }], confidence: 0 };
    expect(modelContentOf(timeout)).toBe(TOOL_TIMEOUT_MESSAGE);
    const invalid: ToolResult = { ...timeout, errors: [{ code: 'INVALID_VALUE', field: 'arguments.x', message: 'bad' }] };
    expect(modelContentOf(invalid)).toMatch(/^\(tool failed: INVALID_VALUE at arguments\.x: bad\)\n\{"status":"error"/);
  });
});
