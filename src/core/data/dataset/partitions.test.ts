import { Table, makeTable, tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { NULL_PARTITION, escapePartitionValue, hourPartition, partitionDirectory, splitByHour } from './partitions.ts';
import { parseManifest, emptyManifest } from './dataset-manifest.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 13, 0, 0);

describe('dataset partitions', () => {
  it('names UTC hours, and puts missing or absurd times in the null partition', () => {
    expect(hourPartition(T0 + 59 * 60_000)).toBe('2026-11-20T13');
    expect(hourPartition(T0 + HOUR)).toBe('2026-11-20T14');
    expect(hourPartition(-1)).toBe('1969-12-31T23');
    expect(hourPartition(Number.NaN)).toBe(NULL_PARTITION);
    expect(hourPartition(1e20)).toBe(NULL_PARTITION);
  });

  it('escapes partition values as Hive does, so any capture id is one directory', () => {
    expect(escapePartitionValue('site/a=1 %x')).toBe('site%2Fa%3D1 %25x');
    expect(partitionDirectory('a:b', '2026-11-20T13')).toBe('parts/capture_id=a%3Ab/hour=2026-11-20T13');
    expect(escapePartitionValue('tab\there')).toBe('tab%09here');
  });

  it('splits rows by hour in row order, joining runs of one hour that times jittering across a boundary split', () => {
    const ts = [T0 - 2, T0 - 1, T0 + 1, T0 - 3, T0 + 2, Number.NaN, T0 + HOUR, Number.NaN];
    const table = tableFromArrays({ ts_ms: Float64Array.from(ts), row: Int32Array.from(ts.keys()) });
    const slices = splitByHour(table, 'ts_ms');
    expect(slices.map((slice) => [slice.hour, slice.table.getChild('row')!.toArray().join(',')])).toEqual([
      ['2026-11-20T12', '0,1,3'],
      ['2026-11-20T13', '2,4'],
      [NULL_PARTITION, '5,7'],
      ['2026-11-20T14', '6'],
    ]);
  });

  it('copies the rows of a clock that steps back and forth across the hour into a few batches, not a slice per row', () => {
    const rows = 20_000;
    // Rows 5,000–14,999 alternate between the two hours; the rest are long runs of one hour.
    const ts = Float64Array.from({ length: rows }, (_, row) => (row < 5_000 ? T0 - HOUR / 2 + row : row < 15_000 ? T0 + (row % 2 === 0 ? -1 : 1) * 60_000 : T0 + 600_000 + row));
    const table = tableFromArrays({ ts_ms: ts, row: Int32Array.from({ length: rows }, (_, row) => row), label: Array.from({ length: rows }, (_, row) => `r${row % 7}`) });
    const [before, after] = splitByHour(table, 'ts_ms');
    const expected = (hour: number) => [...ts.keys()].filter((row) => Math.floor(ts[row] / HOUR) === hour);
    expect(Array.from(before.table.getChild('row')!.toArray() as Int32Array)).toEqual(expected(Math.floor(T0 / HOUR) - 1));
    expect(Array.from(after.table.getChild('row')!.toArray() as Int32Array)).toEqual(expected(Math.floor(T0 / HOUR)));
    expect(after.table.getChild('label')!.get(0)).toBe(`r${expected(Math.floor(T0 / HOUR))[0] % 7}`);
    // The long run is one zero-copy slice; the 5,000 one-row runs of each hour one copied batch.
    expect(before.table.batches.length).toBe(2);
    expect(after.table.batches.length).toBe(2);
  });

  it('splits a table of several batches and an empty one', () => {
    const batch = (from: number) => makeTable({ ts_ms: Float64Array.from([T0 + from, T0 + from + HOUR]), row: Int32Array.from([from, from + 1]) });
    const table = new Table([...batch(0).batches, ...batch(10).batches]);
    expect(splitByHour(table, 'ts_ms').map((slice) => slice.table.numRows)).toEqual([2, 2]);
    expect(splitByHour(tableFromArrays({ ts_ms: new Float64Array(0) }), 'ts_ms')).toEqual([]);
  });
});

describe('dataset manifest', () => {
  it('reads back what it writes and refuses parts that leave the dataset', () => {
    expect(parseManifest(JSON.stringify(emptyManifest()))).toEqual({ ok: true, value: emptyManifest() });
    const source = { capture_id: 'c', file: 'c.pcap', sha256: 'a'.repeat(64), bytes: 1, imported_at: 'now', rows: 1, bounds: null, report: {}, parts: [{ path: '../x.parquet', hour: 'h', rows: 1, bytes: 1 }] };
    const parsed = parseManifest(JSON.stringify({ ...emptyManifest(), sources: [source] }));
    expect(parsed.ok ? null : parsed.error).toMatchObject({ code: 'DATASET_MANIFEST_INVALID', message: expect.stringContaining('leaves the dataset') });
    expect(parseManifest('{').ok).toBe(false);
  });
});
