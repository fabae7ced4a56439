/**
 * The one capture-import pipeline. The command-line runner (a file on disk) and the app (a
 * browser File, in a worker) both turn their file into a {@link CaptureSource} and call
 * {@link importCaptureSource}; detection, reading, hashing, warnings and the capture's metadata
 * all happen here, so both accept the same files and report the same things.
 */
import type { Table } from 'apache-arrow';
import { createSha256 } from '../util/sha256.ts';
import { describeCapture, CAPTURE_METADATA, type Capture, type DescribeProblem } from './capture.ts';
import { columnSchemaOf, type ColumnSchema } from './columns.ts';
import { withMetadata } from './table-metadata.ts';
import { checkTimestamps, type ImportWarning } from './import-warnings.ts';
import { BLE_METADATA, createBleImporter, detectBleContainer, type BleContainer, type CaptureImportProblem, type ImportReport, importIntegrity, type ImportIntegrity } from './ble/index.ts';
import { countAnalysis } from '../util/analysis-census.ts';
import type { DatasetWindowProvenance } from './dataset-window-import.ts';
import {
  COLUMN_MAPPING_METADATA,
  applyColumnMapping,
  createCsvImporter,
  detectTabularFormat,
  hasNormalizedBleColumns,
  readArrowIpc,
  readParquet,
  suggestColumnMapping,
  type AppliedColumnMapping,
  type ColumnMapping,
  type ParquetByteSource,
  type TabularImportProblem,
  type TabularImportReport,
} from './tabular/index.ts';

/** A file to import, read as a stream (hashing, containers, CSV, Arrow) or by ranges (Parquet). */
export interface CaptureSource {
  fileName: string;
  byteLength: number;
  /** The file's bytes from the start, in chunks. May be called more than once. */
  stream(): AsyncIterable<Uint8Array>;
  /** The bytes in [start, end). */
  slice(start: number, end?: number): Promise<ArrayBuffer>;
}

export interface CaptureImportOptions {
  /** Id the capture is known by. */
  id: string;
  /** Fraction of the file read so far, in [0, 1]. */
  onProgress?: (fraction: number) => void;
  /** Timestamp column; default: the file's recorded one, else `ts_ms`. */
  timeColumn?: string;
  /** Channel column; default: the file's recorded one, else `channel` when present. */
  channelColumn?: string | null;
  /** Receiver name for the rows of a BLE capture (pcap, pcapng, btsnoop); default from the file. */
  receiver?: string;
}

/** The formats the pipeline reads. */
export type CaptureFileFormat = BleContainer | 'arrow' | 'parquet' | 'csv';

/**
 * Why a file could not become a capture. BLE captures fail with the BLE importer's codes
 * (`TRUNCATED_HEADER` also for a file cut inside any container's magic number), tables with the
 * tabular readers' and `describeCapture`'s; `UNSUPPORTED_FORMAT` is a binary file of no kind
 * Sextant reads.
 */
export type CaptureImportFailure = CaptureImportProblem | TabularImportProblem | DescribeProblem | { code: 'UNSUPPORTED_FORMAT'; message: string };
export type CaptureImportFailureCode = CaptureImportFailure['code'];

/** Where the imported bytes came from: every import report carries it. */
export interface ImportProvenance {
  /** Bytes in the file. */
  source_bytes: number;
  /** SHA-256 of the file's bytes, 64 lowercase hex digits. */
  source_sha256: string;
}

/** What the pipeline adds to every format's report. */
export interface ImportReportCommon extends ImportProvenance {
  format: CaptureFileFormat;
  /** Everything the import recovered from, with where (CSV quotes, invalid UTF-8, implausible times, …). */
  warnings: ImportWarning[];
  /** True when anything was skipped or any warning was raised: the table may differ from the file. */
  partial: boolean;
  /** The verdict in numbers and words (CRC failures, reserved PDU types, skips, warnings). */
  integrity: ImportIntegrity;
  /** Set when the capture is a time window of a dataset source (dataset-window-import.ts): the window and the parts read. */
  dataset_window?: DatasetWindowProvenance;
}

/**
 * The import report: the BLE importer's (pcap, pcapng, btsnoop: packet counts, link types,
 * skipped frames, …) or the tabular reader's (Arrow, Parquet, CSV: columns and how they were
 * typed, skipped records, …), each with the fields every import has. Plain JSON.
 */
export type CaptureImportReport = (Omit<ImportReport, 'partial'> & ImportReportCommon) | (Omit<TabularImportReport, 'format'> & ImportReportCommon);

