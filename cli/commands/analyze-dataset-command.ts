import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { argumentSchemaErrors, bleAddressAnalyzerManifest, isJsonObject, safeParseJson, type JsonObject } from '../../src/core/index.ts';
import { analyseWindow } from '../dataset/analyse-window.ts';
import { DatasetEngine } from '../dataset/duckdb-engine.ts';
import { parseDuration } from '../dataset/duration.ts';
import { ProgressLine } from '../dataset/progress-line.ts';
import type { DatasetWindow } from '../dataset/window-captures.ts';
import { countWindow } from '../dataset/window-count.ts';
import { runWindowedAnalysis } from '../dataset/windowed-analysis.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';
import { exitCodeFor } from './invoke-command.ts';

/** Packets one in-memory analysis takes at most (~0.3 GB per million in the analyzer's store). */
export const DEFAULT_MAX_PACKETS = 20_000_000;
/** Windows analysed at once by default: two keep both cores of a laptop busy (one reads the next window while the other's thread analyses). */
export const DEFAULT_WINDOW_JOBS = 2;

/**
 * DuckDB's memory while it selects a window: its sort spills past this rather than holding
 * the window a second time next to the analyzer's copy (1 M rows: 0.84 → 0.56 GB peak).
 */
export const ANALYSIS_MEMORY_LIMIT = '256MB';

/** How far each window reaches into the next unless --overlap says otherwise. */
export const DEFAULT_OVERLAP = '10m';

export const ANALYZE_DATASET_USAGE = `Usage:
  sextant analyze-dataset DIR --out OUT [--from TIME] [--to TIME] [--capture ID]...
                          [--arguments FILE] [--max-packets N] [--timeout-ms N]
                          [--window DURATION [--overlap DURATION] [--jobs N]]

Runs the BLE address analyzer (bluetooth_address_analyzer) on a time window of the dataset DIR:
each capture's rows in the window are read from its Parquet parts, in its file's order, and
analysed as the capture file would be. Writes OUT/result.json (the ToolResult) and OUT/analysis.json (the dataset, window,
captures with their rows and source files' SHA-256, the invocation, status) and prints
analysis.json. The window must fit in memory (--max-packets); a week is analysed window by
window with --window, and the windows' clusters stitched into devices (see docs/dataset.md).

--from TIME, --to TIME  window start (inclusive) and end (exclusive): ISO-8601 (2026-11-20T13:00Z)
                        or epoch milliseconds; default the dataset's bounds
--capture ID            only this capture (repeatable); default every capture in the window
--arguments FILE        the analyzer's arguments as JSON, over the defaults (address_columns of
                        the capture schema, analysis_mode both, linkage_window_s 180,
                        min_observation_count 25, rpa_rotation_model spec_default)
--max-packets N         refuse a larger window (default ${DEFAULT_MAX_PACKETS.toLocaleString('en-US')})
--timeout-ms N          the analysis's deadline (default and at most ${bleAddressAnalyzerManifest.execution_constraints.max_timeout_ms}), per window
--window DURATION       analyse consecutive windows of this length (90s, 10m, 1h, 1h30m, 1d), one
                        in memory at a time, and stitch their clusters into devices; writes
                        OUT/windows/<n>/result.json, OUT/clusters.jsonl, OUT/conflicts.jsonl,
                        OUT/relations.jsonl and a summary ToolResult in OUT/result.json
--overlap DURATION      how far each window reaches into the next (default ${DEFAULT_OVERLAP}): longer than
                        the linkage window (linkage_window_s), shorter than --window
--jobs N                with --window: windows analysed at once, each in its own thread (default
                        ${DEFAULT_WINDOW_JOBS}, or 1 on one core); each holds its window's rows (~0.8 GB per million)

Exit codes: 0 ok or partial; 1 the analysis (of a window) failed; 4 bad arguments (a bad duration,
an overlap too short), not a dataset, a damaged dataset, an empty window or one over
--max-packets; 5 the analyzer's arguments fail its input schema (checked before the dataset is
read; each problem printed with its field and code).`;

/** The analyzer's arguments unless --arguments says otherwise (both analyses, the manifest's documented values). */
export const DEFAULT_ARGUMENTS: JsonObject = {
  address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
  analysis_mode: 'both',
  linkage_window_s: 180,
  min_observation_count: 25,
  rpa_rotation_model: 'spec_default',
};

