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
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { ThreadRunner } from '../thread-runner.ts';
import { UsageError } from '../usage-error.ts';
import { sextantVersion } from './report-command.ts';

export const INVOKE_USAGE = `Usage:
  sextant invoke FILE|- [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools] [--run-out RUN.json]

Runs one ToolInvocation, or an ordered array of them (a plan), and prints the ToolResult (or an
array of them) as JSON on stdout. \`sextant template TOOL\` prints an invocation to start from.

--capture ID=PATH   adds a capture from a BLE capture (pcap, pcapng, btsnoop), Arrow IPC (file or
                    stream), Parquet or CSV file
--time-column NAME  timestamp column of the --capture files (default ts_ms)
--run-out RUN.json  also writes the run (invocations, results, capture hashes) for \`sextant report\`
--enable-test-tools installs the diagnostic test_echo tool

Exit codes: 0 every result ok or partial; 5 a validation failure; 1 an execution failure;
4 bad arguments or unreadable files.`;

/** `sextant invoke FILE|-`: returns the exit code. */
export async function runInvoke(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      capture: { type: 'string', multiple: true },
      'time-column': { type: 'string' },
      'run-out': { type: 'string' },
      'enable-test-tools': { type: 'boolean' },
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
  const userCaptures = await readCaptures(values.capture ?? [], values['time-column']);
  const catalog = new CaptureCatalog([...builtinCaptures(), ...userCaptures]);
  return invoke(text, catalog, userCaptures, values['enable-test-tools'] ?? false, io, values['run-out']);
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
