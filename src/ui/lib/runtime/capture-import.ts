import { proxy, releaseProxy, wrap, type Remote } from 'comlink';
import type { ColumnMapping, ColumnSchema, JsonObject } from '../../../core/index.ts';
import type { DatasetWindowJob, ImportOutcome, ImportWorkerApi } from '../../../../workers/import-api.ts';
import { getRuntime } from './sextant-runtime.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { getKeyring } from '../keyring/keyring.ts';
import { createExternalStore, useExternalStore } from '../stores/external-store.ts';

/** One file being imported (or that failed). */
export interface ImportJob {
  id: number;
  fileName: string;
  captureId: string;
  state: 'importing' | 'needs-mapping' | 'done' | 'failed' | 'cancelled';
  /** In [0, 1]. */
  progress: number;
  /** For `needs-mapping`: the table's columns and a suggested mapping. */
  mapping?: { columns: ColumnSchema[]; suggestion: ColumnMapping };
  report?: JsonObject;
  error?: { code: string; message: string };
  /** Set when the capture works in this session but could not be saved in the workspace. */
  saveProblem?: string;
}

const jobs = createExternalStore<ImportJob[]>([]);
let nextJob = 1;
const active = new Map<number, { worker: Worker; api: Remote<ImportWorkerApi>; cancel: () => void }>();

function update(id: number, change: Partial<ImportJob>): void {
  jobs.update((current) => current.map((job) => (job.id === id ? { ...job, ...change } : job)));
}

function jobById(id: number): ImportJob | undefined {
  return jobs.get().find((job) => job.id === id);
}

export function useImportJobs(): ImportJob[] {
  return useExternalStore(jobs);
}

/** A capture id from a file name: its stem, lower snake case, unique among `taken`. */
export function captureIdFor(fileName: string, taken: ReadonlySet<string>): string {
  const stem = fileName.replace(/\.[^.]+$/, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'capture';
  let id = stem;
  for (let suffix = 2; taken.has(id); suffix++) id = `${stem}_${suffix}`;
  return id;
}

/**
 * Imports a file in its own worker (the main thread only shows progress). A table without the
 * normalized time column waits for a column mapping; a finished capture is saved in the workspace
 * before it is announced, then loaded into the tools workers. Resolves when the job settles or
 * waits for a mapping.
 */
export async function importCaptureFile(file: File): Promise<ImportJob> {
  return runImportJob(file.name, file.name, (api, id, onProgress) => api.importFile(file, id, onProgress));
}

/**
 * Opens a time window of one capture of a dataset directory as a capture (the worker reads only
 * the Parquet parts the window needs); it then works like an imported file. `files` are the
 * directory's files by their path under the dataset root; `label` names the job and the capture.
 */
export async function openDatasetWindow(files: ReadonlyMap<string, File>, request: Omit<DatasetWindowJob, 'id'>, label: string): Promise<ImportJob> {
  // Named by the capture and the window's start to the minute: `rx_1_20261120t1300`.
  const start = request.window.fromMs === null ? 'all' : new Date(request.window.fromMs).toISOString().slice(0, 16).replace(/[-:]/g, '');
  return runImportJob(label, `${request.captureId}_${start}`, (api, id, onProgress) => api.importDatasetWindow(files, { ...request, id }, onProgress));
}

async function runImportJob(name: string, idFrom: string, start: (api: Remote<ImportWorkerApi>, id: string, onProgress: (fraction: number) => void) => Promise<ImportOutcome>): Promise<ImportJob> {
  const runtime = getRuntime();
  const taken = new Set([...(await runtime.captures()).map((info) => info.id), ...jobs.get().filter((job) => job.state === 'importing').map((job) => job.captureId)]);
  const job: ImportJob = { id: nextJob++, fileName: name, captureId: captureIdFor(idFrom, taken), state: 'importing', progress: 0 };
  jobs.update((current) => [job, ...current]);

  const worker = new Worker(new URL('../../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'sextant-import' });
  const api = wrap<ImportWorkerApi>(worker);
  // A terminated worker never answers, so cancelling also settles the wait.
  let cancel = () => {};
  const cancelled = new Promise<null>((resolve) => (cancel = () => resolve(null)));
  active.set(job.id, { worker, api, cancel });
  const outcome = await Promise.race([start(api, job.captureId, proxy((fraction: number) => update(job.id, { progress: fraction }))).catch(failed), cancelled]);
  await settle(job.id, outcome);
  return jobById(job.id)!;
}

/** Finishes a job that waits for a column mapping. */
export async function applyImportMapping(id: number, mapping: ColumnMapping): Promise<ImportJob> {
  const entry = active.get(id);
  if (!entry) return jobById(id)!;
  update(id, { state: 'importing' });
  const outcome = await Promise.race([
    (entry.api.applyMapping(mapping) as Promise<ImportOutcome>).catch(failed),
    new Promise<null>((resolve) => (entry.cancel = () => resolve(null))),
  ]);
  await settle(id, outcome);
  return jobById(id)!;
}

function failed(error: unknown): ImportOutcome {
  return { ok: false, code: 'IMPORT_FAILED', message: error instanceof Error ? error.message : String(error) };
}

async function settle(id: number, outcome: ImportOutcome | null): Promise<void> {
  const job = jobById(id)!;
  if (outcome === null) {
    update(id, { state: 'cancelled' });
  } else if (!outcome.ok) {
    // A failed mapping can be corrected and applied again: keep the worker and its table.
    if (job.mapping) {
      update(id, { state: 'needs-mapping', error: { code: outcome.code, message: outcome.message } });
      return;
    }
    update(id, { state: 'failed', error: { code: outcome.code, message: outcome.message } });
  } else if (outcome.kind === 'needs-mapping') {
    update(id, { state: 'needs-mapping', mapping: { columns: outcome.columns, suggestion: outcome.suggestion }, report: outcome.report, progress: 1 });
    return;
  } else {
    // Written before it is acknowledged: a capture the user sees as imported survives a reload.
    const workspace = await getWorkspace();
    const saved = workspace ? await workspace.saveCapture({ info: outcome.info, arrow: outcome.arrow, report: outcome.report }) : null;
    const saveProblem = saved === null ? 'The browser offers no storage here, so it will be gone after a reload' : saved.ok ? undefined : saved.error.message;
    await getRuntime().addCapture(outcome.arrow, outcome.report);
    // Identity keys the capture carries go on the workspace keyring (labelled by capture and frame).
    await getKeyring().addFromReport(outcome.info.id, outcome.report);
    update(id, { state: 'done', progress: 1, report: outcome.report, saveProblem, error: undefined });
  }
  stop(id);
}

function stop(id: number): void {
  const entry = active.get(id);
  if (!entry) return;
  entry.api[releaseProxy]();
  entry.worker.terminate();
  active.delete(id);
}

export function cancelImport(id: number): void {
  const entry = active.get(id);
  entry?.worker.terminate();
  entry?.cancel();
  if (entry && jobById(id)?.state === 'needs-mapping') {
    update(id, { state: 'cancelled' });
    stop(id);
  }
}

export function dismissImport(id: number): void {
  jobs.update((current) => current.filter((job) => job.id !== id));
}
