import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import { checkJsonLimits, describeJsonPath, type JsonLimitViolation } from '../util/json-limits.ts';
import { LIMITS } from '../util/limits.ts';
import { detectFormat, formatConfidence } from './detect.ts';
import { jsonKind, own, ownObject, toJsonValue } from './json-value.ts';
import { extractRaw, FORMAT_PARSERS } from './parsers.ts';
import { defaultCapability, SOURCE_FORMATS, type CanonicalizationResult, type CanonicalTool, type SourceFormat } from './types.ts';

/** The warning texts of toolcanon-api.md ("Common warning messages"), word for word. */
export const CANONICALIZATION_WARNINGS = {
  noName: 'Tool has no name',
  noDescription: 'Tool has no description',
  couldNotDetect: 'Could not detect source format; using raw passthrough.',
  rawRequested: "No parser for 'raw' format; extracted fields by heuristic.",
} as const;

/** `Parser error for <format>: <reason>`: the selected parser failed and the raw heuristic was used instead. */
export function parserErrorWarning(format: SourceFormat, reason: string): string {
  return `Parser error for ${format}: ${reason}`;
}

/**
 * The warning of a definition refused before it is read, because it crosses a JSON limit
 * (`LIMITS`: nesting depth, value and key counts). It starts with a code in parentheses so callers
 * can recognise it: `Definition refused (TOO_DEEP): $.a.b… is nested more than 100 levels deep`.
 * The tool is then empty; the CLI exits 4.
 */
export function limitWarning(violation: JsonLimitViolation): string {
  const code = violation.kind === 'depth' ? 'TOO_DEEP' : violation.kind === 'not-json' ? 'NOT_JSON' : 'TOO_LARGE';
  const where = violation.path.length > 4 ? `${describeJsonPath(violation.path.slice(0, 4))}…` : describeJsonPath(violation.path);
  return `${LIMIT_WARNING_PREFIX}${code}): ${where} ${violation.message}`;
}

/** How every `limitWarning` starts. */
export const LIMIT_WARNING_PREFIX = 'Definition refused (';

function refused(violation: JsonLimitViolation): CanonicalizationResult {
  return {
    tool: emptyTool({}),
    warnings: [limitWarning(violation), CANONICALIZATION_WARNINGS.noName, CANONICALIZATION_WARNINGS.noDescription],
    source_format_detected: 'raw',
    confidence: formatConfidence(undefined),
  };
}

/** Options of `canonicalize`. */
export interface CanonicalizeOptions {
  /** Force a format instead of detecting one (toolcanon-api.md `source_format`). */
  format?: SourceFormat;
}

function isSourceFormat(value: unknown): value is SourceFormat {
  return typeof value === 'string' && (SOURCE_FORMATS as readonly string[]).includes(value);
}

