import { RecordBatch, RecordBatchReader, Schema, Table } from 'apache-arrow';
import { columnKindOf } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { installLinearSchemaAssign } from '../linear-schema.ts';
import { checkArrowIpcFraming } from './arrow-ipc-check.ts';

// apache-arrow's IPC reader builds a RecordBatch per batch: linear in the width, and duplicate
// column names keep their own types (linear-schema.ts).
installLinearSchemaAssign();
import { SOURCE_FORMAT_METADATA, emptyReport, type TabularFormat, type TabularImport, type TabularImportProblem } from './tabular-report.ts';

/**
 * Which tabular reader fits the bytes, from their first bytes (and last, for Parquet): Arrow IPC
 * file (`ARROW1`) or stream (a message starting with the 0xFFFFFFFF continuation marker), Parquet
 * (`PAR1`), else CSV. Packet captures (pcap, pcapng, btsnoop) are to be recognized before this.
 */
export function detectTabularFormat(bytes: Uint8Array): TabularFormat {
  if (bytes.byteLength >= 6 && String.fromCharCode(...bytes.subarray(0, 6)) === 'ARROW1') return 'arrow';
  if (bytes.byteLength >= 4 && bytes[0] === 0xff && bytes[1] === 0xff && bytes[2] === 0xff && bytes[3] === 0xff) return 'arrow';
  if (bytes.byteLength >= 4 && String.fromCharCode(...bytes.subarray(0, 4)) === 'PAR1') return 'parquet';
  return 'csv';
}

/** Options of {@link readArrowIpc}. */
export interface ArrowImportOptions {
  /** File name, for messages, the report and the table's `sextant.source` metadata. */
  fileName?: string;
}

/**
 * Reads Arrow IPC (file or stream format) as it is: types and metadata are kept, and the report
 * lists each column's contract kind. Never throws.
 */
export function readArrowIpc(bytes: Uint8Array, options: ArrowImportOptions = {}): Result<TabularImport<Table>, TabularImportProblem> {
  const fileName = options.fileName ?? null;
  const label = fileName ?? 'The Arrow file';
  if (bytes.byteLength === 0) return err({ code: 'EMPTY_FILE', message: `${label} is empty` });
  if (detectTabularFormat(bytes) !== 'arrow') return err({ code: 'UNREADABLE_ARROW', message: `${label} is not Arrow IPC: no ARROW1 magic or stream message` });
  // apache-arrow trusts every count and offset in the file's metadata; a damaged one can make it
  // decode without end. The framing is checked first, in time linear in the bytes.
  const problem = checkArrowIpcFraming(bytes);
  if (problem !== null) return err({ code: 'UNREADABLE_ARROW', message: `${label} is not readable Arrow IPC: ${problem}` });
  try {
    const table = decodeIpc(bytes, {
      [SOURCE_FORMAT_METADATA]: 'arrow',
      ...(fileName === null ? {} : { [CAPTURE_METADATA.source]: fileName }),
    });
    const report = emptyReport('arrow', fileName);
    report.bytes = bytes.byteLength;
    report.rows = table.numRows;
    report.batches = table.batches.length;
    report.columns = table.schema.fields.map((field) => ({ name: field.name, kind: columnKindOf(field.type), typeSource: 'file', sourceType: String(field.type) }));
    return ok({ table, report });
  } catch {
    // What apache-arrow throws on damaged input is its own internals ("Cannot read properties of
    // null (reading 'fieldsLength')"), which say nothing to the person importing the file. Describing
    // the types (String(type)) is inside: a damaged type can fail there too.
    return err({ code: 'UNREADABLE_ARROW', message: `${label} is not readable Arrow IPC: it is damaged or cut short (its schema or a record batch cannot be decoded)` });
  }
}

/**
 * Decodes checked IPC bytes into a table with `metadata` added to the file's. The schema is the
 * one the reader decoded from the file, and every batch is rebuilt on it.
 */
function decodeIpc(bytes: Uint8Array, metadata: Record<string, string>): Table {
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  const decoded = reader.schema;
  const batches = reader.readAll();
  const schema = new Schema(decoded.fields, new Map([...decoded.metadata, ...Object.entries(metadata)]), decoded.dictionaries);
  return new Table(schema, batches.map((batch) => new RecordBatch(schema, batch.data)));
}
