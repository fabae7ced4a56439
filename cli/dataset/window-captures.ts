/**
 * A time window of a dataset as ordinary captures, one per capture id, for the tools that read
 * captures in memory: DuckDB selects the window's rows (pruning parts by their time statistics)
 * in each capture's frame order into a temporary Parquet file; parquet-wasm reads it back as
 * Arrow one row group at a time (WebAssembly memory never shrinks: a whole window decoded at
 * once would keep ~0.6 GB per million rows for the rest of the run), and the one import pipeline
 * makes it a capture, exactly as if it were a file.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Table, tableFromIPC, tableToIPC, type RecordBatch } from 'apache-arrow';
import { readParquet } from 'parquet-wasm/node';
import { BLE_RECORD_COLUMNS, readCaptureSource, type Capture, type CaptureSource } from '../../src/core/index.ts';
import { sqlString, type DatasetEngine } from './duckdb-engine.ts';

export interface DatasetWindow {
  /** Inclusive start and exclusive end, epoch milliseconds; null for the dataset's own bounds. */
  fromMs: number | null;
  toMs: number | null;
  /** Only these capture ids; empty for all. */
  captureIds: string[];
}

export interface WindowCapture {
  capture: Capture;
  rows: number;
}

/** The captures in the window, with how many rows each holds and its first and last time there. */
export async function countWindow(engine: DatasetEngine, window: DatasetWindow): Promise<Array<{ captureId: string; rows: number; firstMs: number | null; lastMs: number | null }>> {
  const answer = await engine.query(`SELECT capture_id, count(*), min(ts_ms), max(ts_ms) FROM packets WHERE ${windowCondition(window)} GROUP BY capture_id ORDER BY capture_id`, 1_000_000);
  const time = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  return answer.rows.map(([captureId, rows, first, last]) => ({ captureId: String(captureId), rows: Number(rows), firstMs: time(first), lastMs: time(last) }));
}

/** Rows per row group of a window's temporary Parquet file (DuckDB's default), the unit read back at a time. */
export const WINDOW_ROW_GROUP_ROWS = 122_880;

export async function windowCaptures(engine: DatasetEngine, window: DatasetWindow, captureIds: string[], rowGroupRows = WINDOW_ROW_GROUP_ROWS): Promise<WindowCapture[]> {
  const work = await mkdtemp(join(tmpdir(), 'sextant-window-'));
  try {
    const captures: WindowCapture[] = [];
    for (const captureId of captureIds) {
      const path = join(work, 'window.parquet');
      const columns = BLE_RECORD_COLUMNS.map((column) => `"${column.name}"`).join(', ');
      await engine.query(
        `COPY (SELECT ${columns} FROM packets WHERE capture_id = ${sqlString(captureId)} AND ${windowCondition(window)} ORDER BY frame_number) TO ${sqlString(path)} (FORMAT parquet, ROW_GROUP_SIZE ${rowGroupRows})`,
        0,
      );
      const groups = Number((await engine.query(`SELECT num_row_groups FROM parquet_file_metadata(${sqlString(path)})`, 1)).rows[0][0]);
      const bytes = new Uint8Array(await readFile(path));
      await rm(path, { force: true });
      const batches: RecordBatch[] = [];
      let schema = tableFromIPC(readParquet(bytes, { limit: 0 }).intoIPCStream()).schema;
      for (let group = 0; group < groups; group++) {
        const part = tableFromIPC(readParquet(bytes, { rowGroups: [group] }).intoIPCStream());
        schema = part.schema;
        batches.push(...part.batches);
      }
      // Row groups may carry different dictionaries: the IPC stream writes each replacement.
      const arrow = tableToIPC(batches.length > 0 ? new Table(batches) : new Table(schema));
      // The batches are in the IPC bytes now: let them go before the capture is built from those.
      batches.length = 0;
      const read = await readCaptureSource(memorySource(`${captureId}.arrow`, arrow), { id: captureId, fileName: `${captureId}.arrow` });
      if (!read.ok) throw new Error(`the window of ${captureId} could not be read back: ${read.error.message}`);
      captures.push({ capture: read.value, rows: read.value.info.rowCount });
    }
    return captures;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function windowCondition(window: DatasetWindow): string {
  const conditions = ['TRUE'];
  if (window.fromMs !== null) conditions.push(`ts_ms >= ${window.fromMs}`);
  if (window.toMs !== null) conditions.push(`ts_ms < ${window.toMs}`);
  if (window.captureIds.length > 0) conditions.push(`capture_id IN (${window.captureIds.map(sqlString).join(', ')})`);
  return conditions.join(' AND ');
}

function memorySource(fileName: string, bytes: Uint8Array): CaptureSource {
  return {
    fileName,
    byteLength: bytes.length,
    async *stream() {
      yield bytes;
    },
    slice: async (start, end) => bytes.slice(start, end).buffer,
  };
}
