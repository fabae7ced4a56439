/** The one capture-import pipeline: provenance, warnings, truncated magics, partial imports. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { address, btsnoopFile, hciAdvertisingReport, llPacket, pcapFile } from './ble/__fixtures__/capture-builders.ts';
import { bytesCaptureSource, readCaptureFile } from './capture-files.ts';
import { importCaptureSource, mapToCapture, type CaptureImportReport } from './capture-import.ts';
import { CAPTURE_METADATA, describeCapture } from './capture.ts';
import { MAX_CSV_COLUMNS } from './tabular/index.ts';
import { withCpuTimeAsync } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 10_000;

const encode = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const options = { id: 'cap', fileName: 'file.csv' };

function reportOf(result: Awaited<ReturnType<typeof readCaptureFile>>): CaptureImportReport {
  if (!result.ok) throw new Error(`import failed: ${result.error.code} ${result.error.message}`);
  return result.value.report;
}

describe('file provenance', () => {
  const pcap = pcapFile({ linkType: 251, packets: [{ seconds: 1_700_000_000, fraction: 0, bytes: llPacket({ pduType: 0, payload: address('7A:4C:21:9D:10:EF') }) }] });
  const csv = encode('ts_ms,x\n1,2\n3,4\n');
  const arrow = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2]) }), 'file');
  const parquet = new Uint8Array(readFileSync(new URL('./tabular/__fixtures__/normalized.parquet', import.meta.url)));

  it.each([
    ['pcap', pcap],
    ['csv', csv],
    ['arrow', arrow],
    ['parquet', parquet],
  ] as const)('%s: the report, the Arrow metadata and CaptureInfo carry the SHA-256 and size of the bytes', async (format, bytes) => {
    const read = await readCaptureFile(bytes, { ...options, fileName: `file.${format}` });
    const report = reportOf(read);
    expect(report.format).toBe(format);
    expect(report.source_bytes).toBe(bytes.byteLength);
    expect(report.source_sha256).toBe(sha256(bytes));
    expect(report.source_sha256).toMatch(/^[0-9a-f]{64}$/);
    if (!read.ok) return;
    const { info, table } = read.value;
    expect(table.schema.metadata.get(CAPTURE_METADATA.sourceSha256)).toBe(sha256(bytes));
    expect(table.schema.metadata.get(CAPTURE_METADATA.sourceBytes)).toBe(String(bytes.byteLength));
    expect(info).toMatchObject({ sourceSha256: sha256(bytes), sourceBytes: bytes.byteLength, source: `file.${format}` });
    // The provenance survives the trip through Arrow IPC (the workspace and the tools workers).
    const reread = describeCapture(tableFromIPC(tableToIPC(table)));
    expect(reread.ok && reread.value).toMatchObject({ sourceSha256: sha256(bytes), sourceBytes: bytes.byteLength });
  });

  it('hashes a file streamed in many small chunks exactly as a whole one', async () => {
    const bytes = encode(`ts_ms,x\n${Array.from({ length: 5000 }, (_, row) => `${row},${row * 2}`).join('\n')}\n`);
    const source = bytesCaptureSource(bytes, 'big.csv');
    const chunked = { ...source, async *stream() {
      for (let at = 0; at < bytes.length; at += 777) yield bytes.subarray(at, at + 777);
    } };
    const result = await importCaptureSource(chunked, { id: 'c' });
    expect(result.ok && result.value.report.source_sha256).toBe(sha256(bytes));
  });

  it('a column-mapped table keeps the provenance', async () => {
    const bytes = encode('time_s,value\n1,2\n2,3\n');
    const result = await importCaptureSource(bytesCaptureSource(bytes, 'm.csv'), { id: 'm' });
    if (!result.ok || result.value.kind !== 'needs-mapping') throw new Error('expected a mapping step');
    const mapped = mapToCapture(result.value.table, { ...result.value.suggestion, time: 'time_s', timeUnit: 's' }, 'm', 'm.csv', result.value.report);
    expect(mapped.ok && mapped.value.kind === 'capture' && mapped.value.capture.info.sourceSha256).toBe(sha256(bytes));
  });

  it('built-in captures have no provenance', () => {
    const described = describeCapture(tableFromArrays({ ts_ms: Float64Array.from([1]) }), { id: 'x' });
    expect(described.ok && 'sourceSha256' in described.value).toBe(false);
  });
});

describe('parse warnings (issue 14, item 5)', () => {
  it('an unterminated quote is a warning with its record, and the import is partial', async () => {
    const report = reportOf(await readCaptureFile(encode('ts_ms,name\n1,"abc\n2,def\n3,ghi\n'), options));
    expect(report.rows).toBe(1);
    expect(report.partial).toBe(true);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'UNTERMINATED_QUOTE', record: 2, count: 1 })]);
    expect(report.warnings[0].message).toContain('record 2');
  });

  it('a clean file has no warnings and is not partial', async () => {
    const report = reportOf(await readCaptureFile(encode('ts_ms,name\n1,"a,b"\n2,c\n'), options));
    expect(report).toMatchObject({ warnings: [], partial: false, rows: 2 });
  });

  it('a malformed quote is counted, with the record of its first occurrence', async () => {
    const report = reportOf(await readCaptureFile(encode('ts_ms,name\n1,a\n2,"b"x"\n3,"c"y"\n4,d\n'), options));
    expect(report.warnings.find((warning) => warning.code === 'MALFORMED_QUOTE')).toMatchObject({ record: 3 });
    expect(report.partial).toBe(true);
  });

  it('finds invalid UTF-8 anywhere in the file, not only in its first 8 KiB, and says where', async () => {
    const head = `ts_ms,name\n${Array.from({ length: 2000 }, (_, row) => `${row},name${row}`).join('\n')}\n`;
    const bad = new Uint8Array([...encode(head), ...encode('2000,ab'), 0xff, 0xfe, ...encode('cd\n2001,ok\n')]);
    const report = reportOf(await readCaptureFile(bad, options));
    const warning = report.warnings.find((item) => item.code === 'INVALID_UTF8');
    expect(warning).toMatchObject({ byte_offset: encode(head).length + 7, line: 2002 });
    expect(warning!.count).toBeGreaterThanOrEqual(1);
    expect(report.partial).toBe(true);
    expect(report.rows).toBe(2002);
  });

  it('a Latin-1 CSV (not UTF-8 from its first bytes) imports with INVALID_UTF8, instead of being refused as binary', async () => {
    // "ts_ms,name\n1,café\n2,naïve\n" in ISO-8859-1: é = 0xE9, ï = 0xEF.
    const latin1 = Uint8Array.from([...encode('ts_ms,name\n1,caf'), 0xe9, ...encode('\n2,na'), 0xef, ...encode('ve\n')]);
    const read = await readCaptureFile(latin1, options);
    const report = reportOf(read);
    expect(report.rows).toBe(2);
    expect(report.partial).toBe(true);
    expect(report.warnings.find((item) => item.code === 'INVALID_UTF8')).toMatchObject({ count: 2, byte_offset: 16, line: 2 });
    expect(read.ok && [...read.value.table.getChild('name')!]).toEqual(['caf\ufffd', 'na\ufffdve']);
  });

  it('a multi-byte character split across chunks is not invalid', async () => {
    const bytes = encode('ts_ms,name\n1,Zürich ✓ 𝄞\n');
    const source = bytesCaptureSource(bytes, 'u.csv');
    const oneByte = { ...source, async *stream() {
      for (let at = 0; at < bytes.length; at++) yield bytes.subarray(at, at + 1);
    } };
    const result = await importCaptureSource(oneByte, { id: 'u' });
    expect(result.ok && result.value.report.warnings).toEqual([]);
  });

  it('implausible timestamps (a bit-flipped year 6587) are a warning naming the row; the data is kept', async () => {
    const flipped = 1_712_131_200_000 + 2 ** 47;
    const rows = [1_712_131_200_000, 1_712_131_201_000, flipped, 1_712_131_203_000];
    const report = reportOf(await readCaptureFile(encode(`ts_ms,x\n${rows.map((ts) => `${ts},1`).join('\n')}\n`), options));
    expect(new Date(flipped).getUTCFullYear()).toBeGreaterThan(6000);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'IMPLAUSIBLE_TIMESTAMP', row: 2, count: 1, column: 'ts_ms' })]);
    expect(report.partial).toBe(true);
    expect(report.rows).toBe(4);
  });

  it('relative times near zero and epoch times of this century are plausible', async () => {
    expect(reportOf(await readCaptureFile(encode('ts_ms,x\n0,1\n120000,2\n'), options)).warnings).toEqual([]);
    expect(reportOf(await readCaptureFile(encode('ts_ms,x\n1712131200000,1\n1712131260000,2\n'), options)).warnings).toEqual([]);
  });

  it('a relative capture with negative times is plausible (times before a trigger); a stray epoch value in it is not', async () => {
    expect(reportOf(await readCaptureFile(encode('ts_ms,x\n-5000,1\n-1000,2\n0,3\n2500,4\n'), options)).warnings).toEqual([]);
    const stray = reportOf(await readCaptureFile(encode('ts_ms,x\n-5000,1\n-1000,2\n1712131200000,3\n2500,4\n'), options));
    expect(stray.warnings).toEqual([expect.objectContaining({ code: 'IMPLAUSIBLE_TIMESTAMP', row: 2, count: 1 })]);
    expect(stray.warnings[0].message).toMatch(/within 366 days of the capture's median 2500 ms\); the first is row 2: 1712131200000 ms/);
  });

  it('an epoch capture is still held to 1970–2100', async () => {
    // All before 1970: the median itself is out of the window.
    const report = reportOf(await readCaptureFile(encode('ts_ms,x\n-1712131200000,1\n-1712131100000,2\n'), options));
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'IMPLAUSIBLE_TIMESTAMP', count: 2, row: 0 })]);
  });

  it("a BLE capture's sextant.import_report metadata carries the hash, the warnings and partial, as the printed report does", async () => {
    const packet = (seconds: number) => ({ seconds, fraction: 0, bytes: llPacket({ pduType: 0, payload: address('7A:4C:21:9D:10:EF') }) });
    const pcap = pcapFile({ linkType: 251, packets: [packet(1_700_000_000), packet(1_700_000_001), packet(4_200_000_000)] });
    const read = await readCaptureFile(pcap, { ...options, fileName: 'f.pcap' });
    const report = reportOf(read);
    if (!read.ok) return;
    const stored = JSON.parse(read.value.table.schema.metadata.get('sextant.import_report')!) as Record<string, unknown>;
    expect(stored).toMatchObject({ format: 'pcap', source_bytes: pcap.length, source_sha256: sha256(pcap), partial: true, packets: 3, rows: report.rows });
    expect(stored.warnings).toEqual(report.warnings);
    expect(stored.warnings).toEqual([expect.objectContaining({ code: 'IMPLAUSIBLE_TIMESTAMP' })]);
    // An Arrow file of that capture keeps the report of the pcap import, not one about itself.
    const reread = await readCaptureFile(tableToIPC(read.value.table, 'file'), { ...options, fileName: 'f.arrow' });
    expect(reread.ok && JSON.parse(reread.value.table.schema.metadata.get('sextant.import_report')!)).toMatchObject({ format: 'pcap', source_sha256: sha256(pcap) });
  });

  it('BLE captures get the timestamp check too', async () => {
    const packet = (seconds: number) => ({ seconds, fraction: 0, bytes: llPacket({ pduType: 0, payload: address('7A:4C:21:9D:10:EF') }) });
    const pcap = pcapFile({ linkType: 251, packets: [packet(1_700_000_000), packet(1_700_000_001), packet(4_200_000_000)] });
    const report = reportOf(await readCaptureFile(pcap, { ...options, fileName: 'f.pcap' }));
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'IMPLAUSIBLE_TIMESTAMP', row: 2 })]);
    expect(report.partial).toBe(true);
  });
});

describe('malformed captures get their own codes (issue 14, item 8)', () => {
  const snoop = btsnoopFile({ datalink: 1002, records: [{ epochUs: 1n, flags: 3, bytes: hciAdvertisingReport([{ eventType: 0, addressType: 1, address: '7A:4C:21:9D:10:EF', data: [2, 1, 6], rssi: -30 }]) }] });
  const pcap = pcapFile({ linkType: 251, packets: [] });

  it.each([1, 2, 3, 4, 5, 6, 7])('a btsnoop file cut to %i bytes is TRUNCATED_HEADER', async (length) => {
    const read = await readCaptureFile(snoop.subarray(0, length), { ...options, fileName: 'cut.log' });
    expect(read).toMatchObject({ ok: false, error: { code: 'TRUNCATED_HEADER' } });
    expect(!read.ok && read.error.message).toContain('btsnoop');
  });

  it.each([1, 2, 3])('a pcap file cut to %i bytes is TRUNCATED_HEADER', async (length) => {
    expect(await readCaptureFile(pcap.subarray(0, length), options)).toMatchObject({ ok: false, error: { code: 'TRUNCATED_HEADER' } });
  });

  it('a damaged Arrow file is UNREADABLE_ARROW without JavaScript internals in the message', async () => {
    const arrow = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2, 3]), name: ['a', 'b', 'c'] }), 'file');
    for (const cut of [8, 16, 40, arrow.length - 20]) {
      const read = await readCaptureFile(arrow.subarray(0, cut), { ...options, fileName: 'a.arrow' });
      expect(read).toMatchObject({ ok: false, error: { code: 'UNREADABLE_ARROW' } });
      expect(!read.ok && read.error.message).not.toMatch(/undefined|null|reading '|is not a function|TypeError|RangeError|Cannot|offset/);
    }
  });
});

describe('wide CSV (issue 14, item 7)', () => {
  const wide = (columns: number) => {
    const header = ['ts_ms', ...Array.from({ length: columns - 1 }, (_, index) => `c${index}`)].join(',');
    const row = ['1', ...Array.from({ length: columns - 1 }, (_, index) => String(index))].join(',');
    return encode(`${header}\n${row}\n`);
  };

  it('one row of 100,001 columns is refused with TOO_MANY_COLUMNS at once, not after minutes', async () => {
    const { value: read, cpuMs } = await withCpuTimeAsync(() => readCaptureFile(wide(100_001), options));
    expect(read).toMatchObject({ ok: false, error: { code: 'TOO_MANY_COLUMNS' } });
    expect(!read.ok && read.error.message).toContain('100,001 columns; at most 4,096');
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
  });

  it('a file at the limit imports', async () => {
    const read = await readCaptureFile(wide(MAX_CSV_COLUMNS), options);
    expect(read.ok && read.value.info.columns.length).toBe(MAX_CSV_COLUMNS);
  });
});

describe('Arrow record batches that claim more rows than their bytes', () => {
  it('are refused before apache-arrow allocates for them', async () => {
    const stream = tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2, 3]) }), 'stream');
    const view = new DataView(stream.buffer, stream.byteOffset);
    const schemaEnd = 8 + view.getInt32(4, true);
    // The batch's row count and its column's node length are int64 3s in the batch's metadata.
    let patched = 0;
    for (let at = schemaEnd; at + 8 <= stream.length && patched < 2; at += 1) {
      if (view.getBigInt64(at, true) === 3n) {
        view.setBigInt64(at, 2n ** 40n, true);
        patched++;
        at += 7;
      }
    }
    expect(patched).toBeGreaterThan(0);
    const read = await readCaptureFile(stream, { ...options, fileName: 'huge.arrow' });
    expect(read).toMatchObject({ ok: false, error: { code: 'UNREADABLE_ARROW' } });
    expect(!read.ok && read.error.message).toContain('rows but has only');
  });
});
