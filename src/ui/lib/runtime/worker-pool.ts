import { proxy, wrap, type Remote } from 'comlink';
import { startDeadline, timerClock, WorkQueue, type CaptureInfo, type Clock, type QueueSnapshot, type RunOptions, type RunRequest, type RunnerResponse, type ToolResult, type ToolRunner } from '../../../core/index.ts';
import type { ToolsWorkerApi } from '../../../../workers/tools-api.ts';

interface Slot {
  worker: Worker;
  api: Remote<ToolsWorkerApi>;
  ready: Promise<void>;
  busy: boolean;
}

export interface WorkerPoolOptions {
  size: number;
  testTools: boolean;
  /** Makes one tools worker; injected so tests and the app share the pool logic. */
  createWorker: () => Worker;
  /** Time for run deadlines; real timers by default. */
  clock?: Clock;
}

/**
 * A pool of tools workers that runs validated requests. Runs wait for a worker in the core's
 * `WorkQueue` (bounded by the pool size); a run's timeout counts from its request, the wait and
 * a cold worker's start-up included. A run that overruns it or is cancelled has its worker
 * terminated (the only way to stop computation in a worker) and a new worker takes the slot.
 */
export class WorkerPool implements ToolRunner {
  readonly reportsStart = true;
  private slots: Slot[] = [];
  private readonly queue: WorkQueue;
  private readonly clock: Clock;
  /**
   * Captures added in this session or restored from the workspace, as Blobs of Arrow IPC bytes:
   * every worker gets them. A Blob crosses to a worker by reference and the worker reads it, so the
   * main thread never copies capture bytes.
   */
  private readonly userCaptures = new Map<string, Blob>();
  private options: WorkerPoolOptions;

