import { createExternalStore, useExternalStore } from './external-store.ts';

/** Workspace settings the user can change; kept in this browser's localStorage. */
export interface WorkspaceSettings {
  /** Number of tools workers. */
  workerCount: number;
  /** Developer setting: install the diagnostic `test_echo` tool. */
  testTools: boolean;
}

const KEY = 'sextant.settings.v1';
const defaults = (): WorkspaceSettings => ({
  workerCount: Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1)),
  testTools: false,
});

function load(): WorkspaceSettings {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<WorkspaceSettings>;
    const base = defaults();
    return {
      workerCount: Number.isInteger(stored.workerCount) && stored.workerCount! >= 1 && stored.workerCount! <= 16 ? stored.workerCount! : base.workerCount,
      testTools: typeof stored.testTools === 'boolean' ? stored.testTools : base.testTools,
    };
  } catch {
    return defaults();
  }
}

const settings = createExternalStore(load());

export function getSettings(): WorkspaceSettings {
  return settings.get();
}

export function updateSettings(change: Partial<WorkspaceSettings>): void {
  const next = { ...settings.get(), ...change };
  localStorage.setItem(KEY, JSON.stringify(next));
  settings.set(next);
}

export function subscribeSettings(listener: () => void): () => void {
  return settings.subscribe(listener);
}

export function useSettings(): WorkspaceSettings {
  return useExternalStore(settings);
}
