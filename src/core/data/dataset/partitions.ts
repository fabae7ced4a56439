/**
 * How a Sextant dataset lays its Parquet files out: Hive-style directories by capture and UTC
 * hour (`parts/capture_id=<id>/hour=2026-11-20T13/`), the convention DuckDB, Spark and most
 * Parquet readers recover partition columns from. Partition columns are not stored inside the
 * files (Spark refuses a column that is in both).
 */
import { Table } from 'apache-arrow';
import { numericColumn } from '../columns.ts';
import { batchesOfRuns, type RowRun } from './row-runs.ts';

/** Directory under the dataset root that holds the Parquet parts. */
export const PARTS_DIR = 'parts';

/** The partition columns, outermost first. */
export const PARTITION_COLUMNS = ['capture_id', 'hour'] as const;

/** The `hour` value of rows without a timestamp: Hive's (and Spark's) name for a null partition. */
export const NULL_PARTITION = '__HIVE_DEFAULT_PARTITION__';

const HOUR_MS = 3_600_000;

/** `2026-11-20T13` for a time in that UTC hour; {@link NULL_PARTITION} for a missing or absurd time. */
export function hourPartition(tsMs: number): string {
  if (!Number.isFinite(tsMs)) return NULL_PARTITION;
  const date = new Date(Math.floor(tsMs / HOUR_MS) * HOUR_MS);
  // Dates outside years 0–9999 have no such ISO text; they land in the null partition.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) return NULL_PARTITION;
  return date.toISOString().slice(0, 13);
}

/**
 * One directory name `key=value`, the value escaped as Hive escapes it (`%XX` for `/`, `=`, `%`,
 * control characters and the other characters Hive lists), so any capture id is a safe name.
 */
export function partitionSegment(key: string, value: string): string {
  return `${key}=${escapePartitionValue(value)}`;
}

const HIVE_ESCAPED = new Set(['"', '#', '%', "'", '*', '/', ':', '=', '?', '\\', '\x7f', '{', '[', ']', '^']);

export function escapePartitionValue(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || HIVE_ESCAPED.has(char) ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : char;
  }
  return out;
}

/** The directory of a capture's hour, relative to the dataset root. */
export function partitionDirectory(captureId: string, hour: string): string {
  return `${PARTS_DIR}/${partitionSegment('capture_id', captureId)}/${partitionSegment('hour', hour)}`;
}

/** Rows of one hour, as a table sharing the input's buffers. */
export interface HourSlice {
  hour: string;
  table: Table;
}

/**
 * Splits a table into one table per UTC hour of `timeColumn`, keeping row order within each.
 * Rows arrive (nearly) in time order, so the split is into runs of equal hour, joined per hour:
 * long runs as zero-copy slices, short ones (a clock stepping back and forth across the hour)
 * copied together (row-runs.ts).
 */
export function splitByHour(table: Table, timeColumn: string): HourSlice[] {
  const runs = new Map<string, RowRun[]>();
  for (const batch of table.batches) {
    const times = numericColumn(batch, timeColumn);
    let start = 0;
    // Hours compared as numbers; the text is made once per run.
    let hour = hourNumber(times[0]);
    for (let row = 1; row <= batch.numRows; row++) {
      const next = row < batch.numRows ? hourNumber(times[row]) : Number.NaN;
      if (next === hour) continue;
      const name = hourPartition(times[start]);
      const run = { batch, start, end: row };
      const list = runs.get(name);
      if (list) list.push(run);
      else runs.set(name, [run]);
      start = row;
      hour = next;
    }
  }
  return [...runs].map(([hour, hourRuns]) => ({ hour, table: new Table(table.schema, batchesOfRuns(table.schema, hourRuns)) }));
}

/** The hour count since the epoch; -1e300 stands for every missing time, so they form runs too. */
function hourNumber(tsMs: number): number {
  return Number.isFinite(tsMs) ? Math.floor(tsMs / HOUR_MS) : -1e300;
}