/** A file read into a table: either a capture already, or a table that needs its time column named. */
export type ImportedFile =
  | { kind: 'capture'; capture: Capture; report: CaptureImportReport }
  | { kind: 'needs-mapping'; table: Table; columns: ColumnSchema[]; suggestion: ColumnMapping; report: CaptureImportReport };

type Imported = { ok: true; value: ImportedFile } | { ok: false; error: CaptureImportFailure };

/** Enough of the file to tell its format, and whether a text file is really text. */
const SNIFF_BYTES = 8192;
/** Magic numbers of the binary containers, to recognise a file cut inside one. */
const MAGICS: ReadonlyArray<{ name: string; bytes: readonly number[] }> = [
  { name: 'btsnoop', bytes: [...'btsnoop\0'].map((char) => char.charCodeAt(0)) },
  { name: 'pcapng', bytes: [0x0a, 0x0d, 0x0d, 0x0a] },
  { name: 'pcap', bytes: [0xd4, 0xc3, 0xb2, 0xa1] },
  { name: 'pcap', bytes: [0xa1, 0xb2, 0xc3, 0xd4] },
  { name: 'pcap', bytes: [0x4d, 0x3c, 0xb2, 0xa1] },
  { name: 'pcap', bytes: [0xa1, 0xb2, 0x3c, 0x4d] },
];

/**
 * Imports any supported file: BLE captures (pcap, pcapng, btsnoop) through the streaming BLE
 * importer; CSV streamed; Parquet by ranges; Arrow IPC whole. The SHA-256 of the bytes is computed
 * as they stream past. Tables that already carry the time column (or the normalized BLE columns)
 * become captures at once; others come back for a column mapping. Never throws for bad input.
 */
export async function importCaptureSource(source: CaptureSource, options: CaptureImportOptions): Promise<Imported> {
  countAnalysis('capture_import');
  const name = source.fileName;
  if (source.byteLength === 0) return { ok: false, error: { code: 'EMPTY_FILE', message: `${name} is empty` } };
  const head = new Uint8Array(await source.slice(0, Math.min(SNIFF_BYTES, source.byteLength)));
  const progress = (bytes: number) => options.onProgress?.(Math.min(1, bytes / source.byteLength));
  const hash = createSha256();
  let hashed = 0;
  /** The file's chunks, each hashed on the way through. */
  async function* hashedStream(): AsyncIterable<Uint8Array> {
    for await (const chunk of source.stream()) {
      hash.update(chunk);
      hashed += chunk.byteLength;
      yield chunk;
    }
  }
  const provenance = (): ImportProvenance => ({ source_bytes: hashed, source_sha256: hash.hex() });

  const container = detectBleContainer(head.subarray(0, 8));
  if (container) {
    const importer = createBleImporter({ captureId: options.id, fileName: name, receiver: options.receiver, onProgress: progress });
    for await (const chunk of hashedStream()) importer.push(chunk);
    const result = importer.finish();
    if (!result.ok) return { ok: false, error: result.error };
    const { partial, ...rest } = result.value.report;
    const report: CaptureImportReport = { ...rest, format: container, ...provenance(), warnings: [], partial };
    return asCapture(result.value.table, report, options, name);
  }
  const cut = cutMagic(head);
  if (cut !== null) {
    return { ok: false, error: { code: 'TRUNCATED_HEADER', message: `${name} is ${head.length} byte${head.length === 1 ? '' : 's'} long: it ends inside a ${cut} file header` } };
  }

  const format = detectTabularFormat(head);
  let imported;
  if (format === 'csv') {
    if (looksBinary(head)) {
      return {
        ok: false,
        error: { code: 'UNSUPPORTED_FORMAT', message: `${name} is neither a BLE capture (pcap, pcapng, btsnoop), Arrow IPC, Parquet nor CSV text (first bytes ${hexPrefix(head)})` },
      };
    }
    const importer = createCsvImporter({ fileName: name });
    for await (const chunk of hashedStream()) {
      importer.push(chunk);
      progress(hashed);
      // Refused (a cell or record over its cap, too many columns): the rest need not be read.
      if (importer.failed()) break;
    }
    imported = importer.finish();
  } else if (format === 'parquet') {
    // Parquet is read by ranges; the hash needs one pass over the whole file.
    for await (const chunk of hashedStream()) progress(chunk.byteLength > 0 ? hashed / 2 : 0);
    const byteSource: ParquetByteSource = { byteLength: source.byteLength, slice: (start, end) => source.slice(start, end) };
    imported = await readParquet(byteSource, { fileName: name });
  } else {
    const chunks: Uint8Array[] = [];
    for await (const chunk of hashedStream()) {
      chunks.push(chunk);
      progress(hashed);
    }
    imported = readArrowIpc(concat(chunks, hashed), { fileName: name });
  }
  if (!imported.ok) return { ok: false, error: imported.error };
  progress(source.byteLength);
  const tabular = imported.value.report;
  const warnings = [...tabular.warnings, ...valueWarnings(tabular)];
  const report: CaptureImportReport = {
    ...tabular,
    format,
    ...provenance(),
    warnings,
    partial: warnings.length > 0 || Object.keys(tabular.skipped).length > 0,
    integrity: importIntegrity({ ...tabular, warnings }),
  };
  const table = imported.value.table;
  return readingFileValues(report, name, () => {
    const columns = columnSchemaOf(table.schema.fields);
    if (hasNormalizedBleColumns(columns)) {
      // Already the normalized BLE schema: the identity mapping only normalizes the address text.
      return mapToCapture(table, suggestColumnMapping(columns), options.id, name, report, options);
    }
    const timeColumn = options.timeColumn ?? table.schema.metadata.get(CAPTURE_METADATA.timeColumn) ?? 'ts_ms';
    if (columns.some((column) => column.name === timeColumn && column.kind === 'number')) return asCapture(table, report, options, name);
    return { ok: true, value: { kind: 'needs-mapping', table, columns, suggestion: suggestColumnMapping(columns), report } };
  });
}

