import { Float32, Int32, Int64, Uint8, vectorFromArray, Table, Float64 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { numericColumn, stringColumn, columnSchemaOf } from './columns.ts';

describe('numericColumn', () => {
  it('reads every numeric Arrow type as float64 with nulls as NaN', () => {
    const table = new Table({
      i32: vectorFromArray([1, null, 3], new Int32()),
      u8: vectorFromArray([7, 8, null], new Uint8()),
      f32: vectorFromArray([0.5, null, 2.5], new Float32()),
      i64: vectorFromArray([10n, 20n, null], new Int64()),
      f64: vectorFromArray([1.5, 2.5, 3.5], new Float64()),
    });
    const [batch] = table.batches;
    expect([...numericColumn(batch, 'i32')]).toEqual([1, NaN, 3]);
    expect([...numericColumn(batch, 'u8')]).toEqual([7, 8, NaN]);
    expect([...numericColumn(batch, 'f32')]).toEqual([0.5, NaN, 2.5]);
    expect([...numericColumn(batch, 'i64')]).toEqual([10, 20, NaN]);
    expect([...numericColumn(batch, 'f64')]).toEqual([1.5, 2.5, 3.5]);
  });

  it('respects slice offsets', () => {
    const table = new Table({ i32: vectorFromArray([1, 2, 3, 4, 5], new Int32()) }).slice(2, 5);
    expect([...numericColumn(table.batches[0], 'i32')]).toEqual([3, 4, 5]);
  });
});

describe('stringColumn and columnSchemaOf', () => {
  it('types columns and reads strings with nulls', () => {
    const table = new Table({ name: vectorFromArray(['a', null, 'c']), n: vectorFromArray([1, 2, 3], new Int32()) });
    expect(columnSchemaOf(table.schema.fields)).toEqual([
      { name: 'name', kind: 'string' },
      { name: 'n', kind: 'number' },
    ]);
    expect(stringColumn(table.batches[0], 'name')).toEqual(['a', null, 'c']);
  });
});
