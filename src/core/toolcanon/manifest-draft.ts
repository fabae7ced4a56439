import type { CostUnit, JsonSchema, SideEffects, ToolManifest } from '../contract/types.ts';
import { parseSemVer } from '../tools/semver.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import { inferCapabilities } from './capabilities.ts';
import { cloneObject, own, ownObject, toJsonValue } from './json-value.ts';
import type { CanonicalTool } from './types.ts';

/** One field of a draft manifest that a person should look at, with why (a JSON path such as `$.execution_constraints.max_timeout_ms`). */
export interface ReviewItem {
  field: string;
  reason: string;
}

/** A draft `ToolManifest` and the fields filled by default or derived by guesswork. */
export interface ManifestDraft {
  manifest: ToolManifest;
  review: ReviewItem[];
}

/**
 * The values a draft manifest gets for what the canonical model does not carry. Every one of them
 * is listed in the draft's `review`.
 */
export const MANIFEST_DEFAULTS = {
  /** Used when the tool has no usable name. */
  name: 'imported_tool',
  /** Used when the tool has no description (the manifest schema requires one). */
  description: 'The source had no description: say what this tool does, when to use it and what its arguments mean.',
  /** 30 s: long enough for a remote call, far above the 1000 ms runtime minimum. */
  max_timeout_ms: 30_000,
  /** 1 MiB of serialized invocation. */
  max_payload_bytes: 1_048_576,
  supports_streaming: false,
  /** Used when the capabilities say the tool has no side effects (it may still read external data). */
  side_effects_without_writes: 'read_only' as SideEffects,
  cost_hint: { unit: 'call' as CostUnit, estimated_cost: 0, currency: 'USD' },
  /** Conservative: an imported tool is not assumed to give identical outputs for identical inputs. */
  deterministic: false,
} as const;

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const SIDE_EFFECTS: readonly string[] = ['none', 'read_only', 'external_write'];
const COST_UNITS: readonly string[] = ['call', 'second', 'record'];

/** `getWeather`, `get-weather`, `Get Weather` → `get_weather`; `""` when nothing is left. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
}

function readConstraints(source: JsonObject | undefined): ToolManifest['execution_constraints'] | undefined {
  if (!source) return undefined;
  const timeout = own(source, 'max_timeout_ms');
  const payload = own(source, 'max_payload_bytes');
  const streaming = own(source, 'supports_streaming');
  const sideEffects = own(source, 'side_effects');
  const captureSelection = own(source, 'capture_selection');
  const positiveInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;
  if (!positiveInteger(timeout) || !positiveInteger(payload) || typeof streaming !== 'boolean' || typeof sideEffects !== 'string' || !SIDE_EFFECTS.includes(sideEffects)) {
    return undefined;
  }
  const constraints: ToolManifest['execution_constraints'] = { max_timeout_ms: timeout, max_payload_bytes: payload, supports_streaming: streaming, side_effects: sideEffects as SideEffects };
  if (captureSelection === 'required' || captureSelection === 'none') constraints.capture_selection = captureSelection;
  return constraints;
}

/** What the caller knows about the tool that its definition does not say. */
export interface ManifestDraftOptions {
  /**
   * The tool reads no Sextant capture (an MCP server's tool: only `arguments` reach it), so the
   * draft says `execution_constraints.capture_selection: "none"` and its invocations carry no
   * `capture_selection`.
   */
  readsNoCapture?: boolean;
}

function readCostHint(source: JsonObject | undefined): ToolManifest['cost_hint'] | undefined {
  if (!source) return undefined;
  const unit = own(source, 'unit');
  const cost = own(source, 'estimated_cost');
  const currency = own(source, 'currency');
  if (typeof unit !== 'string' || !COST_UNITS.includes(unit) || typeof cost !== 'number' || cost < 0 || typeof currency !== 'string' || currency === '') return undefined;
  return { unit: unit as CostUnit, estimated_cost: cost, currency };
}

function readCapabilityList(source: JsonObject): string[] | undefined {
  const list = own(source, 'capabilities');
  if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string' && item !== '')) return undefined;
  return [...new Set(list as string[])];
}

const SUPPORTED_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Removes a `$schema` naming another JSON Schema dialect (zod-to-json-schema writes draft-07 into
 * many MCP tools): Sextant validates schemas as 2020-12, and its ajv rejects other dialects.
 */
