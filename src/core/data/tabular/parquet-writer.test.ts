import { describe, expect, it } from 'vitest';
import { Dictionary, Int32, makeTable, Table, tableFromArrays, Utf8, Vector, vectorFromArray } from 'apache-arrow';
import { generateBleScenario } from '../../demo/ble-scenario/index.ts';
import { readParquet } from './parquet-reader.ts';
import { tableToParquet } from './parquet-writer.ts';

/**
 * A table's rows as plain values: numbers as numbers whatever their Arrow width, lists as arrays
 * (the reader keeps a Parquet list as its JSON text: parsed back here).
 */
function rowsOf(table: Table): unknown[][] {
  const plain = (value: unknown): unknown => {
    if (typeof value === 'bigint') return Number(value);
    if (value instanceof Vector) return [...(value as Vector)].map(plain);
    if (typeof value === 'string' && value.startsWith('[')) return JSON.parse(value) as unknown;
    return value;
  };
  const rows: unknown[][] = [];
  for (let row = 0; row < table.numRows; row++) rows.push(table.schema.fields.map((_, index) => plain(table.getChildAt(index)!.get(row))));
  return rows;
}

describe('tableToParquet', () => {
  it('writes a generated BLE capture that readParquet restores with the same columns, rows and capture metadata', async () => {
    const generated = generateBleScenario({ seed: 5, scenario: 'default', overrides: { durationS: 120 } });
    if (!generated.ok) throw new Error(generated.error.message);
    const table = generated.value.captures[0].table;
    const bytes = tableToParquet(table);
    const back = await readParquet(bytes, { fileName: 'capture.parquet' });
    if (!back.ok) throw new Error(back.error.message);
    expect(back.value.table.schema.fields.map((field) => field.name)).toEqual(table.schema.fields.map((field) => field.name));
    expect(back.value.table.numRows).toBe(table.numRows);
    expect(rowsOf(back.value.table)).toEqual(rowsOf(table));
    for (const [key, value] of table.schema.metadata) if (key !== 'sextant.source') expect(back.value.table.schema.metadata.get(key)).toBe(value);
  });

  it('keeps nulls, dictionary strings and integer widths', async () => {
    const names = vectorFromArray(['a', null, 'b', 'a'], new Dictionary(new Utf8(), new Int32()));
    const table = makeTable({ id: Int32Array.from([1, 2, 3, 4]) }).assign(tableFromArrays({ score: Float64Array.from([0.5, Number.NaN, 2, -1]) })).assign(new Table({ name: names }));
    const back = await readParquet(tableToParquet(table));
    if (!back.ok) throw new Error(back.error.message);
    const rows = rowsOf(back.value.table);
    expect(rows.map((row) => row[0])).toEqual([1, 2, 3, 4]);
    expect(rows.map((row) => row[2])).toEqual(['a', null, 'b', 'a']);
    expect(rows[0][1]).toBe(0.5);
  });
});
