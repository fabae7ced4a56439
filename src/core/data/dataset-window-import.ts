/**
 * A time window of one dataset source as a capture, read from the dataset's files by whoever
 * holds them: the app's "Open a dataset window" reads them from a picked directory, Node from
 * disk. A week of sniffing does not fit in a tab, an hour of it does: the manifest says which
 * Parquet parts can hold the window (`partOverlapsWindow`), only those are read (whole, by the
 * caller's parquet-wasm, into the types they were written with), their rows inside the window are
 * kept in the order of the source file, and the rows become a capture whose columns are a file
 * import's, type for type. The capture names its source file and that file's SHA-256 (as
 * `sextant analyze-dataset`'s windows do), and its import report records the window and the parts
 * it was read from.
 */
import { Table, type RecordBatch, type Schema } from 'apache-arrow';
import { err, type Result } from '../util/result.ts';
import { BLE_RECORD_COLUMNS, importIntegrity } from './ble/index.ts';
import { columnSchemaOf } from './columns.ts';
import { mapToCapture, type CaptureImportFailure, type CaptureImportReport, type ImportedFile } from './capture-import.ts';
import type { DatasetManifest, DatasetProblem } from './dataset/dataset-manifest.ts';
import { partOverlapsWindow, runsInWindow, type DatasetTimeWindow } from './dataset/dataset-window.ts';
import { batchesOfRuns, type RowRun } from './dataset/row-runs.ts';
import { orderRuns } from './dataset/source-order.ts';
import { emptyReport, type ColumnMapping, type ParquetByteSource, type TabularImportReport } from './tabular/index.ts';

/** The dataset's files by their manifest path (`/`-separated, relative to the dataset root); undefined for a file it lacks. */
export type DatasetFileReader = (path: string) => ParquetByteSource | undefined;

export interface DatasetWindowRequest {
  /** The dataset source's `capture_id`. */
  captureId: string;
  window: DatasetTimeWindow;
  /** Id of the capture made from the window. */
  id: string;
  /** The most packets the parts holding the window may hold (checked before any part is read). */
  maxRows: number;
  onProgress?: (fraction: number) => void;
  /**
   * Decodes a whole part into Arrow with the types it was written with: parquet-wasm (Apache
   * Arrow's Rust reader, as `sextant analyze-dataset` reads parts) restores the normalized
   * capture columns' dictionaries, narrow integers and lists, so the window's table is a file
   * import's. Injected because parquet-wasm loads differently in a worker and in Node.
   */
  decodePart: PartDecoder;
}

/** A Parquet part's bytes as an Arrow table with the types it was written with, in batches of about `PART_BATCH_ROWS`. */
export type PartDecoder = (bytes: Uint8Array) => Table | Promise<Table>;

/**
 * Rows per record batch a decoder should give (parquet-wasm's own default, 1,024, made a
 * 10-minute window of 627 k packets 613 batches a part and every later step pay per batch: 13 s
 * instead of a few).
 */
export const PART_BATCH_ROWS = 65_536;

/** What a window capture's import report adds: where its rows came from. */
export interface DatasetWindowProvenance {
  capture_id: string;
  from_ms: number | null;
  to_ms: number | null;
  parts: string[];
  /** Rows of those parts. */
  part_rows: number;
  /** Of them, the rows inside the window (the capture's). */
  rows: number;
}

export type DatasetWindowFailure = CaptureImportFailure | DatasetProblem | { code: 'DATASET_CAPTURE_UNKNOWN' | 'WINDOW_EMPTY' | 'WINDOW_TOO_LARGE'; message: string };