/** `sextant analyze-dataset DIR --out OUT`: returns the exit code. */
export async function runAnalyzeDataset(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      capture: { type: 'string', multiple: true },
      arguments: { type: 'string' },
      'max-packets': { type: 'string' },
      'timeout-ms': { type: 'string' },
      window: { type: 'string' },
      overlap: { type: 'string' },
      jobs: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    ANALYZE_DATASET_USAGE,
  );
  if (values.help) {
    io.stdout(`${ANALYZE_DATASET_USAGE}\n`);
    return EXIT.ok;
  }
  const [root, ...extra] = positionals;
  if (!root || !values.out) throw new UsageError('analyze-dataset needs a dataset DIR and --out OUT', ANALYZE_DATASET_USAGE);
  expectNoMore(extra, ANALYZE_DATASET_USAGE);
  const maxTimeout = bleAddressAnalyzerManifest.execution_constraints.max_timeout_ms;
  const window: DatasetWindow = { fromMs: timeFlag(values.from, '--from'), toMs: timeFlag(values.to, '--to'), captureIds: values.capture ?? [] };
  const maxPackets = countFlag(values['max-packets'] ?? String(DEFAULT_MAX_PACKETS), '--max-packets');
  const timeoutMs = countFlag(values['timeout-ms'] ?? String(maxTimeout), '--timeout-ms');
  if (timeoutMs > maxTimeout) throw new UsageError(`--timeout-ms is at most ${maxTimeout}, the analyzer's limit`, ANALYZE_DATASET_USAGE);
  const toolArguments = values.arguments === undefined ? DEFAULT_ARGUMENTS : { ...DEFAULT_ARGUMENTS, ...(await readArguments(values.arguments)) };
  if (!argumentsValid(toolArguments, 'analyze-dataset', io)) return EXIT.validationFailure;
  const windowing = values.window === undefined ? null : windowingFlags(values.window, values.overlap ?? DEFAULT_OVERLAP, toolArguments);
  if (windowing === null && values.overlap !== undefined) throw new UsageError('--overlap needs --window', ANALYZE_DATASET_USAGE);
  if (windowing === null && values.jobs !== undefined) throw new UsageError('--jobs needs --window', ANALYZE_DATASET_USAGE);
  const jobs = values.jobs === undefined ? Math.min(DEFAULT_WINDOW_JOBS, availableParallelism()) : countFlag(values.jobs, '--jobs');

  const opened = await DatasetEngine.open(root, { memoryLimit: ANALYSIS_MEMORY_LIMIT });
  if (!opened.ok) {
    io.stderr(`sextant: analyze-dataset ${root}: ${opened.error.message} [${opened.error.code}]\n`);
    return EXIT.badArguments;
  }
  const engine = opened.value;
  try {
    if (windowing !== null) {
      const progress = process.stderr.isTTY ? new ProgressLine('analyze-dataset', io.stderr) : null;
      const outcome = await runWindowedAnalysis(engine, { root, out: values.out, range: window, ...windowing, toolArguments, timeoutMs, maxPackets, jobs, progress });
      if (outcome.kind === 'refused') {
        io.stderr(`sextant: analyze-dataset: ${outcome.message} [${outcome.code}]\n`);
        return EXIT.badArguments;
      }
      io.stdout(`${JSON.stringify(outcome.analysis, null, 2)}\n`);
      return exitCodeFor(outcome.records);
    }
    const counts = await countWindow(engine, window);
    const total = counts.reduce((sum, entry) => sum + entry.rows, 0);
    if (total === 0) {
      io.stderr(`sextant: analyze-dataset: no packets in the window [EMPTY_WINDOW]\n`);
      return EXIT.badArguments;
    }
    if (total > maxPackets) {
      io.stderr(
        `sextant: analyze-dataset: the window holds ${total.toLocaleString('en-US')} packets, more than --max-packets ${maxPackets.toLocaleString('en-US')}: ` +
          `narrow it with --from/--to or --capture (the analysis runs in memory) [WINDOW_TOO_LARGE]\n`,
      );
      return EXIT.badArguments;
    }
    const progress = (text: string): void => {
      if (process.stderr.isTTY) io.stderr(`analyze-dataset: ${text}\n`);
    };
    progress(`reading ${total.toLocaleString('en-US')} packets of ${counts.length} capture(s)`);
    const { invocation, record } = await analyseWindow(engine, window, counts, toolArguments, timeoutMs, `analyze-dataset-${Date.now()}`);
    const sources = new Map(engine.manifest.sources.map((source) => [source.capture_id, source]));
    const analysis = {
      dataset: root,
      window: { from_ms: window.fromMs, to_ms: window.toMs },
      captures: counts.map((entry) => ({ capture_id: entry.captureId, rows: entry.rows, file: sources.get(entry.captureId)?.file ?? null, sha256: sources.get(entry.captureId)?.sha256 ?? null })),
      invocation,
      status: record.result.status,
      summary: record.result.summary,
      duration_ms: Math.round(record.durationMs),
      result: 'result.json',
    };
    await mkdir(values.out, { recursive: true });
    await writeFile(join(values.out, 'result.json'), `${JSON.stringify(record.result, null, 1)}\n`);
    await writeFile(join(values.out, 'analysis.json'), `${JSON.stringify(analysis, null, 2)}\n`);
    io.stdout(`${JSON.stringify(analysis, null, 2)}\n`);
    return exitCodeFor([record]);
  } finally {
    engine.close();
  }
}

