/**
 * One capture file streamed into a dataset's staging area: read in chunks, decoded by the BLE
 * importer, drained every `drainRows` records into Parquet parts split by UTC hour, forgotten.
 * Memory is one drain's rows plus the importer's dictionaries (distinct addresses, payloads),
 * whatever the file's size. Nothing becomes part of the dataset until `commitSource`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Table } from 'apache-arrow';
import {
  checkTimestamps,
  conformToDatasetSchema,
  createBleImporter,
  detectBleContainer,
  detectTabularFormat,
  err,
  importIntegrity,
  numericColumn,
  ok,
  partitionDirectory,
  readCaptureSource,
  splitByHour,
  type CaptureFileProblem,
  type ConformProblem,
  type DatasetPart,
  type ImportWarning,
  type Result,
} from '../../src/core/index.ts';
import { withFileCaptureSource } from '../file-source.ts';
import { STAGING_DIR, type StagedSource } from './dataset-store.ts';
import { parquetPart } from './parquet-part.ts';

/** Records per drain: ~70 MB of decoded rows, one Parquet part per hour they span. */
export const DEFAULT_DRAIN_ROWS = 1 << 20;

export interface StreamImportRequest {
  root: string;
  path: string;
  captureId: string;
  /**
   * The file's SHA-256 and size, computed before the import (duplicates are refused first). The
   * import hashes what it reads again and refuses a file that changed in between. Absent for a
   * stream that cannot be read twice: the hash of what was read is recorded.
   */
  sha256?: string;
  bytes?: number;
  receiver?: string;
  drainRows?: number;
}

export interface StreamImportHooks {
  /** The bytes to import instead of reading `path` (a generated stream, in the scale bench). */
  read?: () => AsyncIterable<Uint8Array>;
  /** Writes one part file; replaced in tests to fail like a full disk. */
  writePart?: (path: string, bytes: Uint8Array) => Promise<void>;
  onProgress?: (progress: { bytesRead: number; rows: number }) => void;
}

/**
 * A whole-file failure: the import pipeline's codes, a table that is not packets or does not fit
 * the dataset schema (`MISSING_PACKET_COLUMNS`, `COLUMN_TYPE_MISMATCH`, `VALUE_OUT_OF_RANGE`),
 * `WRITE_FAILED` (a full disk, a lost directory) or `FILE_CHANGED` (the bytes differ from those
 * hashed before).
 */
export type StreamImportProblem = CaptureFileProblem | ConformProblem | { code: 'WRITE_FAILED' | 'FILE_CHANGED'; message: string };

const READ_CHUNK_BYTES = 1 << 20;