  constructor(options: WorkerPoolOptions) {
    this.options = { ...options, size: Math.max(1, Math.floor(options.size)) };
    this.clock = options.clock ?? timerClock({ setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle) });
    this.queue = new WorkQueue('workers', this.options.size, () => this.clock.now());
    for (let index = 0; index < this.options.size; index++) this.slots.push(this.spawn());
  }

  get size(): number {
    return this.options.size;
  }

  /** Runs and queries in progress and waiting for a worker. */
  queueSnapshot(): QueueSnapshot {
    return this.queue.snapshot();
  }

  /** Descriptions of the captures every worker holds. */
  async captureInfos(): Promise<CaptureInfo[]> {
    const slot = this.slots[0];
    await slot.ready;
    return slot.api.captureInfos();
  }

  /** Loads a capture into every worker (and into every worker started later). */
  async addCapture(arrow: Blob): Promise<CaptureInfo> {
    const infos = await Promise.all(this.slots.map((slot) => this.loadInto(slot, arrow)));
    this.userCaptures.set(infos[0].id, arrow);
    return infos[0];
  }

  removeCapture(id: string): void {
    this.userCaptures.delete(id);
    for (const slot of this.slots) slot.ready = slot.ready.then(() => slot.api.removeCapture(id));
  }

  /** Runs a short query on a free worker (capture exploration); waits while all are busy. */
  async query<T>(ask: (api: Remote<ToolsWorkerApi>) => Promise<T>): Promise<T> {
    const slot = await this.acquire();
    if (!slot) throw new Error('No worker is available');
    try {
      await slot.slot.ready;
      return await ask(slot.slot.api);
    } finally {
      this.release(slot.slot, slot.done);
    }
  }

  private loadInto(slot: Slot, arrow: Blob): Promise<CaptureInfo> {
    const loaded = slot.ready.then(() => slot.api.loadCapture(arrow));
    slot.ready = loaded.then(() => undefined);
    return loaded;
  }

  async run(request: RunRequest, options: RunOptions = {}): Promise<RunnerResponse> {
    const deadline = startDeadline({
      clock: this.clock,
      totalMs: request.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.requestedAt === undefined ? {} : { startedAt: options.requestedAt }),
    });
    const ended = (): RunnerResponse => ({ kind: deadline.reason() === 'cancelled' ? 'cancelled' : 'timeout' });
    const acquired = await this.acquire(deadline.signal);
    if (!acquired) {
      deadline.dispose();
      return ended();
    }
    const { slot, done } = acquired;
    const onProgress = options.onProgress ?? (() => {});
    return new Promise<RunnerResponse>((resolve) => {
      let settled = false;
      const finish = (response: RunnerResponse, stopWorker: boolean) => {
        if (settled) return;
        settled = true;
        deadline.signal.removeEventListener('abort', onDeadline);
        deadline.dispose();
        if (stopWorker) this.replace(slot);
        this.release(slot, done);
        resolve(response);
      };
      const onDeadline = () => finish(ended(), true);
      if (deadline.signal.aborted) return onDeadline();
      deadline.signal.addEventListener('abort', onDeadline, { once: true });
      slot.ready
        // comlink's Remote<> distributes the result union into a union of promises; it is one promise.
        .then(() => {
          if (!settled) options.onStarted?.();
          return slot.api.run(request, proxy(onProgress)) as Promise<ToolResult>;
        })
        .then(
          // The worker checked the result against the tool's manifest (limits, schemas), so the page's main thread does not walk it.
          (result) => finish({ kind: 'checked', result }, false),
          (error: unknown) => finish({ kind: 'crashed', message: error instanceof Error ? error.message : String(error) }, true),
        );
    });
  }

  /** Changes the pool's size or test-tool setting; busy workers finish their run first. */
  reconfigure(options: Partial<Pick<WorkerPoolOptions, 'size' | 'testTools'>>): void {
    const testToolsChanged = options.testTools !== undefined && options.testTools !== this.options.testTools;
    this.options = { ...this.options, ...options, size: Math.max(1, Math.floor(options.size ?? this.options.size)) };
    if (testToolsChanged) {
      for (const slot of [...this.slots]) if (!slot.busy) this.replace(slot);
    }
    while (this.slots.length < this.options.size) this.slots.push(this.spawn());
    for (const slot of this.slots.filter((candidate) => !candidate.busy)) {
      if (this.slots.length <= this.options.size) break;
      this.retire(slot);
    }
    this.queue.concurrent = this.options.size;
  }

  dispose(): void {
    for (const slot of this.slots) slot.worker.terminate();
    this.slots = [];
  }

  private spawn(): Slot {
    const worker = this.options.createWorker();
    const api = wrap<ToolsWorkerApi>(worker);
    const slot: Slot = { worker, api, ready: api.init({ testTools: this.options.testTools }), busy: false };
    for (const arrow of this.userCaptures.values()) this.loadInto(slot, arrow).catch(() => undefined);
    return slot;
  }

  /** Waits in the queue for a turn, then takes a free worker (the queue's bound is the pool size). */
  private async acquire(signal?: AbortSignal): Promise<{ slot: Slot; done: () => void } | null> {
    const turn = await this.queue.acquire(signal);
    if (!turn) return null;
    // While a shrink waits for busy workers, the queue's bound can briefly exceed the free slots: spawn one then.
    let free = this.slots.find((slot) => !slot.busy);
    if (!free) {
      free = this.spawn();
      this.slots.push(free);
    }
    free.busy = true;
    return { slot: free, done: turn.release };
  }

  private release(slot: Slot, done: () => void): void {
    slot.busy = false;
    if (this.slots.length > this.options.size && this.slots.includes(slot)) this.retire(slot);
    done();
  }

  /** Terminates a slot's worker and puts a fresh one in its place. */
  private replace(slot: Slot): void {
    slot.worker.terminate();
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots[index] = this.spawn();
  }

  private retire(slot: Slot): void {
    slot.worker.terminate();
    this.slots = this.slots.filter((candidate) => candidate !== slot);
  }
}
