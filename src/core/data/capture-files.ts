import { Field, RecordBatch, Schema, Table } from 'apache-arrow';
import { describeCapture, CAPTURE_METADATA, type Capture } from './capture.ts';
import { detectBleContainer, importBleCapture, type CaptureImportProblem, type ImportReport } from './ble/index.ts';
import { detectTabularFormat, readArrowIpc, readCsv, readParquet, type TabularImportProblem, type TabularImportReport } from './tabular/index.ts';

export interface CaptureFileOptions {
  /** Id the capture is known by. */
  id: string;
  /** File name, for messages and the capture's `source`. */
  fileName: string;
  /** Timestamp column; default: the file's recorded one, else `ts_ms`. */
  timeColumn?: string;
  /** Channel column; default: the file's recorded one, else `channel` when present. */
  channelColumn?: string | null;
  /** Receiver name for the rows of a BLE capture (pcap, pcapng, btsnoop); default from the file. */
  receiver?: string;
}

/**
 * Why a file could not be read. BLE captures fail with the BLE importer's codes
 * (`UNRECOGNIZED_FORMAT`, `TRUNCATED_HEADER`, `UNSUPPORTED_LINK_TYPE` naming the DLT, …);
 * `UNSUPPORTED_FORMAT` is a binary file of a kind this reader does not take (Parquet among them).
 */
export type CaptureFileProblem =
  | {
      code: 'UNREADABLE_ARROW' | 'UNREADABLE_CSV' | 'EMPTY_FILE' | 'MISSING_TIME_COLUMN' | 'NON_NUMERIC_TIME_COLUMN' | 'MISSING_CAPTURE_ID' | 'UNSUPPORTED_FORMAT';
      message: string;
    }
  | CaptureImportProblem
  | TabularImportProblem;

/** The formats `readCaptureFile` reads. */
export type CaptureFileFormat = 'pcap' | 'pcapng' | 'btsnoop' | 'arrow' | 'parquet' | 'csv';

/** A capture read from a file, with what the reader learnt on the way. */
export interface CaptureFile extends Capture {
  format: CaptureFileFormat;
  /** What the import found: the BLE report for pcap, pcapng and btsnoop, the tabular report otherwise. */
  report: ImportReport | TabularImportReport;
}

/** How much of a file decides whether it is text (CSV) or some other binary format. */
const TEXT_SNIFF_BYTES = 8192;

/** True when the start of the file cannot be CSV text: a NUL byte, or not UTF-8. */
function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, TEXT_SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    // `stream: true` tolerates a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/**
 * Reads a capture file: a BLE capture (pcap, pcapng or btsnoop, detected by its magic number,
 * imported into the normalized record table of docs/capture-schema.md), Arrow IPC (file or
 * stream), Parquet or CSV (typed by inference). Other binary files are refused with
 * `UNSUPPORTED_FORMAT`. The whole file is in memory here (the command-line runner); the app
 * streams files through `importCaptureSource` instead. Never throws.
 */
export async function readCaptureFile(bytes: Uint8Array, options: CaptureFileOptions): Promise<{ ok: true; value: CaptureFile } | { ok: false; error: CaptureFileProblem }> {
  if (bytes.byteLength === 0) return { ok: false, error: { code: 'EMPTY_FILE', message: `${options.fileName} is empty` } };
  let table: Table;
  let format: CaptureFileFormat;
  let report: ImportReport | TabularImportReport;
  const container = detectBleContainer(bytes.subarray(0, 8));
  const tabular = detectTabularFormat(bytes.subarray(0, 8));
  if (container) {
    const imported = importBleCapture(bytes, { captureId: options.id, fileName: options.fileName, receiver: options.receiver });
    if (!imported.ok) return imported;
    ({ table, report } = imported.value);
    format = container;
  } else if (tabular === 'csv' && looksBinary(bytes)) {
    return {
      ok: false,
      error: {
        code: 'UNSUPPORTED_FORMAT',
        message: `${options.fileName} is neither a BLE capture (pcap, pcapng, btsnoop), Arrow IPC, Parquet nor CSV text (first bytes ${hexPrefix(bytes)})`,
      },
    };
  } else {
    const imported =
      tabular === 'arrow'
        ? readArrowIpc(bytes, { fileName: options.fileName })
        : tabular === 'parquet'
          ? await readParquet(bytes, { fileName: options.fileName })
          : readCsv(bytes, { fileName: options.fileName });
    if (!imported.ok) return { ok: false, error: imported.error };
    ({ table, report } = imported.value);
    format = tabular;
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
  return { ok: true, value: { info, table, format, report } };
}

function hexPrefix(bytes: Uint8Array): string {
  return [...bytes.subarray(0, 8)].map((value) => value.toString(16).padStart(2, '0')).join(' ');
}

/** A copy of the table whose schema metadata also holds `entries`. */
export function withMetadata(table: Table, entries: Record<string, string>): Table {
  const metadata = new Map(table.schema.metadata);
  for (const [key, value] of Object.entries(entries)) metadata.set(key, value);
  const schema = new Schema(table.schema.fields.map((field: Field) => field), metadata, table.schema.dictionaries);
  return new Table(schema, table.batches.map((batch) => new RecordBatch(schema, batch.data)));
}
