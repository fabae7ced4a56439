/**
 * `sextant invoke --dataset DIR`: the captures a run's invocations select, read from a dataset
 * instead of capture files. Each capture id of the dataset that an invocation names gets the rows
 * of the time windows the invocations ask of it (their span, when a plan asks several), read
 * from its Parquet parts as `analyze-dataset` reads them, and declares its source file's whole
 * time bounds — so an invocation is judged exactly as against the file, and the rows outside
 * every asked window are never read. Validation stays the executor's: shapes this does not
 * recognise select nothing here and are refused there with their field.
 */
import { isJsonObject, type Capture, type JsonValue } from '../../src/core/index.ts';
import type { DatasetEngine } from './duckdb-engine.ts';
import { windowCaptures, type DatasetWindow } from './window-captures.ts';
import { countWindow } from './window-count.ts';

/** Inclusive start and end (ms, the contract's time ranges), or null for the capture's every row. */
export type AskedWindow = { startMs: number; endMs: number } | null;

/**
 * The windows the steps ask of each capture id: the BLE shape (`capture_ids`, `time_window`)
 * and the generic one (`capture_id`, optional `selectors.time_range`). A capture asked without
 * a window, or asked twice, gets the span of what was asked.
 */
export function askedWindows(steps: ReadonlyArray<JsonValue>): Map<string, AskedWindow> {
  const asked = new Map<string, AskedWindow>();
  const ask = (captureId: unknown, range: unknown): void => {
    if (typeof captureId !== 'string' || captureId.length === 0) return;
    const window = timeRange(range);
    const known = asked.get(captureId);
    if (known === undefined) asked.set(captureId, window);
    else if (known !== null) asked.set(captureId, window === null ? null : { startMs: Math.min(known.startMs, window.startMs), endMs: Math.max(known.endMs, window.endMs) });
  };
  for (const step of steps) {
    if (!isJsonObject(step) || !isJsonObject(step.capture_selection)) continue;
    const selection = step.capture_selection;
    if (Array.isArray(selection.capture_ids)) for (const id of selection.capture_ids) ask(id, selection.time_window);
    if (selection.capture_id !== undefined) ask(selection.capture_id, isJsonObject(selection.selectors) ? selection.selectors.time_range : undefined);
  }
  return asked;
}

function timeRange(value: unknown): AskedWindow {
  if (!isJsonObject(value)) return null;
  const { start_ms: start, end_ms: end } = value;
  return typeof start === 'number' && typeof end === 'number' && Number.isFinite(start) && Number.isFinite(end) && start <= end ? { startMs: start, endMs: end } : null;
}

export type DatasetCapturesOutcome = { kind: 'read'; captures: Capture[]; rows: number } | { kind: 'refused'; code: 'WINDOW_TOO_LARGE'; message: string };

/**
 * The dataset's captures the steps ask for, each holding the rows of its asked span. Capture ids
 * the dataset does not hold are left to the catalog's other captures (and the executor).
 */
export async function datasetCaptures(engine: DatasetEngine, asked: ReadonlyMap<string, AskedWindow>, maxPackets: number): Promise<DatasetCapturesOutcome> {
  const wanted = engine.manifest.sources.filter((source) => asked.has(source.capture_id));
  const windows = new Map<string, DatasetWindow>();
  let rows = 0;
  for (const source of wanted) {
    const range = asked.get(source.capture_id) ?? null;
    // The contract's end is inclusive, the dataset window's exclusive.
    const window: DatasetWindow = { fromMs: range?.startMs ?? null, toMs: range === null ? null : range.endMs + 1, captureIds: [source.capture_id] };
    windows.set(source.capture_id, window);
    rows += (await countWindow(engine, window)).reduce((sum, entry) => sum + entry.rows, 0);
  }
  if (rows > maxPackets) {
    return {
      kind: 'refused',
      code: 'WINDOW_TOO_LARGE',
      message: `the invocations select ${rows.toLocaleString('en-US')} packets of the dataset, more than --max-packets ${maxPackets.toLocaleString('en-US')}: narrow their time windows (the tools read captures in memory), or analyse the dataset with \`sextant analyze-dataset --window\``,
    };
  }
  const captures: Capture[] = [];
  for (const source of wanted) {
    const window = windows.get(source.capture_id)!;
    const bounds = source.bounds ?? undefined;
    const [read] = await windowCaptures(engine, window, [source.capture_id], undefined, bounds);
    captures.push(read.capture);
  }
  return { kind: 'read', captures, rows };
}
