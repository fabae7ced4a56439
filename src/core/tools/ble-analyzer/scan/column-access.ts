import { DataType, Precision, type RecordBatch, type Vector } from 'apache-arrow';

/**
 * Direct, allocation-light access to the Arrow columns the analyzer reads: dictionary indices
 * instead of strings, the column's own typed arrays instead of boxed values. A string is only
 * made once per distinct dictionary entry. The scan's row loop reads these arrays directly, so
 * each accessor hands back a plain array (null as -1 for codes, NaN for numbers) and copies
 * only when the column has some, but not all, values null.
 */

/**
 * A string column of one batch as integer codes. A class rather than an object of closures: the
 * scan calls `text` from its row loop, and one shared method keeps that call site monomorphic
 * across batches and runs.
 */
export class BleCodedColumn {
  /**
   * A single-chunk UTF-8 dictionary without null entries: entry `code` is bytes
   * [entryOffsets[code], entryOffsets[code + 1]) of `entryBytes` (else both undefined).
   */
  readonly entryBytes: Uint8Array | undefined;
  readonly entryOffsets: Int32Array | undefined;

  constructor(
    /** Code of each row, -1 for null (the dictionary indices themselves when nothing is null). */
    readonly codes: ArrayLike<number>,
    /** Number of distinct codes (dictionary length, or distinct values seen for plain strings). */
    readonly size: number,
    /** Identity of the code space: equal for batches that share one dictionary. */
    readonly space: object,
    /** True when every row is null. */
    readonly allNull: boolean,
    private readonly dictionary: Vector | undefined,
    private readonly texts: ReadonlyArray<string> | undefined,
    /**
     * Set only by `bleCodedColumnWithNullBits`: then `codes` are the raw dictionary indices (a
     * null row's index is meaningless) and bit `nullOffset + row` of this bitmap is 0 for a null row.
     */
    readonly nullBits: Uint8Array | undefined = undefined,
    readonly nullOffset = 0,
  ) {
    if (dictionary && dictionary.data.length === 1 && DataType.isUtf8(dictionary.type) && dictionary.data[0].nullCount === 0) {
      this.entryBytes = dictionary.data[0].values as Uint8Array;
      this.entryOffsets = dictionary.data[0].valueOffsets as Int32Array;
    }
  }

  /** The string of a code (made once per code, by the caller's cache). */
  text(code: number): string {
    if (this.texts) return this.texts[code];
    return asciiEntry(this.dictionary!, code) ?? String(this.dictionary!.get(code));
  }
}

/**
 * A UTF-8 dictionary entry made straight from its bytes when they are all ASCII (hex
 * signatures, addresses): the same string as the generic getter's UTF-8 decoding, several times
 * faster for short entries. Undefined when that does not apply.
 */
function asciiEntry(dictionary: Vector, code: number): string | undefined {
  if (dictionary.data.length !== 1 || !DataType.isUtf8(dictionary.type)) return undefined;
  const data = dictionary.data[0];
  const bitmap = data.nullBitmap;
  if (bitmap && bitmap.length > 0 && data.nullCount > 0 && !isValid(bitmap, data.offset + code)) return undefined;
  const offsets = data.valueOffsets as Int32Array;
  return bleAsciiText(data.values as Uint8Array, offsets[code], offsets[code + 1]);
}

/** Scratch for `bleAsciiText`: char codes are gathered here and made into a string in one call. */
const charCodes: number[] = [];

/** Bytes [from, to) as a string when all are ASCII and there are at most 256; else undefined. */
export function bleAsciiText(bytes: Uint8Array, from: number, to: number): string | undefined {
  if (to - from > 256) return undefined;
  charCodes.length = to - from;
  for (let index = from; index < to; index++) {
    const byte = bytes[index];
    if (byte >= 0x80) return undefined;
    charCodes[index - from] = byte;
  }
  return String.fromCharCode.apply(null, charCodes);
}

function isValid(bitmap: Uint8Array, bit: number): boolean {
  return (bitmap[bit >> 3] & (1 << (bit & 7))) !== 0;
}

/**
 * Sets `codes[row]` to -1 where the validity bit `offset + row` is 0. A byte of the bitmap at a
 * time where the offset allows it: the address columns a role leaves empty (initiator, scanner)
 * are almost all null, and a whole null or valid byte then costs one test instead of eight.
 */
