import type { JsonObject } from '../util/json.ts';

/**
 * The tool definition formats canonicalization understands (toolcanon-api.md `SourceFormat`).
 * `raw` is an unknown or unrecognized shape, read by a best-effort heuristic.
 */
export type SourceFormat = 'openai' | 'anthropic' | 'mcp' | 'langchain' | 'raw';

/** Every `SourceFormat`, in detection priority order (`raw` last: the fallback). */
export const SOURCE_FORMATS: readonly SourceFormat[] = ['openai', 'anthropic', 'mcp', 'langchain', 'raw'];

/** Known values of `ToolCapability.cost_estimate`. */
export const COST_ESTIMATES = ['free', 'low', 'medium', 'high', 'unknown'] as const;
/** Known values of `ToolSecurity.data_classification`. */
export const DATA_CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
/** Known values of `ToolSecurity.pii_handling`. */
export const PII_HANDLING = ['none', 'processes', 'stores', 'anonymizes'] as const;

/** Semantic capability metadata of a canonical tool (toolcanon-api.md `ToolCapability`); every field has a default. */
export interface ToolCapability {
  /** Primary action verb: `read`, `write`, `search`, `call`, `delete`, `fetch`, `list`, `query`, …; `""` when unknown. Default `""`. */
  action: string;
  /** Domain the tool works in: `filesystem`, `web`, `database`, `code`, `email`, `general`; `""` when unknown. Default `""`. */
  domain: string;
  /** True when the tool modifies external state (writes, deletes, sends). Default `false`. */
  side_effects: boolean;
  /** True when repeating a call with the same inputs gives the same result. Default `true`. */
  idempotent: boolean;
  /** Cost category, one of `COST_ESTIMATES`. Default `"unknown"`. */
  cost_estimate: string;
}

/** Security and data-handling metadata (toolcanon-api.md `ToolSecurity`). */
export interface ToolSecurity {
  /** Permission strings a caller must hold. Default `[]`. */
  required_permissions: string[];
  /** One of `DATA_CLASSIFICATIONS`. Default `"public"`. */
  data_classification: string;
  /** One of `PII_HANDLING`. Default `"none"`. */
  pii_handling: string;
}

/**
 * The canonical intermediate representation every parser produces and every emitter consumes
 * (toolcanon-api.md `CanonicalTool`). Field names are the document's own.
 */
export interface CanonicalTool {
  /** The tool's name as the source gave it (not rewritten; `toManifest` derives a snake_case name). */
  name: string;
  /** Semantic version; the source's own `version` string when it has one, else `"1.0.0"`. */
  version: string;
  /** Human-readable description; `""` when the source has none. */
  description: string;
  capabilities: ToolCapability;
  /** JSON Schema of the input parameters; `{}` when the source has none. */
  inputs: JsonObject;
  /** JSON Schema of the output; `{}` when the source has none. */
  outputs: JsonObject;
  /** `null` when the source says nothing about security. */
  security: ToolSecurity | null;
  /** The format the tool was parsed from (`raw` after a heuristic fallback). */
  source_format: SourceFormat;
  /** A verbatim (JSON) copy of the input definition. */
  original_definition: JsonObject;
  /** OpenAI's `strict` flag (structured outputs: arguments always match the schema), when the source set it; emitted back to OpenAI. */
  strict?: boolean;
}

/** A confidence in [0, 1] for each format (toolcanon-api.md `confidence`); `raw` is always 0.1. */
export type FormatConfidence = Record<SourceFormat, number>;

/** What `canonicalize` returns: always a tool, never a throw (toolcanon-api.md `CanonicalizationResult`). */
export interface CanonicalizationResult {
  tool: CanonicalTool;
  /** Non-fatal advisories, in the order they arose (texts in `CANONICALIZATION_WARNINGS` and `parserErrorWarning`). */
  warnings: string[];
  /** The format that was detected, or the one the caller forced. */
  source_format_detected: SourceFormat;
  /** The detector's score for every format, whether or not a format was forced. */
  confidence: FormatConfidence;
}

/** The capability metadata a tool has when nothing is known (toolcanon-api.md defaults). */
export function defaultCapability(): ToolCapability {
  return { action: '', domain: '', side_effects: false, idempotent: true, cost_estimate: 'unknown' };
}

/** The security metadata defaults of toolcanon-api.md, for callers that attach security to a tool. */
export function defaultSecurity(): ToolSecurity {
  return { required_permissions: [], data_classification: 'public', pii_handling: 'none' };
}
