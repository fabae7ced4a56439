import Papa from 'papaparse';
import { Schema, Table, type Data, type DataType, type RecordBatch } from 'apache-arrow';
import type { ColumnKind } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { boolData, fieldOf, float64Data, recordBatchOf, utf8Data } from './arrow-columns.ts';
import { Utf8Validator, type ImportWarning, type ImportWarningCode } from '../import-warnings.ts';
import { SOURCE_FORMAT_METADATA, describeThrown, emptyReport, increment, type TabularImport, type TabularImportProblem } from './tabular-report.ts';
import { CsvRecordScanner, type CsvScanOverflow } from './csv-record-scanner.ts';

/** Options of {@link createCsvImporter}. */
export interface CsvImportOptions {
  /** File name, for messages, the report and the table's `sextant.source` metadata. */
  fileName?: string;
  /**
   * Column types that win over inference, by column name as in the resulting table (trimmed, made
   * unique). A value that does not read as the type becomes null and is counted in
   * `report.invalidValues`; booleans accept true/false, t/f, yes/no, y/n, 1/0 in any case. Naming
   * a column the file does not have fails the import with `UNKNOWN_COLUMN`.
   */
  types?: Readonly<Record<string, ColumnKind>>;
  /** Rows per Arrow record batch; default 65,536. */
  batchSize?: number;
  /** Field delimiter, one character; default: detected by papaparse from the first 64 KiB. */
  delimiter?: string;
  /** Most columns a file may have; default {@link MAX_CSV_COLUMNS}. */
  maxColumns?: number;
  /** Most characters in one cell; default {@link MAX_CSV_CELL_CHARS}. */
  maxCellChars?: number;
  /** Most characters in one record (a line, or several when a quoted cell holds line breaks); default {@link MAX_CSV_RECORD_CHARS}. */
  maxRecordChars?: number;
}

/**
 * Most characters (UTF-16 code units) in one CSV cell: 1 Mi, far beyond any capture field (a
 * hex-encoded BLE PDU is at most ~520). A longer cell — typically the rest of a file after a
 * quote that never closes — is refused with `CSV_CELL_TOO_LONG` once that much of it has been
 * read, without reading the rest (issue 24, D8).
 */
export const MAX_CSV_CELL_CHARS = 1 << 20;

/** Most characters in one CSV record: 16 Mi; beyond it `CSV_RECORD_TOO_LONG` (issue 24, D8). */
export const MAX_CSV_RECORD_CHARS = 1 << 24;

/**
 * Most columns a CSV file may have. Building the table is linear in its width (apache-arrow's
 * per-batch `Schema.assign` was quadratic; see linear-schema.ts), so this is no longer what keeps an
 * import fast — 64,000 columns read in under a second — but a documented bound on everything after
 * the import (column lists, mapping, the app's tables), generous for capture data. Beyond it a file
 * is refused with `TOO_MANY_COLUMNS` as soon as its header has been read (issue 14: one row of
 * 100,001 columns used to hang the import).
 */
export const MAX_CSV_COLUMNS = 4_096;

/** A push-based CSV reader: feed it the file in chunks of any size, then `finish()`. */
export interface CsvImporter {
  /**
   * Adds the next chunk. Bytes are decoded as UTF-8 with a streaming decoder, so a multi-byte
   * character may be split across chunks. Feed bytes or strings, not a mix of both.
   */
  push(chunk: Uint8Array | string): void;
  /** Parses what is left and builds the table. Calling it again returns the same result. */
  finish(): Result<TabularImport<Table>, TabularImportProblem>;
  /** Bytes (or string characters) and complete data rows seen so far, for progress reports. */
  progress(): { bytes: number; rows: number };
  /** True once the import can only fail (a cap was passed, the header is too wide…): a caller may stop pushing. */
  failed(): boolean;
}