function dropForeignDialect(schema: JsonSchema, field: string, flag: (field: string, reason: string) => void): void {
  const dialect = own(schema, '$schema');
  if (dialect === undefined || dialect === SUPPORTED_DIALECT || dialect === `${SUPPORTED_DIALECT}#`) return;
  delete schema.$schema;
  flag(field, `Removed "$schema": ${JSON.stringify(dialect)}: Sextant validates schemas as JSON Schema 2020-12; check keywords that differ (tuple "items" arrays are "prefixItems" in 2020-12).`);
}

/**
 * A draft `ToolManifest` from a canonical tool (the import panel's "draft manifest"). Mapped:
 * `name` (rewritten to snake_case when it is not), `version` (when it is `major.minor.patch`),
 * `description`, `inputs` → `input_schema` (with `type: "object"` added when missing),
 * `outputs` → `output_schema`, `capabilities.side_effects` → `execution_constraints.side_effects`.
 * When the source definition is itself manifest-like (a pasted Sextant manifest is detected as
 * Anthropic), its own `capabilities` list, `execution_constraints`, `cost_hint` and
 * `deterministic` are kept. A `$schema` naming another dialect than 2020-12 is removed from both
 * schemas. Everything else takes `MANIFEST_DEFAULTS`, and every default, rewrite or drop is
 * listed in `review` with its JSON path. With `readsNoCapture`, `capture_selection` is `"none"`.
 */
export function toManifest(tool: CanonicalTool, options: ManifestDraftOptions = {}): ManifestDraft {
  const review: ReviewItem[] = [];
  const flag = (field: string, reason: string) => review.push({ field, reason });
  const source = tool.original_definition;

  let name = tool.name;
  if (!SNAKE_CASE.test(name)) {
    const rewritten = toSnakeCase(name);
    name = rewritten === '' ? MANIFEST_DEFAULTS.name : rewritten;
    flag('$.name', tool.name === '' ? `The source has no name; "${name}" is a placeholder.` : `"${tool.name}" is not lowercase snake_case; rewritten as "${name}".`);
  }

  let version = tool.version;
  if (!parseSemVer(version)) {
    version = '1.0.0';
    flag('$.version', `"${tool.version}" is not a major.minor.patch version; set to 1.0.0.`);
  }

  let description = tool.description;
  if (description.trim() === '') {
    description = MANIFEST_DEFAULTS.description;
    flag('$.description', 'The source has no description; models choose tools by their descriptions, so write one.');
  }

  let capabilities = readCapabilityList(source);
  if (!capabilities) {
    capabilities = [name];
    flag('$.capabilities', `The canonical model has no capability list; ["${name}"] stands in. List the operations the tool supports.`);
  }

  let inputSchema: JsonSchema = cloneObject(tool.inputs);
  if (Object.keys(inputSchema).length === 0) {
    inputSchema = { type: 'object', properties: {}, additionalProperties: false };
    flag('$.input_schema', 'The source has no input schema; an object with no properties stands in (the tool takes no arguments).');
  } else if (!Object.hasOwn(inputSchema, 'type')) {
    inputSchema = { type: 'object', ...inputSchema };
    flag('$.input_schema.type', 'The input schema had no type; "object" was added.');
  } else if (own(inputSchema, 'type') !== 'object') {
    flag('$.input_schema.type', `Tool arguments are a JSON object, but the input schema's type is ${JSON.stringify(own(inputSchema, 'type'))}.`);
  }

  dropForeignDialect(inputSchema, '$.input_schema', flag);

  if (tool.strict !== undefined) {
    inputSchema[OPENAI_STRICT_KEY] = tool.strict;
    flag(`$.input_schema.${OPENAI_STRICT_KEY}`, `OpenAI's strict: ${String(tool.strict)} is kept here (a manifest has no field for it); the OpenAI export writes it back as strict.`);
  }

  let outputSchema: JsonSchema = cloneObject(tool.outputs);
  if (Object.keys(outputSchema).length === 0) {
    outputSchema = { type: 'object' };
    flag('$.output_schema', 'The source has no output schema; any JSON object will be accepted as structured_output.');
  }

  dropForeignDialect(outputSchema, '$.output_schema', flag);

  let constraints = readConstraints(ownObject(source, 'execution_constraints'));
  if (!constraints) {
    const sideEffects: SideEffects = tool.capabilities.side_effects ? 'external_write' : MANIFEST_DEFAULTS.side_effects_without_writes;
    constraints = {
      max_timeout_ms: MANIFEST_DEFAULTS.max_timeout_ms,
      max_payload_bytes: MANIFEST_DEFAULTS.max_payload_bytes,
      supports_streaming: MANIFEST_DEFAULTS.supports_streaming,
      side_effects: sideEffects,
    };
    flag('$.execution_constraints.max_timeout_ms', `Default ${MANIFEST_DEFAULTS.max_timeout_ms} ms: set the longest run the tool may take.`);
    flag('$.execution_constraints.max_payload_bytes', `Default ${MANIFEST_DEFAULTS.max_payload_bytes} bytes: set the largest invocation the tool accepts.`);
    flag('$.execution_constraints.supports_streaming', 'Default false.');
    flag(
      '$.execution_constraints.side_effects',
      tool.capabilities.side_effects
        ? 'The capabilities say the tool changes external state; "external_write" assumed.'
        : 'The capabilities say the tool changes nothing; "read_only" assumed ("none" if it reads no external data).',
    );
  }

  if (options.readsNoCapture) constraints = { ...constraints, capture_selection: 'none' };

  let costHint = readCostHint(ownObject(source, 'cost_hint'));
  if (!costHint) {
    costHint = { ...MANIFEST_DEFAULTS.cost_hint };
    const estimate = tool.capabilities.cost_estimate;
    flag(
      '$.cost_hint',
      estimate === 'free' || estimate === 'unknown' || estimate === ''
        ? `Default 0 USD per call (the source's cost estimate is "${estimate || 'unknown'}").`
        : `The source's cost estimate is "${estimate}", which has no number; 0 USD per call is a placeholder.`,
    );
  }

  let deterministic = own(source, 'deterministic');
  if (typeof deterministic !== 'boolean') {
    deterministic = MANIFEST_DEFAULTS.deterministic;
    flag('$.deterministic', 'Default false: say true only if identical arguments always give identical outputs.');
  }

  if (tool.security) {
    flag('$', `ToolManifest has no place for security metadata; dropped: ${JSON.stringify(tool.security)}.`);
  }

  return {
    manifest: {
      name,
      version,
      description,
      capabilities,
      input_schema: inputSchema,
      output_schema: outputSchema,
      execution_constraints: constraints,
      cost_hint: costHint,
      deterministic,
    },
    review,
  };
}

