import { MessageReader, RecordBatchReader, tableFromIPC, type Message, type Table } from 'apache-arrow';
import { columnKindOf } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { withMetadata } from '../table-metadata.ts';
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
  const implausible = implausibleBatch(bytes);
  if (implausible !== null) return err({ code: 'UNREADABLE_ARROW', message: `${label} is not readable Arrow IPC: ${implausible}` });
  let table: Table;
  try {
    table = tableFromIPC(bytes);
  } catch {
    // What apache-arrow throws on damaged input is its own internals ("Cannot read properties of
    // null (reading 'fieldsLength')"), which say nothing to the person importing the file.
    return err({ code: 'UNREADABLE_ARROW', message: `${label} is not readable Arrow IPC: it is damaged or cut short (its schema or a record batch cannot be decoded)` });
  }
  table = withMetadata(table, {
    [SOURCE_FORMAT_METADATA]: 'arrow',
    ...(fileName === null ? {} : { [CAPTURE_METADATA.source]: fileName }),
  });
  const report = emptyReport('arrow', fileName);
  report.bytes = bytes.byteLength;
  report.rows = table.numRows;
  report.batches = table.batches.length;
  report.columns = table.schema.fields.map((field) => ({ name: field.name, kind: columnKindOf(field.type), typeSource: 'file', sourceType: String(field.type) }));
  return ok({ table, report });
}

/** Rows a record batch may claim per byte of its body, plus slack for all-null columns. */
const ROWS_PER_BODY_BYTE = 8;
const ROW_SLACK = 4096;

/**
 * Checks every record and dictionary batch's row counts against the bytes behind them before
 * apache-arrow decodes the file: a damaged length (one flipped bit of a row count) makes it
 * allocate validity bitmaps for billions of rows and exhausts the heap. A column of n rows needs
 * at least n bits of body (its validity or values), so a batch claiming more rows than 8 × its
 * body bytes (plus slack for columns of the Null type) is damaged. Returns what is wrong, or null.
 */
function implausibleBatch(bytes: Uint8Array): string | null {
  const check = (message: Message | null): string | null => {
    if (message === null) return null;
    if (message.bodyLength > bytes.byteLength) return `a record batch claims ${message.bodyLength} bytes in a file of ${bytes.byteLength}`;
    const batch = message.isRecordBatch() ? message.header() : message.isDictionaryBatch() ? message.header().data : null;
    if (batch === null) return null;
    const limit = message.bodyLength * ROWS_PER_BODY_BYTE + ROW_SLACK;
    const rows = Math.max(batch.length, ...batch.nodes.map((node) => node.length));
    return rows > limit ? `a record batch claims ${rows} rows but has only ${message.bodyLength} bytes` : null;
  };
  try {
    const reader = RecordBatchReader.from(bytes).open();
    if (reader.isFile() && reader.footer) {
      const blocks = [...reader.footer.dictionaryBatches(), ...reader.footer.recordBatches()];
      for (const block of blocks) {
        if (block.offset < 0 || block.offset + block.metaDataLength + block.bodyLength > bytes.byteLength) return 'its footer points past the end of the file';
        const problem = check(new MessageReader(bytes.subarray(block.offset)).readMessage());
        if (problem !== null) return problem;
      }
      return null;
    }
    const messages = new MessageReader(bytes);
    for (let message = messages.readMessage(); message !== null; message = messages.readMessage()) {
      const problem = check(message);
      if (problem !== null) return problem;
      messages.readMessageBody(message.bodyLength);
    }
    return null;
  } catch {
    // Damage the walk cannot get past: tableFromIPC will refuse the file with its own failure.
    return null;
  }
}
