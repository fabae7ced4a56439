/**
 * The browser and the command-line runner import through one pipeline: the same bytes give the
 * same outcome, report and table whether they arrive as a browser File (the import worker's
 * adapter) or as a file on disk (the runner's adapter).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromArrays, tableFromIPC, tableToIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaptureSource } from '../src/core/index.ts';
import { withFileCaptureSource } from '../cli/file-source.ts';
import { decodeParquetPart } from '../cli/dataset/parquet-part.ts';
import { createImportApi } from './import-api.ts';

const directory = mkdtempSync(join(tmpdir(), 'sextant-parity-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const encode = (text: string) => new TextEncoder().encode(text);
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(path, import.meta.url)));
const CASES: Array<[string, Uint8Array]> = [
  ['real.pcap', fixture('../../shared/captures/ble/whad-client_sniffle_capture.pcap')],
  ['real.log', fixture('../../shared/captures/ble/horizon74_btsnoop_hci.log')],
  ['normalized.csv', fixture('../src/core/data/tabular/__fixtures__/normalized.csv')],
  ['normalized.parquet', fixture('../src/core/data/tabular/__fixtures__/normalized.parquet')],
  ['table.arrow', tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1, 2, 3]), rssi: Float64Array.from([-40, -50, -60]) }), 'file')],
  ['lost-rows.csv', encode('ts_ms,name\n1,"abc\n2,def\n3,ghi\n')],
  ['bad-utf8.csv', new Uint8Array([...encode('ts_ms,name\n1,a'), 0xc3, 0x28, ...encode('\n2,b\n')])],
  ['cut.log', encode('btsno')],
  ['garbage.bin', Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])],
  ['damaged.arrow', tableToIPC(tableFromArrays({ ts_ms: Float64Array.from([1]) }), 'file').subarray(0, 30)],
];

describe('one import pipeline, two adapters', () => {
  it.each(CASES)('%s: the worker (File) and the runner (file on disk) agree', async (name, bytes) => {
    const path = join(directory, name);
    writeFileSync(path, bytes);
    const runner = await withFileCaptureSource(path, name, (source) => readCaptureSource(source, { id: 'same', fileName: name }));
    const worker = await createImportApi(decodeParquetPart).importFile(new File([bytes as Uint8Array<ArrayBuffer>], name), 'same', () => {});
    if (!runner.ok) {
      expect(worker).toMatchObject({ ok: false, code: runner.error.code, message: runner.error.message });
      return;
    }
    expect(worker.ok && worker.kind).toBe('capture');
    if (!worker.ok || worker.kind !== 'capture') return;
    expect(worker.report).toEqual(JSON.parse(JSON.stringify(runner.value.report)));
    expect(worker.info).toEqual(runner.value.info);
    const workerTable = tableFromIPC(new Uint8Array(await worker.arrow.arrayBuffer()));
    expect(workerTable.schema.metadata).toEqual(runner.value.table.schema.metadata);
    expect(Buffer.from(tableToIPC(workerTable)).equals(Buffer.from(tableToIPC(runner.value.table)))).toBe(true);
  });
});
