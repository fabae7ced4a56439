import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  canonicalizeDefinitions,
  checkJsonLimits,
  describeJsonPath,
  emit,
  safeParseJson,
  toManifest,
  LIMIT_WARNING_PREFIX,
  SOURCE_FORMATS,
  type CanonicalizationResult,
  type JsonValue,
  type SourceFormat,
} from '../../src/core/index.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';

/** What `--emit` accepts: the canonical result, or one emitter's definition alone. */
export const CANON_EMITS = ['canonical', 'openai', 'anthropic', 'mcp', 'json_schema', 'manifest'] as const;
type CanonEmit = (typeof CANON_EMITS)[number];

/** The help text of `sextant canon`. */
export const CANON_USAGE = `Usage:
  sextant canon FILE|-... [--format openai|anthropic|mcp|langchain|raw]
                          [--emit canonical|openai|anthropic|mcp|json_schema|manifest]

Reads tool definitions in any format (OpenAI, Anthropic, MCP, LangChain, or anything with a name
and a schema), detects each one's format and prints it as JSON on stdout:
  --emit canonical  (default) {"tool", "warnings", "source_format_detected", "confidence"}
  --emit openai|anthropic|mcp|json_schema  the definition in that format
  --emit manifest   a draft Sextant ToolManifest (fields to review are listed on stderr)
--format forces the source format instead of detecting it.
A FILE holding an array of definitions or an MCP tools/list response gives an array of results;
several FILEs give a JSON array with one entry per FILE, in order.

Exit codes: 0 printed; 4 bad arguments, an unreadable file, a file that is not JSON, or one past
the limits (nested more than 100 levels deep, more than a million values, more than 1,000
definitions in one file; message on stderr).`;

function fail(io: Io, message: string, usage = false): number {
  io.stderr(`sextant canon: ${message}\n`);
  if (usage) io.stderr(`\n${CANON_USAGE}\n`);
  return EXIT.badArguments;
}

function output(result: CanonicalizationResult, target: CanonEmit, file: string, io: Io): unknown {
  switch (target) {
    case 'canonical':
      return { tool: result.tool, warnings: result.warnings, source_format_detected: result.source_format_detected, confidence: result.confidence };
    case 'manifest': {
      const draft = toManifest(result.tool);
      for (const item of draft.review) io.stderr(`sextant canon: ${file}: review ${item.field}: ${item.reason}\n`);
      return draft.manifest;
    }
    default:
      return emit(result.tool, target);
  }
}

/**
 * `sextant canon FILE... [--format F] [--emit E]`: canonicalizes each file's tool definition(s)
 * and prints the results as JSON. `-` reads standard input. Returns the exit code; never throws.
 */
export async function runCanon(args: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string' }, emit: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return fail(io, error instanceof Error ? error.message : String(error), true);
  }
  const { values, positionals: files } = parsed;
  if (values.help) {
    io.stdout(`${CANON_USAGE}\n`);
    return EXIT.ok;
  }
  const format = values.format;
  if (format !== undefined && !(SOURCE_FORMATS as readonly string[]).includes(format)) {
    return fail(io, `--format must be one of ${SOURCE_FORMATS.join(', ')}; got '${format}'`, true);
  }
  const target = values.emit ?? 'canonical';
  if (!(CANON_EMITS as readonly string[]).includes(target)) return fail(io, `--emit must be one of ${CANON_EMITS.join(', ')}; got '${target}'`, true);
  if (files.length === 0) return fail(io, 'canon needs at least one FILE (or - for standard input)', true);
  if (files.filter((file) => file === '-').length > 1) return fail(io, 'standard input (-) can be read only once');

  const inputs: JsonValue[] = [];
  let failed = false;
  for (const file of files) {
    let text: string;
    try {
      text = file === '-' ? await io.readStdin() : await readFile(file, 'utf8');
    } catch (error) {
      fail(io, `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
      failed = true;
      continue;
    }
    const json = safeParseJson(text);
    if (!json.ok) {
      fail(io, `${file === '-' ? 'standard input' : file} is not JSON: ${json.message}`);
      failed = true;
      continue;
    }
    // Before canonicalization reads it (issue 14, item 8): an input past the limits is refused
    // with its reason and exit 4, never printed as an empty tool.
    const limits = checkJsonLimits(json.value);
    if (!limits.ok) {
      const { path, message } = limits.violation;
      const where = path.length > 4 ? `${describeJsonPath(path.slice(0, 4))}…` : describeJsonPath(path);
      fail(io, `${file === '-' ? 'standard input' : file} is refused: ${where} ${message}`);
      failed = true;
      continue;
    }
    inputs.push(json.value);
  }
  if (failed) return EXIT.badArguments;

  const options = format === undefined ? {} : { format: format as SourceFormat };
  const canonicalized = inputs.map((input) => canonicalizeDefinitions(input, options));
  for (const [index, { results }] of canonicalized.entries()) {
    const refusal = results.length === 1 ? results[0].warnings.find((warning) => warning.startsWith(LIMIT_WARNING_PREFIX)) : undefined;
    if (refusal) {
      fail(io, `${files[index] === '-' ? 'standard input' : files[index]} is refused: ${refusal}`);
      failed = true;
    }
  }
  if (failed) return EXIT.badArguments;
  const outputs = canonicalized.map(({ container, results }, index) => {
    const emitted = results.map((result) => output(result, target as CanonEmit, files[index], io));
    return container === 'single' ? emitted[0] : emitted;
  });
  io.stdout(`${JSON.stringify(files.length === 1 ? outputs[0] : outputs, null, 2)}\n`);
  return EXIT.ok;
}
