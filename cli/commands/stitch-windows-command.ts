import { readFile } from 'node:fs/promises';
import { isJsonObject, safeParseJson, type JsonObject } from '../../src/core/index.ts';
import type { WindowCount } from '../dataset/analyse-window.ts';
import type { DatasetWindow } from '../dataset/window-captures.ts';
import type { WindowRowsOutput } from '../dataset/window-rows.ts';
import { planWindows, stitchAnalysedWindows, windowedSpan, type AnalysedWindow } from '../dataset/windowed-analysis.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';

export const STITCH_WINDOWS_USAGE = `Usage:
  sextant stitch-windows --plan PLAN.json --windows WINDOWS.jsonl --out OUT

The stitching step of analyze-dataset --window, for windows analysed elsewhere (the Spark
linkage job's executors, each running analyze-window): writes the files analyze-dataset writes
(OUT/windows/<n>/result.json, OUT/clusters.jsonl, OUT/conflicts.jsonl, OUT/relations.jsonl, the
summary ToolResult OUT/result.json and OUT/analysis.json) and prints analysis.json.

PLAN.json (format sextant-window-plan/1): {"format", "dataset", "window_ms", "overlap_ms",
  "tool_arguments", "timeout_ms", "captures": [{"capture_id", "rows", "first_ms", "last_ms"}]
  (the whole dataset's rows per capture), "sources": [{"capture_id", "file", "sha256"}] (the
  manifest's), and optionally "range": {"from_ms", "to_ms", "capture_ids"} (analyze-dataset's
  --from, --to and --capture: null bounds and no ids for the whole dataset); the windows are
  planned from them as analyze-dataset plans them.
WINDOWS.jsonl  analyze-window's output lines, in any order; a planned window without a line
  held no rows.

Exit codes: 0 ok or partial; 1 a window's analysis failed; 4 bad arguments or files (a plan or a
window line that does not fit the plan: WINDOWS_MISMATCH).`;

const PLAN_FORMAT = 'sextant-window-plan/1';

/** `sextant stitch-windows`: returns the exit code. */
export async function runStitchWindows(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, { plan: { type: 'string' }, windows: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, STITCH_WINDOWS_USAGE);
  if (values.help) {
    io.stdout(`${STITCH_WINDOWS_USAGE}\n`);
    return EXIT.ok;
  }
  expectNoMore(positionals, STITCH_WINDOWS_USAGE);
  if (!values.plan || !values.windows || !values.out) throw new UsageError('stitch-windows needs --plan, --windows and --out', STITCH_WINDOWS_USAGE);
  const refuse = (message: string): number => {
    io.stderr(`sextant: stitch-windows: ${message} [WINDOWS_MISMATCH]\n`);
    return EXIT.badArguments;
  };
  const parsed = safeParseJson(await readFile(values.plan, 'utf8'));
  if (!parsed.ok || !isJsonObject(parsed.value) || parsed.value.format !== PLAN_FORMAT) return refuse(`${values.plan} is not a ${PLAN_FORMAT} JSON object`);
  const plan = parsed.value as unknown as WindowPlanFile;
  const whole: WindowCount[] = plan.captures.map((entry) => ({ captureId: entry.capture_id, rows: entry.rows, firstMs: entry.first_ms, lastMs: entry.last_ms }));
  const range = planRange(plan.range);
  if (range === null) return refuse(`${values.plan}: "range" must be {"from_ms": number|null, "to_ms": number|null, "capture_ids": [string]}`);
  const span = windowedSpan(range, whole);
  if (span === null) return refuse(`${values.plan}: no packet has a time`);
  const plans = planWindows(span.fromMs, span.toMs, plan.window_ms, plan.overlap_ms);

  const outputs = new Map<number, WindowRowsOutput>();
  const lines = (await readFile(values.windows, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  for (const [number, line] of lines.entries()) {
    const output = safeParseJson(line);
    const window = output.ok && isJsonObject(output.value) && output.value.format === 'sextant-window-analysis/1' ? (output.value as unknown as WindowRowsOutput) : null;
    const planned = window === null ? undefined : plans[window.index];
    if (window === null || planned === undefined || planned.fromMs !== window.from_ms || planned.endMs !== window.end_ms || planned.toMs !== window.to_ms) {
      return refuse(`${values.windows} line ${number + 1} is not the analysis of a planned window (${plans.length} planned from ${span.fromMs} to ${span.toMs})`);
    }
    if (outputs.has(window.index)) return refuse(`${values.windows}: window ${window.index} appears twice`);
    outputs.set(window.index, window);
  }
  const analysed: AnalysedWindow[] = plans.map((planned) => {
    const output = outputs.get(planned.index);
    if (!output || output.result === null) return { plan: planned, count: [], analysis: null };
    const count = output.captures.map((entry) => ({ captureId: entry.capture_id, rows: entry.rows, firstMs: entry.first_ms, lastMs: entry.last_ms }));
    return { plan: planned, count, analysis: { result: output.result, durationMs: output.duration_ms, timeWindow: output.time_window } };
  });
  const analysis = await stitchAnalysedWindows(
    {
      root: plan.dataset,
      out: values.out,
      range,
      windowMs: plan.window_ms,
      overlapMs: plan.overlap_ms,
      toolArguments: plan.tool_arguments,
      timeoutMs: plan.timeout_ms,
      fromMs: span.fromMs,
      toMs: span.toMs,
      plans,
      whole,
      sources: plan.sources,
      progress: null,
    },
    analysed,
  );
  io.stdout(`${JSON.stringify(analysis, null, 2)}\n`);
  const failed = analysed.some((window) => window.analysis?.result.status === 'error');
  return failed ? EXIT.executionFailure : EXIT.ok;
}

interface WindowPlanFile {
  format: typeof PLAN_FORMAT;
  dataset: string;
  window_ms: number;
  overlap_ms: number;
  tool_arguments: JsonObject;
  timeout_ms: number;
  captures: Array<{ capture_id: string; rows: number; first_ms: number | null; last_ms: number | null }>;
  sources: Array<{ capture_id: string; file: string; sha256: string }>;
  range?: unknown;
}

/** The plan's range as analyze-dataset's --from, --to and --capture; the whole dataset without one; null when malformed. */
function planRange(value: unknown): DatasetWindow | null {
  if (value === undefined) return { fromMs: null, toMs: null, captureIds: [] };
  if (!isJsonObject(value)) return null;
  const bound = (entry: unknown): number | null | undefined => (entry === null || entry === undefined ? null : typeof entry === 'number' && Number.isFinite(entry) ? entry : undefined);
  const fromMs = bound(value.from_ms);
  const toMs = bound(value.to_ms);
  const ids = value.capture_ids ?? [];
  if (fromMs === undefined || toMs === undefined || !Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return null;
  return { fromMs, toMs, captureIds: ids as string[] };
}
