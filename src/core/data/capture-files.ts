import Papa from 'papaparse';
import { Bool, Field, Float64, RecordBatch, Schema, Table, Utf8, tableFromIPC, vectorFromArray, type Vector } from 'apache-arrow';
import { describeCapture, CAPTURE_METADATA, type Capture } from './capture.ts';

export interface CaptureFileOptions {
  /** Id the capture is known by. */
  id: string;
  /** File name, for messages and the capture's `source`. */
  fileName: string;
  /** Timestamp column; default: the file's recorded one, else `ts_ms`. */
  timeColumn?: string;
  /** Channel column; default: the file's recorded one, else `channel` when present. */
  channelColumn?: string | null;
}

export type CaptureFileProblem = {
  code: 'UNREADABLE_ARROW' | 'UNREADABLE_CSV' | 'EMPTY_FILE' | 'MISSING_TIME_COLUMN' | 'NON_NUMERIC_TIME_COLUMN' | 'MISSING_CAPTURE_ID';
  message: string;
};

const ARROW_FILE_MAGIC = 'ARROW1';

/** True when the bytes look like Arrow IPC: the file format's magic, or a stream's first message. */
function looksLikeArrow(bytes: Uint8Array): boolean {
  const magic = String.fromCharCode(...bytes.subarray(0, 6));
  const streamContinuation = bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff;
  return magic === ARROW_FILE_MAGIC || streamContinuation;
}

/** Reads an Arrow IPC (file or stream) or CSV file into a capture. Never throws. */
export function readCaptureFile(bytes: Uint8Array, options: CaptureFileOptions): { ok: true; value: Capture } | { ok: false; error: CaptureFileProblem } {
  if (bytes.byteLength === 0) return { ok: false, error: { code: 'EMPTY_FILE', message: `${options.fileName} is empty` } };
  let table: Table;
  if (looksLikeArrow(bytes)) {
    try {
      table = tableFromIPC(bytes);
    } catch (error) {
      return { ok: false, error: { code: 'UNREADABLE_ARROW', message: `${options.fileName} is not readable Arrow IPC: ${error instanceof Error ? error.message : String(error)}` } };
    }
  } else {
    const parsed = tableFromCsv(new TextDecoder().decode(bytes), options.fileName);
    if (!parsed.ok) return parsed;
    table = parsed.value;
  }
  table = withMetadata(table, { [CAPTURE_METADATA.captureId]: options.id, [CAPTURE_METADATA.source]: options.fileName });
  const described = describeCapture(table, { id: options.id, source: options.fileName, timeColumn: options.timeColumn, channelColumn: options.channelColumn });
  if (!described.ok) return { ok: false, error: described.error };
  const info = described.value;
  // Record the resolved columns, so the capture describes itself the same way wherever it goes.
  table = withMetadata(table, {
    [CAPTURE_METADATA.timeColumn]: info.timeColumn,
    [CAPTURE_METADATA.channelColumn]: info.channelColumn ?? '',
  });
  return { ok: true, value: { info, table } };
}

/**
 * CSV with a header row; each column typed by inference over all its values: number when every
 * non-empty value is a finite number, boolean when every one is true/false, else string.
 * Empty cells are nulls.
 */
function tableFromCsv(text: string, fileName: string): { ok: true; value: Table } | { ok: false; error: CaptureFileProblem } {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
  const fatal = parsed.errors.find((error) => error.type !== 'FieldMismatch' || parsed.data.length === 0);
  if (fatal) {
    return { ok: false, error: { code: 'UNREADABLE_CSV', message: `${fileName} row ${(fatal.row ?? 0) + 1}: ${fatal.message}` } };
  }
  const [header, ...rows] = parsed.data;
  if (!header || header.length === 0) return { ok: false, error: { code: 'EMPTY_FILE', message: `${fileName} has no header row` } };
  const names = header.map((name) => name.trim());
  const vectors: Record<string, Vector> = {};
  names.forEach((name, column) => {
    const cells = rows.map((row) => (row[column] ?? '').trim());
    vectors[name] = inferVector(cells);
  });
  return { ok: true, value: new Table(vectors) };
}

function inferVector(cells: string[]): Vector {
  const present = cells.filter((cell) => cell !== '');
  if (present.length > 0 && present.every((cell) => Number.isFinite(Number(cell)))) {
    return vectorFromArray(cells.map((cell) => (cell === '' ? null : Number(cell))), new Float64());
  }
  if (present.length > 0 && present.every((cell) => /^(true|false)$/i.test(cell))) {
    return vectorFromArray(cells.map((cell) => (cell === '' ? null : cell.toLowerCase() === 'true')), new Bool());
  }
  return vectorFromArray(cells.map((cell) => (cell === '' ? null : cell)), new Utf8());
}

/** A copy of the table whose schema metadata also holds `entries`. */
export function withMetadata(table: Table, entries: Record<string, string>): Table {
  const metadata = new Map(table.schema.metadata);
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  const schema = new Schema(table.schema.fields.map((field: Field) => field), metadata, table.schema.dictionaries);
  return new Table(schema, table.batches.map((batch) => new RecordBatch(schema, batch.data)));
}
