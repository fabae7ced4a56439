import { describe, expect, it } from 'vitest';
import { tableFromIPC, tableToIPC, type Table } from 'apache-arrow';
import { CAPTURE_METADATA, describeCapture } from '../capture.ts';
import { columnSchemaOf } from '../columns.ts';
import { compileFilter } from '../filter/index.ts';
import { ad, address, ascii, btsnoopFile, hciAdvertisingReport, llPacket, pcapFile, pcapngSection, withPhdr } from './__fixtures__/capture-builders.ts';
import { BLE_METADATA, createBleImporter, importBleCapture } from './ble-importer.ts';
import { BLE_RECORD_COLUMNS } from './record-writer.ts';

const A = '7A:4C:21:9D:10:EF';
const B = 'C1:02:03:04:05:06';

function sampleFile(): Uint8Array {
  const packets = [
    withPhdr(llPacket({ pduType: 0, txAdd: 1, payload: [...address(A), ...ad(0x01, [0x06]), ...ad(0x09, ascii('Kettle'))] }), { rfChannel: 0, signalDbm: -50 }),
    withPhdr(llPacket({ pduType: 3, txAdd: 1, rxAdd: 1, payload: [...address(B), ...address(A)] }), { rfChannel: 0, signalDbm: -70 }),
    withPhdr(llPacket({ pduType: 4, txAdd: 1, payload: [...address(A), ...ad(0x03, [0x0f, 0x18])] }), { rfChannel: 0, signalDbm: -51 }),
    withPhdr(llPacket({ pduType: 2, txAdd: 0, payload: address(B), badCrc: true }), { rfChannel: 12, signalDbm: -90 }),
  ];
  return pcapFile({ linkType: 256, packets: packets.map((bytes, index) => ({ seconds: 1_754_285_447, fraction: index * 1000, bytes })) });
}

function rows(table: Table): unknown[] {
  return table.toArray().map((row) => JSON.stringify(row));
}

