import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { getKeyStore } from './keys.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { checkRecordedEvents, exportablePlannerRun, getPlannerRun, plannerRunJson, savePlannerRun, type PlannerRunRecord } from './run-store.ts';

function run(key: string): PlannerRunRecord {
  return {
    id: 'plan-1',
    startedAt: '2026-04-03T08:00:00.000Z',
    question: 'Does jitter explain latency?',
    kind: 'live',
    // A target that somehow still carries its key, and events that echo it: both must be cleaned.
    targets: [{ provider: 'openai-compatible', model: 'mock', baseUrl: 'http://127.0.0.1:4177/v1', apiKey: key } as PlannerRunRecord['targets'][number]],
    settings: { values: { maxTurns: 3 }, layers: { maxTurns: 'run' } },
    state: 'done',
    events: [{ at: 5, event: { type: 'llm_response', text: `The key you use is ${key}.`, headers: { Authorization: `Bearer ${key}` } } }],
    result: { success: true, accounting: [], conversation: [{ role: 'user', content: `echo ${key}` }] },
    reruns: [],
    durationMs: 12,
    saveProblem: 'not saved',
  };
}

describe('an exported planner run', () => {
  it('contains no API key, wherever the run mentioned it', () => {
    const key = 'sk-unit-export-0123456789';
    getKeyStore().set('openai-compatible@http://127.0.0.1:4177/v1', key, false);
    const text = plannerRunJson(run(key));
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/apiKey|authorization/i);
    const parsed = JSON.parse(text) as PlannerRunRecord;
    expect(parsed.targets[0]).toEqual({ provider: 'openai-compatible', model: 'mock', baseUrl: 'http://127.0.0.1:4177/v1' });
    expect(parsed).not.toHaveProperty('saveProblem');
    expect(exportablePlannerRun(run(key)).question).toBe('Does jitter explain latency?');
    getKeyStore().forget('openai-compatible@http://127.0.0.1:4177/v1');
  });
});

describe('restored events', () => {
  it('keeps the events core’s versioned schema accepts and says why the others were left out', () => {
    const good = { at: 5, event: { type: 'warning', seq: 1, ts: 1, turn: 1, message: 'm' } };
    const { events, problems } = checkRecordedEvents([good, { at: 6, event: { type: 'warning', seq: 2, ts: 2 } }, { event: good.event }, 'junk'], 1);
    expect(events).toEqual([good]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('warning.turn must be number');
    expect(checkRecordedEvents([good], 99).events).toEqual([]);
  });
});

describe('saving a run while it records', () => {
  it('saves one snapshot at a time, skips those superseded meanwhile, and ends with the newest saved and shown', async () => {
    const workspace = (await getWorkspace())!;
    const base = { ...run('sk-unused-0000000000'), id: 'plan-saves', state: 'running' as const, saveProblem: undefined };
    const stored: number[] = [];
    const save = workspace.savePlannerRun.bind(workspace);
    workspace.savePlannerRun = (entry) => {
      stored.push((entry.record as unknown as PlannerRunRecord).durationMs);
      return save(entry);
    };
    const saves = [1, 2, 3, 4].map((durationMs) => savePlannerRun({ ...base, durationMs }));
    await Promise.all(saves);
    // The first goes at once; 2 and 3 are superseded by 4 before the first is stored.
    expect(stored).toEqual([1, 4]);
    expect(getPlannerRun('plan-saves')?.durationMs).toBe(4);
    const listed = await workspace.listPlannerRuns({ limit: 10 });
    expect(listed.ok && (listed.value.find((entry) => entry.id === 'plan-saves')?.record as unknown as PlannerRunRecord).durationMs).toBe(4);
  });
});
