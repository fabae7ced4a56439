import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DatasetEngine } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';
import { SUMMARY_KEYS, hourSlices, mergeSummaries, writeSummaries } from './summaries.ts';

const CAPTURES = fileURLToPath(new URL('../../../shared/captures/ble/', import.meta.url));

describe('hourSlices', () => {
  it('groups consecutive hours, each whole, up to the budget; an hour over it is a slice alone', () => {
    const hours = [
      { hour: '2026-11-16T02', rows: 30 },
      { hour: '2026-11-16T00', rows: 40 },
      { hour: '2026-11-16T00', rows: 20 }, // a second part of the same hour
      { hour: '2026-11-16T01', rows: 500 },
      { hour: '2026-11-16T03', rows: 60 },
    ];
    expect(hourSlices(hours, 100)).toEqual([['2026-11-16T00'], ['2026-11-16T01'], ['2026-11-16T02', '2026-11-16T03']]);
    expect(hourSlices(hours, 1)).toEqual([['2026-11-16T00'], ['2026-11-16T01'], ['2026-11-16T02'], ['2026-11-16T03']]);
    expect(hourSlices(hours, 10_000)).toEqual([['2026-11-16T00', '2026-11-16T01', '2026-11-16T02', '2026-11-16T03']]);
    expect(hourSlices([], 100)).toEqual([]);
  });
});

describe('the summary stage slice by slice of hours', () => {
  it('writes the same rows, in key order, whatever the slices; merges likewise', async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'sextant-slices-')), 'ds');
    const files = ['tesi-ble_nrf_capture.pcapng', 'mabip_btsnoop_hci.log'].map((name) => join(CAPTURES, name));
    expect((await runCli(['import', ...files, '--dataset', root])).code).toBe(0);
    const opened = await DatasetEngine.open(root);
    if (!opened.ok) throw new Error(opened.error.message);
    const engine = opened.value;
    try {
      const hours = new Set(engine.manifest.sources.flatMap((source) => source.parts.map((part) => part.hour)));
      expect(hours.size).toBeGreaterThan(2);
      const out = join(root, '..');
      const paths = (name: string) => ({ bins: join(out, `${name}-bins.parquet`), payloads: join(out, `${name}-payloads.parquet`) });
      const read = async (path: string) => (await engine.query(`SELECT * FROM read_parquet('${path}')`, 10_000_000)).rows;

      const whole = await writeSummaries(engine, { binMs: 1_000, captureIds: [], paths: paths('whole'), slicePackets: Number.MAX_SAFE_INTEGER });
      const hourly = await writeSummaries(engine, { binMs: 1_000, captureIds: [], paths: paths('hourly'), slicePackets: 1 });
      expect(hourly).toEqual(whole);
      expect(whole.bins).toBeGreaterThan(100);
      for (const key of ['bins', 'payloads'] as const) {
        const rows = await read(paths('hourly')[key]);
        expect(rows).toEqual(await read(paths('whole')[key]));
        // In key order: the file read as written equals it sorted by its key.
        expect(rows).toEqual(await engine.query(`SELECT * FROM read_parquet('${paths('hourly')[key]}') ORDER BY ${SUMMARY_KEYS[key]}`, 10_000_000).then((answer) => answer.rows));
      }

      // Each capture summarized alone, then merged hour by hour, is the whole's summary.
      const shards = [];
      for (const source of engine.manifest.sources) {
        const shard = paths(`shard-${source.capture_id}`);
        await writeSummaries(engine, { binMs: 1_000, captureIds: [source.capture_id], paths: shard, slicePackets: 1 });
        shards.push(shard);
      }
      expect(await mergeSummaries(engine, shards, 1_000, paths('merged'), 1)).toEqual(whole);
      for (const key of ['bins', 'payloads'] as const) expect(await read(paths('merged')[key])).toEqual(await read(paths('whole')[key]));

      // No hour to summarize (a capture the dataset does not hold): empty files with the summaries' columns.
      expect(await writeSummaries(engine, { binMs: 1_000, captureIds: ['absent'], paths: paths('none') })).toEqual({ bins: 0, payloads: 0 });
      const columns = async (path: string) => (await engine.query(`SELECT * FROM read_parquet('${path}') LIMIT 0`, 0)).columns;
      for (const key of ['bins', 'payloads'] as const) expect(await columns(paths('none')[key])).toEqual(await columns(paths('whole')[key]));
    } finally {
      engine.close();
    }
  });
});
