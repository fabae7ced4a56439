import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DataType, type Table } from 'apache-arrow';
import { readParquet } from './parquet-reader.ts';

// Fixtures written by __fixtures__/make-parquet-fixtures.mjs (see there for their exact content).
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));

function columnsOf(table: Table): Record<string, unknown[]> {
  return Object.fromEntries(table.schema.fields.map((field) => [field.name, [...table.getChild(field.name)!]]));
}

async function readOk(bytes: Parameters<typeof readParquet>[0], options = {}) {
  const result = await readParquet(bytes, options);
  if (!result.ok) throw new Error(`read failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

describe('readParquet', () => {
  it('maps Parquet types to Float64, Utf8 and Bool, with nulls kept and times in ms', async () => {
    const { table, report } = await readOk(fixture('ble-sniffer.parquet'), { fileName: 'ble-sniffer.parquet' });
    expect(report.columns.map(({ name, kind, sourceType }) => [name, kind, sourceType])).toEqual([
      ['timestamp', 'number', 'INT64/TIMESTAMP_MICROS'],
      ['chan', 'number', 'INT32'],
      ['rssi', 'number', 'DOUBLE'],
      ['adv_addr', 'string', 'BYTE_ARRAY/UTF8'],
      ['local_name', 'string', 'BYTE_ARRAY/UTF8'],
      ['crc_ok', 'boolean', 'BOOLEAN'],
      ['seq', 'number', 'INT64'],
      ['ts_ns', 'number', 'INT64/TIMESTAMP'],
    ]);
    for (const field of table.schema.fields) {
      const type = field.type;
      expect(DataType.isFloat(type) || DataType.isUtf8(type) || DataType.isBool(type)).toBe(true);
    }
    const columns = columnsOf(table);
    expect(columns.timestamp).toEqual([1_700_000_000_000, 1_700_000_000_001.5, 1_700_000_000_002, 1_700_000_000_003.25, 1_700_000_000_004]);
    expect(columns.ts_ns).toEqual([1_700_000_000_000, null, 1_700_000_000_002, 1_700_000_000_003.25, 1_700_000_000_004]);
    expect(columns.chan).toEqual([37, 38, 39, 37, 12]);
    expect(columns.rssi).toEqual([-60.5, null, -70, -80.25, -90]);
    expect(columns.adv_addr).toEqual(['c0:ff:ee:12:34:56', 'c0ffee123456', null, 'AA-BB-CC-DD-EE-FF', 'not-an-address']);
    // An empty string is a value, not a null.
    expect(columns.local_name).toEqual(['Pixel 7', null, 'Ünïcode ✓', '', 'x']);
    expect(columns.crc_ok).toEqual([true, false, null, true, true]);
    expect(columns.seq).toEqual([1, 2, 3, 4, 5]);
  });

  it('makes one record batch per row group, including GZIP-compressed ones', async () => {
    const { table, report } = await readOk(fixture('ble-sniffer.parquet'));
    expect(report.batches).toBe(2);
    expect(table.batches.map((batch) => batch.numRows)).toEqual([3, 2]);
    expect(report.rows).toBe(5);
  });

  it('keeps the file key/value metadata and records the source', async () => {
    const { table } = await readOk(fixture('ble-sniffer.parquet'), { fileName: 'x.parquet' });
    expect(table.schema.metadata.get('sextant.fixture')).toBe('ble-sniffer');
    expect(table.schema.metadata.get('sextant.source')).toBe('x.parquet');
    expect(table.schema.metadata.get('sextant.source_format')).toBe('parquet');
  });

  it('reads a view into a larger buffer and an ArrayBuffer alike', async () => {
    const bytes = fixture('ble-sniffer.parquet');
    const padded = new Uint8Array(bytes.length + 100);
    padded.set(bytes, 37);
    const fromView = await readOk(padded.subarray(37, 37 + bytes.length));
    const fromBuffer = await readOk(bytes.slice().buffer);
    expect(columnsOf(fromView.table)).toEqual(columnsOf(fromBuffer.table));
  });

  it('reads from a random-access byte source without the whole file in one buffer', async () => {
    const bytes = fixture('ble-sniffer.parquet');
    const reads: Array<[number, number]> = [];
    const source = {
      byteLength: bytes.length,
      slice: async (start: number, end = bytes.length) => {
        reads.push([start, end]);
        return bytes.slice(start, end).buffer;
      },
    };
    const { table } = await readOk(source);
    expect(columnsOf(table)).toEqual(columnsOf((await readOk(bytes)).table));
    expect(reads.length).toBeGreaterThan(2);
  });

  it('reads selected columns in the order asked and rejects unknown ones', async () => {
    const { table } = await readOk(fixture('ble-sniffer.parquet'), { columns: ['rssi', 'chan'] });
    expect(table.schema.fields.map((field) => field.name)).toEqual(['rssi', 'chan']);
    const result = await readParquet(fixture('ble-sniffer.parquet'), { columns: ['nope'] });
    expect(result.ok ? null : result.error).toMatchObject({ code: 'UNKNOWN_COLUMN', column: 'nope' });
  });

  it('fails cleanly on empty, foreign, truncated and corrupt files', async () => {
    const bytes = fixture('ble-sniffer.parquet');
    const cases: Array<[Uint8Array, string]> = [
      [new Uint8Array(), 'EMPTY_FILE'],
      [new TextEncoder().encode('a,b\n1,2\n'), 'UNREADABLE_PARQUET'],
      [bytes.subarray(0, bytes.length - 10), 'UNREADABLE_PARQUET'],
      [bytes.subarray(0, 8), 'UNREADABLE_PARQUET'],
    ];
    const badFooterLength = bytes.slice();
    new DataView(badFooterLength.buffer).setUint32(bytes.length - 8, 0x7fffffff, true);
    cases.push([badFooterLength, 'UNREADABLE_PARQUET']);
    for (const [input, code] of cases) {
      const result = await readParquet(input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(code);
    }
  });

  it('never throws on mutated files (property)', async () => {
    const bytes = fixture('ble-sniffer.parquet');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), async (edits) => {
        const mutated = bytes.slice();
        for (const [position, value] of edits) mutated[position] = value;
        const result = await readParquet(mutated);
        if (result.ok) expect(result.value.table.numRows).toBe(result.value.report.rows);
        else expect(result.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('reads a file whose columns already carry the normalized names', async () => {
    const { table } = await readOk(fixture('normalized.parquet'));
    expect(columnsOf(table)).toEqual({ ts_ms: [0, 12.5], channel: [37, 38], advertiser_addr: ['C0:FF:EE:12:34:56', null] });
  });
});
