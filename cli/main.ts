import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { tableToIPC } from 'apache-arrow';
import {
  CaptureCatalog,
  ToolRegistry,
  builtinCaptures,
  builtinTools,
  createExecutor,
  readCaptureSource,
  redactKeys,
  safeParseJson,
  type Capture,
  type ExecutionRecord,
  type JsonValue,
  type RunDocument,
  type ToolResult,
} from '../src/core/index.ts';
import { ThreadRunner } from './thread-runner.ts';
import { runCanon } from './canon-command.ts';
import { runManifest } from './manifest-command.ts';
import { runGenerate } from './generate-command.ts';
import { runPlan } from './plan-command.ts';
import { runMcp } from './mcp/mcp-command.ts';
import { runReport, sextantVersion } from './report-command.ts';
import { withFileCaptureSource } from './file-source.ts';

/** Exit codes of agent-contract.md, as the runner uses them. */
export const EXIT = { ok: 0, executionFailure: 1, badArguments: 4, validationFailure: 5 } as const;

const USAGE = `Usage:
  sextant invoke FILE|- [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools] [--run-out RUN.json]
  sextant captures [--capture ID=PATH]... [--time-column NAME]
  sextant import PATH [--id ID] [--out FILE.arrow]
  sextant manifests [--enable-test-tools]
  sextant canon FILE|-... [--format openai|anthropic|mcp|langchain|raw] [--emit canonical|openai|anthropic|mcp|json_schema|manifest]
  sextant manifest check FILE|-
  sextant manifest diff OLD NEW
  sextant generate ble --seed N [--scenario NAME] --out FILE [--per-receiver]
  sextant report RUN.json --out FILE.html [--json FILE.json] [--capture ID=PATH]...
  sextant report verify REPORT.json [--capture ID=PATH]... [--irk LABEL=HEX]...
  sextant plan --prompt TEXT [--config FILE] [--provider scripted:FILE|openai:MODEL|anthropic:MODEL|openai-compatible:URL#MODEL]... [--test-tools]
  sextant mcp serve|tools|call|check ...   (see \`sextant mcp --help\`)

invoke     runs one ToolInvocation or an ordered array of them (a plan) and prints the
           ToolResult (or an array of them) as JSON on stdout
captures   lists the available captures as JSON
canon      detects a tool definition's format and canonicalizes it (or emits it in another format)
manifest   check: lints a ToolManifest (exit 5 on problems); diff: classifies a change by the
           compatibility policy (patch, minor, major) and says why
import     reads a capture file and prints its import report as JSON on stdout: for pcap,
           pcapng and btsnoop files the BLE import report (rows, bounds, link_types, packets,
           advertising_packets[_crc_ok], advertisers[_crc_ok], adv_type_counts, skipped,
           identity_keys: IRKs found in HCI logs, MSB first, with source and frame, ...),
           and for every file source_bytes, source_sha256, warnings (also on stderr), partial and
           integrity (status clean|degraded|unusable, crc_failed[_share], usable_share,
           reserved_pdu_types, skipped_total, verdict);
           with --out, also writes the normalized table as an Arrow IPC file
manifests  lists the installed tool manifests as JSON
generate   ble: writes a synthetic BLE scenario (Arrow IPC captures + FILE.truth.json) and
           prints a JSON summary; see \`sextant generate --help\` and docs/ble-scenarios.md
mcp        Sextant as an MCP server (serve), and any MCP server's tools under Sextant's contract
           (tools, call, check); see \`sextant mcp --help\`
report     writes a case report (self-contained HTML + JSON twin) from a run file; verify
           re-checks a report's capture hashes and results (see \`sextant report --help\`;
           exit 3 when verification fails)
plan       runs a planner session (LLM plan → validate → execute → repair → final report)
           and prints its result as JSON; see \`sextant plan --help\` (exit 0 success, 1 session
           failure, 4 bad arguments or configuration)

--capture ID=PATH   adds a capture from a BLE capture (pcap, pcapng, btsnoop), Arrow IPC
                    (file or stream) or CSV file
--time-column NAME  timestamp column of the --capture files (default ts_ms)
--run-out RUN.json  invoke also writes the run (invocations, results, capture hashes) for
                    \`sextant report\`
--id ID             capture id for import (default: the file name without its extension)
--out FILE.arrow    where import writes the normalized Arrow IPC file
--enable-test-tools installs the diagnostic test_echo tool

Exit codes: 0 every result ok or partial; 5 a validation failure; 1 an execution failure;
4 bad command-line arguments or unreadable files.`;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
}

const processIo: Io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

class UsageError extends Error {}

