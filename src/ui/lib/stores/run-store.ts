import type { ExecutionRecord } from '../../../core/index.ts';
import { createExternalStore, useExternalStore } from './external-store.ts';

/** One run of this session: what was sent, and what came back. */
export interface RunEntry {
  id: number;
  /** The invocation or plan as the user sent it. */
  input: unknown;
  isPlan: boolean;
  startedAt: Date;
  state: 'running' | 'done';
  /** Progress in [0, 1] while running. */
  progress: number;
  records: ExecutionRecord[];
  durationMs: number;
  /** Set when the run could not be saved in the workspace. */
  saveProblem?: string;
}

const runs = createExternalStore<RunEntry[]>([]);
let nextId = 1;

export function startRun(input: unknown, isPlan: boolean): RunEntry {
  const entry: RunEntry = { id: nextId++, input, isPlan, startedAt: new Date(), state: 'running', progress: 0, records: [], durationMs: 0 };
  runs.update((current) => [entry, ...current]);
  return entry;
}

export function updateRun(id: number, change: Partial<Omit<RunEntry, 'id'>>): void {
  runs.update((current) => current.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
}

/**
 * Puts runs restored from the workspace behind this session's runs; new ids continue after them.
 * With `replace` (a workspace import that replaced entries), a finished run of the same id takes
 * the stored version; a run still going is never replaced.
 */
export function restoreRuns(restored: RunEntry[], options: { replace?: boolean } = {}): void {
  const byId = new Map(restored.map((entry) => [entry.id, entry]));
  const current = runs.get().map((entry) => (options.replace && entry.state !== 'running' && byId.has(entry.id) ? byId.get(entry.id)! : entry));
  const known = new Set(current.map((entry) => entry.id));
  const merged = [...current, ...restored.filter((entry) => !known.has(entry.id))].sort((a, b) => b.id - a.id);
  nextId = Math.max(nextId, ...merged.map((entry) => entry.id + 1));
  runs.set(merged);
}

/** A run by id, outside React. */
export function getRun(id: number): RunEntry | undefined {
  return runs.get().find((entry) => entry.id === id);
}

export function useRuns(): RunEntry[] {
  return useExternalStore(runs);
}

export function useRun(id: number | null): RunEntry | undefined {
  return useRuns().find((entry) => entry.id === id);
}
