import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { tableToIPC } from 'apache-arrow';
import {
  CaptureCatalog,
  ToolRegistry,
  buildCaseReport,
  caseReportFiles,
  checkJsonTwin,
  readReportHtml,
  builtinCaptureFingerprint,
  captureProvenance,
  builtinCaptures,
  builtinTools,
  createExecutor,
  parseCaseReport,
  parseRunDocument,
  readCaptureFile,
  safeParseJson,
  verifyReport,
  type Capture,
  type CaptureFingerprint,
  type CaptureProvenance,
  type CaseReport,
  type JsonValue,
  type TwinCheck,
  type VerifyOutcome,
} from '../../src/core/index.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { UsageError } from '../usage-error.ts';
import { ThreadRunner } from '../thread-runner.ts';

export const REPORT_USAGE = `Usage:
  sextant report RUN.json --out FILE.html [--json FILE.json] [--capture ID=PATH]...
  sextant report verify REPORT.html|REPORT.json [--capture ID=PATH]... [--irk LABEL=HEX]...

report   writes a case report: one self-contained HTML file (no network, prints cleanly) and its
         JSON twin (default: FILE.html with .json). RUN.json is a run file (format "sextant.run",
         as \`sextant invoke --run-out\` or the app's "Export run" writes it) or a case report's JSON.
         Captures named by --capture are hashed (SHA-256 of the file's bytes) and described;
         otherwise the run file's recorded provenance is used; built-in captures are hashed as
         their Arrow IPC stream.
verify   takes the HTML (it embeds its report, and must be exactly that report's rendering: an
         edited HTML is refused) or the JSON twin (which names its HTML by SHA-256); refuses a
         report with no steps or with a step whose capture is not listed; hashes each --capture
         file and compares it with the report's hash, re-runs every recorded invocation on those
         files and compares each result with the recorded one (numbers within a relative 1e-9);
         prints one line per check.

--irk LABEL=HEX  key material for an IRK the report names by label (reports never hold keys)

Exit codes: 0 written / everything matches; 3 verification failed (a hash or a result differs,
a capture is missing or has no recorded hash, the evidence is empty, the file was edited);
4 bad arguments or unreadable files.`;

/** The exit codes `report` and `report verify` use, named for them (values from the one table). */
export const REPORT_EXIT = { ok: EXIT.ok, mismatch: EXIT.verificationFailure, badArguments: EXIT.badArguments } as const;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Sextant's version from package.json (bundled into the built runner, so no path to resolve at run time). */
export async function sextantVersion(): Promise<string> {
  return packageJson.version;
}

function splitPair(spec: string, flag: string): [string, string] {
  const separator = spec.indexOf('=');
  if (separator <= 0 || separator === spec.length - 1) throw new UsageError(`${flag} expects NAME=VALUE, got '${spec}'`);
  return [spec.slice(0, separator), spec.slice(separator + 1)];
}

interface GivenCapture {
  capture: Capture;
  fingerprint: CaptureFingerprint;
  importReport: JsonValue;
}

async function readGivenCaptures(specs: string[]): Promise<Map<string, GivenCapture>> {
  const given = new Map<string, GivenCapture>();
  for (const spec of specs) {
    const [id, path] = splitPair(spec, '--capture');
    const bytes = new Uint8Array(await readFile(path));
    const read = await readCaptureFile(bytes, { id, fileName: basename(path) });
    if (!read.ok) throw new UsageError(`--capture ${id}: ${read.error.message} [${read.error.code}]`);
    given.set(id, {
      capture: read.value,
      fingerprint: { sha256: sha256(bytes), bytes: bytes.byteLength, basis: 'source-file' },
      importReport: JSON.parse(JSON.stringify(read.value.report)) as JsonValue,
    });
  }
  return given;
}

async function builtinProvenance(): Promise<Map<string, CaptureProvenance>> {
  const provenance = new Map<string, CaptureProvenance>();
  for (const capture of builtinCaptures()) {
    const fingerprint = await builtinCaptureFingerprint(capture.table);
    provenance.set(capture.info.id, captureProvenance(capture.info, { ...fingerprint, basis: 'arrow-ipc' }, null));
  }
  return provenance;
}


async function readJson(path: string): Promise<unknown> {
  const parsed = safeParseJson(await readFile(path, 'utf8'));
  if (!parsed.ok) throw new UsageError(`${path} is not JSON: ${parsed.message}`);
  return parsed.value;
}