function emptyTool(original: JsonObject): CanonicalTool {
  return {
    name: '',
    version: '1.0.0',
    description: '',
    capabilities: defaultCapability(),
    inputs: {},
    outputs: {},
    security: null,
    source_format: 'raw',
    original_definition: original,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Normalizes one tool definition into the canonical model (toolcanon-api.md `canonicalize`).
 * Always returns a result, never throws:
 * - without `options.format` the format is detected by priority; when nothing matches, the raw
 *   heuristic runs with the warning `Could not detect source format; using raw passthrough.`;
 * - a forced `raw` runs the heuristic with `No parser for 'raw' format; extracted fields by heuristic.`;
 * - when the chosen parser fails (a field of the wrong JSON type, or anything unexpected) the
 *   warning is `Parser error for <format>: <reason>` and the raw heuristic gives the tool;
 * - `Tool has no name` / `Tool has no description` close the list when they apply.
 * Input past the JSON limits (nesting, value or key counts) is refused with `limitWarning`.
 * Input that is not a JSON object (an array, a string…) canonicalizes to an empty raw tool with a
 * warning saying so; so does a tool list (with a warning) — use `canonicalizeDefinitions` for
 * arrays and tool lists.
 */
export function canonicalize(input: unknown, options: CanonicalizeOptions = {}): CanonicalizationResult {
  // Before the recursive copy and the parsers read it (issue 14, item 8): a definition nested
  // 10^5 deep used to overflow the copy and come back as an empty tool with no reason.
  // Cycles (only from JavaScript callers) read as null, as `toJsonValue` copies them; a getter that throws is read below.
  const limits = checkJsonLimits(input, { lenient: true });
  if (!limits.ok && limits.violation.kind !== 'not-json') return refused(limits.violation);
  const warnings: string[] = [];
  let definition: JsonObject = {};
  try {
    const value = toJsonValue(input);
    if (isJsonObject(value)) definition = value;
    if (Array.isArray(value)) warnings.push(`The input is an array of ${value.length} definition${value.length === 1 ? '' : 's'}, not one; canonicalizeDefinitions reads each of them.`);
    else if (!isJsonObject(value)) warnings.push(`The input is not a JSON object (got ${value === undefined ? typeof input : jsonKind(value)}); there is no tool definition to read.`);
    else if (splitDefinitions(value).container !== 'single') warnings.push('The input is a list of tools, not one; canonicalizeDefinitions reads each of them.');
    let forced: SourceFormat | undefined;
    if (options.format !== undefined) {
      if (isSourceFormat(options.format)) forced = options.format;
      else warnings.push(`Unknown format ${JSON.stringify(options.format)}; detecting the format instead.`);
    }
    const detection = detectFormat(definition);
    const confidence = formatConfidence(isJsonObject(value) ? definition : value);
    const format = forced ?? detection.format;
    let tool: CanonicalTool;
    if (format === 'raw') {
      warnings.push(forced ? CANONICALIZATION_WARNINGS.rawRequested : CANONICALIZATION_WARNINGS.couldNotDetect);
      const raw = extractRaw(definition);
      warnings.push(...raw.notes);
      tool = raw.tool;
    } else {
      if (forced && confidence[format] === 0 && isJsonObject(value)) {
        warnings.push(`The input has none of the ${format} format's signals; it was read as ${format} because that format was requested.`);
      }
      let failure: string | undefined;
      let parsed: CanonicalTool | undefined;
      try {
        const result = FORMAT_PARSERS[format](definition);
        if (result.ok) parsed = result.value;
        else failure = result.error;
      } catch (error) {
        failure = messageOf(error);
      }
      if (parsed) {
        tool = parsed;
      } else {
        warnings.push(parserErrorWarning(format, failure ?? 'unknown error'));
        const raw = extractRaw(definition);
        warnings.push(...raw.notes);
        tool = raw.tool;
      }
    }
    if (!tool.name) warnings.push(CANONICALIZATION_WARNINGS.noName);
    if (!tool.description) warnings.push(CANONICALIZATION_WARNINGS.noDescription);
    return { tool, warnings, source_format_detected: format, confidence };
  } catch (error) {
    // Unreachable for JSON input; kept so that no input (a throwing getter, a proxy) escapes as a throw.
    return {
      tool: emptyTool(definition),
      warnings: [...warnings, `Could not read the definition: ${messageOf(error)}`, CANONICALIZATION_WARNINGS.noName, CANONICALIZATION_WARNINGS.noDescription],
      source_format_detected: 'raw',
      confidence: formatConfidence(undefined),
    };
  }
}

/**
 * How several definitions arrived together:
 * - `single`: one definition;
 * - `array`: a JSON array of definitions;
 * - `tools`: an object with a `tools` array and no `name` — an MCP `tools/list` result
 *   (`{tools, nextCursor?}`) or an OpenAI / Anthropic request body;
 * - `jsonrpc`: a JSON-RPC response to MCP `tools/list` (`{jsonrpc, id, result: {tools}}`);
 * - `functions`: a legacy OpenAI request body with a `functions` array and no `name`.
 */
export type DefinitionContainer = 'single' | 'array' | 'tools' | 'jsonrpc' | 'functions';

/** The definitions found in one input, in order. */
export interface DefinitionList {
  container: DefinitionContainer;
  definitions: JsonValue[];
}

/** Splits an input into the tool definitions it holds (see `DefinitionContainer`). Never throws. */
export function splitDefinitions(input: unknown): DefinitionList {
  let value: JsonValue | undefined;
  try {
    value = toJsonValue(input);
  } catch {
    return { container: 'single', definitions: [{}] };
  }
  if (value === undefined) return { container: 'single', definitions: [null] };
  if (Array.isArray(value)) return { container: 'array', definitions: value };
  if (isJsonObject(value) && !Object.hasOwn(value, 'name')) {
    const result = ownObject(value, 'result');
    const resultTools = result ? own(result, 'tools') : undefined;
    if (Object.hasOwn(value, 'jsonrpc') && Array.isArray(resultTools)) return { container: 'jsonrpc', definitions: resultTools };
    const tools = own(value, 'tools');
    if (Array.isArray(tools)) return { container: 'tools', definitions: tools };
    const functions = own(value, 'functions');
    if (Array.isArray(functions)) return { container: 'functions', definitions: functions };
  }
  return { container: 'single', definitions: [value] };
}

/** The canonicalization of every definition of one input. */
export interface CanonicalizedDefinitions {
  container: DefinitionContainer;
  /** One result per definition, in input order; `single` has exactly one. */
  results: CanonicalizationResult[];
}

/**
 * Canonicalizes everything an input holds: one definition, an array of them, or a tool list
 * (MCP `tools/list` result or JSON-RPC response, a request body with `tools` or `functions`).
 * Each definition is detected on its own (MCP tools carry `inputSchema`, so they detect as mcp);
 * `options.format` applies to all of them. Never throws.
 */
export function canonicalizeDefinitions(input: unknown, options: CanonicalizeOptions = {}): CanonicalizedDefinitions {
  const limits = checkJsonLimits(input, { lenient: true });
  if (!limits.ok && limits.violation.kind !== 'not-json') return { container: 'single', results: [refused(limits.violation)] };
  const { container, definitions } = splitDefinitions(input);
  if (definitions.length > LIMITS.maxDefinitionsPerInput) {
    return {
      container: 'single',
      results: [refused({ kind: 'nodes', path: [], message: `holds ${definitions.length} tool definitions; at most ${LIMITS.maxDefinitionsPerInput} are read from one input` })],
    };
  }
  return { container, results: definitions.map((definition) => canonicalize(definition, options)) };
}