describe('the import', () => {
  it('produces the normalized columns, exactly named, in order', () => {
    const result = importBleCapture(sampleFile(), { captureId: 'site-a', fileName: 'site-a.pcap' });
    if (!result.ok) throw new Error(result.error.message);
    const names = result.value.table.schema.fields.map((field) => field.name);
    expect(names.slice(0, 21)).toEqual([
      'ts_ms',
      'capture_id',
      'receiver',
      'channel',
      'rssi',
      'adv_type',
      'tx_add',
      'rx_add',
      'advertiser_addr',
      'initiator_addr',
      'scanner_addr',
      'flags',
      'local_name',
      'tx_power',
      'appearance',
      'company_id',
      'manufacturer_data',
      'service_uuids',
      'service_data',
      'payload_signature',
      'crc_ok',
    ]);
    expect(names).toEqual(BLE_RECORD_COLUMNS.map((column) => column.name));
  });

  it('reports what the issue asks for', () => {
    const result = importBleCapture(sampleFile(), { captureId: 'site-a', fileName: 'site-a.pcap' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.report).toEqual({
      capture_id: 'site-a',
      source: 'site-a.pcap',
      container: 'pcap',
      rows: 4,
      bounds: { start_ms: 1_754_285_447_000, end_ms: 1_754_285_447_003 },
      link_types: [256],
      btsnoop_datalink: null,
      packets: 4,
      advertising_packets: 4,
      advertising_packets_crc_ok: 3,
      advertisers: 2,
      advertisers_crc_ok: 1,
      adv_type_counts: { ADV_IND: 1, SCAN_REQ: 1, SCAN_RSP: 1, ADV_NONCONN_IND: 1 },
      non_advertising: {},
      skipped: {},
      partial: false,
      unparsed_bytes: 0,
      receivers: ['if0'],
      channels: [37, 38],
      identity_keys: [],
      integrity: {
        status: 'degraded',
        crc_failed: 1,
        crc_failed_share: 0.25,
        usable_share: 0.75,
        reserved_pdu_types: {},
        skipped_total: 0,
        unparsed_bytes: 0,
        warnings: 0,
        verdict: '75 % usable: 1 of 4 advertising packets failed CRC',
      },
    });
  });

  it('records the capture metadata, so the table describes itself as a capture', () => {
    const result = importBleCapture(sampleFile(), { captureId: 'site-a', fileName: 'site-a.pcap' });
    if (!result.ok) throw new Error(result.error.message);
    const table = tableFromIPC(tableToIPC(result.value.table, 'file'));
    const metadata = table.schema.metadata;
    expect(metadata.get(CAPTURE_METADATA.captureId)).toBe('site-a');
    expect(metadata.get(CAPTURE_METADATA.source)).toBe('site-a.pcap');
    expect(metadata.get(CAPTURE_METADATA.timeColumn)).toBe('ts_ms');
    expect(metadata.get(CAPTURE_METADATA.channelColumn)).toBe('channel');
    expect(metadata.has(CAPTURE_METADATA.timeOrigin)).toBe(false);
    expect(metadata.get(BLE_METADATA.linkTypes)).toBe('[256]');
    expect(metadata.get(BLE_METADATA.packetCount)).toBe('4');
    expect(JSON.parse(metadata.get(BLE_METADATA.importReport)!)).toEqual(result.value.report);
    const described = describeCapture(table);
    expect(described.ok && described.value).toMatchObject({
      id: 'site-a',
      rowCount: 4,
      channelColumn: 'channel',
      channels: ['37', '38'],
      bounds: { start_ms: 1_754_285_447_000, end_ms: 1_754_285_447_003 },
      boundsSource: 'declared',
    });
    // Dictionary columns survive the IPC round trip.
    expect(table.getChild('advertiser_addr')!.get(1)).toBe(A);
    expect(table.getChild('scanner_addr')!.get(1)).toBe(B);
    expect([...table.getChild('service_uuids')!.get(2)!]).toEqual(['180F']);
    expect(rows(table)).toEqual(rows(result.value.table));
  });

  it('works with the filter language: dictionary, list and boolean columns', () => {
    const result = importBleCapture(sampleFile(), { captureId: 'site-a', fileName: 'site-a.pcap' });
    if (!result.ok) throw new Error(result.error.message);
    const table = result.value.table;
    const schema = columnSchemaOf(table.schema.fields);
    expect(schema.find((column) => column.name === 'service_uuids')?.kind).toBe('string');
    expect(schema.find((column) => column.name === 'advertiser_addr')?.kind).toBe('string');
    const count = (expression: string) => {
      const filter = compileFilter(expression, schema);
      if (!filter.ok) throw new Error(filter.error.message);
      return table.batches.reduce((sum, batch) => sum + filter.value.evaluate(batch).reduce((total, bit) => total + bit, 0), 0);
    };
    expect(count(`advertiser_addr = '${A}'`)).toBe(3);
    expect(count(`adv_type IN ('ADV_IND', 'SCAN_RSP') AND crc_ok = true`)).toBe(2);
    expect(count('crc_ok = false')).toBe(1);
    expect(count('scanner_addr IS NOT NULL')).toBe(1);
    expect(count('channel = 38 OR rssi < -80')).toBe(1);
    expect(count(`local_name = 'Kettle'`)).toBe(1);
  });

  it('gives the same table whatever the chunking, and reports progress', () => {
    const file = sampleFile();
    const whole = importBleCapture(file, { captureId: 'c', fileName: 'f' });
    if (!whole.ok) throw new Error(whole.error.message);
    for (const size of [1, 3, 7, 16, 17, 64]) {
      const progress: number[] = [];
      const importer = createBleImporter({ captureId: 'c', fileName: 'f', onProgress: (bytes) => progress.push(bytes) });
      for (let at = 0; at < file.length; at += size) importer.push(file.slice(at, at + size));
      const chunked = importer.finish();
      if (!chunked.ok) throw new Error(chunked.error.message);
      expect(rows(chunked.value.table)).toEqual(rows(whole.value.table));
      expect(chunked.value.report).toEqual(whole.value.report);
      expect(progress.at(-1)).toBe(file.length);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    }
  });

  it('does not keep views of the caller\'s chunks between pushes', () => {
    const file = sampleFile();
    const importer = createBleImporter({ captureId: 'c', fileName: 'f' });
    const buffer = new Uint8Array(10);
    for (let at = 0; at < file.length; at += 10) {
      const chunk = file.subarray(at, at + 10);
      buffer.set(chunk);
      importer.push(buffer.subarray(0, chunk.length));
      buffer.fill(0xee); // the caller reuses its buffer
    }
    const result = importer.finish();
    const whole = importBleCapture(file, { captureId: 'c', fileName: 'f' });
    expect(result.ok && whole.ok && rows(result.value.table)).toEqual(whole.ok && rows(whole.value.table));
  });

  it('seals record batches of 65,536 rows', () => {
    const packet = { seconds: 1, fraction: 0, bytes: llPacket({ pduType: 2, payload: address(A) }) };
    const file = pcapFile({ linkType: 251, packets: new Array(70_000).fill(packet) });
    const result = importBleCapture(file, { captureId: 'c', fileName: 'f' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.table.batches.map((batch) => batch.numRows)).toEqual([65_536, 70_000 - 65_536]);
    expect(result.value.table.getChild('frame_number')!.get(69_999)).toBe(70_000);
  });
});

describe('bad input', () => {
  const problem = (bytes: Uint8Array) => {
    const result = importBleCapture(bytes, { captureId: 'c', fileName: 'bad.bin' });
    if (result.ok) throw new Error('expected a problem');
    return result.error;
  };

  it('a 0-byte file is EMPTY_FILE', () => {
    expect(problem(new Uint8Array(0)).code).toBe('EMPTY_FILE');
  });

  it('wrong magic is UNRECOGNIZED_FORMAT', () => {
    expect(problem(new TextEncoder().encode('hello, world')).code).toBe('UNRECOGNIZED_FORMAT');
    expect(problem(Uint8Array.from([1, 2])).code).toBe('UNRECOGNIZED_FORMAT');
  });

  it('a file that ends inside its header is TRUNCATED_HEADER', () => {
    expect(problem(sampleFile().subarray(0, 20)).code).toBe('TRUNCATED_HEADER');
    expect(problem(sampleFile().subarray(0, 4)).code).toBe('TRUNCATED_HEADER');
    expect(problem(new TextEncoder().encode('btsno')).code).toBe('TRUNCATED_HEADER');
    const pcapng = pcapngSection({ interfaces: [], blocks: [] });
    expect(problem(pcapng.subarray(0, 16)).code).toBe('TRUNCATED_HEADER');
  });

  it('an unknown link type is UNSUPPORTED_LINK_TYPE naming the DLT number', () => {
    const ethernet = problem(pcapFile({ linkType: 1, packets: [] }));
    expect(ethernet).toMatchObject({ code: 'UNSUPPORTED_LINK_TYPE', link_types: [1] });
    expect(ethernet.message).toContain('DLT 1');
    const pcapng = problem(pcapngSection({ interfaces: [{ linkType: 105 }], blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 1n, bytes: [1] }] }));
    expect(pcapng).toMatchObject({ code: 'UNSUPPORTED_LINK_TYPE', link_types: [105] });
    expect(pcapng.message).toContain('105');
    expect(problem(btsnoopFile({ datalink: 1004, records: [] }))).toMatchObject({ code: 'UNSUPPORTED_LINK_TYPE', link_types: [1004] });
  });

  it('a truncated last record is counted and the rest imported', () => {
    const file = sampleFile();
    const result = importBleCapture(file.subarray(0, file.length - 5), { captureId: 'c', fileName: 'f' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.report).toMatchObject({ rows: 3, packets: 3, skipped: { truncated_record: 1 }, partial: true });
  });

  it('an absurd record length stops reading without allocating it, and is counted', () => {
    const file = sampleFile();
    const bytes = file.slice();
    // The second record's captured length (after the 24-byte file header and the first record).
    const firstLength = new DataView(bytes.buffer).getUint32(24 + 8, true);
    new DataView(bytes.buffer).setUint32(24 + 16 + firstLength + 8, 0xfffffff0, true);
    const result = importBleCapture(bytes, { captureId: 'c', fileName: 'f' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.report).toMatchObject({ rows: 1, skipped: { corrupt_record_header: 1 }, partial: true });
    expect(result.value.report.unparsed_bytes).toBeGreaterThan(0);
  });

  it('an absurd pcapng block length after the header stops reading and is counted', () => {
    const file = pcapngSection({ interfaces: [{ linkType: 251 }], blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 1n, bytes: llPacket({ pduType: 2, payload: address(A) }) }] });
    const broken = new Uint8Array([...file, 6, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0]);
    const result = importBleCapture(broken, { captureId: 'c', fileName: 'f' });
    expect(result.ok && result.value.report).toMatchObject({ rows: 1, skipped: { corrupt_block: 1 } });
  });

  it('never throws, and finish() twice is a problem, not an exception', () => {
    const importer = createBleImporter({ captureId: 'c', fileName: 'f' });
    importer.push(btsnoopFile({ datalink: 1002, records: [{ epochUs: 1n, flags: 3, bytes: hciAdvertisingReport([{ eventType: 0, addressType: 0, address: A, rssi: 1 }]) }] }));
    expect(importer.finish().ok).toBe(true);
    expect(importer.finish()).toMatchObject({ ok: false, error: { code: 'IMPORT_FAILED' } });
    importer.push(new Uint8Array(4));
  });
});
