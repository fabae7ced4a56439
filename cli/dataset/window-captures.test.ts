import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Vector, type Table } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBleBenchmarkPcap } from '../../bench/ble-capture-generator.ts';
import { readCaptureFile, type Capture } from '../../src/core/index.ts';
import { DatasetEngine } from './duckdb-engine.ts';
import { importFiles } from './import-files.ts';
import { DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { analyseWindow } from './analyse-window.ts';
import { windowCaptures } from './window-captures.ts';
import { countWindow, countWindows } from './window-count.ts';
import { planWindows } from './windowed-analysis.ts';

const HOUR_S = 1_754_287_200; // 2025-08-04T06:00:00Z
const PACKETS = 20_000;

/**
 * Rewrites the pcap's record times: a run before the hour, then a clock that steps back and
 * forth across the hour boundary frame by frame, then a run after it. The importer splits each
 * drain's rows by hour, so the parts of the two hours interleave row by row.
 */
function steppedClock(bytes: Buffer): Buffer {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let frame = 0;
  for (let offset = 24; offset < bytes.length; offset += 16 + view.getUint32(offset + 8, true), frame++) {
    const interleaved = frame >= 5_000 && frame < 15_000;
    const secondsFromHour = frame < 5_000 ? -1_800 + frame * 0.1 : interleaved ? (frame % 2 === 0 ? -600 : 600) + frame * 0.01 : 900 + frame * 0.1;
    const micros = Math.round((HOUR_S + secondsFromHour) * 1e6);
    view.setUint32(offset, Math.floor(micros / 1e6), true);
    view.setUint32(offset + 4, micros % 1e6, true);
  }
  return bytes;
}

/** Every row's values as JSON text, lists as arrays. */
function rowsOf(table: Table, keep: (ts: number) => boolean = () => true): string[] {
  const names = table.schema.fields.map((field) => field.name);
  const columns = names.map((name) => table.getChild(name)!);
  const times = table.getChild('ts_ms')!;
  const rows: string[] = [];
  for (let row = 0; row < table.numRows; row++) {
    if (!keep(times.get(row) as number)) continue;
    rows.push(JSON.stringify(columns.map((column) => (column.get(row) instanceof Vector ? (column.get(row) as Vector).toArray() : column.get(row)))));
  }
  return rows;
}

describe('a window of a dataset as captures', () => {
  let fromFile: Capture;
  let engine: DatasetEngine;
  const id = 'stepped';

  beforeAll(async () => {
    const work = await mkdtemp(join(tmpdir(), 'sextant-window-captures-'));
    const generated = join(work, 'generated.pcap');
    await writeBleBenchmarkPcap(generated, PACKETS);
    const pcap = join(work, 'stepped.pcap');
    await writeFile(pcap, steppedClock(await readFile(generated)));
    const read = await readCaptureFile(new Uint8Array(await readFile(pcap)), { id, fileName: 'stepped.pcap' });
    if (!read.ok) throw new Error(read.error.message);
    fromFile = read.value;
    const root = join(work, 'ds');
    const [outcome] = await importFiles({ root, files: [{ path: pcap, captureId: id }], jobs: 1, drainRows: 4_096 });
    expect(outcome.result.ok).toBe(true);
    const opened = await DatasetEngine.open(root);
    if (!opened.ok) throw new Error(opened.error.message);
    engine = opened.value;
    return () => engine.close();
  });

  it('gives back the file’s rows in the file’s order when a stepped clock interleaves two hours’ parts', async () => {
    const hours = new Set(engine.manifest.sources[0].parts.map((part) => part.hour));
    expect([...hours].sort()).toEqual(['2025-08-04T05', '2025-08-04T06']);
    const [window] = await windowCaptures(engine, { fromMs: null, toMs: null, captureIds: [id] }, [id], 1_000);
    expect(window.rows).toBe(PACKETS);
    expect(rowsOf(window.capture.table)).toEqual(rowsOf(fromFile.table));
    expect(window.capture.info.bounds).toEqual(fromFile.info.bounds);
    expect(window.capture.info.sourceSha256).toBe(fromFile.info.sourceSha256);
  });

  it('keeps only the rows inside a bounded window, in the file’s order', async () => {
    const fromMs = (HOUR_S - 700) * 1000;
    const toMs = (HOUR_S + 700) * 1000;
    const [window] = await windowCaptures(engine, { fromMs, toMs, captureIds: [id] }, [id], 1_000);
    const expected = rowsOf(fromFile.table, (ts) => ts >= fromMs && ts < toMs);
    expect(expected.length).toBeGreaterThan(7_000);
    expect(expected.length).toBeLessThan(PACKETS - 5_000);
    expect(rowsOf(window.capture.table)).toEqual(expected);
  });

  it('counts every planned window from one scan exactly as it counts them one by one', async () => {
    const whole = await countWindow(engine, { fromMs: null, toMs: null, captureIds: [] });
    const fromMs = Math.floor(whole[0].firstMs!);
    const toMs = Math.floor(whole[0].lastMs!) + 1;
    // Buckets of 2 minutes; of 7 minutes with no overlap; of 1 ms (too many: counted window by window).
    for (const [windowMs, overlapMs] of [
      [600_000, 240_000],
      [420_000, 0],
      [333_333, 1],
    ]) {
      const plans = planWindows(fromMs, toMs, windowMs, overlapMs);
      expect(plans.length).toBeGreaterThan(3);
      const oneByOne = [];
      for (const plan of plans) oneByOne.push(await countWindow(engine, { fromMs: plan.fromMs, toMs: plan.toMs, captureIds: [id] }));
      expect(await countWindows(engine, plans, [id])).toEqual(oneByOne);
    }
    expect(await countWindows(engine, [], [])).toEqual([]);
  });

  it('fails naming a part that went missing after the dataset was opened (the window is read by its tool thread)', async () => {
    const window = { fromMs: null, toMs: null, captureIds: [id] };
    const counts = await countWindow(engine, window);
    const part = engine.manifest.sources[0].parts[0];
    const path = join(engine.root, part.path);
    await rename(path, `${path}.away`);
    try {
      await expect(analyseWindow(engine, window, counts, DEFAULT_ARGUMENTS, 60_000, 'missing-part')).rejects.toThrow(part.path);
    } finally {
      await rename(`${path}.away`, path);
    }
  });
});
