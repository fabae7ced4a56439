import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DatasetEngine } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';

const CAPTURE = fileURLToPath(new URL('../../../shared/captures/ble/tesi-ble_nrf_capture.pcapng', import.meta.url));

async function rows(root: string, sql: string): Promise<unknown[][]> {
  const { code, stdout, stderr } = await runCli(['query', root, sql]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { rows: unknown[][] }).rows;
}

/**
 * Rows of one capture that the other lacks, both ways (the capture and hour columns aside).
 * `asCsv`: texts compared as CSV reads them — an empty or whitespace-only cell is no value (the
 * CSV importer's rule), and the real capture has names of one control character and empty payloads.
 */
async function difference(root: string, a: string, b: string, asCsv = false): Promise<number> {
  const text = (column: string) => `nullif(regexp_replace(${column}, '^[\\s\\x0b]+|[\\s\\x0b]+$', '', 'g'), '') AS ${column}`;
  const columns = asCsv ? `* EXCLUDE (capture_id, hour, local_name, manufacturer_data, service_data), ${['local_name', 'manufacturer_data', 'service_data'].map(text).join(', ')}` : '* EXCLUDE (capture_id, hour)';
  const side = (id: string) => `SELECT ${columns} FROM packets WHERE capture_id = '${id}'`;
  const [[count]] = await rows(root, `SELECT count(*) FROM ((${side(a)} EXCEPT ALL ${side(b)}) UNION ALL (${side(b)} EXCEPT ALL ${side(a)}))`);
  return Number(count);
}

