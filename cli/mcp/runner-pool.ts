import { startDeadline, timerClock, WorkQueue, type QueueSnapshot, type RunOptions, type RunRequest, type RunnerResponse, type ToolRunner } from '../../src/core/index.ts';
import { ThreadRunner, type ThreadRunnerOptions } from '../thread-runner.ts';

export interface RunnerPoolOptions extends ThreadRunnerOptions {
  /** Most calls running at once (each in a thread of its own, ~25 MB); the rest wait in the queue. */
  concurrent: number;
}

/**
 * Worker threads for an MCP server that may get many calls at once (issue 24, D4). The calls go
 * through one `WorkQueue`: at most `concurrent` run, each in a thread of its own (a ThreadRunner
 * runs one thing at a time, so cancelling or timing out a call terminates only its thread), and
 * the rest wait. A call's `timeout_ms` counts from its arrival, the wait included. Idle threads
 * are kept for the next call (never more than `concurrent`).
 */
export class RunnerPool implements ToolRunner {
  private readonly idle: ThreadRunner[] = [];
  private readonly all = new Set<ThreadRunner>();
  private readonly queue: WorkQueue;
  private readonly clock;

  constructor(
    private readonly options: RunnerPoolOptions,
    /** Told how each run ended (`cancelled` and `timeout` mean its thread was terminated). */
    private readonly onRunEnd: (request: RunRequest, kind: RunnerResponse['kind']) => void = () => {},
  ) {
    this.clock = options.clock ?? timerClock({ setTimeout, clearTimeout });
    this.queue = new WorkQueue('mcp-serve', options.concurrent, () => this.clock.now());
  }

  /** Calls running and waiting now. */
  snapshot(): QueueSnapshot {
    return this.queue.snapshot();
  }

  async run(request: RunRequest, options: RunOptions = {}): Promise<RunnerResponse> {
    const requestedAt = options.requestedAt ?? Date.now();
    // The wait for a slot is bounded by the call's own deadline: a call that waited past it never starts.
    const waiting = startDeadline({ clock: this.clock, totalMs: request.timeoutMs, startedAt: requestedAt, ...(options.signal ? { signal: options.signal } : {}) });
    const outcome = await this.queue.run(async () => {
      waiting.dispose();
      const runner = this.idle.pop() ?? new ThreadRunner(this.options);
      this.all.add(runner);
      try {
        return await runner.run(request, { ...options, requestedAt });
      } finally {
        this.idle.push(runner);
      }
    }, waiting.signal);
    waiting.dispose();
    const response: RunnerResponse = outcome?.value ?? { kind: waiting.reason() === 'cancelled' ? 'cancelled' : 'timeout' };
    this.onRunEnd(request, response.kind);
    return response;
  }

  close(): void {
    for (const runner of this.all) runner.close();
    this.all.clear();
    this.idle.length = 0;
  }
}
