import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { tableToIPC } from 'apache-arrow';
import {
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  createExecutor,
  redactKeys,
  safeParseJson,
  type Capture,
  type ExecutionRecord,
  type JsonValue,
  type RunDocument,
  type ToolResult,
} from '../../src/core/index.ts';
import { fileFingerprints, readCaptures } from '../capture-files.ts';
import { askedWindows, datasetCaptures } from '../dataset/dataset-captures.ts';
import { DatasetEngine } from '../dataset/duckdb-engine.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { ThreadRunner } from '../thread-runner.ts';
import { UsageError } from '../usage-error.ts';
import { sextantVersion } from './report-command.ts';

export const INVOKE_USAGE = `Usage:
  sextant invoke FILE|- [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools] [--run-out RUN.json]
                        [--dataset DIR [--max-packets N]]

Runs one ToolInvocation, or an ordered array of them (a plan), and prints the ToolResult (or an
array of them) as JSON on stdout. \`sextant template TOOL\` prints an invocation to start from.

--capture ID=PATH   adds a capture from a BLE capture (pcap, pcapng, btsnoop), Arrow IPC (file or
                    stream), Parquet or CSV file
--time-column NAME  timestamp column of the --capture files (default ts_ms)
--dataset DIR       the invocations' capture ids may name captures of this dataset (\`sextant import
                    --dataset\`): each is read for the time windows the invocations select, from
                    its Parquet parts, and judged as its file would be
--max-packets N     refuse to read more packets than this from the dataset (default 20,000,000)
--run-out RUN.json  also writes the run (invocations, results, capture hashes) for \`sextant report\`
--enable-test-tools installs the diagnostic test_echo tool

Exit codes: 0 every result ok or partial; 5 a validation failure; 1 an execution failure;
4 bad arguments or unreadable files, not a dataset or a damaged one, or more than --max-packets.`;

/** Packets \`--dataset\` reads into memory at most unless --max-packets says otherwise (~0.3 GB per million in the analyzer). */
export const DEFAULT_DATASET_MAX_PACKETS = 20_000_000;

/** `sextant invoke FILE|-`: returns the exit code. */
export async function runInvoke(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      capture: { type: 'string', multiple: true },
      'time-column': { type: 'string' },
      'run-out': { type: 'string' },
      'enable-test-tools': { type: 'boolean' },
      dataset: { type: 'string' },
      'max-packets': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    INVOKE_USAGE,
  );
  if (values.help) {
    io.stdout(`${INVOKE_USAGE}\n`);
    return EXIT.ok;
  }
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('invoke needs a FILE (or - for standard input)', INVOKE_USAGE);
  expectNoMore(extra, INVOKE_USAGE);
  const text = file === '-' ? await io.readStdin() : await readFile(file, 'utf8');
  if (values['max-packets'] !== undefined && values.dataset === undefined) throw new UsageError('--max-packets needs --dataset', INVOKE_USAGE);
  const maxPackets = values['max-packets'] === undefined ? DEFAULT_DATASET_MAX_PACKETS : Number(values['max-packets']);
  if (!Number.isSafeInteger(maxPackets) || maxPackets < 1) throw new UsageError(`--max-packets must be a whole number ≥ 1, not '${values['max-packets']}'`, INVOKE_USAGE);
  const userCaptures = await readCaptures(values.capture ?? [], values['time-column']);
  if (values.dataset !== undefined) {
    const read = await readDatasetCaptures(values.dataset, text, maxPackets, io);
    if (typeof read === 'number') return read;
    const named = new Set(userCaptures.map((capture) => capture.info.id));
    const both = read.filter((capture) => named.has(capture.info.id));
    if (both.length > 0) throw new UsageError(`capture ${both[0].info.id} is both a --capture file and a capture of the dataset`, INVOKE_USAGE);
    userCaptures.push(...read);
  }
  const builtins = builtinCaptures();
  // A capture of the user's with a built-in's id replaces it: said, so no one analyses one thinking it is the other.
  const builtinIds = new Set(builtins.map((capture) => capture.info.id));
  for (const capture of userCaptures) if (builtinIds.has(capture.info.id)) io.stderr(`sextant: invoke: capture ${capture.info.id} (${capture.info.source}) replaces the built-in capture of that id\n`);
  const catalog = new CaptureCatalog([...builtins, ...userCaptures]);
  return invoke(text, catalog, userCaptures, values['enable-test-tools'] ?? false, io, values['run-out']);
}

