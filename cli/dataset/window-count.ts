/**
 * How many rows of each capture a time window of a dataset holds, asked of DuckDB (kept apart
 * from window-captures.ts, which reads the rows and runs in tool threads without DuckDB).
 */
import { sqlString, type DatasetEngine } from './duckdb-engine.ts';
import type { WindowCount } from './analyse-window.ts';
import type { DatasetWindow } from './window-captures.ts';

/** The captures in the window, with how many rows each holds and its first and last time there. */
export async function countWindow(engine: DatasetEngine, window: DatasetWindow): Promise<WindowCount[]> {
  const answer = await engine.query(`SELECT capture_id, count(*), min(ts_ms), max(ts_ms) FROM packets WHERE ${windowCondition(window)} GROUP BY capture_id ORDER BY capture_id`, 1_000_000);
  const time = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  return answer.rows.map(([captureId, rows, first, last]) => ({ captureId: String(captureId), rows: Number(rows), firstMs: time(first), lastMs: time(last) }));
}

/** The most time buckets {@link countWindows} counts in one query before it asks window by window. */
const MAX_BUCKETS = 1_000_000;

/**
 * What {@link countWindow} answers for each of `windows` (consecutive windows as planWindows
 * plans them, each `[fromMs, toMs)`), from one scan: rows are counted per capture and per
 * bucket of g = gcd of the windows' edges' offsets (10-minute windows overlapping by 4 minutes:
 * 2-minute buckets), and each window sums its buckets. Counting window by window instead asked
 * DuckDB 584 times over 1,752 parts for a billion-packet week — 5 minutes before the first
 * window started.
 */
export async function countWindows(engine: DatasetEngine, windows: ReadonlyArray<{ fromMs: number; toMs: number }>, captureIds: string[]): Promise<WindowCount[][]> {
  if (windows.length === 0) return [];
  const fromMs = windows[0].fromMs;
  // A reduce, not Math.max(...): a year of one-minute windows is more arguments than a call takes.
  const toMs = windows.reduce((latest, window) => Math.max(latest, window.toMs), Number.NEGATIVE_INFINITY);
  // An end at the data's end need not fall on a bucket edge: nothing lies after it.
  const bucketMs = windows.reduce((g, window) => gcd(gcd(g, window.fromMs - fromMs), window.toMs < toMs ? window.toMs - fromMs : 0), 0);
  if (!(bucketMs >= 1) || (toMs - fromMs) / bucketMs > MAX_BUCKETS) {
    const counts: WindowCount[][] = [];
    for (const window of windows) counts.push(await countWindow(engine, { ...window, captureIds }));
    return counts;
  }
  const answer = await engine.query(
    `SELECT capture_id, CAST(floor((ts_ms - ${fromMs}) / ${bucketMs}) AS BIGINT) AS bucket, count(*), min(ts_ms), max(ts_ms) FROM packets ` +
      `WHERE ${windowCondition({ fromMs, toMs, captureIds })} GROUP BY ALL`,
    MAX_BUCKETS * Math.max(1, engine.manifest.sources.length),
  );
  const buckets = new Map<number, Array<{ captureId: string; rows: number; firstMs: number; lastMs: number }>>();
  for (const [captureId, bucket, rows, first, last] of answer.rows) {
    const entries = buckets.get(Number(bucket)) ?? [];
    entries.push({ captureId: String(captureId), rows: Number(rows), firstMs: Number(first), lastMs: Number(last) });
    buckets.set(Number(bucket), entries);
  }
  return windows.map((window) => {
    const byCapture = new Map<string, WindowCount>();
    for (let bucket = (window.fromMs - fromMs) / bucketMs; bucket < Math.ceil((window.toMs - fromMs) / bucketMs); bucket++) {
      for (const entry of buckets.get(bucket) ?? []) {
        const known = byCapture.get(entry.captureId);
        if (!known) byCapture.set(entry.captureId, { ...entry });
        else {
          known.rows += entry.rows;
          known.firstMs = Math.min(known.firstMs ?? entry.firstMs, entry.firstMs);
          known.lastMs = Math.max(known.lastMs ?? entry.lastMs, entry.lastMs);
        }
      }
    }
    return [...byCapture.values()].sort((a, b) => (a.captureId < b.captureId ? -1 : a.captureId > b.captureId ? 1 : 0));
  });
}

function gcd(a: number, b: number): number {
  let [x, y] = [Math.abs(a), Math.abs(b)];
  while (y > 0) [x, y] = [y, x % y];
  return x;
}

function windowCondition(window: DatasetWindow): string {
  const conditions = ['TRUE'];
  if (window.fromMs !== null) conditions.push(`ts_ms >= ${window.fromMs}`);
  if (window.toMs !== null) conditions.push(`ts_ms < ${window.toMs}`);
  if (window.captureIds.length > 0) conditions.push(`capture_id IN (${window.captureIds.map(sqlString).join(', ')})`);
  return conditions.join(' AND ');
}
