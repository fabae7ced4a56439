import { useSyncExternalStore } from 'react';
import type { ProviderKind } from '../../../core/index.ts';
import { createExternalStore } from '../stores/external-store.ts';

/**
 * API keys for the planner's providers. A key lives in this tab's memory unless the user ticks
 * "remember on this device"; only then is it written to localStorage under {@link REMEMBERED_KEYS_STORAGE_KEY}
 * (never IndexedDB, so it can never reach a workspace export). Nothing here logs a key.
 */
export const REMEMBERED_KEYS_STORAGE_KEY = 'sextant.planner.api-keys.v1';

/** Which key a target uses: one per hosted provider, one per OpenAI-compatible base URL. */
export function keySlotOf(target: { provider: ProviderKind; baseUrl?: string }): string | null {
  switch (target.provider) {
    case 'openai':
    case 'anthropic':
      return target.baseUrl ? `${target.provider}@${normalizeBaseUrl(target.baseUrl)}` : target.provider;
    case 'openai-compatible':
      return `openai-compatible@${normalizeBaseUrl(target.baseUrl ?? '')}`;
    case 'scripted':
      return null;
  }
}

function normalizeBaseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** The part of `localStorage` the store uses; injectable for tests. */
export interface KeyStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface KeyStore {
  /** The key for a slot, or undefined. */
  get(slot: string): string | undefined;
  /** Sets a slot's key; `remember` also writes it to this device's storage (and forgetting it erases it there). */
  set(slot: string, key: string, remember: boolean): void;
  /** Removes a slot's key from memory and from this device's storage. */
  forget(slot: string): void;
  /** Whether a slot's key is kept on this device. */
  isRemembered(slot: string): boolean;
  /** Every key currently known, for redacting them from anything that leaves the app. */
  allKeys(): string[];
  /** Changes with every set or forget; for `useSyncExternalStore`. */
  version(): number;
  subscribe(listener: () => void): () => void;
}

/** A key store over `storage` (null: memory only, for browsers that refuse storage). */
export function createKeyStore(storage: KeyStorage | null): KeyStore {
  const memory = new Map<string, string>();
  const remembered = new Set<string>();
  // The snapshot is a counter: the keys themselves stay out of React state.
  const version = createExternalStore(0);

  for (const [slot, key] of Object.entries(readRemembered(storage))) {
    memory.set(slot, key);
    remembered.add(slot);
  }

  function persist(): void {
    if (!storage) return;
    const kept: Record<string, string> = {};
    for (const slot of remembered) {
      const key = memory.get(slot);
      if (key) kept[slot] = key;
    }
    try {
      if (Object.keys(kept).length === 0) storage.removeItem(REMEMBERED_KEYS_STORAGE_KEY);
      else storage.setItem(REMEMBERED_KEYS_STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Storage full or refused: the key still works for this tab, it just is not remembered.
    }
  }

  function changed(): void {
    version.update((current) => current + 1);
  }

  return {
    get: (slot) => memory.get(slot),
    set(slot, key, remember) {
      const trimmed = key.trim();
      if (trimmed === '') {
        this.forget(slot);
        return;
      }
      memory.set(slot, trimmed);
      if (remember) remembered.add(slot);
      else remembered.delete(slot);
      persist();
      changed();
    },
    forget(slot) {
      memory.delete(slot);
      remembered.delete(slot);
      persist();
      changed();
    },
    isRemembered: (slot) => remembered.has(slot),
    allKeys: () => [...memory.values()],
    version: version.get,
    subscribe: version.subscribe,
  };
}

function readRemembered(storage: KeyStorage | null): Record<string, string> {
  if (!storage) return {};
  try {
    const parsed: unknown = JSON.parse(storage.getItem(REMEMBERED_KEYS_STORAGE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  } catch {
    return {};
  }
}

let appStore: KeyStore | null = null;

/** The app's key store (localStorage when the browser allows it). */
export function getKeyStore(): KeyStore {
  appStore ??= createKeyStore(browserStorage());
  return appStore;
}

function browserStorage(): KeyStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Re-renders when any key changes. */
export function useKeyStore(store: KeyStore = getKeyStore()): KeyStore {
  useSyncExternalStore(store.subscribe, store.version);
  return store;
}
