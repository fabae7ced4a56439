import type { JsonSchema, ToolManifest } from '../contract/types.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import { err, ok, assertNever, type Result } from '../util/result.ts';
import { emitJsonSchema } from './emit.ts';
import { cloneObject, jsonKind, own } from './json-value.ts';
import { fromManifest, splitOpenAIStrict } from './manifest-draft.ts';

/**
 * The internal tool definition of tool-definition-format.md: Anthropic-shaped, the form a manifest
 * takes on its way to an LLM provider.
 */
export interface InternalToolDefinition {
  /** Matches `[a-zA-Z0-9_]+`. */
  name: string;
  /** Non-empty. */
  description: string;
  /** A JSON Schema with `type: "object"` at the top. */
  input_schema: JsonSchema;
  /** Present when the manifest's output schema says anything. */
  output_schema?: JsonSchema;
  /** OpenAI's `strict`, when the manifest keeps it (`x-openai-strict` in its input schema); only the OpenAI export writes it. */
  strict?: boolean;
}

/** Why a manifest cannot become an internal tool definition; `field` is a JSON path (`$.name`). */
export interface InternalDefinitionProblem {
  field: string;
  message: string;
}

const INTERNAL_NAME = /^[a-zA-Z0-9_]+$/;

/**
 * A manifest as the internal tool definition (tool-definition-format.md §2), or every reason it
 * cannot be one: a name outside `[a-zA-Z0-9_]+`, an empty description, an input schema whose
 * top-level `type` is not `"object"`. `output_schema` is kept when it is a non-empty object.
 */
export function toInternalToolDefinition(manifest: ToolManifest): Result<InternalToolDefinition, InternalDefinitionProblem[]> {
  const problems: InternalDefinitionProblem[] = [];
  const name: unknown = manifest.name;
  const description: unknown = manifest.description;
  const inputSchema: unknown = manifest.input_schema;
  const outputSchema: unknown = manifest.output_schema;
  if (typeof name !== 'string' || !INTERNAL_NAME.test(name)) {
    problems.push({ field: '$.name', message: `The tool name must match [a-zA-Z0-9_]+, got ${JSON.stringify(name ?? null)}` });
  }
  if (typeof description !== 'string' || description.trim() === '') {
    problems.push({ field: '$.description', message: 'The description is required: models choose tools by it' });
  }
  if (!isJsonObject(inputSchema)) {
    problems.push({ field: '$.input_schema', message: `The input schema must be a JSON object, got ${jsonKind(inputSchema)}` });
  } else if (own(inputSchema, 'type') !== 'object') {
    problems.push({ field: '$.input_schema.type', message: `The input schema must have type "object" at the top level, got ${JSON.stringify(own(inputSchema, 'type') ?? null)}` });
  }
  if (outputSchema !== undefined && !isJsonObject(outputSchema)) {
    problems.push({ field: '$.output_schema', message: `The output schema must be a JSON object, got ${jsonKind(outputSchema)}` });
  }
  if (problems.length > 0) return err(problems);
  const { inputs, strict } = splitOpenAIStrict(cloneObject(inputSchema as JsonObject));
  const definition: InternalToolDefinition = { name: name as string, description: description as string, input_schema: inputs };
  if (strict !== undefined) definition.strict = strict;
  if (isJsonObject(outputSchema) && Object.keys(outputSchema).length > 0) definition.output_schema = cloneObject(outputSchema);
  return ok(definition);
}

/** OpenAI tools[] entry: `{"type": "function", "function": {name, description, parameters}}`; no output schema (tool-definition-format.md §6). */
export function internalToOpenAI(definition: InternalToolDefinition): JsonObject {
  const fn: JsonObject = { name: definition.name, description: definition.description, parameters: cloneObject(definition.input_schema) };
  if (definition.strict !== undefined) fn.strict = definition.strict;
  return { type: 'function', function: fn };
}

/** Anthropic tools[] entry: `{name, description, input_schema}`; no output schema. */
export function internalToAnthropic(definition: InternalToolDefinition): JsonObject {
  return { name: definition.name, description: definition.description, input_schema: cloneObject(definition.input_schema) };
}

/** Options of `internalToMcp`. */
export interface McpConversionOptions {
  /**
   * Also write `outputSchema` (MCP 2025-06-18 and later) when the definition has an object-typed
   * output schema. Default false: providers get no output schema (tool-definition-format.md §6).
   */
  includeOutputSchema?: boolean;
}

/** MCP tool: `{name, description, inputSchema}` (and `outputSchema` on request). */
export function internalToMcp(definition: InternalToolDefinition, options: McpConversionOptions = {}): JsonObject {
  const tool: JsonObject = { name: definition.name, description: definition.description, inputSchema: cloneObject(definition.input_schema) };
  if (options.includeOutputSchema && definition.output_schema && own(definition.output_schema, 'type') === 'object') {
    tool.outputSchema = cloneObject(definition.output_schema);
  }
  return tool;
}

/** Ollama `/api/chat` tools[] entry: the OpenAI function shape `{"type": "function", "function": {name, description, parameters}}`. */
export function internalToOllama(definition: InternalToolDefinition): JsonObject {
  return { type: 'function', function: { name: definition.name, description: definition.description, parameters: cloneObject(definition.input_schema) } };
}

/** What the export panel offers for a manifest. */
export type ManifestExportTarget = 'internal' | 'openai' | 'anthropic' | 'mcp' | 'ollama' | 'json_schema';

/** Every `ManifestExportTarget`. */
export const MANIFEST_EXPORT_TARGETS: readonly ManifestExportTarget[] = ['internal', 'openai', 'anthropic', 'mcp', 'ollama', 'json_schema'];

/**
 * A manifest in one export format. Every target but `json_schema` goes through the internal tool
 * definition and fails with its problems; `json_schema` is the canonical tool's JSON Schema
 * document (with `x-capabilities` and `x-outputs`).
 */
export function exportManifest(manifest: ToolManifest, target: ManifestExportTarget, options: McpConversionOptions = {}): Result<JsonObject, InternalDefinitionProblem[]> {
  if (target === 'json_schema') return ok(emitJsonSchema(fromManifest(manifest)));
  const internal = toInternalToolDefinition(manifest);
  if (!internal.ok) return internal;
  switch (target) {
    case 'internal': {
      const { name, description, input_schema, output_schema } = internal.value;
      const definition: JsonObject = { name, description, input_schema };
      if (output_schema) definition.output_schema = output_schema;
      return ok(definition);
    }
    case 'openai':
      return ok(internalToOpenAI(internal.value));
    case 'anthropic':
      return ok(internalToAnthropic(internal.value));
    case 'mcp':
      return ok(internalToMcp(internal.value, options));
    case 'ollama':
      return ok(internalToOllama(internal.value));
    default:
      return assertNever(target, 'export target');
  }
}
