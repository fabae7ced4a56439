import { useSyncExternalStore } from 'react';

/**
 * A value components follow with `useSyncExternalStore`: `get` is the snapshot, `set` replaces it
 * and tells every subscriber. Snapshots are compared by identity, so `set` takes a new object (or
 * array) for every change. Written by hand: it is the eight lines React's own docs show, and a
 * state library would add more surface than it removes.
 */
export interface ExternalStore<T> {
  get(): T;
  set(next: T): void;
  /** `set(change(get()))`. */
  update(change: (current: T) => T): void;
  /** Calls `listener` after every `set`; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export function createExternalStore<T>(initial: T): ExternalStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  const set = (next: T): void => {
    value = next;
    for (const listener of listeners) listener();
  };
  return {
    get: () => value,
    set,
    update: (change) => set(change(value)),
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The store's current value, re-rendering on every `set`. */
export function useExternalStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
