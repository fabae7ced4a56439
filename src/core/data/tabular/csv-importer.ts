import Papa from 'papaparse';
import { Schema, Table, type Data, type DataType, type RecordBatch } from 'apache-arrow';
import type { ColumnKind } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { boolData, fieldOf, float64Data, recordBatchOf, utf8Data } from './arrow-columns.ts';
import { Utf8Validator, type ImportWarning, type ImportWarningCode } from '../import-warnings.ts';
import { SOURCE_FORMAT_METADATA, describeThrown, emptyReport, increment, type TabularImport, type TabularImportProblem } from './tabular-report.ts';

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
  /** Field delimiter; default: detected by papaparse from the first 64 KiB. */
  delimiter?: string;
  /** Most columns a file may have; default {@link MAX_CSV_COLUMNS}. */
  maxColumns?: number;
}

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
}

const DEFAULT_BATCH_SIZE = 65_536;
/** Text held back before parsing starts, so delimiter and newline detection see whole lines. */
const DETECTION_BLOCK = 65_536;
const SKIPPED_EXAMPLES = 10;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
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
  let held = '';
  let parsing = false;
  let started = false;
  let finished: Result<TabularImport<Table>, TabularImportProblem> | null = null;
  let fatal: string | null = null;
  /** A whole-file problem found while reading (the header is too wide). */
  let refused: TabularImportProblem | null = null;
  const maxColumns = options.maxColumns ?? MAX_CSV_COLUMNS;
  let records = 0;
  let rows = 0;
  let columns: ColumnState[] | null = null;
  const batches: PendingBatch[] = [];
  let feed: ((text: string) => void) | null = null;
  let end: (() => void) | null = null;

  function startParser(): void {
    parsing = true;
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
        delimiter: options.delimiter,
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
    return record.map((raw, index) => {
      const trimmed = raw.trim();
      let name = trimmed === '' ? `column_${index + 1}` : trimmed;
      if (used.has(name)) {
        let suffix = 2;
        while (used.has(`${name}_${suffix}`)) suffix++;
        name = `${name}_${suffix}`;
      }
      used.add(name);
      if (name !== raw) report.renamedColumns.push({ from: raw, to: name });
      return { name, override: options.types?.[name], maybeNumber: true, maybeBoolean: true, present: 0, cells: [] };
    });
  }

  function closeBatch(): void {
    if (columns === null || columns[0].cells.length === 0) return;
    const length = columns[0].cells.length;
    batches.push({
      length,
      columns: columns.map((column) => {
        const cells = column.cells;
        column.cells = [];
        // Settled types are encoded now, so the raw strings can go.
        const kind = settledKind(column);
        return kind === null ? cells : encode(column.name, kind, cells);
      }),
    });
  }

  function encode(name: string, kind: ColumnKind, cells: Array<string | null>): Data<DataType> {
    switch (kind) {
      case 'string':
        return utf8Data(cells.length, (row) => cells[row]);
      case 'number':
        return float64Data(cells.length, (row) => {
          const cell = cells[row];
          if (cell === null) return null;
          if (NUMBER.test(cell)) return Number(cell);
          increment(report.invalidValues, name);
          return null;
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
    if (parsing) {
      feed?.(text);
      return;
    }
    held += text;
    if (held.length >= DETECTION_BLOCK) {
      startParser();
      const block = held;
      held = '';
      feed?.(block);
    }
  }

  function build(): Result<TabularImport<Table>, TabularImportProblem> {
    if (refused !== null) return err(refused);
    if (fatal !== null) return err({ code: 'UNREADABLE_CSV', message: `${fileName ?? 'CSV'}: ${fatal}` });
    if (columns === null) return err({ code: 'EMPTY_FILE', message: `${fileName ?? 'The CSV file'} has no header row` });
    const header = columns;
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
    for (let index = 0; index < batches.length; index++) {
      const batch = batches[index];
      const children = batch.columns.map((column, columnIndex) =>
        Array.isArray(column) ? encode(header[columnIndex].name, kinds[columnIndex], column) : column,
      );
      recordBatches.push(recordBatchOf(schema, batch.length, children));
    }
    batches.length = 0;
    report.rows = rows;
    report.batches = recordBatches.length;
    report.warnings = [...parserWarnings.values()];
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
        if (!parsing) {
          startParser();
          const block = held;
          held = '';
          feed?.(block);
        }
        if (fatal === null && refused === null) end?.();
        finished = build();
      } catch (thrown) {
        finished = err({ code: 'UNREADABLE_CSV', message: `${fileName ?? 'CSV'}: ${describeThrown(thrown)}` });
      }
      return finished;
    },
    progress() {
      return { bytes: report.bytes, rows };
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
