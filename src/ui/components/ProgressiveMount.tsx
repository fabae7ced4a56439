import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createMountPacer, type MountPacer } from '../lib/scheduling/mount-pacer.ts';

const PacerContext = createContext<MountPacer | null>(null);

/**
 * Everything inside mounts piece by piece, one piece per frame (see `mount-pacer.ts`). Without
 * this provider (unit tests, other callers) the hooks below mount everything at once.
 */
export function ProgressiveMount({ children }: { children: ReactNode }) {
  const [pacer] = useState(createMountPacer);
  useEffect(() => () => pacer.dispose(), [pacer]);
  return <PacerContext.Provider value={pacer}>{children}</PacerContext.Provider>;
}

/**
 * How many of `total` items to render: `first` at once, then `step` more per turn until all are
 * there. With no pacer above, all of them. `total` may grow later (a "show more"): the new items
 * come in the same steps.
 */
export function useIncrementalCount(total: number, step: number, first = step): number {
  const pacer = useContext(PacerContext);
  const [count, setCount] = useState(() => (pacer ? Math.min(total, first) : total));
  useEffect(() => {
    if (!pacer || count >= total) return;
    // flushSync: the piece renders and commits inside its turn, not in a later task of React's
    // scheduler where it could be batched with the next turn's piece.
    return pacer.request(() => flushSync(() => setCount((current) => Math.min(total, current + step))));
  }, [pacer, count, total, step]);
  return pacer ? Math.min(count, total) : total;
}

/**
 * Runs `steps` one per turn under a `ProgressiveMount` (all at once without one); returns a
 * function that drops the steps not yet run. For work an effect does after mounting, such as
 * drawing a large canvas band by band.
 */
export function useTurns(): (steps: ReadonlyArray<() => void>) => () => void {
  const pacer = useContext(PacerContext);
  return useCallback(
    (steps: ReadonlyArray<() => void>) => {
      if (!pacer) {
        for (const step of steps) step();
        return () => {};
      }
      let cancelled = false;
      const cancels = steps.map((step) => pacer.request(() => !cancelled && step()));
      return () => {
        cancelled = true;
        for (const cancel of cancels) cancel();
      };
    },
    [pacer],
  );
}

/** False until this component's turn comes (at once without a pacer). */
export function useDeferredMount(): boolean {
  return useIncrementalCount(1, 1, 0) === 1;
}

/** Renders `children` on its turn, `fallback` until then. */
export function Deferred({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return useDeferredMount() ? children : fallback;
}

/**
 * A ref for the element whose `data-mount` says `mounting` while pieces are still coming and
 * `complete` once they are all in (tests and measurements wait for it).
 */
export function useMountStateAttribute(): (element: HTMLElement | null) => void {
  const pacer = useContext(PacerContext);
  const stop = useRef<(() => void) | null>(null);
  return useCallback(
    (element: HTMLElement | null) => {
      stop.current?.();
      stop.current = null;
      if (!element) return;
      const show = (busy: boolean) => element.setAttribute('data-mount', busy ? 'mounting' : 'complete');
      // Attached during the commit, before the pieces' effects have asked for their turns.
      pacer?.hold();
      show(pacer?.busy() ?? false);
      if (pacer) stop.current = pacer.watch(show);
    },
    [pacer],
  );
}