export async function streamIntoStaging(request: StreamImportRequest, hooks: StreamImportHooks = {}): Promise<Result<StagedSource, StreamImportProblem>> {
  const stagingDir = join(request.root, STAGING_DIR, `${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  // Part names start with the source's hash when it is known, else with a random stand-in.
  const partPrefix = request.sha256?.slice(0, 16) ?? Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const fileName = basename(request.path);
  const parts = new StagedParts(stagingDir, request.captureId, partPrefix, hooks.writePart ?? defaultWritePart);
  if (!hooks.read && (await readsAsTable(request.path))) return tableIntoStaging(request, parts, hooks);
  const importer = createBleImporter({ captureId: request.captureId, fileName, ...(request.receiver === undefined ? {} : { receiver: request.receiver }) });
  const drainRows = request.drainRows ?? DEFAULT_DRAIN_ROWS;
  const warnings = new TimestampWarnings(drainRows);
  let bytesRead = 0;
  const hash = createHash('sha256');
  const read = hooks.read ?? (() => createReadStream(request.path, { highWaterMark: READ_CHUNK_BYTES }) as AsyncIterable<Uint8Array>);

  const writeDrained = async (table: Table | null): Promise<void> => {
    if (!table || table.numRows === 0) return;
    warnings.add(checkTimestamps(table, 'ts_ms'), parts.rows);
    await parts.add(table);
  };

  try {
    await mkdir(stagingDir, { recursive: true });
    for await (const chunk of read()) {
      hash.update(chunk);
      importer.push(chunk);
      bytesRead += chunk.length;
      if (importer.pendingRows >= drainRows) await writeDrained(importer.drain());
      hooks.onProgress?.({ bytesRead, rows: parts.rows + importer.pendingRows });
    }
    const sha256 = hash.digest('hex');
    if ((request.sha256 !== undefined && sha256 !== request.sha256) || (request.bytes !== undefined && bytesRead !== request.bytes)) {
      await rm(stagingDir, { recursive: true, force: true });
      return err(fileChanged(fileName, bytesRead, sha256, request));
    }
    const finished = importer.finish();
    if (!finished.ok) {
      await rm(stagingDir, { recursive: true, force: true });
      return finished;
    }
    await writeDrained(finished.value.table);
    const { report } = finished.value;
    const allWarnings = warnings.merged();
    const { identity_keys: identityKeys, ...rest } = report;
    const fullReport = {
      ...rest,
      // A dataset travels (copied to a cluster, handed over): it says where keys were found, never what they are.
      identity_keys: identityKeys.map(({ irk: _irk, ...where }) => where),
      format: report.container,
      source_bytes: bytesRead,
      source_sha256: sha256,
      warnings: allWarnings,
      partial: report.partial || allWarnings.length > 0,
      integrity: importIntegrity({ ...report, warnings: allWarnings }),
    };
    return ok({
      stagingDir,
      source: { capture_id: request.captureId, file: fileName, sha256, bytes: bytesRead, rows: parts.rows, bounds: report.bounds, report: fullReport, parts: parts.list },
    });
  } catch (error) {
    await rm(stagingDir, { recursive: true, force: true });
    return err(writeFailed(fileName, error));
  }
}

/**
 * An Arrow IPC, Parquet or CSV file of packets in the normalized capture columns (what the app and
 * `sextant import --out` export, or a table another tool wrote with those names): read whole by
 * the one import pipeline — these formats are already compact, and Parquet is read by ranges —
 * conformed to the dataset schema, and written as parts like a drained capture.
 */
async function tableIntoStaging(request: StreamImportRequest, parts: StagedParts, hooks: StreamImportHooks): Promise<Result<StagedSource, StreamImportProblem>> {
  const fileName = basename(request.path);
  const read = await withFileCaptureSource(request.path, fileName, (source) => readCaptureSource(source, { id: request.captureId, fileName }));
  if (!read.ok) return read;
  const { table, report } = read.value;
  if (report.source_sha256 !== request.sha256 && request.sha256 !== undefined) return err(fileChanged(fileName, report.source_bytes, report.source_sha256, request));
  const conformed = conformToDatasetSchema(table, request.captureId);
  if (!conformed.ok) return err({ ...conformed.error, message: `${fileName}: ${conformed.error.message}` });
  try {
    await mkdir(parts.stagingDir, { recursive: true });
    await parts.add(conformed.value.table);
    hooks.onProgress?.({ bytesRead: report.source_bytes, rows: parts.rows });
  } catch (error) {
    await rm(parts.stagingDir, { recursive: true, force: true });
    return err(writeFailed(fileName, error));
  }
  const bounds = timeBounds(conformed.value.table);
  const fullReport = { ...report, dataset_columns_added: conformed.value.added, dataset_columns_dropped: conformed.value.dropped };
  return ok({
    stagingDir: parts.stagingDir,
    source: {
      capture_id: request.captureId,
      file: fileName,
      sha256: report.source_sha256,
      bytes: report.source_bytes,
      rows: parts.rows,
      bounds: bounds.min_ts_ms === null || bounds.max_ts_ms === null ? null : { start_ms: Math.floor(bounds.min_ts_ms), end_ms: Math.ceil(bounds.max_ts_ms) },
      report: fullReport,
      parts: parts.list,
    },
  });
}

/** The parts of one source as they are written into its staging directory, split by UTC hour. */
export class StagedParts {
  readonly list: DatasetPart[] = [];
  rows = 0;

  constructor(
    readonly stagingDir: string,
    private readonly captureId: string,
    private readonly prefix: string,
    private readonly writePart: (path: string, bytes: Uint8Array) => Promise<void> = defaultWritePart,
  ) {}

  async add(table: Table): Promise<void> {
    this.rows += table.numRows;
    for (const slice of splitByHour(table, 'ts_ms')) {
      const path = `${partitionDirectory(this.captureId, slice.hour)}/${this.prefix}-${String(this.list.length).padStart(6, '0')}.parquet`;
      const bytes = parquetPart(slice.table);
      await this.writePart(join(this.stagingDir, path), bytes);
      this.list.push({ path, hour: slice.hour, rows: slice.table.numRows, bytes: bytes.length, ...timeBounds(slice.table) });
    }
  }
}

/**
 * Whether the file is a table of packets rather than a capture: Arrow or Parquet by their magic
 * numbers, CSV by its name (CSV has no magic number: anything else, a corrupt capture included,
 * goes to the BLE importer, which says what it is not).
 */
async function readsAsTable(path: string): Promise<boolean> {
  if (/\.(csv|tsv)$/i.test(path)) return true;
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    return detectBleContainer(head.subarray(0, bytesRead)) === null && detectTabularFormat(head.subarray(0, bytesRead)) !== 'csv';
  } finally {
    await handle.close();
  }
}

function fileChanged(fileName: string, bytesRead: number, sha256: string, request: StreamImportRequest): StreamImportProblem {
  return { code: 'FILE_CHANGED', message: `${fileName} changed while it was imported (${bytesRead} bytes, SHA-256 ${sha256}; ${request.bytes} bytes and ${request.sha256} when it was hashed)` };
}

function writeFailed(fileName: string, error: unknown): StreamImportProblem {
  const reason = error instanceof Error ? error.message : String(error);
  return { code: 'WRITE_FAILED', message: `${fileName}: the import stopped and left the dataset unchanged: ${reason}` };
}

async function defaultWritePart(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
}

export function timeBounds(table: Table): { min_ts_ms: number | null; max_ts_ms: number | null } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const batch of table.batches) {
    const times = numericColumn(batch, 'ts_ms');
    for (let row = 0; row < times.length; row++) {
      const value = times[row];
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  return min <= max ? { min_ts_ms: min, max_ts_ms: max } : { min_ts_ms: null, max_ts_ms: null };
}

/**
 * Implausible timestamps, judged drain by drain: each drain's times against that drain's median
 * (the whole file's median would need the whole file), and the epoch's 1970–2100 window.
 */
class TimestampWarnings {
  private first: ImportWarning | null = null;
  private count = 0;

  constructor(private readonly drainRows: number) {}

  add(warnings: ImportWarning[], rowOffset: number): void {
    for (const warning of warnings) {
      this.count += warning.count;
      this.first ??= { ...warning, ...(warning.row === undefined ? {} : { row: warning.row + rowOffset }) };
    }
  }

  merged(): ImportWarning[] {
    const first = this.first;
    if (!first) return [];
    const message = `${this.count} value${this.count === 1 ? '' : 's'} of 'ts_ms' in all (judged ${this.drainRows.toLocaleString('en-US')} records at a time); the first: ${first.message}`;
    return [{ ...first, count: this.count, message }];
  }
}
