import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { getKeyStore } from './keys.ts';
import { checkRecordedEvents, exportablePlannerRun, plannerRunJson, type PlannerRunRecord } from './run-store.ts';

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
