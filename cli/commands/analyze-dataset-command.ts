import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { CaptureCatalog, ToolRegistry, bleAddressAnalyzerManifest, builtinTools, createExecutor, isJsonObject, safeParseJson, type JsonObject } from '../../src/core/index.ts';
import { DatasetEngine } from '../dataset/duckdb-engine.ts';
import { countWindow, windowCaptures, type DatasetWindow } from '../dataset/window-captures.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { ThreadRunner } from '../thread-runner.ts';
import { UsageError } from '../usage-error.ts';
import { exitCodeFor } from './invoke-command.ts';

/** Packets one in-memory analysis takes at most (~0.3 GB per million in the analyzer's store). */
export const DEFAULT_MAX_PACKETS = 20_000_000;

export const ANALYZE_DATASET_USAGE = `Usage:
  sextant analyze-dataset DIR --out OUT [--from TIME] [--to TIME] [--capture ID]...
                          [--arguments FILE] [--max-packets N] [--timeout-ms N]

Runs the BLE address analyzer (bluetooth_address_analyzer) on a time window of the dataset DIR:
DuckDB selects the window's rows of each capture, which the analyzer reads as it reads any
capture. Writes OUT/result.json (the ToolResult) and OUT/analysis.json (the dataset, window,
captures with their rows and source files' SHA-256, the invocation, status) and prints
analysis.json. The window must fit in memory (--max-packets); a week is analysed window by
window (see docs/dataset.md).

--from TIME, --to TIME  window start (inclusive) and end (exclusive): ISO-8601 (2026-11-20T13:00Z)
                        or epoch milliseconds; default the dataset's bounds
--capture ID            only this capture (repeatable); default every capture in the window
--arguments FILE        the analyzer's arguments as JSON, over the defaults (address_columns of
                        the capture schema, analysis_mode both, linkage_window_s 180,
                        min_observation_count 25, rpa_rotation_model spec_default)
--max-packets N         refuse a larger window (default ${DEFAULT_MAX_PACKETS.toLocaleString('en-US')})
--timeout-ms N          the analysis's deadline (default and at most ${bleAddressAnalyzerManifest.execution_constraints.max_timeout_ms})

Exit codes: 0 ok or partial; 1 the analysis failed; 4 bad arguments, not a dataset, a damaged
dataset, an empty window or one over --max-packets; 5 the arguments fail validation.`;

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

  const opened = await DatasetEngine.open(root);
  if (!opened.ok) {
    io.stderr(`sextant: analyze-dataset ${root}: ${opened.error.message} [${opened.error.code}]\n`);
    return EXIT.badArguments;
  }
  const engine = opened.value;
  let runner: ThreadRunner | null = null;
  try {
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
    const captures = await windowCaptures(engine, window, counts.map((entry) => entry.captureId));
    progress('analysing');
    const firsts = counts.flatMap((entry) => (entry.firstMs === null ? [] : [entry.firstMs]));
    const lasts = counts.flatMap((entry) => (entry.lastMs === null ? [] : [entry.lastMs]));
    // The selected rows' span in whole milliseconds, as the captures' bounds are counted (the rows are already the window's).
    const timeWindow = { start_ms: Math.floor(Math.min(...firsts)), end_ms: Math.ceil(Math.max(...lasts)) };
    const invocation = {
      tool_name: bleAddressAnalyzerManifest.name,
      tool_version: bleAddressAnalyzerManifest.version,
      capture_selection: { capture_ids: captures.map((entry) => entry.capture.info.id), time_window: timeWindow },
      arguments: toolArguments,
      request_id: `analyze-dataset-${Date.now()}`,
      timeout_ms: timeoutMs,
    };
    runner = new ThreadRunner({ testTools: false, captures: captures.map((entry) => tableToIPC(entry.capture.table)) });
    const executor = createExecutor({ registry: new ToolRegistry(builtinTools({ testTools: false })), catalog: new CaptureCatalog(captures.map((entry) => entry.capture)), runner });
    const record = await executor.execute(invocation);
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
    runner?.close();
    engine.close();
  }
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

async function readArguments(path: string): Promise<JsonObject> {
  const parsed = safeParseJson(await readFile(path, 'utf8').catch(() => {
    throw new UsageError(`--arguments ${path} cannot be read`, ANALYZE_DATASET_USAGE);
  }));
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new UsageError(`--arguments ${path} must hold a JSON object of the analyzer's arguments`, ANALYZE_DATASET_USAGE);
  return parsed.value;
}
