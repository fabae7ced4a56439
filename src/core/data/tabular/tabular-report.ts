import type { ColumnKind } from '../columns.ts';
import type { ImportWarning } from '../import-warnings.ts';

/** Schema metadata key under which the tabular readers record the source format (`csv`, `parquet`, `arrow`). */
export const SOURCE_FORMAT_METADATA = 'sextant.source_format';

/** The tabular formats Sextant reads besides the packet captures. */
export type TabularFormat = 'csv' | 'parquet' | 'arrow';

/** How one column of an imported table got its type. */
export interface TabularColumnReport {
  /** Column name in the resulting table. */
  name: string;
  /** The contract's kind of the resulting column. */
  kind: ColumnKind;
  /**
   * `inferred`: CSV type chosen by looking at every value; `override`: CSV type the caller asked for;
   * `file`: the file declared it (Parquet, Arrow).
   */
  typeSource: 'inferred' | 'override' | 'file';
  /** The type in the source file (Parquet physical/logical type, Arrow type), when it had one. */
  sourceType?: string;
}

/**
 * What an import did, JSON-serializable so it can be stored beside the capture. Counts describe
 * the whole file.
 */
export interface TabularImportReport {
  format: TabularFormat;
  /** File name, when the caller gave one. */
  fileName: string | null;
  /** Bytes read. */
  bytes: number;
  /** Data rows in the resulting table (header and skipped rows excluded). */
  rows: number;
  /** Record batches in the resulting table (CSV: one per `batchSize` rows; Parquet: one per row group). */
  batches: number;
  columns: TabularColumnReport[];
  /** Rows left out, by reason, e.g. `{ field_count_mismatch: 3 }`. Empty when nothing was skipped. */
  skipped: Record<string, number>;
  /**
   * The first few skipped rows: `record` is the 1-based CSV record number (the header is record 1;
   * a record can span lines when a quoted field holds a newline), `fields` its field count.
   */
  skippedExamples: Array<{ record: number; reason: string; fields: number }>;
  /** Per column, values that could not be read as the column's type and became null. */
  invalidValues: Record<string, number>;
  /** Per column, integers beyond ±2^53 that lost precision when stored as float64. */
  impreciseValues: Record<string, number>;
  /** Problems the parser recovered from, by code (papaparse's `InvalidQuotes`, `MissingQuotes`…). */
  parseWarnings: Record<string, number>;
  /** Header names changed to be non-empty and unique, in column order. */
  renamedColumns: Array<{ from: string; to: string }>;
  /** What the reader recovered from, with where it happened first (CSV: quotes, invalid UTF-8). */
  warnings: ImportWarning[];
}

/** Why a tabular file could not be read, or a column mapping applied. */
export type TabularImportProblem =
  | { code: 'EMPTY_FILE'; message: string }
  /** A CSV header wider than the column limit (MAX_CSV_COLUMNS); nothing was imported. */
  | { code: 'TOO_MANY_COLUMNS'; message: string }
  /** A CSV header with no data row after it (or every record skipped); nothing was imported. */
  | { code: 'NO_DATA_ROWS'; message: string }
  /**
   * A CSV cell or record longer than its cap (MAX_CSV_CELL_CHARS, MAX_CSV_RECORD_CHARS), refused
   * as soon as the cap is passed, without reading the rest; nothing was imported.
   */
  | { code: 'CSV_CELL_TOO_LONG' | 'CSV_RECORD_TOO_LONG'; message: string }
  | { code: 'UNREADABLE_CSV' | 'UNREADABLE_PARQUET' | 'UNSUPPORTED_PARQUET' | 'UNREADABLE_ARROW'; message: string }
  | {
      code: 'UNKNOWN_COLUMN' | 'NON_NUMERIC_TIME_COLUMN' | 'UNSUPPORTED_ADDRESS_COLUMN' | 'COLUMN_CONFLICT';
      /** The column the problem is about. */
      column: string;
      message: string;
    };

export type TabularImportProblemCode = TabularImportProblem['code'];

/** A table read from a tabular file, with its import report. */
export interface TabularImport<TTable> {
  table: TTable;
  report: TabularImportReport;
}

export function emptyReport(format: TabularFormat, fileName: string | null): TabularImportReport {
  return {
    format,
    fileName,
    bytes: 0,
    rows: 0,
    batches: 0,
    columns: [],
    skipped: {},
    skippedExamples: [],
    invalidValues: {},
    impreciseValues: {},
    parseWarnings: {},
    renamedColumns: [],
    warnings: [],
  };
}

export function increment(counts: Record<string, number>, key: string, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** `Error` message or a string form of whatever was thrown. */
export function describeThrown(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
