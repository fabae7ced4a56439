import type { JsonObject } from '../util/json.ts';
import { assertNever } from '../util/result.ts';
import { cloneObject } from './json-value.ts';
import { JSON_SCHEMA_DOCUMENT_KEYS } from './parsers.ts';
import type { CanonicalTool } from './types.ts';

/**
 * Where `emit` can write a tool: OpenAI's tools[] wrapper (`openai`) or its legacy function shape
 * (`openai_legacy`), Anthropic, MCP, or a standalone JSON Schema document.
 */
export type EmitTarget = 'openai' | 'openai_legacy' | 'anthropic' | 'mcp' | 'json_schema';

/** Every `EmitTarget`. */
export const EMIT_TARGETS: readonly EmitTarget[] = ['openai', 'openai_legacy', 'anthropic', 'mcp', 'json_schema'];

/** `$schema` of the JSON Schema emitter's documents (Draft 2019-09, as toolcanon-api.md says). */
export const JSON_SCHEMA_DRAFT = 'https://json-schema.org/draft/2019-09/schema';

/**
 * The input schema as providers want it: `{"type": "object", "properties": {}}` when the tool has
 * none, `"type": "object"` added in front when it lacks a `type`. A copy: never the tool's own object.
 */
function providerInputSchema(tool: CanonicalTool): JsonObject {
  if (Object.keys(tool.inputs).length === 0) return { type: 'object', properties: {} };
  const inputs = cloneObject(tool.inputs);
  return Object.hasOwn(inputs, 'type') ? inputs : { type: 'object', ...inputs };
}

/** OpenAI tools[] entry: `{"type": "function", "function": {name, description, parameters}}`. */
export function emitOpenAI(tool: CanonicalTool): JsonObject {
  return { type: 'function', function: emitOpenAILegacy(tool) };
}

/** OpenAI legacy function (the `functions` parameter, and the inside of the tools[] wrapper): `{name, description, parameters}`, and `strict` when the tool has it. */
export function emitOpenAILegacy(tool: CanonicalTool): JsonObject {
  const fn: JsonObject = { name: tool.name, description: tool.description, parameters: providerInputSchema(tool) };
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return fn;
}

/** Anthropic tools[] entry: `{name, description, input_schema}`. */
export function emitAnthropic(tool: CanonicalTool): JsonObject {
  return { name: tool.name, description: tool.description, input_schema: providerInputSchema(tool) };
}

/** MCP tool: `{name, description, inputSchema}`. */
export function emitMcp(tool: CanonicalTool): JsonObject {
  return { name: tool.name, description: tool.description, inputSchema: providerInputSchema(tool) };
}

/**
 * A standalone JSON Schema document (Draft 2019-09): `$schema`, `title` (the tool's name),
 * `description`, the input schema merged at the root, then the vendor extensions
 * `x-outputs` (only when the tool has outputs), `x-capabilities` (always) and `x-security`
 * (only when the tool has security metadata). The tool's own title and description win over the
 * input schema's top-level `title`, `description` and `$schema`, which are dropped; so are
 * top-level `x-capabilities`/`x-outputs`/`x-security` keys of the input schema.
 */
export function emitJsonSchema(tool: CanonicalTool): JsonObject {
  const inputs: JsonObject = Object.keys(tool.inputs).length === 0 ? { type: 'object', properties: {} } : cloneObject(tool.inputs);
  for (const key of JSON_SCHEMA_DOCUMENT_KEYS) delete inputs[key];
  const document: JsonObject = { $schema: JSON_SCHEMA_DRAFT, title: tool.name, description: tool.description, ...inputs };
  if (Object.keys(tool.outputs).length > 0) document['x-outputs'] = cloneObject(tool.outputs);
  document['x-capabilities'] = {
    action: tool.capabilities.action,
    domain: tool.capabilities.domain,
    side_effects: tool.capabilities.side_effects,
    idempotent: tool.capabilities.idempotent,
    cost_estimate: tool.capabilities.cost_estimate,
  };
  if (tool.security) {
    document['x-security'] = {
      required_permissions: [...tool.security.required_permissions],
      data_classification: tool.security.data_classification,
      pii_handling: tool.security.pii_handling,
    };
  }
  return document;
}

/** Emits a canonical tool in a target format. Pure: the tool is not changed and shares nothing with the output. */
export function emit(tool: CanonicalTool, target: EmitTarget): JsonObject {
  switch (target) {
    case 'openai':
      return emitOpenAI(tool);
    case 'openai_legacy':
      return emitOpenAILegacy(tool);
    case 'anthropic':
      return emitAnthropic(tool);
    case 'mcp':
      return emitMcp(tool);
    case 'json_schema':
      return emitJsonSchema(tool);
    default:
      return assertNever(target, 'emit target');
  }
}
