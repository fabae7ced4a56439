import { describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE, QueueSet, WorkQueue } from './work-queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WorkQueue', () => {
  it('runs at most `concurrent` at once, the rest wait first come first served, with their depth', async () => {
    let time = 0;
    const queue = new WorkQueue('stats', 2, () => time);
    const releases: Array<() => void> = [];
    const order: number[] = [];
    const admissions = Array.from({ length: 5 }, (_, index) =>
      queue.acquire().then((slot) => {
        order.push(index);
        releases.push(slot!.release);
        return slot!.admission;
      }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    expect(queue.snapshot()).toEqual({ name: 'stats', concurrent: 2, running: 2, waiting: 3 });
    time = 40;
    releases[0]();
    releases[0]();
    await tick();
    expect(order).toEqual([0, 1, 2]);
    expect(queue.snapshot().running).toBe(2);
    releases[1]();
    releases[2]();
    await tick();
    releases[3]();
    releases[4]();
    const seen = await Promise.all(admissions);
    expect(seen.map((admission) => admission.depth)).toEqual([0, 0, 0, 1, 2]);
    expect(seen[2]).toEqual({ queue: 'stats', depth: 0, waitedMs: 40 });
    expect(queue.snapshot()).toEqual({ name: 'stats', concurrent: 2, running: 0, waiting: 0 });
  });

  it('a waiting request whose signal aborts leaves the line without running', async () => {
    const queue = new WorkQueue('one', 1);
    const first = await queue.acquire();
    const controller = new AbortController();
    let ran = false;
    const waiting = queue.run(async () => (ran = true), controller.signal);
    expect(queue.snapshot().waiting).toBe(1);
    controller.abort();
    expect(await waiting).toBeNull();
    expect(queue.snapshot().waiting).toBe(0);
    first!.release();
    expect(ran).toBe(false);
    expect(await queue.run(async () => 7)).toMatchObject({ value: 7 });
  });

  it('admits waiting requests when its bound grows, and refuses a bound below 1', async () => {
    const queue = new WorkQueue('grow', 1);
    await queue.acquire();
    const second = queue.acquire();
    queue.concurrent = 2;
    expect(await second).not.toBeNull();
    expect(() => new WorkQueue('bad', 0)).toThrow(/concurrent must be an integer >= 1/);
  });
});

describe('QueueSet', () => {
  it('adds the default queue and validates every binding at start-up', () => {
    const built = QueueSet.create({ mcp: { concurrent: 3 } }, [{ owner: 'mcpServers.everything', queue: 'mcp' }], { defaultConcurrent: 2 });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.queues.snapshot().map((queue) => [queue.name, queue.concurrent])).toEqual([
      ['mcp', 3],
      [DEFAULT_QUEUE, 2],
    ]);
    expect(built.queues.get('unknown').name).toBe(DEFAULT_QUEUE);
  });

  it('refuses a binding to a missing queue, and a bad bound, with a clear message', () => {
    const missing = QueueSet.create({}, [{ owner: 'mcpServers.fetch', queue: 'network' }], { defaultConcurrent: 1 });
    expect(missing).toEqual({ ok: false, message: expect.stringMatching(/^mcpServers\.fetch is bound to queue 'network', which is not configured; the queues are: default/) });
    expect(QueueSet.create({ slow: { concurrent: 0 } }, [], { defaultConcurrent: 1 })).toEqual({ ok: false, message: 'queues.slow.concurrent must be an integer >= 1' });
  });
});
