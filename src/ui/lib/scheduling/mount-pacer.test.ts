import { describe, expect, it } from 'vitest';
import { createMountPacer, type FrameClock } from './mount-pacer.ts';

/** A clock whose frames the test paints by hand. */
function manualClock(): FrameClock & { paint(): void; waiting(): number } {
  let callbacks: Array<() => void> = [];
  return {
    afterNextPaint(callback) {
      callbacks.push(callback);
      return () => (callbacks = callbacks.filter((entry) => entry !== callback));
    },
    paint() {
      const due = callbacks;
      callbacks = [];
      for (const callback of due) callback();
    },
    waiting: () => callbacks.length,
  };
}

describe('createMountPacer', () => {
  it('gives one turn per painted frame, first come first served, and is busy until a frame passes with nothing queued', () => {
    const clock = manualClock();
    const pacer = createMountPacer(clock);
    const turns: string[] = [];
    const states: boolean[] = [];
    pacer.watch((busy) => states.push(busy));
    pacer.request(() => turns.push('a'));
    pacer.request(() => {
      turns.push('b');
      // A piece that asks for more when it mounts queues behind what is already waiting.
      pacer.request(() => turns.push('b2'));
    });
    pacer.request(() => turns.push('c'));
    expect(turns).toEqual([]);
    expect(pacer.busy()).toBe(true);
    clock.paint();
    expect(turns).toEqual(['a']);
    clock.paint();
    clock.paint();
    clock.paint();
    expect(turns).toEqual(['a', 'b', 'c', 'b2']);
    expect(pacer.busy()).toBe(true);
    clock.paint();
    expect(pacer.busy()).toBe(false);
    expect(states).toEqual([true, false]);
    expect(clock.waiting()).toBe(0);
  });

  it('drops a cancelled turn, and what is queued when disposed; later requests still run (StrictMode re-runs effects)', () => {
    const clock = manualClock();
    const pacer = createMountPacer(clock);
    const turns: string[] = [];
    const cancel = pacer.request(() => turns.push('a'));
    pacer.request(() => turns.push('b'));
    cancel();
    clock.paint();
    expect(turns).toEqual(['b']);
    pacer.request(() => turns.push('c'));
    pacer.dispose();
    expect(clock.waiting()).toBe(0);
    clock.paint();
    expect(turns).toEqual(['b']);
    pacer.request(() => turns.push('d'));
    clock.paint();
    expect(turns).toEqual(['b', 'd']);
  });

  it('hold keeps it busy for one frame when nothing comes', () => {
    const clock = manualClock();
    const pacer = createMountPacer(clock);
    pacer.hold();
    expect(pacer.busy()).toBe(true);
    clock.paint();
    expect(pacer.busy()).toBe(false);
  });
});
