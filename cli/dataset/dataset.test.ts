import { copyFile, mkdtemp, readFile, readdir, stat, truncate, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBleBenchmarkPcap } from '../../bench/ble-capture-generator.ts';
import { seededRandom } from '../../src/core/index.ts';
import { DatasetEngine } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';
import { importFiles } from './import-files.ts';
import { streamIntoStaging } from './stream-import.ts';
import { mergeSummaries, writeSummaries } from './summaries.ts';

async function openEngine(root: string): Promise<DatasetEngine> {
  const opened = await DatasetEngine.open(root);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

const CAPTURES = fileURLToPath(new URL('../../../shared/captures/ble/', import.meta.url));

const run = runCli;

const temp = (prefix: string) => mkdtemp(join(tmpdir(), `sextant-dataset-${prefix}-`));

async function query(root: string, sql: string): Promise<unknown[][]> {
  const { code, stdout, stderr } = await run(['query', root, sql]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { rows: unknown[][] }).rows;
}

/** A pcap cut into `count` pcaps of consecutive frames, each with the original's global header. */
async function cutPcap(path: string, count: number, into: string): Promise<string[]> {
  const bytes = await readFile(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let offset = 24; offset < bytes.length; offset += 16 + view.getUint32(offset + 8, true)) starts.push(offset);
  const per = Math.ceil(starts.length / count);
  const paths: string[] = [];
  for (let shard = 0; shard < count; shard++) {
    const from = starts[shard * per];
    const to = shard * per + per < starts.length ? starts[shard * per + per] : bytes.length;
    const file = join(into, `shard-${shard}.pcap`);
    await writeFile(file, Buffer.concat([bytes.subarray(0, 24), bytes.subarray(from, to)]));
    paths.push(file);
  }
  return paths;
}

/** Per-address figures a summary stage reads: counts, first/last seen, RSSI moments, payloads. */
const ADDRESS_SUMMARY = `
  SELECT advertiser_addr, receiver, count(*) AS packets, min(ts_ms) AS first_ms, max(ts_ms) AS last_ms,
         sum(rssi) AS rssi_sum, sum(rssi::INTEGER * rssi) AS rssi_sq, count(DISTINCT payload_signature) AS payloads,
         count(*) FILTER (WHERE crc_ok) AS crc_ok
  FROM packets GROUP BY ALL ORDER BY advertiser_addr NULLS FIRST, receiver`;

describe('sextant import --dataset and sextant query', () => {
  let generated: string;
  beforeAll(async () => {
    generated = join(await temp('gen'), 'generated.pcap');
    await writeBleBenchmarkPcap(generated, 40_000);
  });

  it('imports real captures of every container, refuses a corrupt file and keeps the rest, and answers SQL', async () => {
    const root = join(await temp('real'), 'ds');
    const corrupt = join(await temp('bad'), 'corrupt.pcap');
    await writeFile(corrupt, 'this is not a capture, whatever its name says');
    const files = ['tesi-ble_nrf_capture.pcapng', 'mabip_btsnoop_hci.log', 'boston-hackrf_take3_ble_all_adv_w_scan.pcap'].map((name) => join(CAPTURES, name));
    const { code, stdout, stderr } = await run(['import', files[0], corrupt, files[1], files[2], '--dataset', root, '--jobs', '2']);
    expect(code).toBe(4);
    expect(stderr).toContain('[UNRECOGNIZED_FORMAT]');
    const output = JSON.parse(stdout) as { imported: Array<{ capture_id: string; rows: number; report: { rows: number; source_sha256: string } }>; refused: Array<{ file: string; code: string }> };
    expect(output.refused).toEqual([expect.objectContaining({ file: corrupt, code: 'UNRECOGNIZED_FORMAT' })]);
    expect(output.imported.map((source) => source.capture_id)).toEqual(['tesi-ble_nrf_capture', 'mabip_btsnoop_hci', 'boston-hackrf_take3_ble_all_adv_w_scan']);

    // The same rows as the in-memory import, per capture.
    for (const [index, file] of files.entries()) {
      const single = await run(['import', file]);
      const report = JSON.parse(single.stdout) as { rows: number; source_sha256: string; adv_type_counts: Record<string, number> };
      const source = output.imported[index];
      expect(source.rows).toBe(report.rows);
      expect(source.report.source_sha256).toBe(report.source_sha256);
      const counts = await query(root, `SELECT adv_type, count(*) FROM packets WHERE capture_id = '${source.capture_id}' GROUP BY 1`);
      expect(Object.fromEntries(counts)).toEqual(report.adv_type_counts);
    }
    // The README's examples.
    const perHour = await query(root, `SELECT hour, advertiser_addr, count(*) AS n FROM packets WHERE advertiser_addr IS NOT NULL GROUP BY hour, advertiser_addr QUALIFY row_number() OVER (PARTITION BY hour ORDER BY n DESC, advertiser_addr) <= 3 ORDER BY hour, n DESC`);
    expect(perHour.length).toBeGreaterThan(3);
    const perChannel = await query(root, 'SELECT receiver, channel, count(*) AS n FROM packets GROUP BY ALL ORDER BY receiver, channel');
    expect(perChannel.reduce((sum, row) => sum + (row[2] as number), 0)).toBe(output.imported.reduce((sum, source) => sum + source.rows, 0));

    // The same file again is refused by its hash, and the dataset is unchanged.
    const manifest = await readFile(join(root, 'manifest.json'), 'utf8');
    const again = await run(['import', files[1], '--dataset', root, '--id', 'other']);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('[DUPLICATE_SOURCE]');
    expect(await readFile(join(root, 'manifest.json'), 'utf8')).toBe(manifest);
  });

  it('gives the same per-address summaries for a capture cut into shards and imported in random order', async () => {
    const whole = join(await temp('whole'), 'ds');
    expect((await run(['import', generated, '--dataset', whole, '--id', 'scene'])).code).toBe(0);
    const shards = await cutPcap(generated, 10, await temp('shards'));
    const random = seededRandom(7).uniform;
    const order = shards.map((path) => ({ path, key: random() })).sort((a, b) => a.key - b.key).map(({ path }) => path);
    const sharded = join(await temp('sharded'), 'ds');
    const outcomes = await importFiles({ root: sharded, files: order.map((path, index) => ({ path, captureId: `part${index}` })), jobs: 1, drainRows: 4_096 });
    expect(outcomes.every((outcome) => outcome.result.ok)).toBe(true);
    const summaries = await query(whole, ADDRESS_SUMMARY);
    expect(summaries.length).toBeGreaterThan(100);
    expect(await query(sharded, ADDRESS_SUMMARY)).toEqual(summaries);

    // The summary stage's SQL: each shard summarized alone, then merged, equals the whole's summaries, exactly.
    const out = await temp('summaries');
    const wholeEngine = await openEngine(whole);
    const shardEngine = await openEngine(sharded);
    try {
      const wholePaths = { bins: join(out, 'whole-bins.parquet'), payloads: join(out, 'whole-payloads.parquet') };
      const written = await writeSummaries(wholeEngine, { binMs: 1_000, captureIds: [], paths: wholePaths });
      expect(written.bins).toBeGreaterThan(1_000);
      const shardPaths = [];
      for (const [index] of order.entries()) {
        const paths = { bins: join(out, `shard${index}-bins.parquet`), payloads: join(out, `shard${index}-payloads.parquet`) };
        await writeSummaries(shardEngine, { binMs: 1_000, captureIds: [`part${index}`], paths });
        shardPaths.push(paths);
      }
      const mergedPaths = { bins: join(out, 'merged-bins.parquet'), payloads: join(out, 'merged-payloads.parquet') };
      expect(await mergeSummaries(shardEngine, shardPaths, 1_000, mergedPaths)).toEqual(written);
      for (const key of ['bins', 'payloads'] as const) {
        const read = async (path: string) => (await wholeEngine.query(`SELECT * FROM read_parquet('${path}')`, 10_000_000)).rows;
        expect(await read(mergedPaths[key])).toEqual(await read(wholePaths[key]));
      }
      // The bins hold every packet with an address and a time.
      const [[binned]] = (await wholeEngine.query(`SELECT sum(packets) FROM read_parquet('${wholePaths.bins}')`, 1)).rows;
      const [[counted]] = (await wholeEngine.query('SELECT count(*) FROM packets WHERE advertiser_addr IS NOT NULL AND ts_ms IS NOT NULL', 1)).rows;
      expect(binned).toBe(counted);
    } finally {
      wholeEngine.close();
      shardEngine.close();
    }
  });

  it('leaves the dataset unchanged when the disk fills up mid-file', async () => {
    const root = join(await temp('full'), 'ds');
    expect((await run(['import', join(CAPTURES, 'tesi-ble_nrf_capture.pcapng'), '--dataset', root])).code).toBe(0);
    const manifest = await readFile(join(root, 'manifest.json'), 'utf8');
    const partsBefore = await listTree(join(root, 'parts'));
    const bytes = (await stat(generated)).size;
    const sha256 = (await run(['import', generated])).stdout.match(/"source_sha256": "([0-9a-f]{64})"/)![1];
    let writes = 0;
    const result = await streamIntoStaging(
      { root, path: generated, captureId: 'full', sha256, bytes, drainRows: 4_096 },
      {
        writePart: async (path, data) => {
          if (++writes > 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          await mkdir(join(path, '..'), { recursive: true });
          await writeFile(path, data);
        },
      },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'WRITE_FAILED', message: expect.stringContaining('ENOSPC') });
    expect(await readFile(join(root, 'manifest.json'), 'utf8')).toBe(manifest);
    expect(await listTree(join(root, 'parts'))).toEqual(partsBefore);
    expect(await readdir(join(root, '.staging'))).toEqual([]);
  });

  it('names a truncated or missing part and refuses the dataset rather than read less', async () => {
    const root = join(await temp('trunc'), 'ds');
    expect((await run(['import', generated, '--dataset', root, '--id', 'scene'])).code).toBe(0);
    const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as { sources: Array<{ parts: Array<{ path: string; bytes: number }> }> };
    const part = manifest.sources[0].parts[0];
    const saved = join(await temp('saved'), 'part.parquet');
    await copyFile(join(root, part.path), saved);
    await truncate(join(root, part.path), part.bytes - 100);
    const truncated = await run(['query', root, 'SELECT count(*) FROM packets']);
    expect(truncated.code).toBe(4);
    expect(truncated.stderr).toContain('[DATASET_PART_TRUNCATED]');
    expect(truncated.stderr).toContain(part.path);
    const opened = await DatasetEngine.open(root);
    expect(opened.ok ? null : opened.error.path).toBe(part.path);
    await copyFile(saved, join(root, part.path));
    expect(await query(root, 'SELECT count(*) FROM packets')).toEqual([[40_000]]);
  });

  it('removes what a crashed import left behind at the next commit, and never reads it before', async () => {
    const root = join(await temp('crash'), 'ds');
    expect((await run(['import', join(CAPTURES, 'mabip_btsnoop_hci.log'), '--dataset', root])).code).toBe(0);
    const rows = await query(root, 'SELECT count(*) FROM packets');
    // A dead import's staging directory, and a part moved into place before its manifest was written.
    const orphanDir = join(root, 'parts', 'capture_id=ghost', 'hour=2026-01-01T00');
    await mkdir(orphanDir, { recursive: true });
    const listed = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as { sources: Array<{ parts: Array<{ path: string }> }> };
    await copyFile(join(root, listed.sources[0].parts[0].path), join(orphanDir, '0000000000000000-000000.parquet'));
    await mkdir(join(root, '.staging', '999999999-0000000000000000-dead'), { recursive: true });
    expect(await query(root, 'SELECT count(*) FROM packets')).toEqual(rows);
    expect((await run(['import', join(CAPTURES, 'tesi-ble_nrf_capture.pcapng'), '--dataset', root])).code).toBe(0);
    expect(await listTree(orphanDir)).toEqual([]);
    expect(await readdir(join(root, '.staging'))).toEqual([]);
  });

  it('answers bad SQL and a directory that is no dataset with coded errors', async () => {
    const root = join(await temp('sql'), 'ds');
    expect((await run(['import', join(CAPTURES, 'mabip_btsnoop_hci.log'), '--dataset', root])).code).toBe(0);
    const bad = await run(['query', root, 'SELEC 1']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[QUERY_FAILED]');
    const none = await run(['query', await temp('none'), 'SELECT 1']);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('[DATASET_NOT_FOUND]');
    const csv = await run(['query', root, "SELECT 'a,b' AS text, 1 AS n", '--format', 'csv']);
    expect(csv.stdout).toBe('text,n\n"a,b",1\n');
    const out = await temp('summarize');
    const summarized = await run(['summarize', root, '--out', out, '--bin-s', '60']);
    expect(summarized.code).toBe(0);
    expect(JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))).toMatchObject({ bin_ms: 60_000, files: { 'address_bins.parquet': expect.any(Number) } });
    expect((await run(['summarize', root, '--out', out, '--bin-s', '0'])).code).toBe(4);
  });
});

async function listTree(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).sort();
  } catch {
    return [];
  }
}