describe('tables of packets into a dataset (Arrow, Parquet, CSV in the normalized columns)', () => {
  let root: string;
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'sextant-table-import-'));
    root = join(work, 'dataset');
    const arrow = join(work, 'tesi.arrow');
    expect((await runCli(['import', CAPTURE, '--out', arrow])).code).toBe(0);
    const imported = await runCli(['import', CAPTURE, arrow, '--dataset', root, '--jobs', '1']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    // What other tools write: DuckDB's Parquet and CSV of the same rows (plain strings, its own integer types, lists printed as [a, b]).
    const opened = await DatasetEngine.open(root);
    if (!opened.ok) throw new Error(opened.error.message);
    const selected = `SELECT * EXCLUDE (capture_id, hour) FROM packets WHERE capture_id = 'tesi-ble_nrf_capture' ORDER BY frame_number`;
    await opened.value.query(`COPY (${selected}) TO '${join(work, 'by-duckdb.parquet')}' (FORMAT parquet)`, 1);
    await opened.value.query(`COPY (${selected}) TO '${join(work, 'duckdb-csv.csv')}' (FORMAT csv, HEADER)`, 1);
    opened.value.close();
  }, 600_000);

  it('an Arrow export of a capture lands with the same rows as the capture itself', async () => {
    const [[arrowRows]] = await rows(root, `SELECT count(*) FROM packets WHERE capture_id = 'tesi'`);
    expect(Number(arrowRows)).toBe(14_843);
    expect(await difference(root, 'tesi', 'tesi-ble_nrf_capture')).toBe(0);
  });

  it('Parquet and CSV written by another tool are conformed to the dataset schema, value for value', async () => {
    const parquet = await runCli(['import', join(work, 'by-duckdb.parquet'), join(work, 'duckdb-csv.csv'), '--dataset', root, '--jobs', '1']);
    expect(parquet.stderr).toBe('');
    expect(parquet.code).toBe(0);
    expect(await difference(root, 'by-duckdb', 'tesi-ble_nrf_capture')).toBe(0);
    expect(await difference(root, 'duckdb-csv', 'tesi-ble_nrf_capture', true)).toBe(0);
    expect(await difference(root, 'duckdb-csv', 'tesi-ble_nrf_capture')).toBe(16);
    // One schema for every part, whoever wrote the source: each part's own Parquet schema is the pcap's.
    const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as { sources: Array<{ capture_id: string; parts: Array<{ path: string }> }> };
    const partOf = (id: string) => join(root, manifest.sources.find((source) => source.capture_id === id)!.parts[0].path);
    const schemaOf = (id: string) => rows(root, `SELECT name, type, converted_type, logical_type FROM parquet_schema('${partOf(id)}') ORDER BY name`);
    const reference = await schemaOf('tesi-ble_nrf_capture');
    expect(reference.length).toBeGreaterThan(20);
    expect(await schemaOf('by-duckdb')).toEqual(reference);
    expect(await schemaOf('duckdb-csv')).toEqual(reference);
    // And DuckDB reads each column with the record table's type.
    const types = await rows(root, `SELECT column_name, column_type FROM (DESCRIBE packets) WHERE column_name IN ('rssi', 'channel', 'company_id', 'service_uuids') ORDER BY 1`);
    expect(types).toEqual([
      ['channel', 'UTINYINT'],
      ['company_id', 'USMALLINT'],
      ['rssi', 'TINYINT'],
      ['service_uuids', 'VARCHAR[]'],
    ]);
  });

  it('refuses a table that is not packets, or a value its column cannot hold, with a code and the place', async () => {
    await writeFile(join(work, 'not-packets.csv'), 'ts_ms,temperature\n1000,21.5\n2000,21.7\n');
    await writeFile(join(work, 'loud.csv'), 'ts_ms,advertiser_addr,rssi\n1000,AA:BB:CC:DD:EE:FF,-50\n2000,AA:BB:CC:DD:EE:FF,300\n');
    // A second receiver's file of the same name, in its own folder: its id is taken within this import.
    await mkdir(join(work, 'rx2'));
    await writeFile(join(work, 'rx2', 'loud.csv'), 'ts_ms,advertiser_addr\n1000,AA:BB:CC:DD:EE:FF\n');
    const refused = await runCli(['import', join(work, 'not-packets.csv'), join(work, 'loud.csv'), join(work, 'rx2', 'loud.csv'), '--dataset', root, '--jobs', '1']);
    expect(refused.code).toBe(4);
    const answer = JSON.parse(refused.stdout) as { refused: Array<{ code: string; message: string }> };
    const byCode = new Map(answer.refused.map((problem) => [problem.code, problem.message]));
    expect([...byCode.keys()].sort()).toEqual(['CAPTURE_ID_IN_DATASET', 'MISSING_PACKET_COLUMNS', 'VALUE_OUT_OF_RANGE']);
    expect(byCode.get('CAPTURE_ID_IN_DATASET')).toContain(`is taken by ${join(work, 'loud.csv')} in this import; import this file on its own with --id`);
    expect(byCode.get('MISSING_PACKET_COLUMNS')).toContain("'advertiser_addr'");
    expect(byCode.get('VALUE_OUT_OF_RANGE')).toMatch(/'rssi' row 1/);
    // Nothing of either landed.
    const ids = (await rows(root, 'SELECT DISTINCT capture_id FROM packets')).map(([id]) => id);
    expect(ids).not.toContain('not-packets');
    expect(ids).not.toContain('loud');
  });

  it('stores addresses in the capture schema’s form, as the in-memory import reads them, and says how many were no address', async () => {
    await writeFile(join(work, 'spelled.csv'), 'ts_ms,advertiser_addr,scanner_addr\n1000,aa-bb-cc-dd-ee-0f,\n2000,AABBCCDDEE0F,11:22:33:44:55:66\n3000,not-an-address,\n');
    const imported = await runCli(['import', join(work, 'spelled.csv'), '--dataset', root, '--jobs', '1']);
    expect(imported.code).toBe(0);
    const answer = JSON.parse(imported.stdout) as { imported: Array<{ report: { partial: boolean; warnings: Array<{ code: string; column: string; count: number }> } }> };
    const { report } = answer.imported[0];
    expect(report.partial).toBe(true);
    expect(report.warnings).toEqual([expect.objectContaining({ code: 'INVALID_VALUE', column: 'advertiser_addr', count: 1 })]);
    expect(await rows(root, `SELECT advertiser_addr, scanner_addr FROM packets WHERE capture_id = 'spelled' ORDER BY ts_ms`)).toEqual([
      ['AA:BB:CC:DD:EE:0F', null],
      ['AA:BB:CC:DD:EE:0F', '11:22:33:44:55:66'],
      [null, null],
    ]);
  });
});
