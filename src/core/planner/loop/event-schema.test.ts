import { describe, expect, it } from 'vitest';
import { checkPlannerEvent, PLANNER_EVENT_SCHEMA_VERSION } from './event-schema.ts';
import { echoCall, finalCall, runSession, turnOf } from './loop-test-support.ts';

describe('the persisted event schema', () => {
  it('accepts every event a session emits, as plain JSON', async () => {
    const { events } = await runSession({ scripts: [[turnOf(echoCall('a', { text: 'x' })), { text: '' }, turnOf(finalCall('f'))]] });
    const types = new Set(events.map((event) => event.type));
    expect(types.size).toBeGreaterThan(8);
    for (const event of events) {
      const checked = checkPlannerEvent(JSON.parse(JSON.stringify(event)));
      expect(checked.ok ? 'ok' : checked.problem).toBe('ok');
    }
  });

  it.each([
    [null, 'not an object'],
    [{ type: 'mystery', seq: 1, ts: 1 }, 'unknown event type "mystery"'],
    [{ type: 'warning', seq: 1, ts: 1, turn: 1 }, 'warning.message must be string'],
    [{ type: 'execution', seq: 1, ts: 1, turn: 1, callId: 'c', requestId: 'r', toolName: 't', record: null, result: 'x', modelContent: '', timedOut: false, reusedFrom: null, droppedForContext: false }, 'execution.result must be object'],
    [{ type: 'session_finished', success: true, turns: 1, ts: 1 }, 'session_finished.seq must be number'],
  ])('refuses %j', (value, problem) => {
    const checked = checkPlannerEvent(value);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain(problem);
  });

  it('refuses a recording from a newer schema', () => {
    const checked = checkPlannerEvent({ type: 'warning', seq: 1, ts: 1, turn: 1, message: 'm' }, PLANNER_EVENT_SCHEMA_VERSION + 1);
    expect(checked.ok).toBe(false);
  });
});