export async function importDatasetWindow(
  manifest: DatasetManifest,
  files: DatasetFileReader,
  request: DatasetWindowRequest,
): Promise<Result<Extract<ImportedFile, { kind: 'capture' }>, DatasetWindowFailure>> {
  const { captureId, window } = request;
  const source = manifest.sources.find((candidate) => candidate.capture_id === captureId);
  if (!source) return err({ code: 'DATASET_CAPTURE_UNKNOWN', message: `the dataset holds no capture '${captureId}'; it holds ${manifest.sources.map((entry) => entry.capture_id).join(', ') || 'none'}` });
  const span = `between ${describeBound(window.fromMs, 'its start')} and ${describeBound(window.toMs, 'its end')}`;
  const parts = source.parts.filter((part) => partOverlapsWindow(part, window));
  if (parts.length === 0) return err({ code: 'WINDOW_EMPTY', message: `capture '${captureId}' has no packets ${span}` });
  const partRows = parts.reduce((sum, part) => sum + part.rows, 0);
  if (partRows > request.maxRows) {
    return err({
      code: 'WINDOW_TOO_LARGE',
      message: `the parts of '${captureId}' ${span} hold ${partRows.toLocaleString('en-US')} packets, more than the ${request.maxRows.toLocaleString('en-US')} a tab holds: choose a shorter window (or analyse the dataset with sextant analyze-dataset)`,
    });
  }

  const runs: RowRun[] = [];
  let schema: Schema | null = null;
  let base: TabularImportReport | null = null;
  let readRows = 0;
  for (const part of parts) {
    const file = files(part.path);
    if (!file) return err({ code: 'DATASET_PART_MISSING', path: part.path, message: `the dataset lacks ${part.path}, which its manifest lists` });
    if (file.byteLength !== part.bytes) {
      return err({ code: 'DATASET_PART_TRUNCATED', path: part.path, message: `${part.path} is ${file.byteLength} bytes where the manifest says ${part.bytes}: the dataset is damaged` });
    }
    const read = await decodeTyped(request.decodePart, file, part.path);
    if (!read.ok) return err({ ...read.error, message: `${part.path}: ${read.error.message}` });
    const { table, report } = read.value;
    // Every part is in the dataset schema (decodeTyped), so all share the first one's.
    if (schema === null) {
      schema = table.schema;
      base = report;
    }
    for (const batch of table.batches) runs.push(...runsInWindow(batch, window));
    readRows += part.rows;
    request.onProgress?.(readRows / partRows);
  }
  if (schema === null || base === null) return err({ code: 'WINDOW_EMPTY', message: `capture '${captureId}' has no packets ${span}` });
  const ordered = orderRuns(runs);
  const batches: RecordBatch[] = batchesOfRuns(schema, ordered);
  const rows = batches.reduce((sum, batch) => sum + batch.numRows, 0);
  if (rows === 0) return err({ code: 'WINDOW_EMPTY', message: `capture '${captureId}' has no packets ${span}` });
  const table = new Table(schema, batches);

  const provenance: DatasetWindowProvenance = { capture_id: captureId, from_ms: window.fromMs, to_ms: window.toMs, parts: parts.map((part) => part.path), part_rows: partRows, rows };
  const tabular: TabularImportReport = { ...base, fileName: source.file, bytes: parts.reduce((sum, part) => sum + part.bytes, 0), rows, batches: batches.length };
  const report: CaptureImportReport = {
    ...tabular,
    format: 'parquet',
    // The window's rows are of this file: its hash pins them, with the window.
    source_bytes: source.bytes,
    source_sha256: source.sha256,
    warnings: [],
    partial: false,
    integrity: importIntegrity({ ...tabular, warnings: [] }),
    dataset_window: provenance,
  };
  // Parts are checked against the dataset schema (decodeTyped): their addresses are the importer's, already
  // normalized, and stay dictionary-coded as a file import has them; only the time column is named.
  const mapping: ColumnMapping = { time: 'ts_ms', timeUnit: 'ms', channel: 'channel' };
  const captured = mapToCapture(table, mapping, request.id, source.file, report);
  if (!captured.ok) return captured;
  if (captured.value.kind !== 'capture') return err({ code: 'DATASET_SCHEMA_DRIFT', path: parts[0].path, message: `${parts[0].path} has no time column the capture can use` });
  return { ok: true, value: captured.value };
}

/** A part through the decoder, checked against the dataset schema, with the report a Parquet read gives (its columns as the file declares them). */
async function decodeTyped(decode: PartDecoder, file: ParquetByteSource, path: string): Promise<Result<{ table: Table; report: TabularImportReport }, { code: 'UNREADABLE_PARQUET' | 'DATASET_SCHEMA_DRIFT'; message: string; path?: string }>> {
  let table: Table;
  try {
    table = await decode(new Uint8Array(await file.slice(0)));
  } catch (thrown) {
    return err({ code: 'UNREADABLE_PARQUET', message: `it could not be read: ${thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown)}` });
  }
  const drift = datasetSchemaDrift(table.schema);
  if (drift) return err({ code: 'DATASET_SCHEMA_DRIFT', path, message: `it is not in the dataset schema (docs/capture-schema.md): ${drift}` });
  const report = emptyReport('parquet', path);
  report.bytes = file.byteLength;
  report.rows = table.numRows;
  report.batches = table.batches.length;
  report.columns = columnSchemaOf(table.schema.fields).map((column, index) => ({ ...column, typeSource: 'file', sourceType: String(table.schema.fields[index].type) }));
  return { ok: true, value: { table, report } };
}

/** How a part's columns differ from the normalized capture columns a dataset part holds (all but the partition's `capture_id`), or null. */
function datasetSchemaDrift(schema: Schema): string | null {
  const expected = BLE_RECORD_COLUMNS.filter((column) => column.name !== 'capture_id');
  const names = schema.fields.map((field) => field.name);
  if (names.join(',') !== expected.map((column) => column.name).join(',')) return `its columns are ${names.join(', ')}`;
  for (const [index, column] of expected.entries()) {
    const type = String(schema.fields[index].type);
    if (type !== String(column.type())) return `column '${column.name}' is ${type}, not ${String(column.type())}`;
  }
  return null;
}

function describeBound(ms: number | null, open: string): string {
  return ms === null ? open : new Date(ms).toISOString();
}
