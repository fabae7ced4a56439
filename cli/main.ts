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
  safeParseJson,
  type Capture,
  type ExecutionRecord,
  type ToolResult,
} from '../src/core/index.ts';
import { ThreadRunner } from './thread-runner.ts';
import { runCanon } from './canon-command.ts';
import { runManifest } from './manifest-command.ts';
import { runGenerate } from './generate-command.ts';
import { runPlan } from './plan-command.ts';
import { withFileCaptureSource } from './file-source.ts';

/** Exit codes of agent-contract.md, as the runner uses them. */
export const EXIT = { ok: 0, executionFailure: 1, badArguments: 4, validationFailure: 5 } as const;

const USAGE = `Usage:
  sextant invoke FILE|- [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools]
  sextant captures [--capture ID=PATH]... [--time-column NAME]
  sextant import PATH [--id ID] [--out FILE.arrow]
  sextant manifests [--enable-test-tools]
  sextant canon FILE|-... [--format openai|anthropic|mcp|langchain|raw] [--emit canonical|openai|anthropic|mcp|json_schema|manifest]
  sextant manifest check FILE|-
  sextant manifest diff OLD NEW
  sextant generate ble --seed N [--scenario NAME] --out FILE [--per-receiver]
  sextant plan --prompt TEXT [--config FILE] [--provider scripted:FILE|openai:MODEL|anthropic:MODEL|openai-compatible:URL#MODEL]... [--test-tools]

invoke     runs one ToolInvocation or an ordered array of them (a plan) and prints the
           ToolResult (or an array of them) as JSON on stdout
captures   lists the available captures as JSON
canon      detects a tool definition's format and canonicalizes it (or emits it in another format)
manifest   check: lints a ToolManifest (exit 5 on problems); diff: classifies a change by the
           compatibility policy (patch, minor, major) and says why
import     reads a capture file and prints its import report as JSON on stdout: for pcap,
           pcapng and btsnoop files the BLE import report (rows, bounds, link_types, packets,
           advertising_packets[_crc_ok], advertisers[_crc_ok], adv_type_counts, skipped, ...),
           and for every file source_bytes, source_sha256, warnings (also on stderr) and partial;
           with --out, also writes the normalized table as an Arrow IPC file
manifests  lists the installed tool manifests as JSON
generate   ble: writes a synthetic BLE scenario (Arrow IPC captures + FILE.truth.json) and
           prints a JSON summary; see \`sextant generate --help\` and docs/ble-scenarios.md
plan       runs a planner session (LLM plan → validate → execute → repair → final report)
           and prints its result as JSON; see \`sextant plan --help\` (exit 0 success, 1 session
           failure, 4 bad arguments or configuration)

--capture ID=PATH   adds a capture from a BLE capture (pcap, pcapng, btsnoop), Arrow IPC
                    (file or stream) or CSV file
--time-column NAME  timestamp column of the --capture files (default ts_ms)
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
      return await invoke(text, catalog, userCaptures, testTools, io);
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
        };
  for (const warning of full.warnings) io.stderr(`sextant: import ${path}: warning [${warning.code}] ${warning.message}\n`);
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return EXIT.ok;
}

function expectNoMore(rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
}

async function invoke(text: string, catalog: CaptureCatalog, userCaptures: Capture[], testTools: boolean, io: Io): Promise<number> {
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
    return exitCodeFor(records);
  } finally {
    runner.close();
  }
}

/** 5 when any step failed validation, else 1 when any failed while executing, else 0. */
export function exitCodeFor(records: ReadonlyArray<ExecutionRecord>): number {
  if (records.some((record) => record.phase === 'validation')) return EXIT.validationFailure;
  if (records.some((record) => record.result.status === 'error')) return EXIT.executionFailure;
  return EXIT.ok;
}

async function loadCatalog(specs: string[], timeColumn: string | undefined): Promise<CaptureCatalog> {
  return new CaptureCatalog([...builtinCaptures(), ...(await readCaptures(specs, timeColumn))]);
}

async function readCaptures(specs: string[], timeColumn: string | undefined): Promise<Capture[]> {
  const captures: Capture[] = [];
  for (const spec of specs) {
    const separator = spec.indexOf('=');
    if (separator <= 0 || separator === spec.length - 1) throw new UsageError(`--capture expects ID=PATH, got '${spec}'`);
    const id = spec.slice(0, separator);
    const path = spec.slice(separator + 1);
    const read = await withFileCaptureSource(path, path, (source) => readCaptureSource(source, { id, fileName: path, timeColumn }));
    if (!read.ok) throw new UsageError(`--capture ${id}: ${read.error.message} [${read.error.code}]`);
    captures.push(read.value);
  }
  return captures;
}
