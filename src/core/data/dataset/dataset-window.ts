/**
 * A time window of a dataset source: which of its Parquet parts can hold rows of the window (the
 * manifest records each part's time bounds), and which rows of a decoded part lie inside it. The
 * CLI's windowed analysis and the app's "open a dataset window" both read windows this way.
 */
import type { RecordBatch } from 'apache-arrow';
import { numericColumn } from '../columns.ts';
import type { DatasetPart } from './dataset-manifest.ts';
import type { RowRun } from './row-runs.ts';

/** Inclusive start and exclusive end, epoch milliseconds; null for no bound on that side. */
export interface DatasetTimeWindow {
  fromMs: number | null;
  toMs: number | null;
}

/** Whether a part may hold rows of the window, by the time bounds the manifest records for it. */
export function partOverlapsWindow(part: DatasetPart, window: DatasetTimeWindow): boolean {
  // Rows without a time are only in the parts of the null partition, and only a window without bounds holds them (as `TRUE` does in SQL).
  if (part.min_ts_ms === null || part.max_ts_ms === null) return window.fromMs === null && window.toMs === null;
  return (window.fromMs === null || part.max_ts_ms >= window.fromMs) && (window.toMs === null || part.min_ts_ms < window.toMs);
}

/** The stretches of consecutive rows of `batch` inside the window. */
export function runsInWindow(batch: RecordBatch, window: DatasetTimeWindow): RowRun[] {
  if (window.fromMs === null && window.toMs === null) return batch.numRows > 0 ? [{ batch, start: 0, end: batch.numRows }] : [];
  const from = window.fromMs ?? -Infinity;
  const to = window.toMs ?? Infinity;
  // NaN for a missing time, which is inside no window.
  const times = numericColumn(batch, 'ts_ms');
  const runs: RowRun[] = [];
  let start = -1;
  for (let row = 0; row <= batch.numRows; row++) {
    const inside = row < batch.numRows && times[row] >= from && times[row] < to;
    if (inside && start < 0) start = row;
    if (!inside && start >= 0) {
      runs.push({ batch, start, end: row });
      start = -1;
    }
  }
  return runs;
}
