import { DataType, type RecordBatch, type Vector } from 'apache-arrow';

/**
 * Direct, allocation-free access to the Arrow columns the analyzer reads: dictionary indices
 * instead of strings, typed arrays instead of boxed values. A string is only made once per
 * distinct dictionary entry.
 */

/** A string column of one batch as integer codes: `code(row)` is -1 for null. */
export interface BleCodedColumn {
  /** Code of the row's value, or -1 when null. */
  code(row: number): number;
  /** The string of a code (made once per code, by the caller's cache). */
  text(code: number): string;
  /** Number of distinct codes (dictionary length, or distinct values seen for plain strings). */
  size: number;
  /** Identity of the code space: equal for batches that share one dictionary. */
  space: object;
}

function validityReader(bitmap: Uint8Array | null | undefined, offset: number, nullCount: number): ((row: number) => boolean) | undefined {
  if (!bitmap || bitmap.length === 0 || nullCount === 0) return undefined;
  return (row: number) => {
    const bit = offset + row;
    return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
  };
}

/** A dictionary (or plain string) column as codes; undefined when the column is absent. */
export function bleCodedColumn(batch: RecordBatch, name: string): BleCodedColumn | undefined {
  const vector = batch.getChild(name);
  if (!vector) return undefined;
  const data = vector.data[0];
  if (DataType.isDictionary(vector.type) && data.dictionary && vector.data.length === 1) {
    const indices = data.values as ArrayLike<number>;
    const valid = validityReader(data.nullBitmap, data.offset, data.nullCount);
    const dictionary: Vector = data.dictionary;
    return {
      code: valid ? (row) => (valid(row) ? indices[row] : -1) : (row) => indices[row],
      text: (code) => String(dictionary.get(code)),
      size: dictionary.length,
      space: dictionary,
    };
  }
  // Plain strings (e.g. tabular imports): codes are made per batch, one Map lookup per row.
  const codes = new Int32Array(batch.numRows);
  const texts: string[] = [];
  const seen = new Map<string, number>();
  for (let row = 0; row < batch.numRows; row++) {
    const value: unknown = vector.get(row);
    if (value === null || value === undefined) {
      codes[row] = -1;
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : String(value);
    let code = seen.get(text);
    if (code === undefined) {
      code = texts.length;
      texts.push(text);
      seen.set(text, code);
    }
    codes[row] = code;
  }
  return { code: (row) => codes[row], text: (code) => texts[code], size: texts.length, space: codes };
}

/** A numeric column as float64 with NaN for null; undefined when absent or not numeric. */
export function bleNumberColumn(batch: RecordBatch, name: string): Float64Array | undefined {
  const vector = batch.getChild(name);
  if (!vector) return undefined;
  const type = vector.type;
  if (!(DataType.isInt(type) || DataType.isFloat(type))) return undefined;
  const data = vector.data[0];
  const out = new Float64Array(batch.numRows);
  if (vector.data.length === 1 && ArrayBuffer.isView(data.values) && !(data.values instanceof BigInt64Array) && !(data.values instanceof BigUint64Array)) {
    out.set((data.values as Float64Array).subarray(0, batch.numRows));
    const valid = validityReader(data.nullBitmap, data.offset, data.nullCount);
    if (valid) for (let row = 0; row < batch.numRows; row++) if (!valid(row)) out[row] = Number.NaN;
    return out;
  }
  for (let row = 0; row < batch.numRows; row++) {
    const value: unknown = vector.get(row);
    out[row] = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : Number.NaN;
  }
  return out;
}

/** A boolean column as 1 (true), 0 (false), 255 (null); undefined when absent. */
export function bleBooleanColumn(batch: RecordBatch, name: string): Uint8Array | undefined {
  const vector = batch.getChild(name);
  if (!vector || !DataType.isBool(vector.type)) return undefined;
  const out = new Uint8Array(batch.numRows);
  if (vector.data.length === 1) {
    const data = vector.data[0];
    const bits = data.values as Uint8Array;
    const valid = validityReader(data.nullBitmap, data.offset, data.nullCount);
    for (let row = 0; row < batch.numRows; row++) {
      if (valid && !valid(row)) {
        out[row] = 255;
        continue;
      }
      const bit = data.offset + row;
      out[row] = (bits[bit >> 3] >> (bit & 7)) & 1;
    }
    return out;
  }
  for (let row = 0; row < batch.numRows; row++) {
    const value: unknown = vector.get(row);
    out[row] = value === null || value === undefined ? 255 : value ? 1 : 0;
  }
  return out;
}

/** A list-of-strings column's value at one row, joined with commas (null → ''). */
export function bleListText(batch: RecordBatch, name: string, row: number): string {
  const vector = batch.getChild(name);
  if (!vector) return '';
  const value: unknown = vector.get(row);
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof (value as { toArray?: unknown }).toArray === 'function') return Array.from((value as { toArray(): ArrayLike<unknown> }).toArray(), String).join(',');
  return String(value);
}

/** One scalar value of any column at one row, as text ('' for null). */
export function bleCellText(batch: RecordBatch, name: string, row: number): string {
  const vector = batch.getChild(name);
  if (!vector) return '';
  const value: unknown = vector.get(row);
  return value === null || value === undefined ? '' : String(value);
}
