/**
 * `analyze-dataset --window W --overlap O`: a dataset longer than memory analysed window by
 * window and stitched. Windows are consecutive, each reaching O past its end into the next, so
 * a hand-off near a boundary is seen whole by one window and the address it hands off to is
 * shared with the next (src/core/tools/ble-analyzer/stitch). One window's rows are in memory at
 * a time; what is kept across windows is the stitcher's addresses and the window list. The
 * output is paged: each window's ToolResult, the stitched devices as JSON Lines, and a summary
 * ToolResult that points to them (docs/dataset.md).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WindowStitcher, bleAddressAnalyzerManifest, type BleWindowOutput, type ExecutionRecord, type JsonObject, type ToolArtifact, type ToolInvocation, type ToolResult, type ToolWarning } from '../../src/core/index.ts';
import { ThreadRunner } from '../thread-runner.ts';
import { analyseWindow, type WindowAnalysis, type WindowCount } from './analyse-window.ts';
import { formatDurationMs } from './duration.ts';
import type { DatasetEngine } from './duckdb-engine.ts';
import type { ProgressLine } from './progress-line.ts';
import type { DatasetWindow } from './window-captures.ts';
import { countWindow, countWindows } from './window-count.ts';

export interface WindowedRequest {
  root: string;
  out: string;
  /** The whole range (null bounds: the dataset's) and the captures. */
  range: DatasetWindow;
  windowMs: number;
  overlapMs: number;
  toolArguments: JsonObject;
  timeoutMs: number;
  maxPackets: number;
  /** Windows analysed at once (each in its own tool thread); results are stitched in window order. */
  jobs: number;
  progress: ProgressLine | null;
}

/** One window: [fromMs, toMs) where toMs is its own end plus the overlap (clipped to the range). */
export interface WindowPlan {
  index: number;
  fromMs: number;
  /** Where the next window starts. */
  endMs: number;
  toMs: number;
}

export type WindowedOutcome =
  | { kind: 'done'; analysis: JsonObject; records: ExecutionRecord[] }
  | { kind: 'refused'; code: 'EMPTY_WINDOW' | 'WINDOW_TOO_LARGE'; message: string };

/** Consecutive windows of `windowMs` from `fromMs` until `toMs` (exclusive), each extended by `overlapMs`. */
export function planWindows(fromMs: number, toMs: number, windowMs: number, overlapMs: number): WindowPlan[] {
  const plans: WindowPlan[] = [];
  for (let index = 0, start = fromMs; start < toMs; index++, start = fromMs + index * windowMs) {
    const endMs = Math.min(start + windowMs, toMs);
    plans.push({ index, fromMs: start, endMs, toMs: Math.min(endMs + overlapMs, toMs) });
  }
  return plans;
}

/** The whole range in whole milliseconds that hold every selected row ([fromMs, toMs)); null when no row has a time. */
export function windowedSpan(range: Pick<DatasetWindow, 'fromMs' | 'toMs'>, whole: readonly WindowCount[]): { fromMs: number; toMs: number } | null {
  const firsts = whole.flatMap((entry) => (entry.firstMs === null ? [] : [entry.firstMs]));
  const lasts = whole.flatMap((entry) => (entry.lastMs === null ? [] : [entry.lastMs]));
  if (firsts.length === 0) return null;
  // --to is exclusive, the dataset's last packet is not.
  return { fromMs: range.fromMs ?? Math.floor(Math.min(...firsts)), toMs: range.toMs ?? Math.floor(Math.max(...lasts)) + 1 };
}

/** One window's analysis as the stitching step reads it: where it ran (or null for an empty window), wherever it ran. */
export interface AnalysedWindow {
  plan: WindowPlan;
  /** The window's rows per capture (empty for an empty window). */
  count: WindowCount[];
  analysis: { result: ToolResult; durationMs: number; timeWindow: JsonObject | null } | null;
}

/** What the stitching step needs besides the windows: the request, the plan and the dataset's captures. */
export interface StitchRequest extends Pick<WindowedRequest, 'root' | 'out' | 'range' | 'windowMs' | 'overlapMs' | 'toolArguments' | 'timeoutMs' | 'progress'> {
  /** The planned span ({@link windowedSpan}) and its windows ({@link planWindows}). */
  fromMs: number;
  toMs: number;
  plans: WindowPlan[];
  /** The whole range's rows per capture, and the dataset's sources (for their files and hashes). */
  whole: WindowCount[];
  sources: ReadonlyArray<{ capture_id: string; file: string; sha256: string }>;
  totalRows?: number;
}

