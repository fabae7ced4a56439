import { describe, expect, it } from 'vitest';
import { Dictionary, Field, Int32, Int64, Int8, List, Table, Utf8, vectorFromArray, type RecordBatch } from 'apache-arrow';
import { BleCellReader, bleCodedColumn, BleEntryTexts, bleCodedColumnWithNullBits, bleColumnAllNull, BleCodeScratch, markNulls } from './column-access.ts';

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
    // List cells, joined with commas: ASCII items, a non-ASCII item (read through the generic getter), empty lists and nulls, at row offsets.
    const lists = vectorFromArray([['180f', 'fe9f'], null, [], ['fd6f'], ['Bücher', 'x'], ['180a']], new List(new Field('item', new Utf8(), false)));
    const listTable = new Table({ service_uuids: lists });
    for (let from = 0; from < listTable.numRows; from++) {
      for (const batch of listTable.slice(from).batches) {
        const vector = batch.getChild('service_uuids')!;
        const reader = new BleCellReader(vector);
        for (let row = 0; row < batch.numRows; row++) {
          const value = vector.get(row);
          expect(reader.listText(row)).toBe(value === null ? '' : Array.from(value.toArray() as ArrayLike<unknown>, String).join(','));
        }
      }
    }
    const absent = new BleCellReader(undefined);
    expect([absent.text(0), absent.number(0), absent.listText(0)]).toEqual(['', Number.NaN, '']);
  });

  it('shares decoded entries between readers of one dictionary and reads as without sharing', () => {
    const names = vectorFromArray(['Pixel', null, 'Bücher', 'Pixel', 'Watch', 'Bücher'], new Dictionary(new Utf8(), new Int32()));
    const table = new Table({ local_name: names });
    const entries = new BleEntryTexts();
    // Two slices of one table: two batches (with a row offset) over the same dictionary.
    const batches = [...table.slice(0, 3).batches, ...table.slice(2).batches];
    const readers = batches.map((batch) => new BleCellReader(batch.getChild('local_name')!, entries));
    const texts = readers.map((reader, index) => Array.from({ length: batches[index].numRows }, (_, row) => reader.text(row)));
    expect(texts).toEqual([
      ['Pixel', '', 'Bücher'],
      ['Bücher', 'Pixel', 'Watch', 'Bücher'],
    ]);
    const dictionary = batches[0].getChild('local_name')!.data[0].dictionary!;
    expect(batches[1].getChild('local_name')!.data[0].dictionary).toBe(dictionary);
    // Every entry read once is kept, and the second reader got the first one's string.
    expect(entries.of(dictionary)).toEqual(['Pixel', 'Bücher', 'Watch']);
    expect(entries.of(dictionary)[0]).toBe(texts[1][1]);
  });
});

describe('coded columns', () => {
  const names = ['a', null, 'b', 'a', null, 'c', 'b', null, 'a', 'c', 'c'];
  const table = new Table({
    some: vectorFromArray(names, new Dictionary(new Utf8(), new Int32())),
    none: vectorFromArray(names.map(() => null), new Dictionary(new Utf8(), new Int32())),
    full: vectorFromArray(names.map((name) => name ?? 'z'), new Dictionary(new Utf8(), new Int32())),
  });
  /** Each row's text through a coded column (null for null), read the way the scan reads it. */
  const texts = (column: NonNullable<ReturnType<typeof bleCodedColumn>>, rows: number) =>
    Array.from({ length: rows }, (_, row) => {
      const code = column.codes[row];
      const bits = column.nullBits;
      const bit = column.nullOffset + row;
      const valid = code >= 0 && (!bits || (bits[bit >> 3] & (1 << (bit & 7))) !== 0);
      return valid ? column.text(code) : null;
    });

  it('read the same rows with a null-marked copy, with the null bitmap, and all-null columns as all -1, at any row offset', () => {
    for (let from = 0; from < names.length; from++) {
      for (const batch of table.slice(from).batches) {
        const rows = batch.numRows;
        for (const name of ['some', 'none', 'full'] as const) {
          const expected = Array.from({ length: rows }, (_, row) => (batch.getChild(name)!.get(row) as string | null) ?? null);
          expect(texts(bleCodedColumn(batch, name)!, rows)).toEqual(expected);
          expect(texts(bleCodedColumn(batch, name, new BleCodeScratch())!, rows)).toEqual(expected);
          expect(texts(bleCodedColumnWithNullBits(batch, name)!, rows)).toEqual(expected);
          expect(bleColumnAllNull(batch, name)).toBe(expected.every((text) => text === null));
        }
        // With some nulls the bitmap form keeps the raw indices instead of copying them.
        if (batch.getChild('some')!.nullCount > 0) expect(bleCodedColumnWithNullBits(batch, 'some')!.nullBits).toBeDefined();
        expect(bleCodedColumnWithNullBits(batch, 'full')!.nullBits).toBeUndefined();
      }
    }
    expect(bleColumnAllNull(table.batches[0] as RecordBatch, 'absent')).toBe(true);
    expect(bleCodedColumnWithNullBits(table.batches[0] as RecordBatch, 'absent')).toBeUndefined();
  });
});
