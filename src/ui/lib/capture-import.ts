import { wrap, proxy, releaseProxy } from 'comlink';
import { useSyncExternalStore } from 'react';
import type { ImportOutcome, ImportWorkerApi } from '../../../workers/import-api.ts';
import { getRuntime } from './sextant-runtime.ts';

/** One file being imported (or that failed). */
export interface ImportJob {
  id: number;
  fileName: string;
  captureId: string;
  state: 'importing' | 'done' | 'failed' | 'cancelled';
  /** In [0, 1]. */
  progress: number;
  error?: { code: string; message: string };
}

let jobs: ImportJob[] = [];
let nextJob = 1;
const listeners = new Set<() => void>();
const workers = new Map<number, Worker>();
const cancellers = new Map<number, () => void>();

function update(id: number, change: Partial<ImportJob>): void {
  jobs = jobs.map((job) => (job.id === id ? { ...job, ...change } : job));
  for (const listener of listeners) listener();
}

export function useImportJobs(): ImportJob[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => jobs,
  );
}

/** A capture id from a file name: its stem, lower snake case, unique among `taken`. */
export function captureIdFor(fileName: string, taken: ReadonlySet<string>): string {
  const stem = fileName.replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'capture';
  let id = stem;
  for (let suffix = 2; taken.has(id); suffix++) id = `${stem}_${suffix}`;
  return id;
}

export interface ImportHooks {
  /** Called with the Arrow bytes of an imported capture before it is announced (e.g. to persist it). */
  onImported?(outcome: Extract<ImportOutcome, { ok: true }>): Promise<void>;
}

/**
 * Imports a file in its own worker (the main thread only shows progress), then loads the capture
 * into the tools workers. Cancel terminates the import worker.
 */
export async function importCaptureFile(file: File, hooks: ImportHooks = {}): Promise<ImportJob> {
  const runtime = getRuntime();
  const taken = new Set([...(await runtime.captures()).map((info) => info.id), ...jobs.filter((job) => job.state === 'importing').map((job) => job.captureId)]);
  const job: ImportJob = { id: nextJob++, fileName: file.name, captureId: captureIdFor(file.name, taken), state: 'importing', progress: 0 };
  jobs = [job, ...jobs];
  for (const listener of listeners) listener();

  const worker = new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'sextant-import' });
  workers.set(job.id, worker);
  const api = wrap<ImportWorkerApi>(worker);
  try {
    // A terminated worker never answers, so cancelling also settles the wait.
    const cancelled = new Promise<null>((resolve) => cancellers.set(job.id, () => resolve(null)));
    const outcome = await Promise.race([api.importFile(file, job.captureId, proxy((fraction: number) => update(job.id, { progress: fraction }))), cancelled]);
    if (outcome === null) {
      update(job.id, { state: 'cancelled' });
    } else if (!outcome.ok) {
      update(job.id, { state: 'failed', error: { code: outcome.code, message: outcome.message } });
    } else {
      await hooks.onImported?.(outcome);
      await runtime.addCapture(outcome.arrow);
      update(job.id, { state: 'done', progress: 1 });
    }
  } catch (error) {
    const current = jobs.find((candidate) => candidate.id === job.id);
    if (current?.state === 'importing') update(job.id, { state: 'failed', error: { code: 'IMPORT_FAILED', message: error instanceof Error ? error.message : String(error) } });
  } finally {
    api[releaseProxy]();
    worker.terminate();
    workers.delete(job.id);
    cancellers.delete(job.id);
  }
  return jobs.find((candidate) => candidate.id === job.id)!;
}

export function cancelImport(id: number): void {
  workers.get(id)?.terminate();
  cancellers.get(id)?.();
}

export function dismissImport(id: number): void {
  jobs = jobs.filter((job) => job.id !== id);
  for (const listener of listeners) listener();
}
