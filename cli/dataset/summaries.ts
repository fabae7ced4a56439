/**
 * The summary stage's SQL (sql/ble-summary*.sql, the one source the Spark job runs too) run by
 * DuckDB over a dataset, slice by slice of hours: per-hour, per-receiver, per-address, per-bin
 * summaries and per-payload summaries written as Parquet, and the merge of several shards'
 * summaries into their union's.
 */
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NULL_PARTITION } from '../../src/core/index.ts';
import { ROOT } from '../built-runner.mjs';
import { sqlString, type DatasetEngine } from './duckdb-engine.ts';

/** The SQL files, each with the relation it reads. */
export const SUMMARY_SQL = {
  bins: { file: 'ble-summary.sql', reads: 'packets' },
  binsMerge: { file: 'ble-summary-merge.sql', reads: 'summaries' },
  payloads: { file: 'ble-summary-payloads.sql', reads: 'packets' },
  payloadsMerge: { file: 'ble-summary-payloads-merge.sql', reads: 'payload_summaries' },
} as const;

export const DEFAULT_BIN_MS = 10_000;

/** The file names summaries are written under in an output directory. */
export const SUMMARY_FILES = { bins: 'address_bins.parquet', payloads: 'address_payloads.parquet' } as const;

export async function summarySql(name: keyof typeof SUMMARY_SQL, binMs: number): Promise<string> {
  if (!Number.isSafeInteger(binMs) || binMs < 1) throw new Error(`the bin width must be a whole number of milliseconds ≥ 1, not ${binMs}`);
  const text = await readFile(fileURLToPath(new URL(`sql/${SUMMARY_SQL[name].file}`, ROOT)), 'utf8');
  return text.replaceAll('{{bin_ms}}', String(binMs));
}

/** The key each summary's rows are ordered by: hour first, so slices of hours concatenate in order. */
export const SUMMARY_KEYS = {
  bins: 'hour, receiver, advertiser_addr, bin_start_ms',
  payloads: 'hour, receiver, advertiser_addr, payload_signature',
} as const;

/**
 * How many packets one slice of the stage aggregates at most (an hour with more is a slice of
 * its own). DuckDB's hash aggregate spills past `memory_limit`, yet a billion packets in one
 * GROUP BY (~90 M bin groups) still ran out of its 1 GB; slices of whole hours keep every
 * aggregate the size of a slice, so memory stays flat and time linear in the dataset's length.
 */
export const SLICE_PACKETS = 20_000_000;
/** The same bound for merging summaries, in summary rows. */
export const SLICE_SUMMARY_ROWS = 5_000_000;

interface HourRows {
  hour: string;
  rows: number;
}

/** Consecutive hours (in order) grouped into slices of at most `budget` rows, each hour whole. */
export function hourSlices(hours: HourRows[], budget: number): string[][] {
  const ordered = [...hours].sort((a, b) => (a.hour < b.hour ? -1 : a.hour > b.hour ? 1 : 0));
  const slices: string[][] = [];
  let rows = 0;
  for (const { hour, rows: hourRows } of ordered) {
    const last = slices.at(-1);
    if (last && last.at(-1) === hour) {
      rows += hourRows;
      continue;
    }
    if (!last || rows + hourRows > budget) {
      slices.push([hour]);
      rows = hourRows;
    } else {
      last.push(hour);
      rows += hourRows;
    }
  }
  return slices;
}

/**
 * Summarizes the dataset's packets (only `captureIds` when given) into the two Parquet files at
 * `paths`, each ordered by its key ({@link SUMMARY_KEYS}) so equal summaries are equal files'
 * rows, slice by slice of hours. Returns the rows.
 */
