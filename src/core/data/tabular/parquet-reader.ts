import { parquetMetadataAsync, parquetScan, parquetSchema, type AsyncBuffer, type ParquetParsers, type SchemaTree } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { Schema, Table, type Data, type DataType, type RecordBatch } from 'apache-arrow';
import type { ColumnKind } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { boolData, fieldOf, float64Data, recordBatchOf, utf8Data } from './arrow-columns.ts';
import { SOURCE_FORMAT_METADATA, describeThrown, emptyReport, increment, type TabularImport, type TabularImportProblem, type TabularImportReport } from './tabular-report.ts';

/** Options of {@link readParquet}. */
export interface ParquetImportOptions {
  /** File name, for messages, the report and the table's `sextant.source` metadata. */
  fileName?: string;
  /** Top-level columns to read, in this order; default: all. */
  columns?: string[];
}

/**
 * Random access to a file's bytes without holding them all, e.g. over a browser `File`:
 * `{ byteLength: file.size, slice: (start, end) => file.slice(start, end).arrayBuffer() }`.
 * Parquet is read footer first, then column chunk by column chunk.
 */
export interface ParquetByteSource {
  byteLength: number;
  /** The bytes in [start, end), `end` defaulting to the end of the file. */
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

/** How a Parquet column becomes an Arrow column. */
interface ColumnPlan {
  name: string;
  kind: ColumnKind;
  sourceType: string;
  /** Multiplier from the values hyparquet returns to the column's unit (ms for times). */
  scale: number;
  /** Nested (list, map, struct) or otherwise structured values, kept as JSON text. */
  json: boolean;
}

const MAX_EXACT_INTEGER = 2 ** 53;
const textDecoder = new TextDecoder();

/**
 * Decoders that give plain values: times as float64 milliseconds since the epoch, JSON as its text.
 * Geometry keeps hyparquet's GeoJSON objects, which become JSON text.
 */
const parsers: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (millis: bigint) => Number(millis),
  timestampFromMicroseconds: (micros: bigint) => Number(micros) / 1_000,
  // Split first: epoch nanoseconds exceed 2^53.
  timestampFromNanoseconds: (nanos: bigint) => Number(nanos / 1_000n) / 1_000,
  dateFromDays: (days: number) => days * 86_400_000,
  jsonFromBytes: (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : textDecoder.decode(bytes)),
};

/**
 * Reads a Parquet file into an Arrow table with one record batch per row group. Column types map
 * onto the contract's three kinds: BOOLEAN → Bool; integers, floats, decimals → Float64;
 * timestamps (INT64 and INT96) and dates → Float64 epoch milliseconds; TIME → Float64 milliseconds
 * of the day; strings, enums, JSON and UUIDs → Utf8; other byte arrays → hex Utf8; nested columns →
 * JSON text. Nulls stay nulls. Decompresses every codec hyparquet-compressors knows (Snappy, GZIP,
 * Brotli, ZSTD, LZ4); works offline in browsers, workers and Node. Never throws.
 */
export async function readParquet(
  bytes: Uint8Array | ArrayBuffer | ParquetByteSource,
  options: ParquetImportOptions = {},
): Promise<Result<TabularImport<Table>, TabularImportProblem>> {
  const fileName = options.fileName ?? null;
  const label = fileName ?? 'The Parquet file';
  const file = bytes instanceof Uint8Array ? asyncBufferOf(bytes) : bytes instanceof ArrayBuffer ? asyncBufferOf(new Uint8Array(bytes)) : bytes;
  if (file.byteLength === 0) return err({ code: 'EMPTY_FILE', message: `${label} is empty` });
  const report = emptyReport('parquet', fileName);
  report.bytes = file.byteLength;
  try {
    if (!(await hasParquetMagic(file))) {
      return err({ code: 'UNREADABLE_PARQUET', message: `${label} is not a Parquet file: it does not start and end with PAR1${file.byteLength < 12 ? ' (too short)' : ''}` });
    }
    const metadata = await parquetMetadataAsync(file, { parsers });
    const tree = parquetSchema(metadata);
    const available = new Map(tree.children.map((child) => [child.element.name, child]));
    const wanted = options.columns ?? tree.children.map((child) => child.element.name);
    const plans: ColumnPlan[] = [];
    for (const name of wanted) {
      const node = available.get(name);
      if (!node) {
        return err({ code: 'UNKNOWN_COLUMN', column: name, message: `${label} has no column '${name}'; columns: ${[...available.keys()].join(', ')}` });
      }
      plans.push(planColumn(node));
    }
    const schema = new Schema(
      plans.map((plan) => fieldOf(plan.name, plan.kind)),
      new Map([
        ...fileMetadata(metadata.key_value_metadata),
        [SOURCE_FORMAT_METADATA, 'parquet'],
        ...(fileName === null ? [] : ([[CAPTURE_METADATA.source, fileName]] as Array<[string, string]>)),
      ]),
    );
    const scan = await parquetScan({ file, metadata, columns: wanted, compressors, parsers });
    const batches: RecordBatch[] = [];
    for (const range of scan.ranges) {
      const length = range.rowEnd - range.rowStart;
      if (length === 0) continue;
      const children: Array<Data<DataType>> = [];
      for (const plan of plans) {
        const values = await scan.readColumn({ column: plan.name, rowStart: range.rowStart, rowEnd: range.rowEnd });
        if (values.length < length) throw new Error(`column '${plan.name}' has ${values.length} values in rows ${range.rowStart}–${range.rowEnd}`);
        children.push(columnData(plan, values as ArrayLike<unknown>, length, report));
      }
      batches.push(recordBatchOf(schema, length, children));
      report.rows += length;
    }
    report.batches = batches.length;
    report.columns = plans.map((plan) => ({ name: plan.name, kind: plan.kind, typeSource: 'file', sourceType: plan.sourceType }));
    return ok({ table: new Table(schema, batches), report });
  } catch (thrown) {
    // hyparquet explains what it refuses with its own Error; a TypeError or RangeError is damaged
    // input tripping over the decoder's internals ("column.field_3.map is not a function"), whose
    // words mean nothing to the person importing the file.
    const internal = thrown instanceof TypeError || thrown instanceof RangeError || thrown instanceof ReferenceError || thrown instanceof SyntaxError;
    const message = internal ? 'it is damaged or cut short (its metadata or a data page cannot be decoded)' : describeThrown(thrown);
    const unsupported = /not supported|unsupported/i.test(message);
    return err({ code: unsupported ? 'UNSUPPORTED_PARQUET' : 'UNREADABLE_PARQUET', message: `${label} could not be read: ${message}` });
  }
}

