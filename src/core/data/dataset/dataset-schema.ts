/**
 * One schema for every part of a dataset: the BLE record table's columns and Arrow types. DuckDB
 * and Spark read a dataset's parts as one table, so a part whose `rssi` is a double where the
 * others' is an 8-bit integer would be read differently by each engine, or refused. Tables that
 * come from elsewhere than the BLE importer (an Arrow export, a Parquet file another tool wrote,
 * a CSV with the normalized columns) are conformed to it before they are written; a value that
 * does not fit its column is refused, never changed.
 */
import { Bool, DataType, Table, type Dictionary, type List, type Vector, vectorFromArray } from 'apache-arrow';
import { BLE_RECORD_COLUMNS } from '../ble/record-writer.ts';
import { err, ok, type Result } from '../../util/result.ts';

export interface ConformProblem {
  code: 'COLUMN_TYPE_MISMATCH' | 'VALUE_OUT_OF_RANGE' | 'MISSING_PACKET_COLUMNS';
  message: string;
  column?: string;
  row?: number;
}

export interface Conformed {
  table: Table;
  /** Columns of the source the dataset schema has no place for (they stay in the source file). */
  dropped: string[];
  /** Dataset columns the source lacked: all null in the parts. */
  added: string[];
}

/** The columns a table must have to be packets at all. */
const REQUIRED = ['ts_ms', 'advertiser_addr'];

/**
 * `table` with exactly the dataset's columns, in order and type; `captureId` fills `capture_id`
 * (a dataset names each source's rows itself).
 */
export function conformToDatasetSchema(table: Table, captureId: string): Result<Conformed, ConformProblem> {
  const present = new Set(table.schema.fields.map((field) => field.name));
  const missing = REQUIRED.filter((name) => !present.has(name));
  if (missing.length > 0) {
    return err({
      code: 'MISSING_PACKET_COLUMNS',
      message: `the table is not packets in the normalized capture columns: it has no ${missing.map((name) => `'${name}'`).join(' or ')} (docs/capture-schema.md)`,
    });
  }
  const known = new Set(BLE_RECORD_COLUMNS.map((column) => column.name));
  const columns: Record<string, Vector> = {};
  const added: string[] = [];
  for (const { name, type: typeOf } of BLE_RECORD_COLUMNS) {
    const type = typeOf();
    if (name === 'capture_id') {
      columns[name] = vectorFromArray(Array.from({ length: table.numRows }, () => captureId), type);
      continue;
    }
    const source = table.getChild(name);
    if (!source) {
      added.push(name);
      columns[name] = vectorFromArray(new Array<null>(table.numRows).fill(null), type);
      continue;
    }
    const converted = convertColumn(source, type, name);
    if (!converted.ok) return converted;
    columns[name] = converted.value;
  }
  const dropped = table.schema.fields.map((field) => field.name).filter((name) => !known.has(name));
  return ok({ table: new Table(columns), dropped, added });
}

function convertColumn(source: Vector, type: DataType, name: string): Result<Vector, ConformProblem> {
  if (sameType(source.type, type)) return ok(source);
  const values: Array<unknown> = new Array(source.length);
  for (let row = 0; row < source.length; row++) {
    const converted = convertValue(source.get(row), type);
    if (converted === INVALID) {
      return err({
        code: DataType.isInt(type) || DataType.isFloat(type) ? 'VALUE_OUT_OF_RANGE' : 'COLUMN_TYPE_MISMATCH',
        message: `column '${name}' row ${row}: ${JSON.stringify(String(source.get(row)))} is not a ${describe(type)}`,
        column: name,
        row,
      });
    }
    values[row] = converted;
  }
  if (DataType.isDictionary(type)) {
    // Narrow dictionaries (receiver: 16-bit, adv_type and the address type: 8-bit) must not wrap around.
    const room = 2 ** ((type as Dictionary).indices.bitWidth - 1);
    const distinct = new Set(values.filter((value) => value !== null)).size;
    if (distinct > room) {
      return err({ code: 'VALUE_OUT_OF_RANGE', message: `column '${name}' has ${distinct} distinct values; the dataset schema holds at most ${room}`, column: name });
    }
  }
  return ok(vectorFromArray(values, type));
}

const INVALID = Symbol('invalid');

function convertValue(value: unknown, type: DataType): unknown {
  if (value === null || value === undefined) return null;
  if (DataType.isDictionary(type) || DataType.isUtf8(type)) return typeof value === 'string' ? value : INVALID;
  if (DataType.isBool(type)) return booleanOf(value);
  if (DataType.isList(type)) return listOf(value);
  const number = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (DataType.isFloat(type)) return Number.isNaN(number) && !(typeof value === 'number') ? INVALID : number;
  if (DataType.isInt(type)) {
    const bits = type.bitWidth;
    const [low, high] = type.isSigned ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
    return Number.isInteger(number) && number >= low && number <= high ? number : INVALID;
  }
  return INVALID;
}

function booleanOf(value: unknown): boolean | typeof INVALID {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
  }
  return INVALID;
}

/**
 * A list of UUID texts: an Arrow list as it is; a text either `[a, b]` (how DuckDB and Spark
 * print a list in CSV) or `a;b`.
 */
function listOf(value: unknown): string[] | null | typeof INVALID {
  if (Array.isArray(value) || (typeof value === 'object' && value !== null && 'toArray' in value)) {
    const items = Array.isArray(value) ? value : (value as { toArray(): unknown[] }).toArray();
    const texts = Array.from(items, (item) => (typeof item === 'string' ? item : INVALID));
    return texts.includes(INVALID) ? INVALID : (texts as string[]);
  }
  if (typeof value !== 'string') return INVALID;
  const text = value.trim();
  if (text === '') return null;
  const inner = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const separator = text.startsWith('[') ? ',' : ';';
  return inner
    .split(separator)
    .map((item) => item.trim().replace(/^["']|["']$/g, ''))
    .filter((item) => item !== '');
}

/** Equal Arrow types; dictionaries by value and index type (ids differ between files and do not matter). */
function sameType(actual: DataType, expected: DataType): boolean {
  if (DataType.isDictionary(expected)) {
    // The same id too: the conformed table mixes kept columns with rebuilt ones, whose ids are the record table's.
    return DataType.isDictionary(actual) && actual.id === expected.id && DataType.isUtf8(actual.dictionary) && actual.indices.bitWidth === expected.indices.bitWidth && actual.indices.isSigned === expected.indices.isSigned;
  }
  if (DataType.isList(expected)) return DataType.isList(actual) && DataType.isUtf8((actual as List).valueType);
  if (DataType.isBool(expected)) return actual instanceof Bool;
  return actual.typeId === expected.typeId && String(actual) === String(expected);
}

function describe(type: DataType): string {
  if (DataType.isDictionary(type)) return 'text';
  if (DataType.isList(type)) return 'list of texts';
  if (DataType.isBool(type)) return 'boolean';
  if (DataType.isInt(type)) return `${type.isSigned ? '' : 'non-negative '}integer of ${type.bitWidth} bits`;
  return String(type);
}