const DEFAULT_BATCH_SIZE = 65_536;
/** Text held back before parsing starts, so delimiter and newline detection see whole lines. */
const DETECTION_BLOCK = 65_536;
const SKIPPED_EXAMPLES = 10;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** A decimal integer literal: beyond ±2^53 it is stored imprecisely. */
const INTEGER = /^[+-]?\d+$/;
const RENAME_EXAMPLES = 5;
const BOOLEAN = /^(?:true|false)$/i;
const OVERRIDE_TRUE = /^(?:true|t|yes|y|1)$/i;
const OVERRIDE_FALSE = /^(?:false|f|no|n|0)$/i;

/** Per column: what its values could still be, and its cells in the batch being filled. */
interface ColumnState {
  name: string;
  override: ColumnKind | undefined;
  maybeNumber: boolean;
  maybeBoolean: boolean;
  present: number;
  cells: Array<string | null>;
}

/** A closed batch: a column is already Arrow data when its type was settled, else raw cells. */
interface PendingBatch {
  length: number;
  columns: Array<Data<DataType> | Array<string | null>>;
}

/**
 * Creates a streaming CSV importer. The first record is the header; each column is typed over all
 * its values: `number` when every non-empty value is a decimal number, `boolean` when every one is
 * `true`/`false` (any case), else `string` — unless `options.types` says otherwise. Cells are
 * trimmed; empty cells are nulls; blank lines are ignored. Records whose field count differs from
 * the header's are skipped and counted. The table comes out in record batches of
 * `options.batchSize` rows, with `sextant.source` and `sextant.source_format` in its metadata.
 * Never throws for bad input.
 */
