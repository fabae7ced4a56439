import type { Table } from 'apache-arrow';
import type { JsonObject } from '../util/json.ts';
import { describeCapture, CAPTURE_METADATA, type Capture } from './capture.ts';
import { columnSchemaOf, type ColumnSchema } from './columns.ts';
import { withMetadata } from './capture-files.ts';
import { createBleImporter, detectBleContainer } from './ble/index.ts';
import {
  applyColumnMapping,
  createCsvImporter,
  detectTabularFormat,
  hasNormalizedBleColumns,
  readArrowIpc,
  readParquet,
  suggestColumnMapping,
  type ColumnMapping,
  type ParquetByteSource,
} from './tabular/index.ts';

/** A file to import, read as a stream (containers, CSV) or by ranges (Parquet). */
export interface CaptureSource {
  fileName: string;
  byteLength: number;
  /** The file's bytes from the start, in chunks. */
  stream(): AsyncIterable<Uint8Array>;
  /** The bytes in [start, end). */
  slice(start: number, end?: number): Promise<ArrayBuffer>;
}

export interface CaptureImportOptions {
  id: string;
  /** Fraction of the file read so far, in [0, 1]. */
  onProgress?: (fraction: number) => void;
}

/** Why a file could not become a capture. */
export interface CaptureImportFailure {
  code: string;
  message: string;
}

/** A file read into a table: either a capture already, or a table that needs its time column named. */
export type ImportedFile =
  | { kind: 'capture'; capture: Capture; report: JsonObject }
  | { kind: 'needs-mapping'; table: Table; columns: ColumnSchema[]; suggestion: ColumnMapping; report: JsonObject };

const SNIFF_BYTES = 16;

/**
 * Imports any supported file: BLE captures (pcap, pcapng, btsnoop) through the streaming BLE
 * importer; CSV streamed; Parquet by ranges; Arrow IPC whole. Tables that already carry the
 * normalized columns become captures at once; others come back for a column mapping.
 */
export async function importCaptureSource(source: CaptureSource, options: CaptureImportOptions): Promise<{ ok: true; value: ImportedFile } | { ok: false; error: CaptureImportFailure }> {
  if (source.byteLength === 0) return { ok: false, error: { code: 'EMPTY_FILE', message: `${source.fileName} is empty` } };
  const head = new Uint8Array(await source.slice(0, SNIFF_BYTES));
  const progress = (bytes: number) => options.onProgress?.(Math.min(1, bytes / source.byteLength));

  if (detectBleContainer(head)) {
    const importer = createBleImporter({ captureId: options.id, fileName: source.fileName, onProgress: progress });
    for await (const chunk of source.stream()) importer.push(chunk);
    const result = importer.finish();
    if (!result.ok) return { ok: false, error: { code: result.error.code, message: result.error.message } };
    // Import reports are plain JSON data (counts, names); JsonObject is their stored shape.
    return asCapture(result.value.table, options.id, source.fileName, result.value.report as unknown as JsonObject);
  }

  const format = detectTabularFormat(head);
  let imported;
  if (format === 'csv') {
    const importer = createCsvImporter({ fileName: source.fileName });
    let consumed = 0;
    for await (const chunk of source.stream()) {
      importer.push(chunk);
      consumed += chunk.byteLength;
      progress(consumed);
    }
    imported = importer.finish();
  } else if (format === 'parquet') {
    const byteSource: ParquetByteSource = { byteLength: source.byteLength, slice: (start, end) => source.slice(start, end) };
    imported = await readParquet(byteSource, { fileName: source.fileName });
  } else {
    imported = readArrowIpc(new Uint8Array(await source.slice(0, source.byteLength)), { fileName: source.fileName });
  }
  if (!imported.ok) return { ok: false, error: { code: imported.error.code, message: imported.error.message } };
  progress(source.byteLength);
  // Import reports are plain JSON data (counts, names); JsonObject is their stored shape.
  const report = imported.value.report as unknown as JsonObject;
  const table = imported.value.table;
  const columns = columnSchemaOf(table.schema.fields);
  const timeColumn = table.schema.metadata.get(CAPTURE_METADATA.timeColumn) ?? 'ts_ms';
  const hasTime = columns.some((column) => column.name === timeColumn && column.kind === 'number');
  if (hasTime && !hasNormalizedBleColumns(columns)) return asCapture(table, options.id, source.fileName, report);
  if (hasNormalizedBleColumns(columns)) {
    // Already the normalized BLE schema: the identity mapping only normalizes the address text.
    return mapToCapture(table, suggestColumnMapping(columns), options.id, source.fileName, report);
  }
  return { ok: true, value: { kind: 'needs-mapping', table, columns, suggestion: suggestColumnMapping(columns), report } };
}

/** Applies the user's column mapping to a table that needed one. */
export function mapToCapture(
  table: Table,
  mapping: ColumnMapping,
  id: string,
  fileName: string,
  report: JsonObject,
): { ok: true; value: ImportedFile } | { ok: false; error: CaptureImportFailure } {
  const mapped = applyColumnMapping(table, mapping);
  if (!mapped.ok) return { ok: false, error: { code: mapped.error.code, message: mapped.error.message } };
  return asCapture(mapped.value, id, fileName, report);
}

function asCapture(table: Table, id: string, fileName: string, report: JsonObject): { ok: true; value: ImportedFile } | { ok: false; error: CaptureImportFailure } {
  const named = withMetadata(table, { [CAPTURE_METADATA.captureId]: id, [CAPTURE_METADATA.source]: fileName });
  const described = describeCapture(named);
  if (!described.ok) return { ok: false, error: described.error };
  return { ok: true, value: { kind: 'capture', capture: { info: described.value, table: named }, report } };
}
