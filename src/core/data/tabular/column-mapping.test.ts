import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DataType, Table, tableToIPC, vectorFromArray, Bool, type TypeMap } from 'apache-arrow';
import { columnSchemaOf } from '../columns.ts';
import { describeCapture } from '../capture.ts';
import {
  applyColumnMapping,
  hasNormalizedBleColumns,
  normalizeBleAddress,
  suggestColumnMapping,
  COLUMN_MAPPING_METADATA,
  type ColumnMapping,
} from './column-mapping.ts';
import { readCsv } from './csv-importer.ts';
import { readParquet } from './parquet-reader.ts';
import { detectTabularFormat, readArrowIpc } from './arrow-reader.ts';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));

function csvTable(input: Uint8Array | string): Table {
  const result = readCsv(input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.table;
}

function mapped(table: Table, mapping: ColumnMapping): Table {
  const result = applyColumnMapping(table, mapping);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const values = <T extends TypeMap>(table: Table<T>, name: string): unknown[] => [...table.getChild(name)!];

describe('normalizeBleAddress', () => {
  it('writes addresses upper-case and colon-separated', () => {
    expect(normalizeBleAddress('c0:ff:ee:12:34:56')).toBe('C0:FF:EE:12:34:56');
    expect(normalizeBleAddress(' c0ffee123456 ')).toBe('C0:FF:EE:12:34:56');
    expect(normalizeBleAddress('aa-bb-cc-dd-ee-ff')).toBe('AA:BB:CC:DD:EE:FF');
    expect(normalizeBleAddress(0xc0ffee123456)).toBe('C0:FF:EE:12:34:56');
    expect(normalizeBleAddress(0x1n)).toBe('00:00:00:00:00:01');
  });

  it('refuses what is not an address', () => {
    for (const value of ['not-an-address', 'c0:ff:ee:12:34', 'c0:ff-ee:12:34:56', 'c0:ff:ee:12:34:5g', '', -1, 2 ** 48, 1.5, true, null]) {
      expect(normalizeBleAddress(value)).toBeNull();
    }
  });
});

describe('suggestColumnMapping', () => {
  it('guesses common sniffer names and the time unit from the name', () => {
    const table = csvTable(fixture('sniffer-export.csv'));
    expect(suggestColumnMapping(columnSchemaOf(table.schema.fields))).toEqual({
      time: 'time_us',
      timeUnit: 'us',
      channel: 'chan',
      advertiser_addr: 'adv_addr',
    });
  });

  it('maps normalized names to themselves and reads tshark field names', () => {
    expect(
      suggestColumnMapping([
        { name: 'address', kind: 'string' },
        { name: 'advertiser_addr', kind: 'string' },
        { name: 'ts_ms', kind: 'number' },
        { name: 'channel', kind: 'number' },
      ]),
    ).toEqual({ time: 'ts_ms', timeUnit: 'ms', channel: 'channel', advertiser_addr: 'advertiser_addr', scanner_addr: undefined, initiator_addr: undefined });
    const tshark = suggestColumnMapping([
      { name: 'frame.time_epoch', kind: 'number' },
      { name: 'btle_rf.channel', kind: 'number' },
      { name: 'btle.advertising_address', kind: 'string' },
      { name: 'btle.scanning_address', kind: 'string' },
      { name: 'btle.initiator_address', kind: 'string' },
    ]);
    expect(tshark).toEqual({
      time: 'frame.time_epoch',
      timeUnit: 's',
      advertiser_addr: 'btle.advertising_address',
      scanner_addr: 'btle.scanning_address',
      initiator_addr: 'btle.initiator_address',
    });
  });

  it('does not offer a boolean column as a time', () => {
    expect(suggestColumnMapping([{ name: 'time', kind: 'boolean' }]).time).toBeUndefined();
  });
});

describe('hasNormalizedBleColumns', () => {
  it('needs a numeric ts_ms and a text advertiser_addr', () => {
    expect(hasNormalizedBleColumns(columnSchemaOf(csvTable(fixture('normalized.csv')).schema.fields))).toBe(true);
    expect(hasNormalizedBleColumns(columnSchemaOf(csvTable(fixture('sniffer-export.csv')).schema.fields))).toBe(false);
    expect(hasNormalizedBleColumns([{ name: 'ts_ms', kind: 'string' }, { name: 'advertiser_addr', kind: 'string' }])).toBe(false);
  });
});

describe('applyColumnMapping', () => {
  it('turns a sniffer CSV into the normalized columns, in place', () => {
    const source = csvTable(fixture('sniffer-export.csv'));
    const table = mapped(source, suggestColumnMapping(columnSchemaOf(source.schema.fields)));
    expect(table.schema.fields.map((field) => field.name)).toEqual(['ts_ms', 'channel', 'advertiser_addr', 'rssi', 'crc_ok', 'local_name']);
    expect(DataType.isFloat(table.schema.fields[0].type)).toBe(true);
    expect(values(table, 'ts_ms')).toEqual([1_700_000_000_000, 1_700_000_000_001.5, 1_700_000_000_002, 1_700_000_000_003]);
    expect(values(table, 'channel')).toEqual([37, 38, 39, 12]);
    expect(values(table, 'advertiser_addr')).toEqual(['C0:FF:EE:12:34:56', 'C0:FF:EE:12:34:56', 'AA:BB:CC:DD:EE:FF', null]);
    expect(JSON.parse(table.schema.metadata.get(COLUMN_MAPPING_METADATA)!)).toEqual({
      columns: { ts_ms: 'time_us', channel: 'chan', advertiser_addr: 'adv_addr' },
      timeUnit: 'us',
      invalidValues: { advertiser_addr: 1 },
    });
    const described = describeCapture(table, { id: 'sniffer' });
    expect(described.ok).toBe(true);
    if (described.ok) {
      expect(described.value).toMatchObject({ timeColumn: 'ts_ms', channelColumn: 'channel', channels: ['12', '37', '38', '39'], rowCount: 4 });
      expect(described.value.bounds).toEqual({ start_ms: 1_700_000_000_000, end_ms: 1_700_000_000_003 });
    }
  });

  it('maps a Parquet file, whose timestamps are already ms', async () => {
    const read = await readParquet(fixture('ble-sniffer.parquet'));
    if (!read.ok) throw new Error(read.error.message);
    const table = mapped(read.value.table, { time: 'timestamp', channel: 'chan', advertiser_addr: 'adv_addr' });
    expect(values(table, 'ts_ms')[1]).toBe(1_700_000_000_001.5);
    expect(values(table, 'advertiser_addr')).toEqual(['C0:FF:EE:12:34:56', 'C0:FF:EE:12:34:56', null, 'AA:BB:CC:DD:EE:FF', null]);
    expect(table.batches.map((batch) => batch.numRows)).toEqual([3, 2]);
  });

  it('scales numeric times by their unit', () => {
    const source = csvTable('t,a\n1.5,x\n2,y\n');
    for (const [timeUnit, expected] of [
      ['s', [1_500, 2_000]],
      ['ms', [1.5, 2]],
      ['us', [0.0015, 0.002]],
      ['ns', [0.0000015, 0.000002]],
    ] as const) {
      const times = values(mapped(source, { time: 't', timeUnit }), 'ts_ms') as number[];
      times.forEach((time, index) => expect(time).toBeCloseTo(expected[index], 12));
    }
  });

  it('reads date-time text as epoch ms and counts what does not parse', () => {
    const table = mapped(csvTable('when,a\n2024-01-02T03:04:05.250Z,x\nyesterday,y\n'), { time: 'when' });
    expect(values(table, 'ts_ms')).toEqual([Date.UTC(2024, 0, 2, 3, 4, 5, 250), null]);
    expect(JSON.parse(table.schema.metadata.get(COLUMN_MAPPING_METADATA)!)).toMatchObject({ timeUnit: 'text', invalidValues: { ts_ms: 1 } });
  });

  it('normalizes the values of a file that already has the names (identity mapping)', () => {
    const source = csvTable('ts_ms,advertiser_addr,scanner_addr\n1,c0ffee123456,aa-bb-cc-dd-ee-ff\n');
    const table = mapped(source, suggestColumnMapping(columnSchemaOf(source.schema.fields)));
    expect(table.schema.fields.map((field) => field.name)).toEqual(['ts_ms', 'advertiser_addr', 'scanner_addr']);
    expect(values(table, 'advertiser_addr')).toEqual(['C0:FF:EE:12:34:56']);
    expect(values(table, 'scanner_addr')).toEqual(['AA:BB:CC:DD:EE:FF']);
  });

  it('lets one source column feed several targets', () => {
    const table = mapped(csvTable('t,addr,other\n1,c0ffee123456,z\n'), { time: 't', advertiser_addr: 'addr', scanner_addr: 'addr' });
    expect(table.schema.fields.map((field) => field.name)).toEqual(['ts_ms', 'advertiser_addr', 'scanner_addr', 'other']);
    expect(values(table, 'scanner_addr')).toEqual(['C0:FF:EE:12:34:56']);
  });

  it('fails without throwing on missing, conflicting and unconvertible columns', () => {
    const source = csvTable('t,ts_ms,flag,words\n1,2,true,a\n');
    const cases: Array<[ColumnMapping, string, string]> = [
      [{ time: 'nope' }, 'UNKNOWN_COLUMN', 'nope'],
      [{ time: 't' }, 'COLUMN_CONFLICT', 'ts_ms'],
      [{ time: 'flag' }, 'COLUMN_CONFLICT', 'ts_ms'],
      [{ advertiser_addr: 'flag' }, 'UNSUPPORTED_ADDRESS_COLUMN', 'flag'],
    ];
    for (const [mapping, code, column] of cases) {
      const result = applyColumnMapping(source, mapping);
      expect(result.ok ? null : result.error).toMatchObject({ code, column });
    }
    const noTs = csvTable('flag,words\ntrue,a\n');
    expect(applyColumnMapping(noTs, { time: 'flag' })).toMatchObject({ ok: false, error: { code: 'NON_NUMERIC_TIME_COLUMN', column: 'flag' } });
    expect(applyColumnMapping(noTs, { time: 'words' })).toMatchObject({ ok: false, error: { code: 'NON_NUMERIC_TIME_COLUMN', column: 'words' } });
  });

  it('maps a column onto a name it swaps with another mapped column', () => {
    // `channel` holds the addresses and `addr` the channel: both renamed, no conflict.
    const table = mapped(csvTable('ts_ms,channel,addr\n1,c0ffee123456,37\n'), { channel: 'addr', advertiser_addr: 'channel' });
    expect(table.schema.fields.map((field) => field.name)).toEqual(['ts_ms', 'advertiser_addr', 'channel']);
    expect(values(table, 'channel')).toEqual([37]);
  });

  it('keeps a table without the mapped columns unchanged apart from metadata', () => {
    const source = new Table({ ts_ms: vectorFromArray([1, 2]), ok: vectorFromArray([true, false], new Bool()) });
    const table = mapped(source, {});
    expect(values(table, 'ok')).toEqual([true, false]);
    expect(table.schema.metadata.get(COLUMN_MAPPING_METADATA)).toBeDefined();
  });
});

describe('Arrow IPC', () => {
  it('detects formats by their magic', () => {
    const arrowFile = tableToIPC(new Table({ a: vectorFromArray([1]) }), 'file');
    const arrowStream = tableToIPC(new Table({ a: vectorFromArray([1]) }), 'stream');
    expect(detectTabularFormat(arrowFile)).toBe('arrow');
    expect(detectTabularFormat(arrowStream)).toBe('arrow');
    expect(detectTabularFormat(fixture('ble-sniffer.parquet'))).toBe('parquet');
    expect(detectTabularFormat(fixture('normalized.csv'))).toBe('csv');
  });

  it('imports an Arrow file with normalized names as a capture with no mapping', () => {
    const source = csvTable(fixture('normalized.csv'));
    const read = readArrowIpc(tableToIPC(source, 'file'), { fileName: 'normalized.arrow' });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const { table, report } = read.value;
    expect(report).toMatchObject({ format: 'arrow', rows: 3, fileName: 'normalized.arrow' });
    expect(hasNormalizedBleColumns(report.columns)).toBe(true);
    expect(table.schema.metadata.get('sextant.source')).toBe('normalized.arrow');
    const described = describeCapture(table, { id: 'n' });
    expect(described.ok && described.value.bounds).toEqual({ start_ms: 0, end_ms: 25 });
  });

  it('rejects bytes that are not Arrow', () => {
    expect(readArrowIpc(new Uint8Array())).toMatchObject({ ok: false, error: { code: 'EMPTY_FILE' } });
    expect(readArrowIpc(fixture('normalized.csv'))).toMatchObject({ ok: false, error: { code: 'UNREADABLE_ARROW' } });
    const truncated = tableToIPC(new Table({ a: vectorFromArray([1, 2, 3]) }), 'file').subarray(0, 40);
    expect(readArrowIpc(truncated)).toMatchObject({ ok: false, error: { code: 'UNREADABLE_ARROW' } });
  });
});
