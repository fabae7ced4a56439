import type { PlannerClock } from '../provider-types.ts';

/** How work under a deadline ended. */
export type DeadlineOutcome<T> = { kind: 'done'; value: T } | { kind: 'timeout' } | { kind: 'cancelled' };

export interface DeadlineOptions {
  clock: PlannerClock;
  /** The deadline in milliseconds, counted from `started` (or from the call when absent). */
  ms: number;
  /** The caller's signal: aborting it aborts the work and ends with `cancelled`. */
  signal?: AbortSignal;
  /** When the clock starts (e.g. once a worker is ready); the call's moment when absent. */
  started?: Promise<void>;
}

/**
 * The one timeout/abort helper of the planner: runs `work` with a signal that aborts at the
 * deadline or when the caller's signal aborts, and says which happened. The clock is injected (the
 * core has no timers), the work is always told to stop, and every listener is removed after.
 */
export async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<DeadlineOutcome<T>> {
  const { clock, signal } = options;
  if (signal?.aborted) return { kind: 'cancelled' };
  const run = new AbortController();
  const stopTimer = new AbortController();
  const onAbort = () => run.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (signal) signal.addEventListener('abort', () => resolve('cancelled'), { once: true, signal: stopTimer.signal });
  });
  const timer = (options.started ?? Promise.resolve())
    .then(() => (stopTimer.signal.aborted ? undefined : clock.sleep(options.ms, stopTimer.signal)))
    .then(() => 'timeout' as const);
  const done = work(run.signal).then((value) => ({ kind: 'done' as const, value }));
  try {
    const winner = await Promise.race([done, timer, cancelled]);
    if (winner === 'cancelled' || signal?.aborted) return { kind: 'cancelled' };
    if (winner === 'timeout') {
      run.abort();
      return { kind: 'timeout' };
    }
    return winner;
  } finally {
    stopTimer.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}
