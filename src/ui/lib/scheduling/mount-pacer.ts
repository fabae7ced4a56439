/**
 * Hands out "mount the next piece" turns one per frame, so a large view mounts as a series of
 * small tasks instead of one long one (issue 15: no main-thread task over 50 ms while the BLE
 * view of hundreds of linked addresses mounts). A turn runs in a task of its own right after a
 * frame has been painted; the next turn waits for the following frame, so the layout and paint
 * of one piece never share a task with the commit of the next.
 */
export interface MountPacer {
  /** Queues `turn` (first come, first served); returns a function that takes it off the queue. */
  request(turn: () => void): () => void;
  /** Busy until a frame goes by with nothing queued (for a view whose pieces will ask in their effects). */
  hold(): void;
  /** Called with `true` while turns are queued or running, `false` once the queue has drained. */
  watch(listener: (busy: boolean) => void): () => void;
  busy(): boolean;
  /**
   * Drops the queued turns and the pending tick. Not final: a provider's effect clean-up calls it,
   * and React's StrictMode runs clean-ups and effects again on a live tree, whose pieces then ask anew.
   */
  dispose(): void;
}

export interface FrameClock {
  /** Runs `callback` after the next frame has been painted. */
  afterNextPaint(callback: () => void): () => void;
}

/** requestAnimationFrame runs just before a frame's rendering; a timeout queued from it runs once that frame is out. */
export const browserFrameClock: FrameClock = {
  afterNextPaint(callback) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(callback, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  },
};

export function createMountPacer(clock: FrameClock = browserFrameClock): MountPacer {
  const queue: Array<() => void> = [];
  const listeners = new Set<(busy: boolean) => void>();
  let cancelTick: (() => void) | null = null;
  let isBusy = false;

  const setBusy = (next: boolean) => {
    if (next === isBusy) return;
    isBusy = next;
    for (const listener of listeners) listener(next);
  };

  const schedule = () => {
    if (cancelTick) return;
    setBusy(true);
    cancelTick = clock.afterNextPaint(() => {
      cancelTick = null;
      const turn = queue.shift();
      if (!turn) {
        // A whole frame went by with nothing queued: what was mounted asked for nothing more.
        setBusy(false);
        return;
      }
      turn();
      // Whether or not the turn queued more, look again after the next frame.
      schedule();
    });
  };

  return {
    request(turn) {
      queue.push(turn);
      schedule();
      return () => {
        const index = queue.indexOf(turn);
        if (index >= 0) queue.splice(index, 1);
      };
    },
    hold: schedule,
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    busy: () => isBusy,
    dispose() {
      queue.length = 0;
      cancelTick?.();
      cancelTick = null;
      isBusy = false;
    },
  };
}
