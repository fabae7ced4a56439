import { useSyncExternalStore } from 'react';
import type { ExecutionRecord } from '../../../core/index.ts';

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

let runs: RunEntry[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function startRun(input: unknown, isPlan: boolean): RunEntry {
  const entry: RunEntry = { id: nextId++, input, isPlan, startedAt: new Date(), state: 'running', progress: 0, records: [], durationMs: 0 };
  runs = [entry, ...runs];
  emit();
  return entry;
}

export function updateRun(id: number, change: Partial<Omit<RunEntry, 'id'>>): void {
  runs = runs.map((entry) => (entry.id === id ? { ...entry, ...change } : entry));
  emit();
}

/** Puts runs restored from the workspace behind this session's runs; new ids continue after them. */
export function restoreRuns(restored: RunEntry[]): void {
  const known = new Set(runs.map((entry) => entry.id));
  runs = [...runs, ...restored.filter((entry) => !known.has(entry.id))].sort((a, b) => b.id - a.id);
  nextId = Math.max(nextId, ...runs.map((entry) => entry.id + 1));
  emit();
}

/** A run by id, outside React. */
export function getRun(id: number): RunEntry | undefined {
  return runs.find((entry) => entry.id === id);
}

export function useRuns(): RunEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => runs,
  );
}

export function useRun(id: number | null): RunEntry | undefined {
  return useRuns().find((entry) => entry.id === id);
}