export function markNulls(codes: Int32Array, bitmap: Uint8Array, offset: number): void {
  const rows = codes.length;
  let row = 0;
  if ((offset & 7) === 0) {
    const firstByte = offset >> 3;
    for (; row + 8 <= rows; row += 8) {
      const byte = bitmap[firstByte + (row >> 3)];
      if (byte === 0xff) continue;
      if (byte === 0) {
        // Eight plain stores: a fill() call per byte costs more than the stores themselves.
        codes[row] = -1;
        codes[row + 1] = -1;
        codes[row + 2] = -1;
        codes[row + 3] = -1;
        codes[row + 4] = -1;
        codes[row + 5] = -1;
        codes[row + 6] = -1;
        codes[row + 7] = -1;
        continue;
      }
      for (let bit = 0; bit < 8; bit++) if ((byte & (1 << bit)) === 0) codes[row + bit] = -1;
    }
  }
  for (; row < rows; row++) if (!isValid(bitmap, offset + row)) codes[row] = -1;
}

/** The validity bitmap when some value may be null, else undefined. */
function nullBitmap(vector: Vector): Uint8Array | undefined {
  const data = vector.data[0];
  const bitmap = data.nullBitmap;
  return bitmap && bitmap.length > 0 && data.nullCount > 0 ? bitmap : undefined;
}

/**
 * A reusable buffer for the null-marked copy of a dictionary column's codes, for columns read
 * only while their batch is scanned: the role address columns are almost all null, and a fresh
 * copy per batch was 8 MB of short-lived memory per million rows.
 */
export class BleCodeScratch {
  private buffer = new Int32Array(0);

  /** The first `rows` slots (their contents are overwritten by the next call). */
  take(rows: number): Int32Array {
    if (this.buffer.length < rows) this.buffer = new Int32Array(rows);
    return this.buffer.subarray(0, rows);
  }
}

/**
 * A dictionary (or plain string) column as codes; undefined when the column is absent. With
 * `scratch`, a null-marked copy of dictionary codes is written there, so the result is only
 * valid until the scratch is used again.
 */
