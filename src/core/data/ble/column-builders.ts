/**
 * Small append-only column builders over typed arrays, sealed into Arrow `Data` once per
 * record batch. They exist because the importer writes millions of values straight from
 * packet bytes: no object is made per cell, repeated strings (addresses, hex payloads) become
 * dictionary indices found without making a string, and a batch costs a few preallocated
 * typed arrays.
 *
 * Every builder is written in increasing row order; a row that is never written is null.
 * `seal(rowCount)` hands out the batch's buffers and resets the builder. While building,
 * numbers live in one Float64Array (and indices in one Int32Array) per column, so that every
 * store site sees one array type (monomorphic, hence fast); the Arrow type's own array is made
 * once per batch, at sealing.
 */
import { Bool, Data, DataType, Field, List, Utf8, makeData, type Float64, type Int } from 'apache-arrow';

const HEX_UPPER = Uint8Array.from('0123456789ABCDEF', (char) => char.charCodeAt(0));
const DASH = 0x2d;

/** A validity bitmap with its count of set bits. */
class Validity {
  bits: Uint8Array;
  valid = 0;

  constructor(capacity: number) {
    this.bits = new Uint8Array(Math.ceil(capacity / 8));
  }

  set(row: number): void {
    this.bits[row >> 3] |= 1 << (row & 7);
    this.valid++;
  }

  /** The bitmap for `rowCount` rows, or an empty one when every row is valid. */
  take(rowCount: number, capacity: number): { bitmap: Uint8Array; nullCount: number } {
    const nullCount = rowCount - this.valid;
    const bytes = Math.ceil(rowCount / 8);
    const bitmap = nullCount === 0 ? new Uint8Array(0) : bytes === this.bits.length ? this.bits : this.bits.slice(0, bytes);
    this.bits = new Uint8Array(Math.ceil(capacity / 8));
    this.valid = 0;
    return { bitmap, nullCount };
  }
}

type NumberArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** Converts (not reinterprets) `values` into the typed array an Arrow type stores. */
function toArrayOf(type: Int | Float64, values: Float64Array | Int32Array): NumberArray {
  if (DataType.isFloat(type)) return values instanceof Float64Array ? values : Float64Array.from(values);
  switch (type.bitWidth) {
    case 8:
      return type.isSigned ? Int8Array.from(values) : Uint8Array.from(values);
    case 16:
      return type.isSigned ? Int16Array.from(values) : Uint16Array.from(values);
    default:
      return type.isSigned ? (values instanceof Int32Array ? values : Int32Array.from(values)) : Uint32Array.from(values);
  }
}

/** A numeric column of any Arrow Int type or Float64. */
export class NumberColumn {
  private values: Float64Array;
  private readonly validity: Validity;

  constructor(
    readonly type: Int | Float64,
    private readonly capacity: number,
  ) {
    this.values = new Float64Array(capacity);
    this.validity = new Validity(capacity);
  }

  set(row: number, value: number): void {
    this.values[row] = value;
    this.validity.set(row);
  }

  seal(rowCount: number): Data {
    const values = toArrayOf(this.type, rowCount === this.capacity ? this.values : this.values.slice(0, rowCount));
    const { bitmap, nullCount } = this.validity.take(rowCount, this.capacity);
    if (values === this.values) this.values = new Float64Array(this.capacity);
    else this.values.fill(0);
    return DataType.isFloat(this.type)
      ? makeData({ type: this.type, length: rowCount, nullCount, nullBitmap: bitmap, data: values })
      : makeData({ type: this.type, length: rowCount, nullCount, nullBitmap: bitmap, data: values });
  }
}

/** A boolean column (bit-packed values plus validity). */
export class BoolColumn {
  private values: Uint8Array;
  private readonly validity: Validity;

  constructor(private readonly capacity: number) {
    this.values = new Uint8Array(Math.ceil(capacity / 8));
    this.validity = new Validity(capacity);
  }

  set(row: number, value: boolean): void {
    if (value) this.values[row >> 3] |= 1 << (row & 7);
    this.validity.set(row);
  }

  seal(rowCount: number): Data<Bool> {
    const bytes = Math.ceil(rowCount / 8);
    const values = bytes === this.values.length ? this.values : this.values.slice(0, bytes);
    const { bitmap, nullCount } = this.validity.take(rowCount, this.capacity);
    this.values = new Uint8Array(Math.ceil(this.capacity / 8));
    return makeData({ type: new Bool(), length: rowCount, nullCount, nullBitmap: bitmap, data: values });
  }
}

