import { beforeAll, describe, expect, it } from 'vitest';
import { builtinCaptures, builtinTools, CaptureCatalog, createExecutor, createInProcessRunner, createScriptedProvider, failedInvocations, PLANNER_DEMO_QUESTION, type PlannerClock, plannerDemoScript, type PlannerEvent, type PlannerSessionResult, repairInvocationOffline, runPlannerSession, summarizeRun, timelineFromEvents, ToolRegistry } from '../../../core/index.ts';
import { toJson } from '../../lib/planner/json.ts';
import type { PlannerRunRecord, RecordedEvent } from '../../lib/planner/run-store.ts';

// Time stands still: the tool timeout never fires before an in-process tool finishes.
const clock: PlannerClock = {
  now: () => 1_775_000_000_000,
  sleep: (_ms, signal) => new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })),
};

let recorded: RecordedEvent[] = [];
let result: PlannerSessionResult;

beforeAll(async () => {
  const registry = new ToolRegistry(builtinTools());
  const catalog = new CaptureCatalog(builtinCaptures());
  const executor = createExecutor({ registry, catalog, runner: createInProcessRunner({ registry, capture: (id) => catalog.capture(id) }) });
  const events: PlannerEvent[] = [];
  result = await runPlannerSession({
    question: PLANNER_DEMO_QUESTION,
    targets: [createScriptedProvider({ provider: 'scripted', model: 'offline-demo', script: plannerDemoScript({ bleAnalyzer: false }) })],
    executor,
    manifests: registry.manifests(),
    captures: catalog.list(),
    clock,
    repairer: repairInvocationOffline,
    onEvent: (event) => events.push(event),
  });
  // As the page records them: plain JSON, as saved and exported.
  recorded = events.map((event, index) => ({ at: index, event: toJson(event) }));
});

describe('timelineFromEvents on the demo recording', () => {
  it('shows discover, the request, the rejected invocation, the offline repair, the corrected run and the final report, in order', () => {
    const steps = timelineFromEvents(recorded);
    const outline = steps.map((step) =>
      step.kind === 'invocation' ? `invocation:${step.valid ? 'valid' : 'invalid'}:${step.source}` : step.kind === 'repair' ? `repair:${step.source}` : step.kind,
    );
    expect(outline.filter((kind) => kind !== 'notice')).toEqual([
      'discover',
      'llm-request',
      'invocation:invalid:model',
      'repair:offline-repairer',
      'invocation:valid:offline-repairer',
      'execution',
      'llm-request',
      'final-report',
    ]);
    const rejected = steps.find((step) => step.kind === 'invocation' && !step.valid);
    expect(rejected?.kind === 'invocation' && rejected.errors.map((error) => error.code)).toEqual(['MISSING_REQUIRED_ARGUMENT', 'UNSUPPORTED_TIME_RANGE']);
    const discover = steps[0];
    expect(discover.kind === 'discover' && discover.tools.map((tool) => tool.name)).toContain('agent__final_report');
    expect(discover.kind === 'discover' && discover.tokenEstimate).toBeGreaterThan(100);
    const request = steps[1];
    expect(request).toMatchObject({ kind: 'llm-request', status: 'ok', inputTokens: 1240, outputTokens: 96, provider: 'scripted', model: 'offline-demo' });
  });

  it('gives each execution what the model received and its size, next to the full result', () => {
    const execution = timelineFromEvents(recorded).find((step) => step.kind === 'execution');
    if (execution?.kind !== 'execution') throw new Error('no execution step');
    expect(execution.modelContent).toContain('[offline_repairer]');
    expect(execution.modelBytes).toBe(new TextEncoder().encode(execution.modelContent!).byteLength);
    expect(execution.fullBytes).toBeGreaterThan(100_000);
    expect(execution.modelBytes).toBeLessThan(6_000);
  });

  it('a replay prefix shows only what had happened by then, and the request still in flight as pending', () => {
    const firstRequest = recorded.findIndex(({ event }) => (event as { type?: string }).type === 'llm_request');
    const steps = timelineFromEvents(recorded, firstRequest + 1);
    expect(steps.map((step) => step.kind)).toEqual(['discover', 'llm-request']);
    expect(steps[1]).toMatchObject({ status: 'pending' });
  });

  it('the rejected invocation is the one failed step to re-run, and the summary counts the repair', () => {
    const steps = timelineFromEvents(recorded);
    const failed = failedInvocations(steps);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ tool_name: 'statistical_regression_tool', arguments: { operation: 'linear_regression' } });
    const run: PlannerRunRecord = {
        id: 'r',
        startedAt: '2026-04-03T08:00:00.000Z',
        question: PLANNER_DEMO_QUESTION,
        kind: 'demo',
        targets: [],
        settings: { values: {}, layers: {} },
        state: 'done',
        events: recorded,
        result: { success: result.success, accounting: result.accounting.map(toJson), conversation: [] },
        reruns: [],
        durationMs: 1,
      };
    // The app's run record is a summarizable run.
    const summary = summarizeRun(run, steps);
    expect(summary).toMatchObject({ status: 'success', turns: 2, invalid: 1, repairs: 1, executions: 1, failedExecutions: 0 });
    expect(summary.totals.llmRequests).toBe(2);
    expect(summary.finalReport).toContain('offline repairer');
  });

  it('skips events it does not know, so a newer recording still replays', () => {
    expect(timelineFromEvents([{ at: 0, event: { type: 'from_the_future', seq: 1, ts: 0 } }, { at: 1, event: 'junk' }])).toEqual([]);
  });
});