export async function writeSummaries(
  engine: DatasetEngine,
  options: { binMs: number; captureIds: string[]; paths: { bins: string; payloads: string }; slicePackets?: number },
): Promise<{ bins: number; payloads: number }> {
  const selected = new Set(options.captureIds);
  const hours = engine.manifest.sources
    .filter((source) => selected.size === 0 || selected.has(source.capture_id))
    .flatMap((source) => source.parts)
    // Rows without a time sit in the null partition; the summary SQL leaves them out.
    .filter((part) => part.hour !== NULL_PARTITION)
    .map((part) => ({ hour: part.hour, rows: part.rows }));
  const slices = hourSlices(hours, options.slicePackets ?? SLICE_PACKETS);
  const captures = selected.size > 0 ? ` AND capture_id IN (${[...selected].map(sqlString).join(', ')})` : '';
  // The SQL reads `packets`: here the dataset's view, narrowed to the slice by a CTE of that name.
  const over = (sql: string) => (slice: string[]) => `WITH packets AS (SELECT * FROM packets WHERE ${hourFilter(slice)}${captures}) ${sql}`;
  const bins = await copySliced(engine, over(await summarySql('bins', options.binMs)), slices, SUMMARY_KEYS.bins, options.paths.bins);
  const payloads = await copySliced(engine, over(await summarySql('payloads', options.binMs)), slices, SUMMARY_KEYS.payloads, options.paths.payloads);
  return { bins, payloads };
}

/** Merges several shards' summary files (each pair written by `writeSummaries` with one bin width), slice by slice of hours. */
export async function mergeSummaries(
  engine: DatasetEngine,
  shards: Array<{ bins: string; payloads: string }>,
  binMs: number,
  paths: { bins: string; payloads: string },
  sliceRows: number = SLICE_SUMMARY_ROWS,
): Promise<{ bins: number; payloads: number }> {
  const merge = async (key: 'bins' | 'payloads', relation: string, sql: string): Promise<number> => {
    const files = `read_parquet([${shards.map((shard) => sqlString(shard[key])).join(', ')}])`;
    const hours = await engine.query(`SELECT hour, count(*) FROM ${files} GROUP BY hour`, 10_000_000);
    const slices = hourSlices(
      hours.rows.map(([hour, rows]) => ({ hour: String(hour), rows: Number(rows) })),
      sliceRows,
    );
    // Shard files are ordered by hour first, so each slice's filter skips most row groups.
    return copySliced(engine, (slice) => `WITH ${relation} AS (SELECT * FROM ${files} WHERE ${hourFilter(slice)}) ${sql}`, slices, SUMMARY_KEYS[key], paths[key]);
  };
  const bins = await merge('bins', 'summaries', await summarySql('binsMerge', binMs));
  const payloads = await merge('payloads', 'payload_summaries', await summarySql('payloadsMerge', binMs));
  return { bins, payloads };
}

function hourFilter(slice: string[]): string {
  return slice.length === 0 ? 'false' : `hour IN (${slice.map(sqlString).join(', ')})`;
}

/**
 * Writes `sliceSql` of every slice, ordered by `key`, into one Parquet file at `path`: each slice
 * into a file of its own beside it, then those files, in slice order, copied into one (DuckDB
 * keeps a file list's order: no sort of the whole). Returns the rows written.
 */
async function copySliced(engine: DatasetEngine, sliceSql: (slice: string[]) => string, slices: string[][], key: string, path: string): Promise<number> {
  const pieces = `${path}.slices`;
  await rm(pieces, { recursive: true, force: true });
  await mkdir(pieces, { recursive: true });
  try {
    const files: string[] = [];
    // No slice (no timed packets): one empty piece, so the file still has the summary's columns.
    for (const [index, slice] of (slices.length > 0 ? slices : [[]]).entries()) {
      const file = join(pieces, `${String(index).padStart(6, '0')}.parquet`);
      await engine.query(`COPY (SELECT * FROM (${sliceSql(slice)}) ORDER BY ${key}) TO ${sqlString(file)} (FORMAT parquet)`, 0);
      files.push(file);
    }
    if (files.length === 1) await rename(files[0], path);
    else await engine.query(`COPY (SELECT * FROM read_parquet([${files.map(sqlString).join(', ')}])) TO ${sqlString(path)} (FORMAT parquet)`, 0);
  } finally {
    await rm(pieces, { recursive: true, force: true });
  }
  const counted = await engine.query(`SELECT count(*) FROM read_parquet(${sqlString(path)})`, 1);
  return Number(counted.rows[0][0]);
}