/** Runs one command; returns the process exit code. Never throws. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    io.stderr(`sextant: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) io.stderr(`\n${USAGE}\n`);
    return error instanceof UsageError || isFileError(error) ? EXIT.badArguments : EXIT.executionFailure;
  }
}

function isFileError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  // canon and manifest parse their own flags (--format, --emit), which the shared parser rejects.
  if (argv[0] === 'canon') return runCanon(argv.slice(1), io);
  if (argv[0] === 'manifest') return runManifest(argv.slice(1), io);
  if (argv[0] === 'generate') return runGenerate(argv.slice(1), io);
  if (argv[0] === 'plan') return runPlan(argv.slice(1), io);
  if (argv[0] === 'mcp') return runMcp(argv.slice(1), io);
  if (argv[0] === 'report') return runReport(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        capture: { type: 'string', multiple: true },
        'time-column': { type: 'string' },
        id: { type: 'string' },
        out: { type: 'string' },
        'run-out': { type: 'string' },
        'enable-test-tools': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }
  const testTools = values['enable-test-tools'] ?? false;
  switch (command) {
    case 'manifests': {
      expectNoMore(rest);
      const registry = new ToolRegistry(builtinTools({ testTools }));
      const list = registry.manifests().map((manifest) => ({ name: manifest.name, version: manifest.version, capabilities: manifest.capabilities }));
      io.stdout(`${JSON.stringify(list, null, 2)}\n`);
      return EXIT.ok;
    }
    case 'captures': {
      expectNoMore(rest);
      const catalog = await loadCatalog(values.capture ?? [], values['time-column']);
      const list = catalog.list().map((info) => ({
        id: info.id,
        source: info.source,
        rows: info.rowCount,
        columns: info.columns.map((column) => ({ name: column.name, type: column.kind })),
        bounds: info.bounds,
        bounds_source: info.boundsSource,
        time_column: info.timeColumn,
        channel_column: info.channelColumn,
        channels: info.channels,
        time_origin: info.timeOrigin,
      }));
      io.stdout(`${JSON.stringify(list, null, 2)}\n`);
      return EXIT.ok;
    }
    case 'import': {
      const [path, ...extra] = rest;
      if (!path) throw new UsageError('import needs a PATH');
      expectNoMore(extra);
      return await importFile(path, values.id ?? defaultCaptureId(path), values.out, values['time-column'], io);
    }
    case 'invoke': {
      const [file, ...extra] = rest;
      if (!file) throw new UsageError('invoke needs a FILE (or - for standard input)');
      expectNoMore(extra);
      const text = file === '-' ? await io.readStdin() : await readFile(file, 'utf8');
      const userCaptures = await readCaptures(values.capture ?? [], values['time-column']);
      const catalog = new CaptureCatalog([...builtinCaptures(), ...userCaptures]);
      return await invoke(text, catalog, userCaptures, testTools, io, values['run-out']);
    }
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

/** The file name without its extension(s), reduced to letters, digits, `_` and `-`. */
export function defaultCaptureId(path: string): string {
  const stem = basename(path).replace(/\.[^.]*$/, '');
  const id = stem.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return id.length > 0 ? id : 'capture';
}

/**
 * `sextant import`: the report on stdout (with the file's size and SHA-256, every warning and
 * whether the import is partial), each warning also on stderr; the table to --out; exit 4 when
 * the file cannot be read.
 */
async function importFile(path: string, id: string, out: string | undefined, timeColumn: string | undefined, io: Io): Promise<number> {
  const read = await withFileCaptureSource(path, basename(path), (source) => readCaptureSource(source, { id, fileName: basename(path), timeColumn }));
  if (!read.ok) {
    io.stderr(`sextant: import ${path}: ${read.error.message} [${read.error.code}]\n`);
    return EXIT.badArguments;
  }
  const capture = read.value;
  if (out) await writeFile(out, tableToIPC(capture.table, 'file'));
  const full = capture.report;
  const report =
    full.format === 'pcap' || full.format === 'pcapng' || full.format === 'btsnoop'
      ? full
      : {
          // Arrow, Parquet and CSV files: what the reader knows about them.
          capture_id: capture.info.id,
          source: capture.info.source,
          format: full.format,
          rows: capture.info.rowCount,
          bounds: capture.info.bounds,
          time_column: capture.info.timeColumn,
          channel_column: capture.info.channelColumn,
          columns: capture.info.columns.map((column) => ({ name: column.name, type: column.kind })),
          skipped: full.skipped,
          source_bytes: full.source_bytes,
          source_sha256: full.source_sha256,
          warnings: full.warnings,
          partial: full.partial,
          integrity: full.integrity,
        };
  for (const warning of full.warnings) io.stderr(`sextant: import ${path}: warning [${warning.code}] ${warning.message}\n`);
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return EXIT.ok;
}

function expectNoMore(rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
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

/** SHA-256 and size of each --capture file, kept for --run-out. */
const fileFingerprints = new WeakMap<Capture, { sha256: string; bytes: number; importReport: JsonValue }>();

/** 5 when any step failed validation, else 1 when any failed while executing, else 0. */
export function exitCodeFor(records: ReadonlyArray<ExecutionRecord>): number {
  if (records.some((record) => record.phase === 'validation')) return EXIT.validationFailure;
  if (records.some((record) => record.result.status === 'error')) return EXIT.executionFailure;
  return EXIT.ok;
}

async function loadCatalog(specs: string[], timeColumn: string | undefined): Promise<CaptureCatalog> {
  return new CaptureCatalog([...builtinCaptures(), ...(await readCaptures(specs, timeColumn))]);
}

export async function readCaptures(specs: string[], timeColumn: string | undefined): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const spec of specs) {
    const separator = spec.indexOf('=');
    if (separator <= 0 || separator === spec.length - 1) throw new UsageError(`--capture expects ID=PATH, got '${spec}'`);
    const id = spec.slice(0, separator);
    const path = spec.slice(separator + 1);
    const read = await withFileCaptureSource(path, path, (source) => readCaptureSource(source, { id, fileName: path, timeColumn }));
    if (!read.ok) throw new UsageError(`--capture ${id}: ${read.error.message} [${read.error.code}]`);
    const { sourceSha256, sourceBytes } = read.value.info;
    // The pipeline hashed the file's bytes as it read them.
    if (sourceSha256 !== undefined && sourceBytes !== undefined) {
      fileFingerprints.set(read.value, { sha256: sourceSha256, bytes: sourceBytes, importReport: JSON.parse(JSON.stringify(read.value.report)) as JsonValue });
    }
    captures.push(read.value);
  }
  return captures;
}
