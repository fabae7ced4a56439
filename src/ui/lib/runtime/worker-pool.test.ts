// The app's WorkerPool on its own (issue 24): comlink over real MessageChannels to a stand-in
// tools worker whose runs end when the test says, so the pool's own rules are what is checked:
// at most `size` runs at once, a deadline counted from the request (the wait for a worker
// included), and a worker that overran, was cancelled or crashed replaced by a fresh one.

import { expose } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunRequest, ToolResult } from '../../../core/index.ts';
import type { ToolsWorkerApi } from '../../../../workers/tools-api.ts';
import { WorkerPool } from './worker-pool.ts';

interface FakeWorker {
  id: number;
  terminated: boolean;
  /** Run ids this worker started. */
  started: string[];
}

/** A run the test finishes by hand: `finish(result)` or `fail(message)`. */
interface PendingRun {
  requestId: string;
  worker: FakeWorker;
  finish(result: ToolResult): void;
  fail(message: string): void;
}

const OK: ToolResult = { status: 'ok', summary: 'done', structured_output: {}, warnings: [], errors: [], confidence: 1 };

function fakeWorkers() {
  const workers: FakeWorker[] = [];
  const pending: PendingRun[] = [];
  const ports: MessagePort[] = [];
  const createWorker = (): Worker => {
    const channel = new MessageChannel();
    const record: FakeWorker = { id: workers.length + 1, terminated: false, started: [] };
    workers.push(record);
    ports.push(channel.port1, channel.port2);
    const api: Pick<ToolsWorkerApi, 'init' | 'run' | 'captureInfos'> = {
      init: () => undefined,
      captureInfos: () => [],
      run: (request: RunRequest, onProgress: (fraction: number) => void) =>
        new Promise<ToolResult>((resolve, reject) => {
          record.started.push(request.requestId);
          void onProgress(0.5);
          pending.push({ requestId: request.requestId, worker: record, finish: resolve, fail: (message) => reject(new Error(message)) });
        }),
    };
    expose(api, channel.port2);
    // The pool only posts, listens and terminates: a MessagePort with `terminate` stands in for a Worker.
    return Object.assign(channel.port1, {
      terminate: () => {
        record.terminated = true;
        channel.port1.close();
        channel.port2.close();
      },
    }) as unknown as Worker;
  };
  return { workers, pending, createWorker, closeAll: () => ports.forEach((port) => port.close()) };
}

const request = (requestId: string, timeoutMs = 60_000): RunRequest => ({
  requestId,
  toolName: 'test_echo',
  toolVersion: '1.0.0',
  arguments: {},
  selection: null,
  timeoutMs,
  invocation: {},
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let spin = 0; spin < 1000; spin += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup) step();
  cleanup = [];
});

function pool(size: number) {
  const fakes = fakeWorkers();
  const workerPool = new WorkerPool({ size, testTools: true, createWorker: fakes.createWorker });
  cleanup.push(() => workerPool.dispose(), fakes.closeAll);
  return { workerPool, ...fakes };
}

describe('WorkerPool', () => {
  it('runs at most `size` requests at once; the others wait their turn, first come first served', async () => {
    const { workerPool, pending } = pool(2);
    const started: string[] = [];
    const runs = ['a', 'b', 'c', 'd'].map((id) => workerPool.run(request(id), { onStarted: () => started.push(id) }));
    await until(() => pending.length === 2, 'two runs');
    expect(workerPool.queueSnapshot()).toMatchObject({ concurrent: 2, running: 2, waiting: 2 });
    expect(pending.map((run) => run.requestId)).toEqual(['a', 'b']);
    pending[0].finish(OK);
    await until(() => pending.length === 3, 'the third run');
    expect(pending[2].requestId).toBe('c');
    for (const run of pending.slice(1)) run.finish(OK);
    await until(() => pending.length === 4, 'the fourth run');
    pending[3].finish(OK);
    const responses = await Promise.all(runs);
    expect(responses.map((response) => response.kind)).toEqual(['checked', 'checked', 'checked', 'checked']);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(workerPool.queueSnapshot()).toMatchObject({ running: 0, waiting: 0 });
  });

  it('counts a deadline from the request: a run that waits past it times out without ever starting', async () => {
    const { workerPool, pending } = pool(1);
    const first = workerPool.run(request('long', 60_000));
    await until(() => pending.length === 1, 'the first run');
    const waiting = await workerPool.run(request('waits', 100));
    expect(waiting).toEqual({ kind: 'timeout' });
    expect(pending.map((run) => run.requestId)).toEqual(['long']);
    pending[0].finish(OK);
    expect((await first).kind).toBe('checked');
  });

  it('terminates a worker whose run overran or was cancelled, and a fresh worker takes the slot', async () => {
    const { workerPool, pending, workers } = pool(1);
    const overrun = workerPool.run(request('overrun', 150));
    await until(() => pending.length === 1, 'the run');
    expect(await overrun).toEqual({ kind: 'timeout' });
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);

    const controller = new AbortController();
    const cancelled = workerPool.run(request('cancelled'), { signal: controller.signal });
    await until(() => pending.length === 2, 'the second run');
    expect(pending[1].worker.id).toBe(2);
    controller.abort();
    expect(await cancelled).toEqual({ kind: 'cancelled' });
    expect(workers[1].terminated).toBe(true);

    const next = workerPool.run(request('next'));
    await until(() => pending.length === 3, 'a run on the third worker');
    expect(pending[2].worker.id).toBe(3);
    pending[2].finish(OK);
    expect((await next).kind).toBe('checked');
  });

  it('reports a crash in the worker as crashed and replaces the worker', async () => {
    const { workerPool, pending, workers } = pool(1);
    const crashing = workerPool.run(request('crash'));
    await until(() => pending.length === 1, 'the run');
    pending[0].fail('out of memory');
    expect(await crashing).toEqual({ kind: 'crashed', message: 'out of memory' });
    expect(workers[0].terminated).toBe(true);
    expect(workers.filter((worker) => !worker.terminated)).toHaveLength(1);
  });

  it('grows and shrinks with reconfigure; busy workers finish their run first', async () => {
    const { workerPool, pending, workers } = pool(2);
    const runs = ['a', 'b'].map((id) => workerPool.run(request(id)));
    await until(() => pending.length === 2, 'two runs');
    workerPool.reconfigure({ size: 1 });
    expect(workerPool.size).toBe(1);
    expect(workers.filter((worker) => worker.terminated)).toHaveLength(0);
    for (const run of pending) run.finish(OK);
    await Promise.all(runs);
    expect(workers.filter((worker) => !worker.terminated)).toHaveLength(1);
    workerPool.reconfigure({ size: 3 });
    expect(workers.filter((worker) => !worker.terminated)).toHaveLength(3);
    expect(workerPool.queueSnapshot().concurrent).toBe(3);
  });
});