/**
 * The dataset's captures the invocation text selects (dataset-captures.ts), each fingerprinted by
 * its source file for \`--run-out\`; an exit code when the dataset cannot be read or the selection
 * is too large. Text that is not JSON selects nothing here: \`invoke\` reports it.
 */
async function readDatasetCaptures(root: string, text: string, maxPackets: number, io: Io): Promise<Capture[] | number> {
  const parsed = safeParseJson(text);
  const steps = !parsed.ok ? [] : Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const opened = await DatasetEngine.open(root);
  if (!opened.ok) {
    io.stderr(`sextant: invoke --dataset ${root}: ${opened.error.message} [${opened.error.code}]\n`);
    return EXIT.badArguments;
  }
  const engine = opened.value;
  try {
    const outcome = await datasetCaptures(engine, askedWindows(steps), maxPackets);
    if (outcome.kind === 'refused') {
      io.stderr(`sextant: invoke --dataset: ${outcome.message} [${outcome.code}]\n`);
      return EXIT.badArguments;
    }
    const sources = new Map(engine.manifest.sources.map((source) => [source.capture_id, source]));
    for (const capture of outcome.captures) {
      const source = sources.get(capture.info.id);
      if (source) fileFingerprints.set(capture, { sha256: source.sha256, bytes: source.bytes, importReport: JSON.parse(JSON.stringify(source.report)) as JsonValue });
    }
    return outcome.captures;
  } finally {
    engine.close();
  }
}

async function invoke(text: string, catalog: CaptureCatalog, userCaptures: Capture[], testTools: boolean, io: Io, runOut?: string): Promise<number> {
  const startedAt = new Date().toISOString();
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    const result: ToolResult = {
      status: 'error',
      summary: 'Invocation failed validation.',
      warnings: [],
      errors: [{ code: 'INVALID_INVOCATION', field: '', message: `The input is not JSON: ${parsed.message}` }],
      confidence: 0,
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT.validationFailure;
  }
  const runner = new ThreadRunner({ testTools, captures: userCaptures.map((capture) => tableToIPC(capture.table)) });
  try {
    const executor = createExecutor({ registry: new ToolRegistry(builtinTools({ testTools })), catalog, runner });
    const isPlan = Array.isArray(parsed.value);
    const records = isPlan ? await executor.executePlan(parsed.value as unknown[]) : [await executor.execute(parsed.value)];
    const results = records.map((record) => record.result);
    io.stdout(`${JSON.stringify(isPlan ? results : results[0], null, 2)}\n`);
    if (runOut) {
      const steps = isPlan ? (parsed.value as JsonValue[]) : [parsed.value];
      await writeFile(runOut, `${JSON.stringify(await runDocument(steps, records, userCaptures, startedAt), null, 2)}\n`);
    }
    return exitCodeFor(records);
  } finally {
    runner.close();
  }
}

/** The run as \`sextant report\` reads it: each invocation with its record, and the user captures' file hashes. */
async function runDocument(invocations: JsonValue[], records: ReadonlyArray<ExecutionRecord>, userCaptures: Capture[], startedAt: string): Promise<RunDocument> {
  return {
    format: 'sextant.run',
    format_version: 1,
    kind: 'tool-run',
    started_at: startedAt,
    sextant_version: await sextantVersion(),
    steps: records.map((record, index) => ({
      // The run file never holds key material: IRKs keep their labels only.
      invocation: redactKeys(invocations[index] ?? null),
      tool_name: record.toolName,
      resolved_version: record.resolvedVersion,
      phase: record.phase,
      result: record.result,
      duration_ms: Math.round(record.durationMs),
    })),
    captures: userCaptures.map((capture) => {
      const fingerprint = fileFingerprints.get(capture);
      return {
        id: capture.info.id,
        source: basename(capture.info.source),
        description: capture.info.description,
        rows: capture.info.rowCount,
        bounds: capture.info.bounds,
        channels: capture.info.channels,
        timeOrigin: capture.info.timeOrigin,
        bytes: fingerprint?.bytes ?? null,
        sha256: fingerprint?.sha256 ?? null,
        hashBasis: fingerprint ? 'source-file' : 'not-recorded',
        importReport: fingerprint?.importReport ?? null,
      };
    }),
  };
}

/** 5 when any step failed validation, else 1 when any failed while executing, else 0. */
export function exitCodeFor(records: ReadonlyArray<ExecutionRecord>): number {
  if (records.some((record) => record.phase === 'validation')) return EXIT.validationFailure;
  if (records.some((record) => record.result.status === 'error')) return EXIT.executionFailure;
  return EXIT.ok;
}
