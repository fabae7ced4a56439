import { describe, expect, it } from 'vitest';
import { demoCatalog, testExecutor } from '../../executor/test-support.ts';
import { createScriptedProvider } from '../loop/scripted-provider.ts';
import { repairInvocationOffline } from '../loop/offline-repairer.ts';
import { runPlannerSession } from '../loop/planner-session.ts';
import type { PlannerEvent } from '../loop/session-types.ts';
import type { PlannerClock } from '../provider-types.ts';
import { PLANNER_DEMO_MODEL, PLANNER_DEMO_QUESTION, plannerDemoScript } from './planner-demo.ts';

// Time stands still: no retry waits here, and the tool timeout never fires before a tool finishes.
const clock: PlannerClock = {
  now: () => 1_775_000_000_000,
  sleep: (_ms, signal) => new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true })),
};

async function runDemo(bleAnalyzer: boolean) {
  const { executor, registry } = testExecutor();
  const events: PlannerEvent[] = [];
  const result = await runPlannerSession({
    question: PLANNER_DEMO_QUESTION,
    targets: [createScriptedProvider({ provider: 'scripted', model: PLANNER_DEMO_MODEL, script: plannerDemoScript({ bleAnalyzer }) })],
    executor,
    manifests: registry.manifests(),
    captures: demoCatalog().list(),
    clock,
    repairer: repairInvocationOffline,
    onEvent: (event) => events.push(event),
    nonce: '0badc0de',
  });
  return { result, events };
}

describe('the offline demo through the real loop', () => {
  it('plays the invalid plan, its two coded errors, the offline repair, the corrected regression and the final report', async () => {
    const { result, events } = await runDemo(false);
    expect(result.success).toBe(true);
    const rejected = events.find((event) => event.type === 'validation' && !event.validation.ok);
    expect(rejected?.type === 'validation' && !rejected.validation.ok && rejected.validation.errors.map((error) => error.code)).toEqual(['MISSING_REQUIRED_ARGUMENT', 'UNSUPPORTED_TIME_RANGE']);
    const repair = events.find((event) => event.type === 'repair');
    expect(repair?.type === 'repair' && repair.source).toBe('offline_repairer');
    if (repair?.type !== 'repair') throw new Error('no repair');
    expect(repair.regenerated.arguments).toMatchObject({ target: 'latency_ms' });
    expect(repair.regenerated.capture_selection).toMatchObject({ selectors: { time_range: { start_ms: 0, end_ms: 120000 } } });
    const executed = events.filter((event) => event.type === 'execution');
    expect(executed.map((event) => event.type === 'execution' && [event.toolName, event.result.status])).toEqual([['statistical_regression_tool', 'ok']]);
    expect(result.finalReport).toMatchObject({ status: 'success', format: 'markdown', source: 'tool' });
    expect(result.finalReport?.content).toContain('offline repairer');
    expect(result.accounting.filter((entry) => entry.type === 'llm')).toHaveLength(2);
  });

  it('with the BLE analyzer installed, the BLE question runs on the two lab-floor captures', async () => {
    const { registry } = testExecutor();
    if (!registry.manifests().some((manifest) => manifest.name === 'bluetooth_address_analyzer')) return;
    const { result, events } = await runDemo(true);
    expect(result.success).toBe(true);
    const ble = events.find((event) => event.type === 'execution' && event.toolName === 'bluetooth_address_analyzer');
    expect(ble?.type === 'execution' && ble.result.status).not.toBe('error');
    expect(result.accounting.filter((entry) => entry.type === 'llm')).toHaveLength(3);
  });
});