/** The indices of one batch of a dictionary column, before its dictionary is known. */
export interface SealedIndices {
  indices: Int32Array;
  nullBitmap: Uint8Array;
  nullCount: number;
  length: number;
}

/** Dictionary indices; the dictionary itself is attached when the table is assembled. */
export class IndexColumn {
  private values: Int32Array;
  private readonly validity: Validity;

  constructor(private readonly capacity: number) {
    this.values = new Int32Array(capacity);
    this.validity = new Validity(capacity);
  }

  set(row: number, index: number): void {
    this.values[row] = index;
    this.validity.set(row);
  }

  seal(rowCount: number): SealedIndices {
    const indices = rowCount === this.capacity ? this.values : this.values.slice(0, rowCount);
    const { bitmap, nullCount } = this.validity.take(rowCount, this.capacity);
    if (indices === this.values) this.values = new Int32Array(this.capacity);
    else this.values.fill(0);
    return { indices, nullBitmap: bitmap, nullCount, length: rowCount };
  }
}

/**
 * An open-addressing hash table from a pair of 32-bit integers to an entry index: the keys of
 * growing dictionaries (an address as its two halves, a 64-bit hash as its two halves), looked
 * up without making a number object or a string.
 */
export class PairIndex {
  private lows = new Int32Array(1024);
  private highs = new Int32Array(1024);
  /** Entry index + 1; 0 marks an empty slot. */
  private slots = new Int32Array(1024);
  private size = 0;

  private slotOf(low: number, high: number): number {
    const mask = this.slots.length - 1;
    let slot = (Math.imul(low ^ Math.imul(high, 0x27d4eb2d), 0x9e3779b1) >>> 0) & mask;
    while (this.slots[slot] !== 0 && (this.lows[slot] !== low || this.highs[slot] !== high)) slot = (slot + 1) & mask;
    return slot;
  }

  /** The entry index for the key, or -1. */
  get(low: number, high: number): number {
    return this.slots[this.slotOf(low | 0, high | 0)] - 1;
  }

  set(low: number, high: number, index: number): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const slot = this.slotOf(low | 0, high | 0);
    if (this.slots[slot] === 0) this.size++;
    this.lows[slot] = low | 0;
    this.highs[slot] = high | 0;
    this.slots[slot] = index + 1;
  }

  /** Calls `visit` with every key and its entry index, in slot order. */
  forEach(visit: (low: number, high: number, index: number) => void): void {
    for (let slot = 0; slot < this.slots.length; slot++) if (this.slots[slot] !== 0) visit(this.lows[slot], this.highs[slot], this.slots[slot] - 1);
  }

  private grow(): void {
    const { lows, highs, slots } = this;
    this.lows = new Int32Array(slots.length * 2);
    this.highs = new Int32Array(slots.length * 2);
    this.slots = new Int32Array(slots.length * 2);
    this.size = 0;
    for (let slot = 0; slot < slots.length; slot++) if (slots[slot] !== 0) this.set(lows[slot], highs[slot], slots[slot] - 1);
  }
}

/**
 * The values of a dictionary column whose entries are found while importing, keyed by two
 * 32-bit integers (an address's two halves, or a 64-bit hash of the value's bytes) so that
 * looking up a repeated value makes no string. The text is made once per new entry.
 */
export class GrowingDictionary {
  private readonly keys = new PairIndex();
  readonly values: string[] = [];
  /** Each entry's key halves, by index (small integers: V8 keeps them unboxed). */
  private readonly lows: number[] = [];
  private readonly highs: number[] = [];

  /** The entry's index, or -1 when the caller must `insert` it. */
  find(low: number, high: number): number {
    return this.keys.get(low, high);
  }

  insert(low: number, high: number, text: string): number {
    const index = this.values.length;
    this.values.push(text);
    this.lows.push(low | 0);
    this.highs.push(high | 0);
    this.keys.set(low, high, index);
    return index;
  }

  /** The key entry `index` was inserted with. */
  keyOf(index: number): { low: number; high: number } {
    return { low: this.lows[index], high: this.highs[index] };
  }
}

