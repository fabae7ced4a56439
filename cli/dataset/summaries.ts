/**
 * The summary stage's SQL (sql/ble-summary*.sql, the one source the Spark job will run too) run
 * by DuckDB over a dataset: per-receiver, per-address, per-bin summaries and per-payload
 * summaries written as Parquet, and the merge of several shards' summaries into their union's.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
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

/**
 * Summarizes the dataset's packets (only `captureIds` when given) into the two Parquet files at
 * `paths`, each ordered by its key so equal summaries are equal files' rows. Returns the rows.
 */
export async function writeSummaries(engine: DatasetEngine, options: { binMs: number; captureIds: string[]; paths: { bins: string; payloads: string } }): Promise<{ bins: number; payloads: number }> {
  const selected = options.captureIds.length > 0 ? ` WHERE capture_id IN (${options.captureIds.map(sqlString).join(', ')})` : '';
  // The SQL reads `packets`: here the dataset's view, narrowed by a CTE of the same name.
  const over = (sql: string): string => `WITH packets AS (SELECT * FROM packets${selected}) ${sql}`;
  const bins = await copyOrdered(engine, over(await summarySql('bins', options.binMs)), 'receiver, advertiser_addr, bin_start_ms', options.paths.bins);
  const payloads = await copyOrdered(engine, over(await summarySql('payloads', options.binMs)), 'receiver, advertiser_addr, payload_signature', options.paths.payloads);
  return { bins, payloads };
}

/** Merges several shards' summary files (each pair written by `writeSummaries` with one bin width). */
export async function mergeSummaries(engine: DatasetEngine, shards: Array<{ bins: string; payloads: string }>, binMs: number, paths: { bins: string; payloads: string }): Promise<{ bins: number; payloads: number }> {
  const list = (key: 'bins' | 'payloads'): string => `read_parquet([${shards.map((shard) => sqlString(shard[key])).join(', ')}])`;
  const bins = await copyOrdered(engine, `WITH summaries AS (SELECT * FROM ${list('bins')}) ${await summarySql('binsMerge', binMs)}`, 'receiver, advertiser_addr, bin_start_ms', paths.bins);
  const payloads = await copyOrdered(engine, `WITH payload_summaries AS (SELECT * FROM ${list('payloads')}) ${await summarySql('payloadsMerge', binMs)}`, 'receiver, advertiser_addr, payload_signature', paths.payloads);
  return { bins, payloads };
}

async function copyOrdered(engine: DatasetEngine, sql: string, key: string, path: string): Promise<number> {
  await engine.query(`COPY (SELECT * FROM (${sql}) ORDER BY ${key}) TO ${sqlString(path)} (FORMAT parquet)`, 0);
  const counted = await engine.query(`SELECT count(*) FROM read_parquet(${sqlString(path)})`, 1);
  return Number(counted.rows[0][0]);
}
