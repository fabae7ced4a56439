/**
 * Column-at-a-time kernels for compiled filters. A three-valued result is a pair of byte
 * masks: `isTrue[i] = 1` where the predicate is TRUE, `isFalse[i] = 1` where it is FALSE,
 * neither where it is UNKNOWN (a null took part). NOT is then a swap, AND and OR are
 * byte-wise `&`/`|`, and SQL's truth tables fall out:
 *   TRUE(a AND b) = Ta & Tb   FALSE(a AND b) = Fa | Fb
 *   TRUE(a OR b)  = Ta | Tb   FALSE(a OR b)  = Fa & Fb
 *
 * Ownership: every kernel returns freshly allocated masks that the caller owns and may
 * overwrite; `andInto`/`orInto` and `negate` rely on it.
 */
import { DataType, type Data, type Dictionary, type RecordBatch, type Vector } from 'apache-arrow';
import { assertNever } from '../../util/result.ts';

export interface TriMask {
  isTrue: Uint8Array;
  isFalse: Uint8Array;
}

/** A compiled filter node: computes its masks for a whole batch. */
export type MaskNode = (batch: RecordBatch) => TriMask;

/**
 * The three comparisons kernels implement; `>`, `>=` and `!=` are the negations of
 * `<=`, `<` and `=` on known values, and both sides agree on which rows are unknown.
 */
export type BasicComparison = 'lt' | 'le' | 'eq';

function emptyMask(rowCount: number): TriMask {
  return { isTrue: new Uint8Array(rowCount), isFalse: new Uint8Array(rowCount) };
}

export function negate(mask: TriMask): TriMask {
  return { isTrue: mask.isFalse, isFalse: mask.isTrue };
}

/** `target := target AND other`, in place. */
export function andInto(target: TriMask, other: TriMask): void {
  const { isTrue, isFalse } = target;
  const otherTrue = other.isTrue;
  const otherFalse = other.isFalse;
  for (let row = 0; row < isTrue.length; row++) {
    isTrue[row] &= otherTrue[row];
    isFalse[row] |= otherFalse[row];
  }
}

/** `target := target OR other`, in place. */
export function orInto(target: TriMask, other: TriMask): void {
  const { isTrue, isFalse } = target;
  const otherTrue = other.isTrue;
  const otherFalse = other.isFalse;
  for (let row = 0; row < isTrue.length; row++) {
    isTrue[row] |= otherTrue[row];
    isFalse[row] &= otherFalse[row];
  }
}

// ---------------------------------------------------------------------------------------
// Numbers (number and boolean columns, read as float64 with NaN for null)

