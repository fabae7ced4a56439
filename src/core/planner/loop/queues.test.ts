// agent-contract.md §1 "MCP Tool Queues" and §7 "Queue Validation" in the planner (issue 24).
import { describe, expect, it } from 'vitest';
import { QueueSet } from '../../util/work-queue.ts';
import { echoCall, finalCall, runSession, turnOf } from './loop-test-support.ts';
import { resolvePlannerConfig } from './planner-settings.ts';
import type { ToolAccountingEntry } from './session-types.ts';

describe('queues in the planner', () => {
  it('every tool execution waits in its queue, and the accounting says which, how deep and how long', async () => {
    const built = QueueSet.create({ stats: { concurrent: 1 } }, [{ owner: 'test_echo', queue: 'stats' }], { defaultConcurrent: 1 });
    if (!built.ok) throw new Error(built.message);
    const { result } = await runSession({ scripts: [[turnOf(echoCall('a', { text: 'one' }), echoCall('b', { text: 'two' })), turnOf(finalCall('f'))]], queues: built.queues, queueFor: () => 'stats' });
    const tools = result.accounting.filter((entry): entry is ToolAccountingEntry => entry.type === 'tool' && entry.command === 'test_echo');
    expect(tools).toHaveLength(2);
    for (const entry of tools) expect(entry).toMatchObject({ queue: 'stats', queueDepth: 0, queueWaitMs: expect.any(Number) });
    expect(built.queues.snapshot()).toContainEqual({ name: 'stats', concurrent: 1, running: 0, waiting: 0 });
  });

  it('reads queues.<name>.concurrent from the layers, merged by name, and refuses a bad bound', () => {
    const resolved = resolvePlannerConfig([
      { name: 'home', values: { queues: { mcp: { concurrent: 2 }, slow: { concurrent: 1 } } } },
      { name: '--config', values: { queues: { mcp: { concurrent: 4 } } } },
    ]);
    expect(resolved.ok && resolved.value.queues).toEqual({ mcp: { concurrent: 4 }, slow: { concurrent: 1 } });
    const refused = resolvePlannerConfig([{ name: '--config x.json', values: { queues: { mcp: { concurrent: 0 } } } }]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_SETTING', field: 'queues.mcp.concurrent' } });
  });
});
