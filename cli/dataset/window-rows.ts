/**
 * One window of a dataset analysed from its rows alone, where the dataset itself is out of reach:
 * on a Spark executor, which receives the window's packet rows as Arrow (spark/ble_linkage_job.py)
 * and runs `sextant analyze-window`. The rows become a small dataset of their own (each capture
 * id one source, conformed to the dataset schema as any import is) and that dataset's window goes
 * through the very steps `analyze-dataset --window` runs on each window: countWindow, then
 * analyseWindow. So a window analysed on an executor and the same window analysed on one machine
 * read the same rows the same way, and give the same result.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC, type Table } from 'apache-arrow';
import type { JsonObject, ToolResult } from '../../src/core/index.ts';
import type { ThreadRunner } from '../thread-runner.ts';
import { analyseWindow, type WindowCount } from './analyse-window.ts';
import { DatasetEngine } from './duckdb-engine.ts';
import { commitTable } from './table-into-dataset.ts';
import { countWindow } from './window-count.ts';
import { windowTooLarge, type WindowPlan } from './windowed-analysis.ts';

/** What `analyze-window` prints and `stitch-windows` reads: one analysed window, as JSON. */
export interface WindowRowsOutput {
  format: 'sextant-window-analysis/1';
  index: number;
  from_ms: number;
  end_ms: number;
  to_ms: number;
  captures: Array<{ capture_id: string; rows: number; first_ms: number | null; last_ms: number | null }>;
  /** The analyzer's ToolResult; null when the window held no rows. */
  result: ToolResult | null;
  duration_ms: number;
  time_window: JsonObject | null;
}

export type WindowRowsOutcome = { kind: 'done'; output: WindowRowsOutput } | { kind: 'refused'; code: 'ROWS_NOT_PACKETS' | 'WINDOW_TOO_LARGE'; message: string };

export interface WindowRowsRequest {
  plan: WindowPlan;
  toolArguments: JsonObject;
  timeoutMs: number;
  maxPackets: number;
  /** DuckDB's memory limit while it selects the window (as analyze-dataset's). */
  memoryLimit: string;
}

/**
 * A window's rows from Arrow IPC bytes (stream or file), or why they are not. Arrow reads input
 * too short to hold a message (empty, or a few stray bytes) as a table without columns rather than
 * failing; rows always come with their schema (a window without rows has one too), so a table
 * without columns is refused as well.
 */
export function windowRowsFromIpc(bytes: Uint8Array): Table | string {
  try {
    const table = tableFromIPC(bytes);
    if (table.schema.fields.length === 0) return `the rows are not an Arrow IPC stream or file (${bytes.length} bytes without a schema)`;
    return table;
  } catch (error) {
    return `the rows are not an Arrow IPC stream or file (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The rows of `table` grouped by their `capture_id`, in the order the ids first appear. */
export function rowsByCapture(table: Table): Map<string, Table> | string {
  const ids = table.getChild('capture_id');
  if (!ids) return "the rows have no 'capture_id' column";
  const runs = new Map<string, Table[]>();
  let start = 0;
  for (let row = 1; row <= table.numRows; row++) {
    const id: unknown = row < table.numRows ? ids.get(row) : undefined;
    const previous: unknown = ids.get(start);
    if (row < table.numRows && id === previous) continue;
    if (typeof previous !== 'string' || previous === '') return `row ${start}: capture_id is ${JSON.stringify(previous)}, not a capture id`;
    runs.set(previous, [...(runs.get(previous) ?? []), table.slice(start, row)]);
    start = row;
  }
  return new Map([...runs].map(([id, slices]) => [id, slices.length === 1 ? slices[0] : slices[0].concat(...slices.slice(1))]));
}

/** `threads`: a tool thread kept across windows (`analyze-window --serve`); without it, the window's own. */
export async function analyseWindowRows(table: Table, request: WindowRowsRequest, threads?: ThreadRunner): Promise<WindowRowsOutcome> {
  const { plan } = request;
  const frame = { format: 'sextant-window-analysis/1' as const, index: plan.index, from_ms: plan.fromMs, end_ms: plan.endMs, to_ms: plan.toMs };
  if (table.numRows === 0) return { kind: 'done', output: { ...frame, captures: [], result: null, duration_ms: 0, time_window: null } };
  if (table.numRows > request.maxPackets) return { kind: 'refused', code: 'WINDOW_TOO_LARGE', message: windowTooLarge(plan, table.numRows, request.maxPackets) };
  const captures = rowsByCapture(table);
  if (typeof captures === 'string') return { kind: 'refused', code: 'ROWS_NOT_PACKETS', message: captures };
  const root = await mkdtemp(join(tmpdir(), 'sextant-window-rows-'));
  try {
    for (const [captureId, rows] of captures) await commitTable(root, captureId, rows);
    const opened = await DatasetEngine.open(root, { memoryLimit: request.memoryLimit });
    if (!opened.ok) throw new Error(`the window's rows did not make a dataset: ${opened.error.message} [${opened.error.code}]`);
    const engine = opened.value;
    try {
      const window = { fromMs: plan.fromMs, toMs: plan.toMs, captureIds: [] };
      const counts: WindowCount[] = await countWindow(engine, window);
      const captured = counts.map((entry) => ({ capture_id: entry.captureId, rows: entry.rows, first_ms: entry.firstMs, last_ms: entry.lastMs }));
      if (counts.reduce((sum, entry) => sum + entry.rows, 0) === 0) return { kind: 'done', output: { ...frame, captures: [], result: null, duration_ms: 0, time_window: null } };
      const { invocation, record } = await analyseWindow(engine, window, counts, request.toolArguments, request.timeoutMs, `analyze-window-${Date.now()}-w${plan.index}`, threads);
      const selection = invocation.capture_selection;
      const timeWindow = selection && 'time_window' in selection ? { start_ms: selection.time_window.start_ms, end_ms: selection.time_window.end_ms } : null;
      return { kind: 'done', output: { ...frame, captures: captured, result: record.result, duration_ms: Math.round(record.durationMs), time_window: timeWindow } };
    } finally {
      engine.close();
    }
  } catch (error) {
    if (error instanceof Error && /^(MISSING_PACKET_COLUMNS|COLUMN_TYPE_MISMATCH|VALUE_OUT_OF_RANGE): /.test(error.message)) return { kind: 'refused', code: 'ROWS_NOT_PACKETS', message: error.message };
    throw error;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