export function bleCodedColumn(batch: RecordBatch, name: string, scratch?: BleCodeScratch): BleCodedColumn | undefined {
  const vector = batch.getChild(name);
  if (!vector) return undefined;
  const rows = batch.numRows;
  const data = vector.data[0];
  if (DataType.isDictionary(vector.type) && data.dictionary && vector.data.length === 1) {
    const indices = data.values as ArrayLike<number>;
    const dictionary: Vector = data.dictionary;
    const bitmap = nullBitmap(vector);
    let codes: ArrayLike<number> = indices;
    if (bitmap && data.nullCount >= rows) {
      // All null (the role address columns of advertising-only captures): nothing to copy or test.
      codes = (scratch ? scratch.take(rows) : new Int32Array(rows)).fill(-1);
    } else if (bitmap) {
      const copy = scratch ? scratch.take(rows) : new Int32Array(rows);
      // The typed-array copy, then nulls marked from the bitmap: this helper sees index arrays of
      // every width, so reading `indices` per row here would be a slow polymorphic access.
      copy.set((indices as Int32Array).subarray(0, rows));
      markNulls(copy, bitmap, data.offset);
      codes = copy;
    }
    return new BleCodedColumn(codes, dictionary.length, dictionary, rows > 0 && data.nullCount >= rows, dictionary, undefined);
  }
  // Plain strings (e.g. tabular imports): codes are made per batch, one Map lookup per row.
  const codes = new Int32Array(rows);
  const texts: string[] = [];
  const seen = new Map<string, number>();
  let nulls = 0;
  for (let row = 0; row < rows; row++) {
    const value: unknown = vector.get(row);
    if (value === null || value === undefined) {
      codes[row] = -1;
      nulls++;
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
  return new BleCodedColumn(codes, texts.length, codes, rows > 0 && nulls === rows, undefined, texts);
}

/**
 * Like `bleCodedColumn`, but a dictionary column with some nulls keeps its raw indices and hands
 * its validity bitmap to the reader (`nullBits`) instead of a null-marked copy: for columns
 * that live until the second pass of the scan, where a per-batch copy would be 4 bytes per row
 * of memory held through the scan (and its garbage collections) to mark a few nulls.
 */
export function bleCodedColumnWithNullBits(batch: RecordBatch, name: string): BleCodedColumn | undefined {
  const vector = batch.getChild(name);
  if (!vector) return undefined;
  const rows = batch.numRows;
  const data = vector.data[0];
  const bitmap = nullBitmap(vector);
  if (!bitmap || rows === 0 || data.nullCount >= rows || !DataType.isDictionary(vector.type) || !data.dictionary || vector.data.length !== 1) return bleCodedColumn(batch, name);
  const dictionary: Vector = data.dictionary;
  return new BleCodedColumn(data.values as ArrayLike<number>, dictionary.length, dictionary, false, dictionary, undefined, bitmap, data.offset);
}

/** True when the column is absent or null in every row of the batch (read from its null count alone). */
export function bleColumnAllNull(batch: RecordBatch, name: string): boolean {
  const vector = batch.getChild(name);
  return !vector || (batch.numRows > 0 && vector.nullCount >= batch.numRows);
}

/**
 * A numeric column with NaN for null: the column's own values when none is null, else a float64
 * copy. Undefined when absent or not numeric, and (with `allNullAsAbsent`) when every value is null.
 */
export function bleNumberColumn(batch: RecordBatch, name: string, allNullAsAbsent = false): ArrayLike<number> | undefined {
  const vector = batch.getChild(name);
  if (!vector) return undefined;
  const type = vector.type;
  if (!(DataType.isInt(type) || DataType.isFloat(type))) return undefined;
  const rows = batch.numRows;
  const data = vector.data[0];
  if (allNullAsAbsent && rows > 0 && vector.data.length === 1 && data.nullCount >= rows) return undefined;
  if (vector.data.length === 1 && ArrayBuffer.isView(data.values) && !(data.values instanceof BigInt64Array) && !(data.values instanceof BigUint64Array)) {
    const values = data.values as Float64Array;
    const bitmap = nullBitmap(vector);
    if (!bitmap && values.length >= rows) return values;
    const out = new Float64Array(rows);
    out.set(values.subarray(0, rows));
    if (bitmap) for (let row = 0; row < rows; row++) if (!isValid(bitmap, data.offset + row)) out[row] = Number.NaN;
    return out;
  }
  const out = new Float64Array(rows);
  for (let row = 0; row < rows; row++) {
    const value: unknown = vector.get(row);
    out[row] = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : Number.NaN;
  }
  return out;
}

/**
 * A boolean column as a bitmap in which bit `offset + row` is 0 exactly when the value is false
 * (null reads as 1); undefined when absent.
 */
export function bleFalseBits(batch: RecordBatch, name: string): { bits: Uint8Array; offset: number } | undefined {
  const vector = batch.getChild(name);
  if (!vector || !DataType.isBool(vector.type)) return undefined;
  const rows = batch.numRows;
  if (vector.data.length === 1 && !nullBitmap(vector)) {
    const data = vector.data[0];
    return { bits: data.values as Uint8Array, offset: data.offset };
  }
  const bits = new Uint8Array((rows + 7) >> 3);
  for (let row = 0; row < rows; row++) {
    const value: unknown = vector.get(row);
    if (value !== false) bits[row >> 3] |= 1 << (row & 7);
  }
  return { bits, offset: 0 };
}

/** A list-of-strings cell joined with commas ('' for null or an absent column). */
export function bleListText(vector: Vector | undefined, row: number): string {
  if (!vector) return '';
  const direct = asciiListText(vector, row);
  if (direct !== undefined) return direct;
  const value: unknown = vector.get(row);
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof (value as { toArray?: unknown }).toArray === 'function') return Array.from((value as { toArray(): ArrayLike<unknown> }).toArray(), String).join(',');
  return String(value);
}

/**
 * A List<Utf8> cell read from its offsets when every item is non-null ASCII: what the generic
 * getter (a Vector per cell, then its array) would give, without the allocations. Undefined
 * when that does not apply.
 */
function asciiListText(vector: Vector, row: number): string | undefined {
  if (vector.data.length !== 1 || !DataType.isList(vector.type)) return undefined;
  const data = vector.data[0];
  const bitmap = nullBitmap(vector);
  if (bitmap && !isValid(bitmap, data.offset + row)) return '';
  const items = data.children[0];
  if (!items || !DataType.isUtf8(items.type) || items.nullCount > 0) return undefined;
  const offsets = data.valueOffsets as Int32Array;
  return asciiItems(items.values as Uint8Array, items.valueOffsets as Int32Array, offsets[row], offsets[row + 1]);
}

/** Items [from, to) of a Utf8 column joined with commas when all are ASCII; else undefined. */
function asciiItems(bytes: Uint8Array, itemOffsets: Int32Array, from: number, to: number): string | undefined {
  let text = '';
  for (let item = from; item < to; item++) {
    const value = bleAsciiText(bytes, itemOffsets[item], itemOffsets[item + 1]);
    if (value === undefined) return undefined;
    text += (item > from ? ',' : '') + value;
  }
  return text;
}

/**
 * Decoded dictionary entries shared by the cell readers of every batch of one scan (batches of
 * a capture share their dictionaries): the payload features read an entry for each payload, and
 * thousands of payloads share a few hundred manufacturer data values and a few dozen names.
 */
export class BleEntryTexts {
  private readonly byDictionary = new WeakMap<Vector, Array<string | undefined>>();

  /** The texts decoded so far of the entries of `dictionary`, by code. */
  of(dictionary: Vector): Array<string | undefined> {
    let texts = this.byDictionary.get(dictionary);
    if (!texts) {
      // Sized up front: entries set out of order in a growing array would turn it into a slow sparse one.
      texts = new Array<string | undefined>(dictionary.length);
      this.byDictionary.set(dictionary, texts);
    }
    return texts;
  }
}

/**
 * One column of one batch prepared for reading single cells, dictionary and numeric columns
 * without the generic getter: the per-column checks (chunking, nulls, type, dictionary layout)
 * are done once instead of per cell. The payload features read seven cells of each payload's
 * first row, for thousands of payloads per analysis.
 */
export class BleCellReader {
  private readonly kind: CellKind;
  private readonly values: ArrayLike<number> | undefined;
  private readonly bitmap: Uint8Array | undefined;
  private readonly offset: number;
  private readonly dictionary: Vector | undefined;
  /** A single-chunk UTF-8 dictionary without nulls: its entries are decoded from these directly. */
  private readonly entryOffsets: Int32Array | undefined;
  private readonly entryBytes: Uint8Array | undefined;
  /** A single-chunk list of non-null UTF-8 items: list cells are read from these directly (see asciiListText). */
  private readonly listOffsets: Int32Array | undefined;
  private readonly itemOffsets: Int32Array | undefined;
  private readonly itemBytes: Uint8Array | undefined;
  /** Decoded entries of a dictionary column, shared with other readers of the same dictionary (see BleEntryTexts). */
  private readonly entryTexts: Array<string | undefined> | undefined;

  constructor(
    private readonly vector: Vector | undefined,
    entries?: BleEntryTexts,
  ) {
    this.kind = CellKind.Generic;
    this.offset = 0;
    if (!vector) {
      this.kind = CellKind.Absent;
      return;
    }
    if (vector.data.length !== 1) return;
    const data = vector.data[0];
    this.bitmap = nullBitmap(vector);
    this.offset = data.offset;
    const type = vector.type;
    if (DataType.isDictionary(type) && data.dictionary) {
      this.kind = CellKind.Dictionary;
      this.values = data.values as ArrayLike<number>;
      const dictionary: Vector = data.dictionary;
      this.dictionary = dictionary;
      this.entryTexts = entries?.of(dictionary);
      if (dictionary.data.length === 1 && DataType.isUtf8(dictionary.type) && !nullBitmap(dictionary)) {
        this.entryOffsets = dictionary.data[0].valueOffsets as Int32Array;
        this.entryBytes = dictionary.data[0].values as Uint8Array;
      }
    } else if ((DataType.isInt(type) && type.bitWidth <= 32) || (DataType.isFloat(type) && type.precision !== Precision.HALF)) {
      this.kind = CellKind.Number;
      this.values = data.values as ArrayLike<number>;
    } else if (DataType.isList(type)) {
      const items = data.children[0];
      if (items && DataType.isUtf8(items.type) && items.nullCount === 0) {
        this.listOffsets = data.valueOffsets as Int32Array;
        this.itemOffsets = items.valueOffsets as Int32Array;
        this.itemBytes = items.values as Uint8Array;
      }
    }
  }

  /** A numeric cell, NaN for null, non-numbers or an absent column. */
  number(row: number): number {
    const value = this.cell(row);
    return typeof value === 'number' ? value : Number.NaN;
  }

  /** A scalar cell as text, '' for null or an absent column. */
  text(row: number): string {
    const value = this.cell(row);
    return value === null || value === undefined ? '' : String(value);
  }

  /** A list-of-strings cell joined with commas, '' for null or an absent column. */
  listText(row: number): string {
    if (this.listOffsets && this.itemOffsets && this.itemBytes) {
      if (this.bitmap && !isValid(this.bitmap, this.offset + row)) return '';
      const text = asciiItems(this.itemBytes, this.itemOffsets, this.listOffsets[row], this.listOffsets[row + 1]);
      if (text !== undefined) return text;
    }
    return this.vector ? bleListText(this.vector, row) : '';
  }

  private cell(row: number): unknown {
    switch (this.kind) {
      case CellKind.Absent:
        return null;
      case CellKind.Generic:
        return this.vector!.get(row);
      default:
        if (this.bitmap && !isValid(this.bitmap, this.offset + row)) return null;
        if (this.kind === CellKind.Number) return this.values![row];
        return this.entry(this.values![row]);
    }
  }

  private entry(code: number): unknown {
    const texts = this.entryTexts;
    if (texts) {
      const known = texts[code];
      if (known !== undefined) return known;
    }
    const value = this.decode(code);
    if (texts && typeof value === 'string') texts[code] = value;
    return value;
  }

  private decode(code: number): unknown {
    const text = this.entryOffsets && this.entryBytes ? bleAsciiText(this.entryBytes, this.entryOffsets[code], this.entryOffsets[code + 1]) : asciiEntry(this.dictionary!, code);
    return text ?? this.dictionary!.get(code);
  }
}

const enum CellKind {
  Absent,
  Generic,
  Number,
  Dictionary,
}
