import { readFile } from 'node:fs/promises';
import {
  classifyChange,
  isCleanManifest,
  lintManifest,
  lintManifestText,
  safeParseJson,
  type JsonValue,
  type ManifestProblem,
  type ToolManifest,
} from '../../src/core/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';

/** The help text of `sextant manifest`. */
export const MANIFEST_USAGE = `Usage:
  sextant manifest check FILE|-
  sextant manifest diff OLD NEW

check  lints a ToolManifest (the manifest JSON Schema plus the semantic checks) and prints
       {"ok": bool, "problems": [{code, message, path, severity}]}; path is a JSONPath
       such as $.input_schema.required[1]. ok is false when any problem is an error.
diff   classifies the change from OLD to NEW by the compatibility policy (patch, minor,
       major), says whether NEW's version bump is enough, and lists the reasons.

Exit codes: check 0 clean (warnings allowed), 5 problems; diff 0 classified, 5 when OLD or
NEW is not a valid manifest; 4 bad arguments, an unreadable file, or (diff) a file that is not JSON.`;

function fail(io: Io, message: string, usage = false): number {
  io.stderr(`sextant manifest: ${message}\n`);
  if (usage) io.stderr(`\n${MANIFEST_USAGE}\n`);
  return EXIT.badArguments;
}

async function readText(file: string, io: Io): Promise<string | null> {
  try {
    return file === '-' ? await io.readStdin() : await readFile(file, 'utf8');
  } catch (error) {
    fail(io, `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

function print(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

async function check(files: string[], io: Io): Promise<number> {
  if (files.length !== 1) return fail(io, 'manifest check needs exactly one FILE (or - for standard input)', true);
  const text = await readText(files[0], io);
  if (text === null) return EXIT.badArguments;
  const problems = lintManifestText(text);
  const ok = isCleanManifest(problems);
  print(io, { ok, problems });
  return ok ? EXIT.ok : EXIT.validationFailure;
}

async function diff(files: string[], io: Io): Promise<number> {
  if (files.length !== 2) return fail(io, 'manifest diff needs OLD and NEW', true);
  if (files[0] === '-' && files[1] === '-') return fail(io, 'standard input (-) can be read only once');
  const manifests: JsonValue[] = [];
  for (const file of files) {
    const text = await readText(file, io);
    if (text === null) return EXIT.badArguments;
    const parsed = safeParseJson(text);
    if (!parsed.ok) return fail(io, `${file} is not JSON: ${parsed.message}`);
    manifests.push(parsed.value);
  }
  const [oldProblems, newProblems] = manifests.map((manifest) => lintManifest(manifest));
  if (!isCleanManifest(oldProblems) || !isCleanManifest(newProblems)) {
    const errorsOnly = (problems: ManifestProblem[]) => problems.filter((problem) => problem.severity === 'error');
    print(io, { ok: false, message: 'Both manifests must be valid to be compared.', problems: { old: errorsOnly(oldProblems), new: errorsOnly(newProblems) } });
    return EXIT.validationFailure;
  }
  // Both passed the manifest schema and the lint just above, so they have the ToolManifest shape.
  const classification = classifyChange(manifests[0] as unknown as ToolManifest, manifests[1] as unknown as ToolManifest);
  print(io, classification);
  return EXIT.ok;
}

/**
 * `sextant manifest check FILE` and `sextant manifest diff OLD NEW`. `-` reads standard input.
 * Returns the exit code; never throws.
 */
export async function runManifest(args: string[], io: Io): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === '--help' || subcommand === '-h') {
    io.stdout(`${MANIFEST_USAGE}\n`);
    return EXIT.ok;
  }
  const option = rest.find((arg) => arg.startsWith('-') && arg !== '-');
  if (option) return fail(io, `unknown option '${option}'`, true);
  switch (subcommand) {
    case 'check':
      return await check(rest, io);
    case 'diff':
      return await diff(rest, io);
    case undefined:
      return fail(io, 'manifest needs a subcommand: check or diff', true);
    default:
      return fail(io, `unknown manifest subcommand '${subcommand}'`, true);
  }
}
