import { Bool, Field, Float64, RecordBatch, Schema, Struct, Utf8, makeData, type Data, type DataType } from 'apache-arrow';
import type { ColumnKind } from '../columns.ts';
import { installLinearSchemaAssign } from '../linear-schema.ts';

// Each RecordBatch built here re-derives its schema; that stays linear in the width (linear-schema.ts).
installLinearSchemaAssign();

// Builders for the three column kinds the contract knows, straight into Arrow buffers:
// one pass, nulls as a validity bitmap, no per-value builder calls.

/** The Arrow type Sextant uses for a column kind. */
export function arrowTypeOf(kind: ColumnKind): Float64 | Utf8 | Bool {
  switch (kind) {
    case 'number':
      return new Float64();
    case 'string':
      return new Utf8();
    case 'boolean':
      return new Bool();
  }
}

/** A nullable field of the kind's Arrow type. */
export function fieldOf(name: string, kind: ColumnKind): Field {
  return new Field(name, arrowTypeOf(kind), true);
}

/** A validity bitmap over `length` values: bit set = present. `null` when everything is present. */
class Validity {
  private bitmap: Uint8Array | null = null;
  nullCount = 0;

  constructor(private readonly length: number) {}

  markNull(row: number): void {
    if (this.bitmap === null) this.bitmap = new Uint8Array(Math.ceil(this.length / 8)).fill(0xff);
    this.bitmap[row >> 3] &= ~(1 << (row & 7));
    this.nullCount++;
  }

  get nullBitmap(): Uint8Array | undefined {
    return this.bitmap ?? undefined;
  }
}

/** Float64 data; a value of `null`, `undefined` or a non-finite number reads as null. */
export function float64Data(length: number, valueAt: (row: number) => number | null | undefined): Data<Float64> {
  const values = new Float64Array(length);
  const validity = new Validity(length);
  for (let row = 0; row < length; row++) {
    const value = valueAt(row);
    if (value === null || value === undefined || !Number.isFinite(value)) validity.markNull(row);
    else values[row] = value;
  }
  return makeData({ type: new Float64(), length, nullCount: validity.nullCount, nullBitmap: validity.nullBitmap, data: values });
}

/** Bool data; `null` and `undefined` read as null. */
export function boolData(length: number, valueAt: (row: number) => boolean | null | undefined): Data<Bool> {
  const values = new Uint8Array(Math.ceil(length / 8));
  const validity = new Validity(length);
  for (let row = 0; row < length; row++) {
    const value = valueAt(row);
    if (value === null || value === undefined) validity.markNull(row);
    else if (value) values[row >> 3] |= 1 << (row & 7);
  }
  return makeData({ type: new Bool(), length, nullCount: validity.nullCount, nullBitmap: validity.nullBitmap, data: values });
}

const encoder = new TextEncoder();

/** Utf8 data; `null` and `undefined` read as null (an empty string stays an empty string). */
export function utf8Data(length: number, valueAt: (row: number) => string | null | undefined): Data<Utf8> {
  const offsets = new Int32Array(length + 1);
  const validity = new Validity(length);
  const strings = new Array<string>(length);
  let capacity = 0;
  for (let row = 0; row < length; row++) {
    const value = valueAt(row);
    if (value === null || value === undefined) {
      validity.markNull(row);
      strings[row] = '';
    } else {
      strings[row] = value;
      // UTF-16 code units encode to at most 3 bytes each.
      capacity += value.length * 3;
    }
  }
  let bytes = new Uint8Array(capacity);
  let position = 0;
  for (let row = 0; row < length; row++) {
    const value = strings[row];
    if (value.length > 0) position += encoder.encodeInto(value, bytes.subarray(position)).written;
    offsets[row + 1] = position;
  }
  bytes = bytes.slice(0, position);
  return makeData({ type: new Utf8(), length, nullCount: validity.nullCount, nullBitmap: validity.nullBitmap, valueOffsets: offsets, data: bytes });
}

/** A record batch over `schema` whose columns are `children`, in field order. */
export function recordBatchOf(schema: Schema, length: number, children: ReadonlyArray<Data<DataType>>): RecordBatch {
  const data = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children: [...children] });
  return new RecordBatch(schema, data);
}