/**
 * A List<Utf8> column of UUIDs: per row, `open`, then `itemUuid` per value, then `close`.
 */
export class Utf8ListColumn {
  private offsets: Int32Array;
  private filled = 0;
  private readonly validity: Validity;
  private readonly type = new List(new Field('item', new Utf8(), true));
  private childOffsets = new Int32Array(1024);
  private childBytes = new Uint8Array(8192);
  private childCount = 0;
  private childLength = 0;

  constructor(private readonly capacity: number) {
    this.offsets = new Int32Array(capacity + 1);
    this.validity = new Validity(capacity);
  }

  /** Starts row `row`; rows before it that were never written become null. */
  open(row: number): void {
    const count = this.childCount;
    while (this.filled < row) this.offsets[++this.filled] = count;
  }

  /**
   * Appends to the open row the UUID stored little-endian in `source[start..start+size)`:
   * 16- and 32-bit UUIDs as 4 or 8 upper-case hex digits, 128-bit ones in the canonical dashed
   * form (the same text as `formatUuid`).
   */
  itemUuid(source: Uint8Array, start: number, size: number): void {
    if (this.childCount + 2 > this.childOffsets.length) {
      const grown = new Int32Array(this.childOffsets.length * 2);
      grown.set(this.childOffsets);
      this.childOffsets = grown;
    }
    if (this.childLength + 36 > this.childBytes.length) {
      const grown = new Uint8Array(this.childBytes.length * 2);
      grown.set(this.childBytes.subarray(0, this.childLength));
      this.childBytes = grown;
    }
    const bytes = this.childBytes;
    let at = this.childLength;
    for (let index = size - 1; index >= 0; index--) {
      const value = source[start + index];
      bytes[at++] = HEX_UPPER[value >> 4];
      bytes[at++] = HEX_UPPER[value & 15];
      // 8-4-4-4-12 digits: dashes after octets 12, 10, 8 and 6 counting down from 15.
      if (size === 16 && (index === 12 || index === 10 || index === 8 || index === 6)) bytes[at++] = DASH;
    }
    this.childLength = at;
    this.childOffsets[++this.childCount] = at;
  }

  close(row: number): void {
    this.offsets[row + 1] = this.childCount;
    this.filled = row + 1;
    this.validity.set(row);
  }

  seal(rowCount: number): Data<List<Utf8>> {
    this.open(rowCount);
    const valueOffsets = this.offsets.slice(0, rowCount + 1);
    const child = makeData({
      type: new Utf8(),
      length: this.childCount,
      nullCount: 0,
      valueOffsets: this.childOffsets.slice(0, this.childCount + 1),
      data: this.childBytes.slice(0, this.childLength),
    });
    const { bitmap, nullCount } = this.validity.take(rowCount, this.capacity);
    this.offsets = new Int32Array(this.capacity + 1);
    this.filled = 0;
    this.childCount = 0;
    this.childLength = 0;
    return makeData({ type: this.type, length: rowCount, nullCount, nullBitmap: bitmap, valueOffsets, child });
  }
}

/**
 * A Utf8 vector's data for `values`, with a fast path for ASCII (dictionary entries are
 * mostly hex digits and addresses).
 */
export function utf8Data(values: ReadonlyArray<string>, encoder: TextEncoder): Data<Utf8> {
  const offsets = new Int32Array(values.length + 1);
  let length = 0;
  for (const value of values) length += value.length;
  let bytes: Uint8Array = new Uint8Array(Math.max(16, length));
  let at = 0;
  values.forEach((value, index) => {
    let ascii = true;
    for (let char = 0; char < value.length; char++) {
      if (value.charCodeAt(char) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      if (at + value.length > bytes.length) bytes = grow(bytes, at + value.length);
      for (let char = 0; char < value.length; char++) bytes[at++] = value.charCodeAt(char);
    } else {
      const encoded = encoder.encode(value);
      if (at + encoded.length > bytes.length) bytes = grow(bytes, at + encoded.length);
      bytes.set(encoded, at);
      at += encoded.length;
    }
    offsets[index + 1] = at;
  });
  return makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data: bytes.slice(0, at) });
}

function grow(bytes: Uint8Array, needed: number): Uint8Array {
  let size = bytes.length * 2;
  while (size < needed) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(bytes);
  return grown;
}