async function hasParquetMagic(file: AsyncBuffer): Promise<boolean> {
  if (file.byteLength < 12) return false;
  const magic = [0x50, 0x41, 0x52, 0x31]; // PAR1
  const head = new Uint8Array(await file.slice(0, 4));
  const tail = new Uint8Array(await file.slice(file.byteLength - 4, file.byteLength));
  return magic.every((byte, index) => head[index] === byte && tail[index] === byte);
}

/** A view of the bytes as hyparquet's file abstraction, without copying the whole file. */
function asyncBufferOf(view: Uint8Array): AsyncBuffer {
  return {
    byteLength: view.byteLength,
    slice(start: number, end?: number): ArrayBuffer {
      const stop = end === undefined ? view.byteLength : Math.min(end, view.byteLength);
      return view.slice(start, stop).buffer;
    },
  };
}

/** The file's key/value metadata, minus Arrow's serialized schema (meaningless once re-typed). */
function fileMetadata(entries: ReadonlyArray<{ key: string; value?: string }> | undefined): Array<[string, string]> {
  return (entries ?? []).filter((entry) => entry.key !== 'ARROW:schema').map((entry) => [entry.key, entry.value ?? '']);
}

function planColumn(node: SchemaTree): ColumnPlan {
  const { element } = node;
  const name = element.name;
  if (node.children.length > 0 || element.repetition_type === 'REPEATED') {
    return { name, kind: 'string', sourceType: element.logical_type?.type ?? element.converted_type ?? 'GROUP', scale: 1, json: true };
  }
  const physical = element.type ?? 'BYTE_ARRAY';
  const converted = element.converted_type;
  const logical = element.logical_type;
  const sourceType = [physical, logical?.type ?? converted].filter((part) => part !== undefined).join('/');
  const plan = (kind: ColumnKind, scale = 1, json = false): ColumnPlan => ({ name, kind, sourceType, scale, json });

  if (logical?.type === 'TIME') return plan('number', logical.unit === 'MILLIS' ? 1 : logical.unit === 'MICROS' ? 1e-3 : 1e-6);
  if (converted === 'TIME_MICROS') return plan('number', 1e-3);
  if (logical?.type === 'GEOMETRY' || logical?.type === 'GEOGRAPHY' || logical?.type === 'VARIANT') return plan('string', 1, true);
  if (converted === 'INTERVAL' || converted === 'BSON' || logical?.type === 'INTERVAL' || logical?.type === 'BSON') return plan('string', 1, true);
  switch (physical) {
    case 'BOOLEAN':
      return plan('boolean');
    case 'INT32':
    case 'INT64':
    case 'INT96':
    case 'FLOAT':
    case 'DOUBLE':
      return plan('number');
    case 'FIXED_LEN_BYTE_ARRAY':
    case 'BYTE_ARRAY':
      // Decimals and float16 stored as bytes come back from hyparquet as numbers.
      if (converted === 'DECIMAL' || logical?.type === 'DECIMAL' || logical?.type === 'FLOAT16') return plan('number');
      return plan('string');
  }
}

function columnData(plan: ColumnPlan, values: ArrayLike<unknown>, length: number, report: TabularImportReport): Data<DataType> {
  switch (plan.kind) {
    case 'number':
      return float64Data(length, (row) => {
        const value = values[row];
        if (value === null || value === undefined) return null;
        if (typeof value === 'number') return value * plan.scale;
        if (typeof value === 'bigint') {
          if (value > MAX_EXACT_INTEGER || value < -MAX_EXACT_INTEGER) increment(report.impreciseValues, plan.name);
          return Number(value) * plan.scale;
        }
        if (value instanceof Date) return value.getTime();
        increment(report.invalidValues, plan.name);
        return null;
      });
    case 'boolean':
      return boolData(length, (row) => {
        const value = values[row];
        return value === null || value === undefined ? null : Boolean(value);
      });
    case 'string':
      return utf8Data(length, (row) => {
        const value = values[row];
        if (value === null || value === undefined) return null;
        if (typeof value === 'string' && !plan.json) return value;
        if (value instanceof Uint8Array && !plan.json) return hex(value);
        return JSON.stringify(value, jsonReplacer);
      });
  }
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return hex(value);
  return value;
}
