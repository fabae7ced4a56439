import { describe, expect, it } from 'vitest';
import { DeadlineError, runWithDeadline, startDeadline, timerClock, type Clock } from './deadline.ts';

/** A clock whose sleeps wait until `advance` passes them (or their signal aborts). */
class ManualClock implements Clock {
  time = 0;
  private sleeping: Array<{ until: number; wake: () => void }> = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = () => {
        this.sleeping = this.sleeping.filter((other) => other !== entry);
        resolve();
      };
      const entry = {
        until: this.time + ms,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.sleeping.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get sleepers(): number {
    return this.sleeping.length;
  }

  async advance(ms: number): Promise<void> {
    for (let step = 0; step < ms; step += 1) {
      this.time += 1;
      const due = this.sleeping.filter((entry) => entry.until <= this.time);
      this.sleeping = this.sleeping.filter((entry) => entry.until > this.time);
      for (const entry of due) entry.wake();
      // Let the woken loops re-arm before the next millisecond.
      for (let tick = 0; tick < 4; tick += 1) await Promise.resolve();
    }
  }
}

describe('startDeadline', () => {
  it('fires the total limit counted from the request, not from when the deadline was built', async () => {
    const clock = new ManualClock();
    clock.time = 1000;
    const deadline = startDeadline({ clock, totalMs: 100, startedAt: 940 });
    await clock.advance(39);
    expect(deadline.signal.aborted).toBe(false);
    expect(deadline.remainingMs()).toBe(1);
    await clock.advance(1);
    expect(deadline.reason()).toBe('timeout');
    expect(deadline.signal.reason).toBeInstanceOf(DeadlineError);
    expect((deadline.signal.reason as DeadlineError).name).toBe('TimeoutError');
  });

  it('fires at once when the request already used up its time', () => {
    const clock = new ManualClock();
    clock.time = 500;
    expect(startDeadline({ clock, totalMs: 100, startedAt: 0 }).reason()).toBe('timeout');
  });

  it('fires the idle limit only after a quiet period, each touch restarting it, with one sleep at a time', async () => {
    const clock = new ManualClock();
    const deadline = startDeadline({ clock, idleMs: 50 });
    for (let chunk = 0; chunk < 10; chunk += 1) {
      await clock.advance(30);
      deadline.touch();
      expect(clock.sleepers).toBe(1);
    }
    expect(deadline.signal.aborted).toBe(false);
    await clock.advance(50);
    expect(deadline.reason()).toBe('idle');
    expect(clock.sleepers).toBe(0);
  });

  it('the total limit holds even while the work keeps touching', async () => {
    const clock = new ManualClock();
    const deadline = startDeadline({ clock, totalMs: 200, idleMs: 50 });
    for (let chunk = 0; chunk < 9; chunk += 1) {
      await clock.advance(25);
      deadline.touch();
    }
    expect(deadline.reason()).toBe('timeout');
  });

  it('turns the caller’s abort into cancelled, and dispose stops every timer', async () => {
    const clock = new ManualClock();
    const caller = new AbortController();
    const deadline = startDeadline({ clock, totalMs: 100, idleMs: 10, signal: caller.signal });
    caller.abort();
    expect(deadline.reason()).toBe('cancelled');
    expect(clock.sleepers).toBe(0);
    const other = startDeadline({ clock, totalMs: 100, idleMs: 10 });
    other.dispose();
    expect(clock.sleepers).toBe(0);
    await clock.advance(200);
    expect(other.signal.aborted).toBe(false);
  });
});

describe('runWithDeadline', () => {
  it('returns the work’s value when it finishes first', async () => {
    expect(await runWithDeadline(async () => 42, { clock: new ManualClock(), totalMs: 10 })).toEqual({ kind: 'done', value: 42 });
  });

  it('settles at the deadline even when the work ignores its signal', async () => {
    const clock = new ManualClock();
    let aborted = false;
    const pending = runWithDeadline((signal) => new Promise<never>(() => signal.addEventListener('abort', () => (aborted = true))), { clock, totalMs: 100 });
    await clock.advance(100);
    expect(await pending).toEqual({ kind: 'timeout', reason: 'timeout' });
    expect(aborted).toBe(true);
  });

  it('ends as cancelled when the caller aborts, and never starts when already aborted', async () => {
    const controller = new AbortController();
    const pending = runWithDeadline(() => new Promise<never>(() => {}), { clock: new ManualClock(), totalMs: 100, signal: controller.signal });
    controller.abort();
    expect(await pending).toEqual({ kind: 'cancelled' });
    let ran = false;
    expect(await runWithDeadline(async () => (ran = true), { clock: new ManualClock(), totalMs: 1, signal: controller.signal })).toEqual({ kind: 'cancelled' });
    expect(ran).toBe(false);
  });
});

describe('timerClock', () => {
  it('sleeps on real timers and ends early when aborted', async () => {
    const clock = timerClock({ setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle) });
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = clock.sleep(10_000, controller.signal);
    controller.abort();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(5_000);
    await clock.sleep(5);
  });

  it('calls the timers as plain functions, as a browser requires of its own setTimeout', async () => {
    // A browser's setTimeout throws "Illegal invocation" when called as a method of another object.
    const strictTimers = {
      setTimeout(this: unknown, callback: () => void, ms: number) {
        if (this !== undefined) throw new TypeError('Illegal invocation');
        return setTimeout(callback, ms);
      },
      clearTimeout(this: unknown, handle: never) {
        if (this !== undefined) throw new TypeError('Illegal invocation');
        clearTimeout(handle);
      },
    };
    await expect(timerClock(strictTimers).sleep(1)).resolves.toBeUndefined();
  });
});
