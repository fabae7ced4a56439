import { describe, expect, it } from 'vitest';
import { Dictionary, Int32, Int64, Int8, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { BleCellReader, markNulls } from './column-access.ts';

/** The plain per-row rule markNulls must agree with. */
function markNullsRowByRow(codes: Int32Array, bitmap: Uint8Array, offset: number): void {
  for (let row = 0; row < codes.length; row++) if ((bitmap[(offset + row) >> 3] & (1 << ((offset + row) & 7))) === 0) codes[row] = -1;
}

describe('markNulls', () => {
  it('marks exactly the rows whose validity bit is 0, for aligned and unaligned offsets and any length', () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) >>> 0);
    for (let trial = 0; trial < 200; trial++) {
      const rows = next() % 70;
      const offset = next() % 20;
      const bitmap = new Uint8Array(((offset + rows) >> 3) + 1);
      // Whole-null, whole-valid and mixed bytes, as sparse role columns have.
      for (let index = 0; index < bitmap.length; index++) bitmap[index] = [0, 0xff, next() & 0xff][next() % 3];
      const codes = Int32Array.from({ length: rows }, (_, row) => row);
      const expected = codes.slice();
      markNulls(codes, bitmap, offset);
      markNullsRowByRow(expected, bitmap, offset);
      expect(codes).toEqual(expected);
    }
  });
});

describe('BleCellReader', () => {
  /** What a cell reads as through apache-arrow's generic getter. */
  const generic = (value: unknown) => ({
    number: typeof value === 'number' ? value : Number.NaN,
    text: value === null || value === undefined ? '' : String(value),
  });

  it('reads dictionary, numeric and other cells as the generic getter does, nulls included', () => {
    const names = vectorFromArray(['Pixel', null, 'Galaxy Watch', 'Pixel', 'Bücher'], new Dictionary(new Utf8(), new Int32()));
    const power = vectorFromArray([-8, null, 4, 0, -20], new Int8());
    const wide = vectorFromArray([1n, null, 3n, 4n, 5n], new Int64());
    const table = new Table({ local_name: names, tx_power: power, frame: wide });
    const batch = table.batches[0];
    for (const name of ['local_name', 'tx_power', 'frame'] as const) {
      const vector = batch.getChild(name)!;
      const reader = new BleCellReader(vector);
      for (let row = 0; row < batch.numRows; row++) {
        const expected = generic(vector.get(row));
        expect(reader.text(row)).toBe(expected.text);
        expect(reader.number(row)).toBe(expected.number);
      }
    }
    const absent = new BleCellReader(undefined);
    expect([absent.text(0), absent.number(0), absent.listText(0)]).toEqual(['', Number.NaN, '']);
  });
});