/**
 * --window and --overlap in milliseconds. The overlap must outlast the longest hand-off gap the
 * linkage considers (linkage_window_s): then a hand-off that crosses a window's end is seen whole
 * by that window, and its successor address is shared with the next (docs/dataset.md).
 */
export function windowingFlags(windowText: string, overlapText: string, toolArguments: JsonObject, usage = ANALYZE_DATASET_USAGE): { windowMs: number; overlapMs: number } {
  const windowMs = parseDuration(windowText, '--window');
  if (!windowMs.ok) throw new UsageError(`${windowMs.error.message} [${windowMs.error.code}]`, usage);
  const overlapMs = parseDuration(overlapText, '--overlap');
  if (!overlapMs.ok) throw new UsageError(`${overlapMs.error.message} [${overlapMs.error.code}]`, usage);
  const linkageS = typeof toolArguments.linkage_window_s === 'number' ? toolArguments.linkage_window_s : Number.NaN;
  if (!(overlapMs.value > linkageS * 1000)) {
    throw new UsageError(
      `--overlap ${overlapText} must be longer than the linkage window (linkage_window_s ${linkageS} s): a hand-off across a window's end would be seen by neither window whole [OVERLAP_TOO_SHORT]`,
      usage,
    );
  }
  if (overlapMs.value >= windowMs.value) throw new UsageError(`--overlap ${overlapText} must be shorter than --window ${windowText} [OVERLAP_NOT_SHORTER_THAN_WINDOW]`, usage);
  return { windowMs: windowMs.value, overlapMs: overlapMs.value };
}

function timeFlag(text: string | undefined, flag: string): number | null {
  if (text === undefined) return null;
  const value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(value)) throw new UsageError(`${flag} must be an ISO-8601 time or epoch milliseconds, not '${text}'`, ANALYZE_DATASET_USAGE);
  return value;
}

function countFlag(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number ≥ 1, not '${text}'`, ANALYZE_DATASET_USAGE);
  return value;
}

/**
 * The analyzer's arguments checked against its input schema before any data is read: a bad
 * argument is one coded error per problem here (exit 5), not a failed result in every window
 * after the dataset has been read. Prints the errors; true when there are none.
 */
export function argumentsValid(toolArguments: JsonObject, command: string, io: Io): boolean {
  const errors = argumentSchemaErrors(bleAddressAnalyzerManifest, toolArguments);
  for (const error of errors) io.stderr(`sextant: ${command}: ${error.field}: ${error.message} [${error.code}]\n`);
  return errors.length === 0;
}

export async function readArguments(path: string): Promise<JsonObject> {
  const parsed = safeParseJson(await readFile(path, 'utf8').catch(() => {
    throw new UsageError(`--arguments ${path} cannot be read`, ANALYZE_DATASET_USAGE);
  }));
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new UsageError(`--arguments ${path} must hold a JSON object of the analyzer's arguments`, ANALYZE_DATASET_USAGE);
  return parsed.value;
}
