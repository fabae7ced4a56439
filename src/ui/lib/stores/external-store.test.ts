import { describe, expect, it, vi } from 'vitest';
import { createExternalStore } from './external-store.ts';

describe('createExternalStore', () => {
  it('gives the current value and tells subscribers of every change until they unsubscribe', () => {
    const store = createExternalStore<number[]>([]);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set([1]);
    store.update((current) => [...current, 2]);
    expect(store.get()).toEqual([1, 2]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.set([]);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.get()).toEqual([]);
  });

  it('keeps each subscriber separate', () => {
    const store = createExternalStore('a');
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = store.subscribe(first);
    store.subscribe(second);
    stopFirst();
    store.set('b');
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });
});
