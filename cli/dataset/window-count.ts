/**
 * How many rows of each capture a time window of a dataset holds, asked of DuckDB (kept apart
 * from window-captures.ts, which reads the rows and runs in tool threads without DuckDB).
 */
import { sqlString, type DatasetEngine } from './duckdb-engine.ts';
import type { DatasetWindow } from './window-captures.ts';

/** The captures in the window, with how many rows each holds and its first and last time there. */
export async function countWindow(engine: DatasetEngine, window: DatasetWindow): Promise<Array<{ captureId: string; rows: number; firstMs: number | null; lastMs: number | null }>> {
  const answer = await engine.query(`SELECT capture_id, count(*), min(ts_ms), max(ts_ms) FROM packets WHERE ${windowCondition(window)} GROUP BY capture_id ORDER BY capture_id`, 1_000_000);
  const time = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  return answer.rows.map(([captureId, rows, first, last]) => ({ captureId: String(captureId), rows: Number(rows), firstMs: time(first), lastMs: time(last) }));
}

function windowCondition(window: DatasetWindow): string {
  const conditions = ['TRUE'];
  if (window.fromMs !== null) conditions.push(`ts_ms >= ${window.fromMs}`);
  if (window.toMs !== null) conditions.push(`ts_ms < ${window.toMs}`);
  if (window.captureIds.length > 0) conditions.push(`capture_id IN (${window.captureIds.map(sqlString).join(', ')})`);
  return conditions.join(' AND ');
}