/**
 * Runs a step that reads an imported Arrow file's values. Their buffers come from the file as they
 * are: a file whose framing is sound can still carry a column whose buffers do not fit its type
 * (a flipped type id makes 32-bit string offsets read as 64-bit ones), and apache-arrow then
 * fails while a value is read, with its own internals. That is a damaged file, and is said so.
 * Tables Sextant built itself (CSV, Parquet, BLE captures) are not guarded: a failure there is a bug.
 */
function readingFileValues(report: CaptureImportReport, fileName: string, step: () => Imported): Imported {
  if (report.format !== 'arrow') return step();
  try {
    return step();
  } catch {
    return { ok: false, error: { code: 'UNREADABLE_ARROW', message: `${fileName} is not readable Arrow IPC: the values of a column cannot be read (its buffers do not fit its type; the file is damaged)` } };
  }
}

/** Applies the user's column mapping to a table that needed one. */
export function mapToCapture(
  table: Table,
  mapping: ColumnMapping,
  id: string,
  fileName: string,
  report: CaptureImportReport,
  options: Omit<CaptureImportOptions, 'id'> = {},
): Imported {
  return readingFileValues(report, fileName, () => {
    const mapped = applyColumnMapping(table, mapping);
    if (!mapped.ok) return { ok: false, error: mapped.error };
    // The mapping names the time column (and converts it to ms); options no longer apply to it.
    return asCapture(mapped.value, withMappingWarnings(report, mapped.value), { ...options, id, timeColumn: undefined }, fileName);
  });
}

/** Names the table, records its provenance and resolved columns, and checks its time values. */
function asCapture(table: Table, report: CaptureImportReport, options: CaptureImportOptions, fileName: string): Imported {
  const id = options.id;
  const described = describeCapture(table, { id, source: fileName, timeColumn: options.timeColumn, channelColumn: options.channelColumn });
  if (!described.ok) return { ok: false, error: described.error };
  const timeWarnings = checkTimestamps(table, described.value.timeColumn);
  const warnings = [...report.warnings.filter((warning) => warning.code !== 'IMPLAUSIBLE_TIMESTAMP'), ...timeWarnings];
  const finished: CaptureImportReport = { ...report, warnings, partial: report.partial || warnings.length > 0, integrity: importIntegrity({ ...report, warnings }) };
  // One metadata pass (each rebuilds the record batches): the name, the provenance, and the
  // resolved columns, so the capture describes itself the same way wherever it goes.
  const recorded = withMetadata(table, {
    [CAPTURE_METADATA.captureId]: id,
    [CAPTURE_METADATA.source]: fileName,
    [CAPTURE_METADATA.sourceSha256]: report.source_sha256,
    [CAPTURE_METADATA.sourceBytes]: String(report.source_bytes),
    [CAPTURE_METADATA.timeColumn]: described.value.timeColumn,
    [CAPTURE_METADATA.channelColumn]: described.value.channelColumn ?? '',
    ...completedImportReport(table, finished),
  });
  const info = { ...described.value, sourceSha256: report.source_sha256, sourceBytes: report.source_bytes };
  return { ok: true, value: { kind: 'capture', capture: { info, table: recorded }, report: finished } };
}