/** `values <op> constant`; NaN rows are unknown. */
export function compareNumberToConstant(values: Float64Array, comparison: BasicComparison, constant: number): TriMask {
  const rowCount = values.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  switch (comparison) {
    case 'lt':
      for (let row = 0; row < rowCount; row++) {
        const value = values[row];
        if (value !== value) continue;
        if (value < constant) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    case 'le':
      for (let row = 0; row < rowCount; row++) {
        const value = values[row];
        if (value !== value) continue;
        if (value <= constant) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    case 'eq':
      for (let row = 0; row < rowCount; row++) {
        const value = values[row];
        if (value !== value) continue;
        if (value === constant) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    default:
      assertNever(comparison, 'comparison');
  }
  return { isTrue, isFalse };
}

/** `left <op> right` row by row; a NaN on either side makes the row unknown. */
export function compareNumberColumns(left: Float64Array, comparison: BasicComparison, right: Float64Array): TriMask {
  const rowCount = left.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  switch (comparison) {
    case 'lt':
      for (let row = 0; row < rowCount; row++) {
        const a = left[row];
        const b = right[row];
        if (a !== a || b !== b) continue;
        if (a < b) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    case 'le':
      for (let row = 0; row < rowCount; row++) {
        const a = left[row];
        const b = right[row];
        if (a !== a || b !== b) continue;
        if (a <= b) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    case 'eq':
      for (let row = 0; row < rowCount; row++) {
        const a = left[row];
        const b = right[row];
        if (a !== a || b !== b) continue;
        if (a === b) isTrue[row] = 1;
        else isFalse[row] = 1;
      }
      break;
    default:
      assertNever(comparison, 'comparison');
  }
  return { isTrue, isFalse };
}

/** `low <= values <= high` for constant bounds. */
export function numberBetweenConstants(values: Float64Array, low: number, high: number): TriMask {
  const rowCount = values.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const value = values[row];
    if (value !== value) continue;
    if (value >= low && value <= high) isTrue[row] = 1;
    else isFalse[row] = 1;
  }
  return { isTrue, isFalse };
}

/** Lists longer than this are looked up in a Set instead of scanned. */
const LINEAR_SCAN_LIMIT = 8;

/** `values IN (constants)`; `constants` is non-empty. */
export function numberInConstants(values: Float64Array, constants: ReadonlyArray<number>): TriMask {
  const rowCount = values.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  if (constants.length > LINEAR_SCAN_LIMIT) {
    const set = new Set(constants);
    for (let row = 0; row < rowCount; row++) {
      const value = values[row];
      if (value !== value) continue;
      if (set.has(value)) isTrue[row] = 1;
      else isFalse[row] = 1;
    }
    return { isTrue, isFalse };
  }
  const list = Float64Array.from(constants);
  for (let row = 0; row < rowCount; row++) {
    const value = values[row];
    if (value !== value) continue;
    let found = 0;
    for (let index = 0; index < list.length; index++) {
      if (list[index] === value) {
        found = 1;
        break;
      }
    }
    isTrue[row] = found;
    isFalse[row] = found ^ 1;
  }
  return { isTrue, isFalse };
}

/** `values IS NULL` (NaN counts as null); never unknown. */
export function numberIsNull(values: Float64Array): TriMask {
  const rowCount = values.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const value = values[row];
    if (value !== value) isTrue[row] = 1;
    else isFalse[row] = 1;
  }
  return { isTrue, isFalse };
}

// ---------------------------------------------------------------------------------------
// Strings

/**
 * A test on non-null string values. `testBytes`, when present, answers the same question
 * on the UTF-8 bytes `bytes[start, end)` without decoding them (used for plain Utf8).
 */
export interface StringMatcher {
  test(value: string): boolean;
  testBytes?: (bytes: Uint8Array, start: number, end: number) => boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of `text`, or null when `text` has a lone surrogate (then no stored value can equal it). */
function utf8Exactly(text: string): Uint8Array | null {
  const bytes = encoder.encode(text);
  return decoder.decode(bytes) === text ? bytes : null;
}

function bytesEqual(bytes: Uint8Array, start: number, end: number, expected: Uint8Array): boolean {
  if (end - start !== expected.length) return false;
  for (let index = 0; index < expected.length; index++) {
    if (bytes[start + index] !== expected[index]) return false;
  }
  return true;
}

/** `value <op> constant` with JavaScript string order (UTF-16 code units). */
export function stringComparisonMatcher(comparison: BasicComparison, constant: string): StringMatcher {
  switch (comparison) {
    case 'lt':
      return { test: (value) => value < constant };
    case 'le':
      return { test: (value) => value <= constant };
    case 'eq': {
      const expected = utf8Exactly(constant);
      const matcher: StringMatcher = { test: (value) => value === constant };
      if (expected) matcher.testBytes = (bytes, start, end) => bytesEqual(bytes, start, end, expected);
      return matcher;
    }
    default:
      return assertNever(comparison, 'comparison');
  }
}

/** `value IN (constants)`. */
export function stringInMatcher(constants: ReadonlyArray<string>): StringMatcher {
  const set = new Set(constants);
  // Byte forms grouped by length, so most rows are rejected by one Map lookup.
  const byLength = new Map<number, Uint8Array[]>();
  for (const constant of set) {
    const bytes = utf8Exactly(constant);
    if (!bytes) continue;
    const group = byLength.get(bytes.length);
    if (group) group.push(bytes);
    else byLength.set(bytes.length, [bytes]);
  }
  return {
    test: (value) => set.has(value),
    testBytes: (bytes, start, end) => {
      const group = byLength.get(end - start);
      if (!group) return false;
      for (const expected of group) if (bytesEqual(bytes, start, end, expected)) return true;
      return false;
    },
  };
}

/** `low <= value <= high`. */
export function stringBetweenMatcher(low: string, high: string): StringMatcher {
  return { test: (value) => value >= low && value <= high };
}

const ANY_STRING: StringMatcher = { test: () => true, testBytes: () => true };

function columnVector(batch: RecordBatch, name: string): Vector {
  const vector = batch.getChild(name);
  if (!vector) throw new Error(`column ${name} is not in the batch`);
  return vector;
}

/**
 * Applies `matcher` to a string column: TRUE/FALSE where the value is present, unknown
 * where it is null. Dictionary columns test each dictionary entry at most once per batch
 * (lazily, so a batch sliced from a large dictionary pays only for the entries it uses)
 * and map the indices; plain Utf8 columns are read straight from their offsets and bytes;
 * any other type falls back to `vector.get` and `String(value)`.
 */
export function matchStrings(batch: RecordBatch, name: string, matcher: StringMatcher): TriMask {
  const vector = columnVector(batch, name);
  const rowCount = batch.numRows;
  const mask = emptyMask(rowCount);
  let base = 0;
  for (const data of vector.data) {
    const length = Math.min(data.length, rowCount - base);
    if (length <= 0) break;
    if (DataType.isDictionary(data.type) && data.dictionary) {
      // The type guard narrows `data.type`, not `data`; the cast restates it for `data`.
      matchDictionary(data as Data<Dictionary>, length, base, matcher, mask);
    } else if (DataType.isUtf8(data.type)) {
      matchUtf8(data, length, base, matcher, mask);
    } else {
      for (let row = 0; row < length; row++) {
        const value: unknown = vector.get(base + row);
        if (value === null || value === undefined) continue;
        if (matcher.test(String(value))) mask.isTrue[base + row] = 1;
        else mask.isFalse[base + row] = 1;
      }
    }
    base += data.length;
  }
  return mask;
}

/** The validity bitmap when the data has nulls, else null (every row valid). */
function nullBitmapOf(data: Data): Uint8Array | null {
  return data.nullCount > 0 && data.nullBitmap && data.nullBitmap.length > 0 ? data.nullBitmap : null;
}

const MEMO_TRUE = 1;
const MEMO_FALSE = 2;
const MEMO_NULL = 3;

function matchDictionary(data: Data<Dictionary>, length: number, base: number, matcher: StringMatcher, mask: TriMask): void {
  const dictionary = data.dictionary;
  if (!dictionary) return;
  const rawIndices: ArrayLike<number> | BigInt64Array | BigUint64Array = data.values;
  const indices: ArrayLike<number> =
    rawIndices instanceof BigInt64Array || rawIndices instanceof BigUint64Array ? Float64Array.from(rawIndices, (index) => Number(index)) : rawIndices;
  // 0 = not tested yet, else MEMO_TRUE / MEMO_FALSE / MEMO_NULL.
  const memo = new Uint8Array(dictionary.length);
  const bitmap = nullBitmapOf(data);
  const offset = data.offset;
  const { isTrue, isFalse } = mask;
  for (let row = 0; row < length; row++) {
    if (bitmap !== null) {
      const bit = offset + row;
      if ((bitmap[bit >> 3] & (1 << (bit & 7))) === 0) continue;
    }
    const index = indices[row];
    let state = memo[index];
    if (state === 0) {
      const entry: unknown = dictionary.get(index);
      state = entry === null || entry === undefined ? MEMO_NULL : matcher.test(String(entry)) ? MEMO_TRUE : MEMO_FALSE;
      memo[index] = state;
    }
    if (state === MEMO_TRUE) isTrue[base + row] = 1;
    else if (state === MEMO_FALSE) isFalse[base + row] = 1;
  }
}

function matchUtf8(data: Data, length: number, base: number, matcher: StringMatcher, mask: TriMask): void {
  // Utf8 data: 32-bit offsets into a byte buffer; a slice moves the offsets, not the bytes.
  const offsets = data.valueOffsets as Int32Array;
  const bytes = data.values as Uint8Array;
  const bitmap = nullBitmapOf(data);
  const offset = data.offset;
  const { isTrue, isFalse } = mask;
  const testBytes = matcher.testBytes;
  for (let row = 0; row < length; row++) {
    if (bitmap !== null) {
      const bit = offset + row;
      if ((bitmap[bit >> 3] & (1 << (bit & 7))) === 0) continue;
    }
    const start = offsets[row];
    const end = offsets[row + 1];
    const matched = testBytes ? testBytes(bytes, start, end) : matcher.test(decoder.decode(bytes.subarray(start, end)));
    if (matched) isTrue[base + row] = 1;
    else isFalse[base + row] = 1;
  }
}

/** `column IS NULL` for a string column; never unknown. */
export function stringIsNull(batch: RecordBatch, name: string): TriMask {
  const present = matchStrings(batch, name, ANY_STRING);
  // ANY_STRING is TRUE on every present value and never FALSE, so isFalse is all zeros
  // and can be reused for the null rows.
  const { isTrue, isFalse } = present;
  for (let row = 0; row < isTrue.length; row++) isFalse[row] = isTrue[row] ^ 1;
  return { isTrue: isFalse, isFalse: isTrue };
}

/** `left <op> right` on two string columns (already read as strings, nulls as null). */
export function compareStringColumns(left: ReadonlyArray<string | null>, comparison: BasicComparison, right: ReadonlyArray<string | null>): TriMask {
  const rowCount = left.length;
  const { isTrue, isFalse } = emptyMask(rowCount);
  for (let row = 0; row < rowCount; row++) {
    const a = left[row];
    const b = right[row];
    if (a === null || b === null) continue;
    const matched = comparison === 'lt' ? a < b : comparison === 'le' ? a <= b : a === b;
    if (matched) isTrue[row] = 1;
    else isFalse[row] = 1;
  }
  return { isTrue, isFalse };
}
