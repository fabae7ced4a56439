/** readCaptureFile (src/core/data/capture-files.ts) with BLE captures among its formats. */
import { describe, expect, it } from 'vitest';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { address, btsnoopFile, hciAdvertisingReport, llPacket, pcapFile } from './ble/__fixtures__/capture-builders.ts';
import { readCaptureFile } from './capture-files.ts';
import { readFileSync } from 'node:fs';

const options = { id: 'cap', fileName: 'file' };

describe('readCaptureFile', async () => {
  it('imports pcap and btsnoop files as BLE captures, with their import report', async () => {
    const pcap = pcapFile({ linkType: 251, packets: [{ seconds: 1_700_000_000, fraction: 0, bytes: llPacket({ pduType: 0, payload: address('7A:4C:21:9D:10:EF') }) }] });
    const read = await readCaptureFile(pcap, options);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.format).toBe('pcap');
    expect(read.value.report).toMatchObject({ capture_id: 'cap', rows: 1, link_types: [251] });
    expect(read.value.info).toMatchObject({ id: 'cap', rowCount: 1, timeColumn: 'ts_ms', channelColumn: 'channel', bounds: { start_ms: 1_700_000_000_000, end_ms: 1_700_000_000_000 } });

    const snoop = btsnoopFile({ datalink: 1002, records: [{ epochUs: 1n, flags: 3, bytes: hciAdvertisingReport([{ eventType: 0, addressType: 0, address: '7A:4C:21:9D:10:EF', rssi: -1 }]) }] });
    const readSnoop = await readCaptureFile(snoop, { ...options, receiver: 'phone' });
    expect(readSnoop.ok && readSnoop.value.table.getChild('receiver')!.get(0)).toBe('phone');
  });

  it('passes BLE problems through with their codes', async () => {
    const read = await readCaptureFile(pcapFile({ linkType: 1, packets: [] }), options);
    expect(read).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_LINK_TYPE', link_types: [1] } });
  });

  it('still reads Arrow IPC and CSV', async () => {
    const arrow = await readCaptureFile(tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2]) }), 'file'), options);
    expect(arrow.ok && arrow.value).toMatchObject({ format: 'arrow', report: { format: 'arrow', rows: 2 } });
    const csv = await readCaptureFile(new TextEncoder().encode('ts_ms,x\n1,2\n'), options);
    expect(csv.ok && csv.value).toMatchObject({ format: 'csv', report: { format: 'csv', rows: 1 } });
  });

  it('reads Parquet, and refuses a broken Parquet file and other binary files with coded errors', async () => {
    const fixture = readFileSync(new URL('./tabular/__fixtures__/normalized.parquet', import.meta.url));
    const parquet = await readCaptureFile(new Uint8Array(fixture), options);
    expect(parquet.ok && parquet.value.format).toBe('parquet');
    const broken = await readCaptureFile(new TextEncoder().encode('PAR1\u0000\u0000\u0000'), options);
    expect(broken).toMatchObject({ ok: false, error: { code: 'UNREADABLE_PARQUET' } });
    expect(await readCaptureFile(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), options)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_FORMAT' } });
    // Control bytes, or mostly bytes that are not UTF-8: not text. (A stray non-UTF-8 byte in text
    // is Latin-1 or the like and imports with INVALID_UTF8; see capture-import.test.ts.)
    expect(await readCaptureFile(Uint8Array.from([0xc3, 0x28, 0x01, 0x02, 0x41, 0x42]), options)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_FORMAT' } });
    expect(await readCaptureFile(Uint8Array.from([0xc3, 0x28, 0xff, 0xfe, 0x41, 0x42]), options)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_FORMAT' } });
  });
});