/**
 * The BLE importer's copy of its report in the table (`sextant.import_report`) is written before
 * the pipeline has hashed the file and checked its times; it gains what every report has —
 * `format`, `source_bytes`, `source_sha256`, `warnings`, `partial` — so the table says what
 * `sextant import` said. Its other fields stay as the importer wrote them (identity keys
 * without their values).
 */
function completedImportReport(table: Table, report: CaptureImportReport): Record<string, string> {
  // Only a report this import's BLE importer wrote: one carried in by an Arrow or Parquet file
  // describes an earlier import of another file, and is file content, not to be trusted as JSON.
  if (report.format === 'csv' || report.format === 'parquet' || report.format === 'arrow') return {};
  const stored = table.schema.metadata.get(BLE_METADATA.importReport);
  if (stored === undefined) return {};
  const parsed: unknown = JSON.parse(stored);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const { format, source_bytes, source_sha256, warnings, partial, integrity } = report;
  return { [BLE_METADATA.importReport]: JSON.stringify({ ...parsed, format, source_bytes, source_sha256, warnings, partial, integrity }) };
}

/**
 * Values the mapping could not convert (an address that is no address, a time that is no time)
 * became null: the report says how many, per column, as it does for the reader's own.
 */
function withMappingWarnings(report: CaptureImportReport, mapped: Table): CaptureImportReport {
  const applied = JSON.parse(mapped.schema.metadata.get(COLUMN_MAPPING_METADATA) ?? '{}') as Partial<AppliedColumnMapping>;
  const warnings: ImportWarning[] = Object.entries(applied.invalidValues ?? {}).map(([column, count]) => ({
    code: 'INVALID_VALUE',
    column,
    count,
    message: `${count} value${count === 1 ? '' : 's'} of column '${column}' could not be read as ${column === 'ts_ms' ? 'a time' : 'a BLE address'} and became null`,
  }));
  if (warnings.length === 0) return report;
  const all = [...report.warnings, ...warnings];
  return { ...report, warnings: all, partial: true, integrity: importIntegrity({ ...report, warnings: all }) };
}

/** Tabular reports count cells that became null or lost precision; those are warnings too. */
function valueWarnings(report: TabularImportReport): ImportWarning[] {
  const warnings: ImportWarning[] = [];
  for (const [column, count] of Object.entries(report.invalidValues)) {
    warnings.push({ code: 'INVALID_VALUE', column, count, message: `${count} value${count === 1 ? '' : 's'} of column '${column}' could not be read as its type and became null` });
  }
  for (const [column, count] of Object.entries(report.impreciseValues)) {
    warnings.push({ code: 'IMPRECISE_VALUE', column, count, message: `${count} integer${count === 1 ? '' : 's'} of column '${column}' exceed ±2^53 and lost precision as float64` });
  }
  return warnings;
}

/** The container whose magic number the whole (short) file is a cut-off start of, or null. */
function cutMagic(head: Uint8Array): string | null {
  for (const magic of MAGICS) {
    if (head.length < magic.bytes.length && head.every((byte, index) => byte === magic.bytes[index])) return magic.name;
  }
  return null;
}

/**
 * True when the start of the file cannot be CSV text: a NUL byte, more than 1% control bytes
 * (other than tab, LF, CR, FF, VT and ESC), or more than a quarter of its characters not UTF-8.
 * Text in a legacy 8-bit encoding (Latin-1, Windows-1252) is not binary: its occasional accented
 * letter is not UTF-8, so the CSV reader turns it into U+FFFD and reports `INVALID_UTF8` (the
 * import is partial), as it does anywhere else in the file.
 */
function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  let controls = 0;
  for (const byte of head) if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) controls++;
  if (controls * 100 > head.length) return true;
  // `stream: true` does not count a multi-byte character cut at the end of the sample.
  const text = new TextDecoder('utf-8').decode(head, { stream: true });
  let replaced = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 0xfffd) replaced++;
  return replaced * 4 > text.length;
}

/** Control bytes that occur in text files: tab, LF, VT, FF, CR, ESC. */
const TEXT_CONTROLS: ReadonlySet<number> = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

function hexPrefix(bytes: Uint8Array): string {
  return [...bytes.subarray(0, 8)].map((value) => value.toString(16).padStart(2, '0')).join(' ');
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
