/**
 * `sextant import FILE... --dataset DIR`: every file hashed, refused at once when its SHA-256 or
 * capture id is already in the dataset, then streamed into staging — several at a time, each in
 * its own thread, up to `jobs` — and committed as soon as it is done. A file that fails is
 * reported and skipped; the others land.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { err, type DatasetSource, type Result } from '../../src/core/index.ts';
import { commitSource, readManifest, type CommitProblem } from './dataset-store.ts';
import { streamIntoStaging, type StreamImportProblem, type StreamImportRequest } from './stream-import.ts';
import type { StagedSource } from './dataset-store.ts';

export type FromImportThread =
  | { kind: 'progress'; bytesRead: number; rows: number }
  | { kind: 'done'; result: Result<StagedSource, StreamImportProblem> };

export interface FileToImport {
  path: string;
  captureId: string;
}

export type FileImportProblem = StreamImportProblem | CommitProblem | { code: 'UNREADABLE_FILE'; message: string };

export interface FileImportOutcome {
  file: FileToImport;
  result: Result<DatasetSource, FileImportProblem>;
}

export interface ImportFilesOptions {
  root: string;
  files: FileToImport[];
  /** Files imported at once (each in a thread); 1 imports in this thread. */
  jobs: number;
  receiver?: string;
  drainRows?: number;
  /** Bytes read and rows decoded so far over all files, of `totalBytes`. */
  onProgress?: (progress: { bytesRead: number; totalBytes: number; rows: number }) => void;
}

export async function importFiles(options: ImportFilesOptions): Promise<FileImportOutcome[]> {
  const manifest = await readManifest(options.root);
  const known = new Map<string, string>(manifest.ok ? manifest.value.sources.map((source) => [source.sha256, source.file]) : []);
  const usedIds = new Set<string>(manifest.ok ? manifest.value.sources.map((source) => source.capture_id) : []);
  const outcomes: FileImportOutcome[] = [];
  const queue: StreamImportRequest[] = [];
  for (const file of options.files) {
    const hashed = await hashFile(file.path);
    if (!hashed.ok) {
      outcomes.push({ file, result: hashed });
      continue;
    }
    const { sha256, bytes } = hashed.value;
    const already = known.get(sha256);
    if (already !== undefined) {
      outcomes.push({ file, result: err({ code: 'DUPLICATE_SOURCE', message: `${file.path} is already in the dataset (same SHA-256 as ${already})` }) });
      continue;
    }
    if (usedIds.has(file.captureId)) {
      const taker = queue.find((request) => request.captureId === file.captureId);
      const takenBy = taker ? `is taken by ${taker.path} in this import` : 'is already in the dataset';
      outcomes.push({ file, result: err({ code: 'CAPTURE_ID_IN_DATASET', message: `capture id ${file.captureId} (${file.path}) ${takenBy}; import this file on its own with --id ID` }) });
      continue;
    }
    known.set(sha256, basename(file.path));
    usedIds.add(file.captureId);
    queue.push({ root: options.root, path: file.path, captureId: file.captureId, sha256, bytes, ...(options.receiver === undefined ? {} : { receiver: options.receiver }), ...(options.drainRows === undefined ? {} : { drainRows: options.drainRows }) });
  }

  const totalBytes = queue.reduce((sum, request) => sum + (request.bytes ?? 0), 0);
  const progress = new Map<StreamImportRequest, { bytesRead: number; rows: number }>();
  const report = (request: StreamImportRequest, value: { bytesRead: number; rows: number }): void => {
    progress.set(request, value);
    let bytesRead = 0;
    let rows = 0;
    for (const entry of progress.values()) {
      bytesRead += entry.bytesRead;
      rows += entry.rows;
    }
    options.onProgress?.({ bytesRead, totalBytes, rows });
  };
  // Commits one at a time, in the order imports finish.
  let commits: Promise<void> = Promise.resolve();
  const runOne = async (request: StreamImportRequest, lane: ImportLane | null): Promise<void> => {
    const staged = lane ? await lane.run(request, (value) => report(request, value)) : await streamIntoStaging(request, { onProgress: (value) => report(request, value) });
    const file = options.files.find((candidate) => candidate.path === request.path && candidate.captureId === request.captureId)!;
    commits = commits.then(async () => {
      outcomes.push({ file, result: staged.ok ? await commitOrExplain(options.root, staged.value) : staged });
    });
    await commits;
  };
  const pending = [...queue];
  const threaded = options.jobs > 1 && queue.length > 1;
  const lanes = Array.from({ length: Math.max(1, Math.min(options.jobs, pending.length)) }, async () => {
    const lane = threaded ? new ImportLane() : null;
    try {
      for (let request = pending.shift(); request; request = pending.shift()) await runOne(request, lane);
    } finally {
      lane?.close();
    }
  });
  await Promise.all(lanes);
  await commits;
  // In the order the files were given.
  return options.files.map((file) => outcomes.find((outcome) => outcome.file === file)!).filter(Boolean);
}

/** A commit that fails (a full disk, a lost directory) is that file's refusal, never the command's crash. */
async function commitOrExplain(root: string, staged: StagedSource): Promise<Result<DatasetSource, FileImportProblem>> {
  try {
    return await commitSource(root, staged);
  } catch (error) {
    return err({ code: 'WRITE_FAILED', message: `${staged.source.file}: the commit failed and left the dataset unchanged: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/**
 * One thread that imports the files of a lane one after another: a thread per file paid its start
 * (loading the runner and parquet-wasm) per file, most of the work for small captures. A thread
 * that fails or exits fails its file, and the lane's next file gets a new thread.
 */
class ImportLane {
  private worker: Worker | null = null;

  run(request: StreamImportRequest, onProgress: (value: { bytesRead: number; rows: number }) => void): Promise<Result<StagedSource, StreamImportProblem>> {
    const worker = (this.worker ??= new Worker(new URL('./import-thread.mjs', import.meta.url)));
    return new Promise((resolve) => {
      const settle = (result: Result<StagedSource, StreamImportProblem>, broken: boolean): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (broken) this.close();
        resolve(result);
      };
      const onMessage = (message: FromImportThread): void => {
        if (message.kind === 'progress') onProgress(message);
        else settle(message.result, false);
      };
      const onError = (error: Error): void => settle(err({ code: 'IMPORT_FAILED', message: `${request.path}: the import thread failed: ${error.message}` }), true);
      const onExit = (code: number): void => settle(err({ code: 'IMPORT_FAILED', message: `${request.path}: the import thread exited (${code}) without a result` }), true);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}

async function hashFile(path: string): Promise<Result<{ sha256: string; bytes: number }, FileImportProblem>> {
  try {
    if (!(await stat(path)).isFile()) return err({ code: 'UNREADABLE_FILE', message: `${path} is not a file` });
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    return { ok: true, value: { sha256: hash.digest('hex'), bytes } };
  } catch (error) {
    return err({ code: 'UNREADABLE_FILE', message: `${path} cannot be read: ${error instanceof Error ? error.message : String(error)}` });
  }
}
