import { DataType, type RecordBatch, type Field } from 'apache-arrow';

/** How the contract sees a column: filters and tools only need these three kinds. */
export type ColumnKind = 'number' | 'string' | 'boolean';

export interface ColumnSchema {
  name: string;
  kind: ColumnKind;
}

/** Maps an Arrow type onto a column kind; anything else (lists, structs, binary) reads as string. */
export function columnKindOf(type: DataType): ColumnKind {
  if (DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type) || DataType.isTimestamp(type) || DataType.isDate(type)) {
    return 'number';
  }
  if (DataType.isBool(type)) return 'boolean';
  if (DataType.isDictionary(type)) return columnKindOf(type.dictionary);
  return 'string';
}

export function columnSchemaOf(fields: ReadonlyArray<Field>): ColumnSchema[] {
  return fields.map((field) => ({ name: field.name, kind: columnKindOf(field.type) }));
}

/**
 * A batch column as float64, nulls as NaN. A Float64 column without nulls is returned
 * as its own buffer (no copy), so callers must not write into the result.
 */
export function numericColumn(batch: RecordBatch, name: string): Float64Array {
  const vector = batch.getChild(name);
  if (!vector) throw new Error(`column ${name} is not in the batch`);
  const data = vector.data[0];
  if (DataType.isFloat(vector.type) && data.values instanceof Float64Array && vector.nullCount === 0) {
    return data.values.subarray(0, batch.numRows);
  }
  const out = new Float64Array(batch.numRows);
  // Integer and float32 columns: one typed-array copy, then NaN where the validity bitmap says null.
  if ((DataType.isInt(vector.type) || DataType.isFloat(vector.type)) && vector.data.length === 1 && isPlainNumberArray(data.values)) {
    out.set(data.values.subarray(0, batch.numRows));
    if (vector.nullCount > 0) {
      for (let row = 0; row < batch.numRows; row++) if (!vector.isValid(row)) out[row] = Number.NaN;
    }
    return out;
  }
  for (let row = 0; row < batch.numRows; row++) {
    const value: unknown = vector.get(row);
    out[row] = value === null || value === undefined ? Number.NaN : toNumber(value);
  }
  return out;
}

type PlainNumberArray = Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array | Uint32Array | Float32Array | Float64Array;

function isPlainNumberArray(values: unknown): values is PlainNumberArray {
  return (
    values instanceof Int8Array ||
    values instanceof Int16Array ||
    values instanceof Int32Array ||
    values instanceof Uint8Array ||
    values instanceof Uint16Array ||
    values instanceof Uint32Array ||
    values instanceof Float32Array ||
    values instanceof Float64Array
  );
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  return Number.NaN;
}

/**
 * Adds a batch column's distinct values, as `stringColumn` writes them, to `into`. A plain number
 * column (a capture's channel: three values in millions of rows) is read from its value buffer,
 * and each distinct number becomes text once rather than once per row.
 */
export function addDistinctStrings(batch: RecordBatch, name: string, into: Set<string>): void {
  const vector = batch.getChild(name);
  if (!vector) throw new Error(`column ${name} is not in the batch`);
  const values = vector.data[0]?.values;
  const plain = DataType.isInt(vector.type) ? isPlainNumberArray(values) : DataType.isFloat(vector.type) && (values instanceof Float32Array || values instanceof Float64Array);
  if (plain && vector.data.length === 1) {
    const numbers = values as PlainNumberArray;
    const seen = new Set<number>();
    const nulls = vector.nullCount > 0;
    for (let row = 0; row < batch.numRows; row++) if (!nulls || vector.isValid(row)) seen.add(numbers[row]);
    for (const value of seen) into.add(String(value));
    return;
  }
  for (const value of stringColumn(batch, name)) if (value !== null) into.add(value);
}

/** A batch column as strings (nulls as null), for categorical work. */
export function stringColumn(batch: RecordBatch, name: string): Array<string | null> {
  const vector = batch.getChild(name);
  if (!vector) throw new Error(`column ${name} is not in the batch`);
  const out = new Array<string | null>(batch.numRows);
  for (let row = 0; row < batch.numRows; row++) {
    const value: unknown = vector.get(row);
    out[row] = value === null || value === undefined ? null : String(value);
  }
  return out;
}