/** `sextant report …`: returns the exit code, never throws. */
export async function runReport(argv: string[], io: Io, now: () => Date = () => new Date()): Promise<number> {
  try {
    if (argv[0] === 'verify') return await verifyCommand(argv.slice(1), io);
    return await reportCommand(argv, io, now);
  } catch (error) {
    io.stderr(`sextant report: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) io.stderr(`\n${REPORT_USAGE}\n`);
    return REPORT_EXIT.badArguments;
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        capture: { type: 'string', multiple: true },
        irk: { type: 'string', multiple: true },
        out: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function reportCommand(argv: string[], io: Io, now: () => Date): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.stdout(`${REPORT_USAGE}\n`);
    return REPORT_EXIT.ok;
  }
  const [input, ...rest] = positionals;
  if (!input) throw new UsageError('report needs RUN.json');
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (!out) throw new UsageError('report needs --out FILE.html');
  const jsonOut = typeof values.json === 'string' ? values.json : out.replace(/\.html?$/i, '') + '.json';
  const document = await readJson(input);
  let report: CaseReport;
  const asReport = parseCaseReport(document);
  if (asReport.ok) {
    report = asReport.value;
  } else {
    const run = parseRunDocument(document);
    if (!run.ok) throw new UsageError(`${input}: ${run.message}`);
    const captures = await builtinProvenance();
    for (const recorded of run.value.captures ?? []) captures.set(recorded.id, recorded);
    const given = await readGivenCaptures(asStrings(values.capture));
    for (const [id, entry] of given) captures.set(id, captureProvenance(entry.capture.info, entry.fingerprint, entry.importReport));
    report = buildCaseReport(run.value, { captures, createdAt: now().toISOString() });
  }
  // The HTML embeds the report; the JSON twin names the HTML's SHA-256 (core/report/twin.ts).
  const files = caseReportFiles(report);
  await writeFile(out, files.html);
  await writeFile(jsonOut, files.json);
  io.stdout(`${JSON.stringify({ html: out, json: jsonOut, steps: report.steps.length, captures: report.captures.map((capture) => ({ id: capture.id, sha256: capture.sha256, basis: capture.hash_basis })) }, null, 2)}\n`);
  return REPORT_EXIT.ok;
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

async function verifyCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    io.stdout(`${REPORT_USAGE}\n`);
    return REPORT_EXIT.ok;
  }
  const [input, ...rest] = positionals;
  if (!input) throw new UsageError('report verify needs REPORT.html or REPORT.json');
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`);
  const text = await readFile(input, 'utf8');
  let report: CaseReport;
  let twin: TwinCheck;
  if (/^\s*</.test(text)) {
    const read = readReportHtml(text);
    if (!read.ok && read.edited) {
      io.stdout(`REFUSED  ${input}: ${read.message}\nNOT VERIFIED: see the REFUSED line above.\n`);
      return REPORT_EXIT.mismatch;
    }
    if (!read.ok) throw new UsageError(`${input}: ${read.message}`);
    report = read.value;
    twin = read.twin;
  } else {
    const json = safeParseJson(text);
    if (!json.ok) throw new UsageError(`${input} is neither an HTML case report nor JSON: ${json.message}`);
    const parsed = parseCaseReport(json.value);
    if (!parsed.ok) throw new UsageError(`${input}: ${parsed.message}`);
    report = parsed.value;
    twin = checkJsonTwin(report);
  }
  const given = await readGivenCaptures(asStrings(values.capture));
  const keys = new Map(asStrings(values.irk).map((spec) => splitPair(spec, '--irk')));
  const fingerprints = new Map<string, CaptureFingerprint>();
  const builtins = builtinCaptures();
  for (const capture of builtins) {
    if (report.captures.some((recorded) => recorded.id === capture.info.id && recorded.hash_basis === 'arrow-ipc')) {
      fingerprints.set(capture.info.id, { ...(await builtinCaptureFingerprint(capture.table)), basis: 'arrow-ipc' });
    }
  }
  for (const [id, entry] of given) fingerprints.set(id, entry.fingerprint);
  const userCaptures = [...given.values()].map((entry) => entry.capture);
  const runner = new ThreadRunner({ testTools: false, captures: userCaptures.map((capture) => tableToIPC(capture.table)) });
  let outcome: VerifyOutcome;
  try {
    const catalog = new CaptureCatalog([...builtins.filter((capture) => !given.has(capture.info.id)), ...userCaptures]);
    const executor = createExecutor({ registry: new ToolRegistry(builtinTools({ testTools: false })), catalog, runner });
    outcome = await verifyReport(report, {
      fingerprints,
      keys,
      rerun: async (invocation) => {
        const record = await executor.execute(invocation);
        return { phase: record.phase, result: record.result };
      },
    });
  } finally {
    runner.close();
  }
  if (twin.status === 'edited') outcome = { ...outcome, ok: false, problems: [twin.message, ...outcome.problems] };
  io.stdout(`${twin.status === 'bound' ? 'MATCH   ' : twin.status === 'unbound' ? 'NOTE    ' : 'REFUSED '} ${twin.message}\n`);
  io.stdout(formatOutcome(outcome));
  return outcome.ok ? REPORT_EXIT.ok : REPORT_EXIT.mismatch;
}

/** One line per capture and per step, then the verdict. */
export function formatOutcome(outcome: VerifyOutcome): string {
  const lines: string[] = [];
  for (const problem of outcome.problems) lines.push(`REFUSED  ${problem}`);
  for (const check of outcome.captures) lines.push(`${check.status === 'match' ? 'MATCH   ' : 'MISMATCH'} ${check.message}`);
  for (const step of outcome.steps) {
    const mark = step.status === 'match' ? 'MATCH   ' : step.status === 'not-run' ? 'NOT RUN ' : 'MISMATCH';
    const hashes = step.captures.some((check) => check.status !== 'match') ? ` (input: ${step.captures.filter((check) => check.status !== 'match').map((check) => `${check.id} ${check.status}`).join(', ')})` : '';
    lines.push(`${mark} step ${step.index} ${step.toolName ?? '?'}: ${step.message}${hashes}`);
  }
  lines.push(outcome.ok ? 'VERIFIED: every capture hash and every result matches the report.' : 'NOT VERIFIED: see the REFUSED / MISMATCH / NOT RUN lines above.');
  return `${lines.join('\n')}\n`;
}