export async function runWindowedAnalysis(engine: DatasetEngine, request: WindowedRequest): Promise<WindowedOutcome> {
  const whole = await countWindow(engine, request.range);
  const span = windowedSpan(request.range, whole);
  if (span === null) return { kind: 'refused', code: 'EMPTY_WINDOW', message: 'no packets in the window' };
  const { fromMs, toMs } = span;
  const plans = planWindows(fromMs, toMs, request.windowMs, request.overlapMs);

  // Every window counted first: one too large is refused before hours of work, and the counts drive the progress line.
  const counts = await countWindows(engine, plans, request.range.captureIds);
  for (const plan of plans) {
    const rows = counts[plan.index].reduce((sum, entry) => sum + entry.rows, 0);
    if (rows > request.maxPackets) return { kind: 'refused', code: 'WINDOW_TOO_LARGE', message: windowTooLarge(plan, rows, request.maxPackets) };
  }
  const totalRows = counts.reduce((sum, count) => sum + count.reduce((rows, entry) => rows + entry.rows, 0), 0);
  const records: ExecutionRecord[] = [];
  // Up to `jobs` windows are read and analysed ahead of the one being stitched; the stitcher takes them in plan order.
  const analyses = new Map<number, Promise<WindowAnalysis>>();
  const nonEmpty = plans.filter((plan) => counts[plan.index].some((entry) => entry.rows > 0));
  let nextToStart = 0;
  // One tool thread per job, each reading and analysing its windows in turn (a window's run
  // takes an idle thread and gives it back when it ends).
  const threads = Array.from({ length: request.jobs }, () => new ThreadRunner({ testTools: false, captures: [] }));
  const idle = [...threads];
  async function* analysed(): AsyncGenerator<AnalysedWindow> {
    for (const plan of plans) {
      while (nextToStart < nonEmpty.length && analyses.size < request.jobs) {
        const ahead = nonEmpty[nextToStart++];
        const thread = idle.pop()!;
        const started = analyseWindow(engine, { fromMs: ahead.fromMs, toMs: ahead.toMs, captureIds: request.range.captureIds }, counts[ahead.index], request.toolArguments, request.timeoutMs, `analyze-dataset-${Date.now()}-w${ahead.index}`, thread);
        // Awaited in plan order below; until then its failure must not count as unhandled.
        started.then(
          () => idle.push(thread),
          () => idle.push(thread),
        );
        analyses.set(ahead.index, started);
      }
      const count = counts[plan.index];
      const pending = analyses.get(plan.index);
      if (!pending) {
        yield { plan, count, analysis: null };
        continue;
      }
      const { invocation, record } = await pending;
      analyses.delete(plan.index);
      records.push(record);
      yield { plan, count, analysis: { result: record.result, durationMs: record.durationMs, timeWindow: timeWindowOf(invocation) } };
    }
  }
  try {
    const analysis = await stitchAnalysedWindows({ ...request, fromMs, toMs, plans, whole, sources: engine.manifest.sources, totalRows }, analysed());
    return { kind: 'done', analysis, records };
  } finally {
    for (const thread of threads) thread.close();
  }
}

/** The refusal of a window over --max-packets (each window is analysed in memory). */
export function windowTooLarge(plan: WindowPlan, rows: number, maxPackets: number): string {
  return (
    `window ${plan.index} (${new Date(plan.fromMs).toISOString()} – ${new Date(plan.toMs).toISOString()}) holds ${rows.toLocaleString('en-US')} packets, ` +
    `more than --max-packets ${maxPackets.toLocaleString('en-US')}: shorten --window (each window is analysed in memory)`
  );
}

/**
 * The stitching step: writes each window's result (windows/<n>/result.json), stitches the
 * windows' clusters into devices (clusters/conflicts/relations.jsonl) and writes the summary
 * ToolResult (result.json) and analysis.json; resolves with analysis.json's content. `windows`
 * gives every planned window once, in plan order, whether this process analysed it
 * (analyze-dataset) or an executor did (the Spark linkage job, through `stitch-windows`).
 */