/**
 * The canonical tool of a manifest (for export): name, version, description, `input_schema` →
 * `inputs`, `output_schema` → `outputs`; capabilities derived — action and domain guessed from
 * the name and description, `side_effects` when the manifest says `external_write`, `idempotent`
 * otherwise, `cost_estimate` `free` for a zero cost and `unknown` for anything else; no
 * security; `source_format` `raw`; the manifest itself as `original_definition`.
 */
export function fromManifest(manifest: ToolManifest): CanonicalTool {
  const { inputs, strict } = splitOpenAIStrict(isJsonObject(manifest.input_schema) ? cloneObject(manifest.input_schema) : {});
  const inferred = inferCapabilities(manifest.name, manifest.description);
  const writes = manifest.execution_constraints?.side_effects === 'external_write';
  const original = toJsonValue(manifest);
  return {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    capabilities: {
      action: inferred.action,
      domain: inferred.domain,
      side_effects: writes,
      idempotent: !writes,
      cost_estimate: manifest.cost_hint?.estimated_cost === 0 ? 'free' : 'unknown',
    },
    inputs,
    outputs: isJsonObject(manifest.output_schema) ? cloneObject(manifest.output_schema) : {},
    security: null,
    source_format: 'raw',
    original_definition: isJsonObject(original) ? original : {},
    ...(strict === undefined ? {} : { strict }),
  };
}

/**
 * Where a manifest keeps OpenAI's `strict` flag: an annotation of its input schema (JSON Schema
 * ignores `x-` keys; the validator runs with `strict: false`), so a definition imported with
 * `strict: true` is exported to OpenAI with it.
 */
export const OPENAI_STRICT_KEY = 'x-openai-strict';

/** A copy of the input schema without the strict annotation, and the flag it held. */
export function splitOpenAIStrict(schema: JsonObject): { inputs: JsonObject; strict: boolean | undefined } {
  const { [OPENAI_STRICT_KEY]: flag, ...inputs } = schema;
  return { inputs: flag === undefined ? schema : inputs, strict: typeof flag === 'boolean' ? flag : undefined };
}