export function createCsvImporter(options: CsvImportOptions = {}): CsvImporter {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  const fileName = options.fileName ?? null;
  const report = emptyReport('csv', fileName);
  const decoder = new TextDecoder('utf-8');
  const utf8 = new Utf8Validator();
  /** Parser warnings by code: the first occurrence and how many. */
  const parserWarnings = new Map<string, ImportWarning>();
  let decoderHasBytes = false;
  /** Text before parsing starts (the detection block). */
  let held = '';
  /** Text after the last record end, not yet given to papaparse (see csv-record-scanner.ts). */
  let pending = '';
  let scanner: CsvRecordScanner | null = null;
  /** With `\n` as the newline, a CRLF line's `\r` ends its last field and is removed. */
  let stripCarriageReturn = false;
  let started = false;
  let finished: Result<TabularImport<Table>, TabularImportProblem> | null = null;
  let renameWarning: ImportWarning | null = null;
  let fatal: string | null = null;
  /** A whole-file problem found while reading (the header is too wide). */
  let refused: TabularImportProblem | null = null;
  const maxColumns = options.maxColumns ?? MAX_CSV_COLUMNS;
  const limits = { maxCellChars: options.maxCellChars ?? MAX_CSV_CELL_CHARS, maxRecordChars: options.maxRecordChars ?? MAX_CSV_RECORD_CHARS };
  /** Per column: numbers beyond the float64 range (null in the table), with the first row. */
  const outOfRange = new Map<string, { count: number; row: number }>();
  let records = 0;
  let rows = 0;
  let columns: ColumnState[] | null = null;
  const batches: PendingBatch[] = [];
  let feed: ((text: string) => void) | null = null;
  let end: (() => void) | null = null;

  /**
   * Settles the delimiter and the newline from the detection block, then starts papaparse and the
   * record scanner with them. The newline is `\n` whenever the block has one, so files mixing CRLF
   * and LF lines read line by line (papaparse would guess `\r\n` from the first line and run the
   * LF lines together); `\r` only for old Mac files, which have no `\n` at all.
   */
  function startParser(block: string): void {
    const newline: '\n' | '\r' = block.includes('\n') || !block.includes('\r') ? '\n' : '\r';
    stripCarriageReturn = newline === '\n';
    let delimiter = options.delimiter;
    if (delimiter === undefined) {
      // papaparse's own guess, on at most ten records of the block's first 64 KiB.
      delimiter = Papa.parse<string[]>(block.slice(0, DETECTION_BLOCK), { preview: 10, newline, skipEmptyLines: true }).meta.delimiter || ',';
    } else if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
      fatal = `the delimiter must be one character other than a quote or a line break, not ${JSON.stringify(delimiter.slice(0, 20))}`;
      return;
    }
    scanner = new CsvRecordScanner(delimiter, newline, limits);
    const listeners: { data?: (text: string) => void; end?: () => void } = {};
    // papaparse reads anything with readable/read/on as a Node-style stream (its
    // ReadableStreamStreamer), which is the one input it parses chunk by chunk from pushed data,
    // carrying a partial record over to the next chunk. This object is that stream; every
    // callback runs synchronously inside `feed` and `end`.
    const source = {
      readable: true,
      read: (): void => {},
      pause: (): void => {},
      resume: (): void => {},
      on(event: string, listener: (value?: unknown) => void) {
        if (event === 'data') listeners.data = listener as (text: string) => void;
        if (event === 'end') listeners.end = listener as () => void;
        return source;
      },
      removeListener(event: string) {
        if (event === 'data') delete listeners.data;
        if (event === 'end') delete listeners.end;
        return source;
      },
    };
    Papa.parse<string[]>(
      // Safe: papaparse checks only `readable`, `read` and `on` (and calls `removeListener`,
      // `pause`, `resume`), all of which `source` has.
      source as unknown as NodeJS.ReadableStream,
      {
        header: false,
        skipEmptyLines: true,
        delimiter,
        newline,
        chunk: (results, parser) => {
          if (refused !== null) return;
          // papaparse numbers an error's row within the chunk being parsed; `records` counts those before it.
          const before = records;
          for (const warning of results.errors) {
            // A one-column file has no delimiter to detect; that is not a problem.
            if (warning.code === 'UndetectableDelimiter') continue;
            increment(report.parseWarnings, warning.code);
            noteParserWarning(warning.code, warning.message, typeof warning.row === 'number' ? before + warning.row + 1 : undefined);
          }
          for (const record of results.data) {
            acceptRecord(record);
            if (refused !== null) {
              parser.abort();
              return;
            }
          }
        },
        error: (error: Error) => {
          fatal = error.message;
        },
        // Everything arrives through `chunk`; the types require a `complete` for local input.
        complete: () => {},
      },
    );
    feed = (text) => listeners.data?.(text);
    end = () => listeners.end?.();
  }

  /** Scans text for record ends and hands papaparse every whole record; refuses at the caps. */
  function scanAndFeed(text: string): void {
    if (scanner === null || text.length === 0) return;
    const endOfRecords = scanner.scan(text);
    if (scanner.overflow !== null) {
      refused = overflowProblem(scanner.overflow);
      pending = '';
      return;
    }
    if (endOfRecords < 0) {
      pending += text;
      return;
    }
    const records = pending + text.slice(0, endOfRecords);
    pending = text.slice(endOfRecords);
    feed?.(records);
  }

  function overflowProblem(overflow: CsvScanOverflow): TabularImportProblem {
    const where = `${fileName ?? 'The CSV file'}, line ${overflow.line.toLocaleString('en-US')}`;
    const limit = overflow.limit.toLocaleString('en-US');
    return overflow.kind === 'cell'
      ? {
          code: 'CSV_CELL_TOO_LONG',
          message: `${where}: a cell is longer than ${limit} characters (a quote that never closes makes the rest of the file one cell); nothing was imported`,
        }
      : { code: 'CSV_RECORD_TOO_LONG', message: `${where}: a record is longer than ${limit} characters; nothing was imported` };
  }

  function noteParserWarning(parserCode: string, parserMessage: string, record: number | undefined): void {
    const seen = parserWarnings.get(parserCode);
    if (seen) {
      seen.count++;
      return;
    }
    const code: ImportWarningCode = parserCode === 'MissingQuotes' ? 'UNTERMINATED_QUOTE' : parserCode === 'InvalidQuotes' ? 'MALFORMED_QUOTE' : 'CSV_PARSE_WARNING';
    const where = record === undefined ? '' : ` at record ${record} (the header is record 1)`;
    const consequence =
      code === 'UNTERMINATED_QUOTE'
        ? ': a quoted field never closes, so everything after its opening quote was read into one field and the rows after it are missing'
        : code === 'MALFORMED_QUOTE'
          ? ': a quote inside a quoted field is not doubled; the field was read up to the next closing quote'
          : `: ${parserMessage}`;
    parserWarnings.set(parserCode, { code, message: `${parserCode}${where}${consequence}`, count: 1, ...(record === undefined ? {} : { record }) });
  }

  function acceptRecord(record: string[]): void {
    if (stripCarriageReturn) {
      const last = record.length - 1;
      if (record[last].endsWith('\r')) record[last] = record[last].slice(0, -1);
      // A blank CRLF line: papaparse skips blank lines only when they are empty.
      if (last === 0 && record[0] === '') return;
    }
    records++;
    if (columns === null) {
      if (record.length > maxColumns) {
        refused = {
          code: 'TOO_MANY_COLUMNS',
          message: `${fileName ?? 'The CSV file'} has ${record.length.toLocaleString('en-US')} columns; at most ${maxColumns.toLocaleString('en-US')} are imported`,
        };
        return;
      }
      columns = headerColumns(record);
      return;
    }
    if (record.length !== columns.length) {
      increment(report.skipped, 'field_count_mismatch');
      if (report.skippedExamples.length < SKIPPED_EXAMPLES) {
        report.skippedExamples.push({ record: records, reason: 'field_count_mismatch', fields: record.length });
      }
      return;
    }
    for (let index = 0; index < columns.length; index++) {
      const column = columns[index];
      const cell = record[index].trim();
      if (cell === '') {
        column.cells.push(null);
        continue;
      }
      column.cells.push(cell);
      column.present++;
      if (column.override === undefined) {
        if (column.maybeNumber && !NUMBER.test(cell)) column.maybeNumber = false;
        if (column.maybeBoolean && !BOOLEAN.test(cell)) column.maybeBoolean = false;
      }
    }
    rows++;
    if (columns[0].cells.length >= batchSize) closeBatch();
  }

  function headerColumns(record: string[]): ColumnState[] {
    const used = new Set<string>();
    /** Names made up for empty or repeated header cells (trimming alone is not worth a warning). */
    const madeUp: Array<{ from: string; to: string }> = [];
    const header = record.map((raw, index) => {
      const trimmed = raw.trim();
      let name = trimmed === '' ? `column_${index + 1}` : trimmed;
      if (used.has(name)) {
        let suffix = 2;
        while (used.has(`${name}_${suffix}`)) suffix++;
        name = `${name}_${suffix}`;
      }
      used.add(name);
      if (name !== raw) report.renamedColumns.push({ from: raw, to: name });
      if (name !== trimmed) madeUp.push({ from: trimmed, to: name });
      return { name, override: options.types?.[name], maybeNumber: true, maybeBoolean: true, present: 0, cells: [] };
    });
    if (madeUp.length > 0) {
      const examples = madeUp.slice(0, RENAME_EXAMPLES).map(({ from, to }) => (from === '' ? `an empty name → '${to}'` : `a second '${from}' → '${to}'`));
      renameWarning = {
        code: 'RENAMED_COLUMN',
        count: madeUp.length,
        record: 1,
        column: madeUp[0].to,
        message: `${madeUp.length} header name${madeUp.length === 1 ? ' was' : 's were'} empty or repeated and renamed: ${examples.join(', ')}${madeUp.length > RENAME_EXAMPLES ? ', …' : ''}`,
      };
    }
    return header;
  }

  function closeBatch(): void {
    if (columns === null || columns[0].cells.length === 0) return;
    const length = columns[0].cells.length;
    const firstRow = rows - length;
    batches.push({
      length,
      columns: columns.map((column) => {
        const cells = column.cells;
        column.cells = [];
        // Settled types are encoded now, so the raw strings can go.
        const kind = settledKind(column);
        return kind === null ? cells : encode(column.name, kind, cells, firstRow);
      }),
    });
  }

  /** `firstRow`: the table row of `cells[0]`, for warnings. */
  function encode(name: string, kind: ColumnKind, cells: Array<string | null>, firstRow: number): Data<DataType> {
    switch (kind) {
      case 'string':
        return utf8Data(cells.length, (row) => cells[row]);
      case 'number':
        return float64Data(cells.length, (row) => {
          const cell = cells[row];
          if (cell === null) return null;
          if (!NUMBER.test(cell)) {
            increment(report.invalidValues, name);
            return null;
          }
          const value = Number(cell);
          if (!Number.isFinite(value)) {
            // Beyond ±1.8e308 (`1e400`, a 400-digit integer): no float64 holds it.
            const seen = outOfRange.get(name);
            if (seen) seen.count++;
            else outOfRange.set(name, { count: 1, row: firstRow + row });
            return null;
          }
          if (cell.length > 15 && !Number.isSafeInteger(value) && INTEGER.test(cell)) increment(report.impreciseValues, name);
          return value;
        });
      case 'boolean':
        return boolData(cells.length, (row) => {
          const cell = cells[row];
          if (cell === null) return null;
          if (OVERRIDE_TRUE.test(cell)) return true;
          if (OVERRIDE_FALSE.test(cell)) return false;
          increment(report.invalidValues, name);
          return null;
        });
    }
  }

  function write(text: string): void {
    if (text.length === 0 || fatal !== null || refused !== null) return;
    if (!started) {
      started = true;
      // A byte-order mark the decoder did not see (string input) is not part of the first name.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (scanner !== null) {
      scanAndFeed(text);
      return;
    }
    held += text;
    if (held.length >= DETECTION_BLOCK) startWithHeld();
  }

  function startWithHeld(): void {
    const block = held;
    held = '';
    startParser(block);
    scanAndFeed(block);
  }

  function build(): Result<TabularImport<Table>, TabularImportProblem> {
    if (refused !== null) return err(refused);
    if (fatal !== null) return err({ code: 'UNREADABLE_CSV', message: `${fileName ?? 'CSV'}: ${fatal}` });
    if (columns === null) return err({ code: 'EMPTY_FILE', message: `${fileName ?? 'The CSV file'} has no header row` });
    const header = columns;
    if (rows === 0) {
      const skipped = records - 1;
      return err({
        code: 'NO_DATA_ROWS',
        message: `${fileName ?? 'The CSV file'} has a header (${header.length} column${header.length === 1 ? '' : 's'}) but no data rows${skipped > 0 ? `: all ${skipped} record${skipped === 1 ? ' was' : 's were'} skipped (field count differs from the header)` : ''}`,
      });
    }
    for (const name of Object.keys(options.types ?? {})) {
      if (!header.some((column) => column.name === name)) {
        return err({
          code: 'UNKNOWN_COLUMN',
          column: name,
          message: `A type was given for column '${name}', which ${fileName ?? 'the CSV file'} does not have; columns: ${header.map((column) => column.name).join(', ')}`,
        });
      }
    }
    closeBatch();
    const kinds = header.map((column) => settledKind(column) ?? finalKind(column));
    const schema = new Schema(
      header.map((column, index) => fieldOf(column.name, kinds[index])),
      new Map([
        [SOURCE_FORMAT_METADATA, 'csv'],
        ...(fileName === null ? [] : ([[CAPTURE_METADATA.source, fileName]] as Array<[string, string]>)),
      ]),
    );
    const recordBatches: RecordBatch[] = [];
    let firstRow = 0;
    for (let index = 0; index < batches.length; index++) {
      const batch = batches[index];
      const children = batch.columns.map((column, columnIndex) =>
        Array.isArray(column) ? encode(header[columnIndex].name, kinds[columnIndex], column, firstRow) : column,
      );
      recordBatches.push(recordBatchOf(schema, batch.length, children));
      firstRow += batch.length;
    }
    batches.length = 0;
    report.rows = rows;
    report.batches = recordBatches.length;
    report.warnings = [...(renameWarning === null ? [] : [renameWarning]), ...parserWarnings.values()];
    for (const [column, { count, row }] of outOfRange) {
      report.warnings.push({
        code: 'NUMBER_OUT_OF_RANGE',
        column,
        count,
        row,
        message: `${count} value${count === 1 ? '' : 's'} of column '${column}' ${count === 1 ? 'is' : 'are'} beyond the float64 range (±1.8e308) and became null; the first at row ${row}`,
      });
    }
    utf8.end();
    if (utf8.first !== null) {
      const { byte_offset, line } = utf8.first;
      report.warnings.push({
        code: 'INVALID_UTF8',
        count: utf8.invalid,
        byte_offset,
        line,
        message: `${utf8.invalid} byte sequence${utf8.invalid === 1 ? ' is' : 's are'} not UTF-8 and became U+FFFD; the first at byte ${byte_offset} (line ${line})`,
      });
    }
    report.columns = header.map((column, index) => ({
      name: column.name,
      kind: kinds[index],
      typeSource: column.override === undefined ? 'inferred' : 'override',
    }));
    return ok({ table: new Table(schema, recordBatches), report });
  }

  return {
    push(chunk) {
      if (finished !== null) throw new Error('createCsvImporter: push() after finish()');
      if (refused !== null || fatal !== null) {
        // Already failed: the rest is only counted, never decoded or parsed (a 1 GiB line is
        // refused after its first 16 Mi characters, and the rest of it costs nothing).
        report.bytes += typeof chunk === 'string' ? chunk.length : chunk.byteLength;
        return;
      }
      try {
        if (typeof chunk === 'string') {
          report.bytes += chunk.length;
          if (decoderHasBytes) {
            write(decoder.decode());
            decoderHasBytes = false;
          }
          write(chunk);
        } else {
          report.bytes += chunk.byteLength;
          utf8.push(chunk);
          decoderHasBytes = true;
          write(decoder.decode(chunk, { stream: true }));
        }
      } catch (thrown) {
        // Kept for finish(): push() never throws for bad input.
        fatal ??= describeThrown(thrown);
      }
    },
    finish() {
      if (finished !== null) return finished;
      try {
        if (decoderHasBytes) write(decoder.decode());
        if (scanner === null && fatal === null && refused === null) startWithHeld();
        if (fatal === null && refused === null) {
          // The last record, which has no newline after it.
          if (pending !== '') feed?.(pending);
          pending = '';
          end?.();
        }
        finished = build();
      } catch (thrown) {
        finished = err({ code: 'UNREADABLE_CSV', message: `${fileName ?? 'CSV'}: ${describeThrown(thrown)}` });
      }
      return finished;
    },
    progress() {
      return { bytes: report.bytes, rows };
    },
    failed() {
      return refused !== null || fatal !== null;
    },
  };
}

/** The column's type if nothing still to come can change it: an override, or known to be text. */
function settledKind(column: ColumnState): ColumnKind | null {
  if (column.override !== undefined) return column.override;
  if (!column.maybeNumber && !column.maybeBoolean) return 'string';
  return null;
}

function finalKind(column: ColumnState): ColumnKind {
  if (column.present === 0) return 'string';
  if (column.maybeNumber) return 'number';
  if (column.maybeBoolean) return 'boolean';
  return 'string';
}

/** Reads a whole CSV text or byte array at once; see {@link createCsvImporter}. */
export function readCsv(input: Uint8Array | string, options: CsvImportOptions = {}): Result<TabularImport<Table>, TabularImportProblem> {
  const importer = createCsvImporter(options);
  importer.push(input);
  return importer.finish();
}