export async function stitchAnalysedWindows(request: StitchRequest, analysedWindows: AsyncIterable<AnalysedWindow> | Iterable<AnalysedWindow>): Promise<JsonObject> {
  const { plans, toMs, whole } = request;
  // The progress line's total when the windows were counted beforehand (analyze-dataset); the summary counts the rows it is given.
  const progressTotal = request.totalRows ?? 0;
  const stitcher = new WindowStitcher();
  const windows: JsonObject[] = [];
  const warnings: ToolWarning[] = [];
  const started = performance.now();
  let rowsDone = 0;
  let expected = 0;
  await mkdir(join(request.out, 'windows'), { recursive: true });
  request.progress?.update(0, progressTotal, 0, `0/${plans.length} windows`);
  for await (const { plan, count, analysis } of analysedWindows) {
    if (plan.index !== expected || plans[expected]?.fromMs !== plan.fromMs || plans[expected]?.toMs !== plan.toMs) {
      throw new Error(`stitching expects the planned windows in order: got window ${plan.index} (${plan.fromMs}–${plan.toMs}) where window ${expected} was planned`);
    }
    expected++;
    const rows = count.reduce((sum, entry) => sum + entry.rows, 0);
    const bounds = { index: plan.index, from_ms: plan.fromMs, end_ms: plan.endMs, to_ms: plan.toMs, rows, captures: count.map((entry) => ({ capture_id: entry.captureId, rows: entry.rows })) };
    if (analysis === null) {
      windows.push({ ...bounds, status: 'empty', result: null });
      warnings.push({ code: 'EMPTY_WINDOW', message: `window ${plan.index} (${new Date(plan.fromMs).toISOString()} – ${new Date(plan.toMs).toISOString()}) holds no packets` });
      continue;
    }
    const { result } = analysis;
    const path = `windows/${plan.index}/result.json`;
    await mkdir(join(request.out, 'windows', String(plan.index)), { recursive: true });
    await writeFile(join(request.out, path), `${JSON.stringify(result, null, 1)}\n`);
    const { status } = result;
    if (status !== 'error' && result.structured_output) {
      // Checked against the analyzer's output schema by the executor.
      // A lone address within the overlap of an edge between windows may be a hand-off's tail the other window saw whole.
      const frame = { startMs: plan.index > 0 ? plan.fromMs : null, endMs: plan.toMs < toMs ? plan.toMs : null, marginMs: request.overlapMs };
      stitcher.addWindow(plan.index, result.structured_output as unknown as BleWindowOutput, frame);
    }
    if (status !== 'ok') {
      const why = status === 'error' ? result.errors.map((error) => `${error.code}: ${error.message}`).join('; ') : result.warnings.map((warning) => warning.code).join(', ');
      warnings.push({ code: status === 'error' ? 'WINDOW_FAILED' : 'WINDOW_PARTIAL', message: `window ${plan.index}: ${status} (${why}); see ${path}` });
    }
    windows.push({ ...bounds, status, summary: result.summary, confidence: result.confidence, duration_ms: Math.round(analysis.durationMs), time_window: analysis.timeWindow, result: path });
    rowsDone += rows;
    request.progress?.update(rowsDone, progressTotal, rowsDone, `${plan.index + 1}/${plans.length} windows`);
  }
  if (expected !== plans.length) throw new Error(`stitching got ${expected} of the ${plans.length} planned windows`);
  request.progress?.end();
  const totalRows = rowsDone;

  const stitched = stitcher.finish();
  const files = {
    clusters: await writeJsonLines(join(request.out, 'clusters.jsonl'), stitched.clusters),
    conflicts: await writeJsonLines(join(request.out, 'conflicts.jsonl'), stitched.conflicts),
    relations: await writeJsonLines(join(request.out, 'relations.jsonl'), stitched.relations),
  };
  if (stitched.counts.conflicts > 0) {
    warnings.push({ code: 'STITCH_CONFLICTS', message: `${stitched.counts.conflicts} join(s) across windows refused because a window keeps the two sides apart; see conflicts.jsonl` });
  }
  const analysed = windows.filter((window) => window.status !== 'empty' && window.status !== 'error');
  const failed = windows.filter((window) => window.status === 'error').length;
  const status: ToolResult['status'] = analysed.length === 0 ? 'error' : windows.some((window) => window.status === 'error' || window.status === 'partial') ? 'partial' : 'ok';
  const windowing = { window_ms: request.windowMs, overlap_ms: request.overlapMs, window: formatDurationMs(request.windowMs), overlap: formatDurationMs(request.overlapMs) };
  const { counts: stitchedCounts } = stitched;
  const summaryText =
    `Analysed ${totalRows.toLocaleString('en-US')} packets in ${plans.length} window(s) of ${windowing.window} overlapping by ${windowing.overlap} ` +
    `(${analysed.length} analysed, ${plans.length - analysed.length - failed} empty, ${failed} failed); stitched ${stitchedCounts.devices.toLocaleString('en-US')} device(s): ` +
    `${stitchedCounts.multi_address_devices.toLocaleString('en-US')} with several addresses, ${stitchedCounts.spanning_devices.toLocaleString('en-US')} seen in more than one window, ` +
    `${stitchedCounts.conflicts.toLocaleString('en-US')} conflict(s). Devices in clusters.jsonl, each window's result in windows/<n>/result.json.`;
  const artifacts: ToolArtifact[] = [
    { name: 'clusters', mime_type: 'application/jsonl', uri: 'clusters.jsonl', sha256: files.clusters },
    { name: 'conflicts', mime_type: 'application/jsonl', uri: 'conflicts.jsonl', sha256: files.conflicts },
    { name: 'relations', mime_type: 'application/jsonl', uri: 'relations.jsonl', sha256: files.relations },
  ];
  const summaryResult: ToolResult = {
    status,
    summary: summaryText,
    ...(status === 'error'
      ? {}
      : {
          structured_output: {
            format: 'sextant-windowed-analysis/1',
            tool_name: bleAddressAnalyzerManifest.name,
            tool_version: bleAddressAnalyzerManifest.version,
            windowing,
            windows: windows.map((window) => ({ index: window.index, from_ms: window.from_ms, to_ms: window.to_ms, rows: window.rows, status: window.status, result: window.result })),
            stitched: stitchedCounts,
          },
          artifacts,
        }),
    warnings,
    errors: status === 'error' ? [{ code: 'EXECUTION_ERROR', field: '', message: `no window was analysed: ${warnings.map((warning) => warning.message).join('; ')}` }] : [],
    confidence: analysed.length === 0 ? 0 : Math.min(...analysed.map((window) => Number(window.confidence))),
  };
  await writeFile(join(request.out, 'result.json'), `${JSON.stringify(summaryResult, null, 1)}\n`);
  const sources = new Map(request.sources.map((source) => [source.capture_id, source]));
  const analysis: JsonObject = {
    dataset: request.root,
    window: { from_ms: request.range.fromMs, to_ms: request.range.toMs },
    windowing,
    captures: whole.map((entry) => ({ capture_id: entry.captureId, rows: entry.rows, file: sources.get(entry.captureId)?.file ?? null, sha256: sources.get(entry.captureId)?.sha256 ?? null })),
    invocation: {
      tool_name: bleAddressAnalyzerManifest.name,
      tool_version: bleAddressAnalyzerManifest.version,
      arguments: request.toolArguments,
      timeout_ms: request.timeoutMs,
    },
    windows,
    stitched: stitchedCounts,
    status,
    summary: summaryText,
    duration_ms: Math.round(performance.now() - started),
    result: 'result.json',
    files: { clusters: 'clusters.jsonl', conflicts: 'conflicts.jsonl', relations: 'relations.jsonl', windows: 'windows/<n>/result.json' },
  };
  await writeFile(join(request.out, 'analysis.json'), `${JSON.stringify(analysis, null, 2)}\n`);
  return analysis;
}

function timeWindowOf(invocation: ToolInvocation): JsonObject | null {
  const selection = invocation.capture_selection;
  return selection && 'time_window' in selection ? { start_ms: selection.time_window.start_ms, end_ms: selection.time_window.end_ms } : null;
}

/** Writes one JSON value per line, in batches (a week's devices need not become one string); resolves with the file's SHA-256. */
async function writeJsonLines(path: string, values: readonly unknown[]): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let start = 0; start < values.length; start += 4096) {
      const text = values
        .slice(start, start + 4096)
        .map((value) => `${JSON.stringify(value)}\n`)
        .join('');
      hash.update(text);
      await handle.write(text);
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}
