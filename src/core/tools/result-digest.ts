import type { ToolArtifact, ToolResult } from '../contract/types.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';

/**
 * What a model reads of a ToolResult: a compact, complete JSON digest — status, summary, errors
 * and warnings, the analytical content, bulky arrays summarized with counts, artifacts by name and
 * SHA-256 — instead of the whole result (the §4 regression's is about 176 KB, mostly plot samples).
 * The full result stays in the run record and the UI.
 */
export type ToolDigest = (structuredOutput: JsonObject, result: ToolResult) => JsonObject;

/** Numbers keep 6 significant digits: more than any statistic here is known to. */
export function roundNumber(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  return Number(value.toPrecision(6));
}

export interface CompactOptions {
  /** Arrays longer than this are summarized: their count and the first `keepItems` items. */
  maxItems: number;
  keepItems: number;
  /** Strings longer than this are cut, saying how long they were. */
  maxString: number;
  /** Deeper values are replaced by a description. */
  maxDepth: number;
}

export const DEFAULT_COMPACT: CompactOptions = { maxItems: 12, keepItems: 5, maxString: 400, maxDepth: 6 };

function describe(value: JsonValue): string {
  if (Array.isArray(value)) return `array of ${value.length}`;
  if (isJsonObject(value)) return `object with ${Object.keys(value).length} keys`;
  return typeof value;
}

/**
 * Any JSON made compact, generically: numbers rounded, long strings cut, long arrays summarized as
 * `{count, first}`, deep values described. Used for tools without their own digest (endpoint and
 * MCP tools) and for fields a tool's digest does not know (a newer tool version's extra output).
 */
export function compactJson(value: JsonValue, options: CompactOptions = DEFAULT_COMPACT, depth = 0): JsonValue {
  if (typeof value === 'number') return roundNumber(value);
  if (typeof value === 'string') return value.length > options.maxString ? `${value.slice(0, options.maxString)}… (${value.length} characters)` : value;
  if (value === null || typeof value === 'boolean') return value;
  if (depth >= options.maxDepth) return `(${describe(value)})`;
  if (Array.isArray(value)) {
    if (value.length <= options.maxItems) return value.map((item) => compactJson(item, options, depth + 1));
    return { count: value.length, first: value.slice(0, options.keepItems).map((item) => compactJson(item, options, depth + 1)) };
  }
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) out[key] = compactJson(item, options, depth + 1);
  return out;
}

/** Tighter and tighter settings, tried in turn until a generic digest fits its budget. */
const SHRINKING: CompactOptions[] = [
  DEFAULT_COMPACT,
  { maxItems: 8, keepItems: 3, maxString: 200, maxDepth: 5 },
  { maxItems: 4, keepItems: 2, maxString: 120, maxDepth: 4 },
  { maxItems: 2, keepItems: 1, maxString: 80, maxDepth: 3 },
  { maxItems: 0, keepItems: 0, maxString: 60, maxDepth: 2 },
];

const utf8 = new TextEncoder();
export const jsonBytes = (value: JsonValue): number => utf8.encode(JSON.stringify(value)).byteLength;

/** The generic digest: the structured output compacted until it fits `budgetBytes` (its shape stays recognizable). */
export function genericDigest(structuredOutput: JsonObject, budgetBytes = 6_000): JsonObject {
  let compacted: JsonValue = structuredOutput;
  for (const options of SHRINKING) {
    compacted = compactJson(structuredOutput, options);
    if (jsonBytes(compacted) <= budgetBytes) break;
  }
  return compacted as JsonObject;
}

function artifactDigest(artifact: ToolArtifact): JsonObject {
  const inline = artifact.uri.startsWith('data:');
  return {
    name: artifact.name,
    mime_type: artifact.mime_type,
    sha256: artifact.sha256,
    ...(inline ? { inline_characters: artifact.uri.length } : { uri: artifact.uri }),
  };
}

/** A tool that may bring its own digest (the built-in tools do; endpoint and MCP tools do not). */
export interface DigestingTool {
  digest?: ToolDigest;
}

/**
 * The digest of one ToolResult as the model receives it. The envelope (status, summary, errors,
 * warnings, confidence, artifacts by name and SHA-256) is always whole; `output` is the tool's own
 * digest of its structured output, or the generic one. A digest that throws falls back to the
 * generic one, so a tool's bug never hides its result from the model.
 */
export function digestToolResult(result: ToolResult, tool?: DigestingTool): JsonObject {
  const digest: JsonObject = { status: result.status, summary: result.summary };
  if (result.errors.length > 0) digest.errors = result.errors.map((error) => ({ code: error.code, field: error.field, message: error.message }));
  if (result.warnings.length > 0) digest.warnings = result.warnings.map((warning) => ({ code: warning.code, message: warning.message }));
  digest.confidence = roundNumber(result.confidence);
  if (result.structured_output) {
    let output: JsonObject;
    try {
      output = tool?.digest ? tool.digest(result.structured_output, result) : genericDigest(result.structured_output);
    } catch {
      output = genericDigest(result.structured_output);
    }
    digest.output = output;
  }
  if (result.artifacts && result.artifacts.length > 0) digest.artifacts = result.artifacts.map(artifactDigest);
  return digest;
}

/** The digest as the text of a tool message (compact JSON). */
export function digestToolResultText(result: ToolResult, tool?: DigestingTool): string {
  return JSON.stringify(digestToolResult(result, tool));
}
