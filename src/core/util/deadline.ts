/**
 * The project's one deadline/cancellation mechanism. Every waiting edge (an LLM request, a tool
 * run in a worker or thread, an endpoint call, an MCP call, a retry wait) builds its deadline
 * here, so a deadline means the same everywhere: counted from the request (not from when a worker
 * finished loading), optionally also from the last sign of life (idle), and cancelled with the
 * caller's signal. The core touches no timers itself: time comes from an injected clock.
 */

/** Time as the core uses it; injected so tests can drive it and the core stays free of timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Why a deadline fired: the total time ran out, nothing happened for the idle time, or the caller cancelled. */
export type DeadlineReason = 'timeout' | 'idle' | 'cancelled';

export interface DeadlineOptions {
  clock: Clock;
  /** Total time allowed, counted from `startedAt`. Absent: no total limit. */
  totalMs?: number;
  /** Longest quiet time between two `touch()` calls (e.g. stream chunks). Absent: no idle limit. */
  idleMs?: number;
  /** The caller's signal: aborting it fires the deadline with `cancelled`. */
  signal?: AbortSignal;
  /** `clock.now()` when the request was made (before any queue or worker start-up); default: now. */
  startedAt?: number;
}

export interface Deadline {
  /** Aborts when the deadline fires; its reason is a `DeadlineError`. Pass it to the work. */
  readonly signal: AbortSignal;
  /** Why it fired, or null while it has not. */
  reason(): DeadlineReason | null;
  /** A sign of life: restarts the idle time. */
  touch(): void;
  /** Milliseconds left of the total time (Infinity without one). */
  remainingMs(): number;
  /** Stops the timers; call when the work is over. The signal stays as it is. */
  dispose(): void;
}

/** The abort reason of a fired deadline, so a `fetch` rejection says which limit ended it. */
export class DeadlineError extends Error {
  constructor(readonly reason: DeadlineReason, readonly limitMs: number | null) {
    super(reason === 'cancelled' ? 'cancelled by the caller' : reason === 'idle' ? `nothing arrived for ${limitMs} ms` : `no answer within ${limitMs} ms`);
    this.name = reason === 'cancelled' ? 'AbortError' : 'TimeoutError';
  }
}

/** Starts a deadline: a total limit, an idle limit, and the caller's cancellation, in one signal. */
export function startDeadline(options: DeadlineOptions): Deadline {
  const { clock, totalMs, idleMs, signal: caller } = options;
  const startedAt = options.startedAt ?? clock.now();
  const controller = new AbortController();
  const timers = new AbortController();
  let fired: DeadlineReason | null = null;
  let lastActivity = clock.now();

  const fire = (reason: DeadlineReason, limitMs: number | null) => {
    if (fired !== null || timers.signal.aborted) return;
    fired = reason;
    timers.abort();
    controller.abort(new DeadlineError(reason, limitMs));
  };
  const onCancel = () => fire('cancelled', null);
  if (caller?.aborted) onCancel();
  else caller?.addEventListener('abort', onCancel, { once: true, signal: timers.signal });

  if (totalMs !== undefined && fired === null) {
    const left = Math.max(0, startedAt + totalMs - clock.now());
    if (left === 0) fire('timeout', totalMs);
    else
      void clock.sleep(left, timers.signal).then(() => {
        if (!timers.signal.aborted) fire('timeout', totalMs);
      });
  }
  if (idleMs !== undefined && fired === null) {
    // One sleep per idle period, not one timer per chunk: a wake-up re-checks the last activity.
    const watchIdle = async () => {
      let wait = idleMs;
      while (!timers.signal.aborted) {
        await clock.sleep(Math.max(0, wait), timers.signal);
        if (timers.signal.aborted) return;
        const quiet = clock.now() - lastActivity;
        if (quiet >= idleMs) return fire('idle', idleMs);
        wait = idleMs - quiet;
      }
    };
    void watchIdle();
  }

  return {
    signal: controller.signal,
    reason: () => fired,
    touch: () => {
      lastActivity = clock.now();
    },
    remainingMs: () => (totalMs === undefined ? Infinity : Math.max(0, startedAt + totalMs - clock.now())),
    dispose: () => timers.abort(),
  };
}

/** How work under a deadline ended. */
export type DeadlineOutcome<T> = { kind: 'done'; value: T } | { kind: 'timeout'; reason: 'timeout' | 'idle' } | { kind: 'cancelled' };

/**
 * Runs `work` with the deadline's signal and says how it ended. Work that ignores its signal
 * still loses the race: the outcome is settled when the deadline fires.
 */
export async function runWithDeadline<T>(work: (signal: AbortSignal, deadline: Deadline) => Promise<T>, options: DeadlineOptions): Promise<DeadlineOutcome<T>> {
  const deadline = startDeadline(options);
  const ended = (): DeadlineOutcome<T> => {
    const reason = deadline.reason();
    return reason === 'cancelled' || reason === null ? { kind: 'cancelled' } : { kind: 'timeout', reason };
  };
  if (deadline.signal.aborted) return ended();
  const fired = new Promise<'fired'>((resolve) => deadline.signal.addEventListener('abort', () => resolve('fired'), { once: true }));
  try {
    const winner = await Promise.race([work(deadline.signal, deadline).then((value) => ({ kind: 'done' as const, value })), fired]);
    return winner === 'fired' ? ended() : winner;
  } finally {
    deadline.dispose();
  }
}

/** The timer functions a clock needs (passed in: the core itself never names `setTimeout`). */
export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: never) => void;
}

/** A wall clock over the given timers, with a sleep that ends early, without throwing, on abort. */
export function timerClock(timers: Timers): Clock {
  // Called as plain functions: a browser's setTimeout called as a method of another object throws
  // "Illegal invocation".
  const { setTimeout: startTimer, clearTimeout: stopTimer } = timers;
  return {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const done = () => {
          stopTimer(handle as never);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const handle = startTimer(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
      }),
  };
}

/**
 * A wall clock built on `AbortSignal.timeout`, for core code that has no clock injected (an HTTP
 * provider made without one). In Node its timer does not keep the process alive on its own.
 */
export const signalClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timeout = AbortSignal.timeout(Math.max(0, ms));
      const either = signal ? AbortSignal.any([timeout, signal]) : timeout;
      either.addEventListener('abort', () => resolve(), { once: true });
    }),
};
