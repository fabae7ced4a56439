import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import { err, ok, type Result } from '../util/result.ts';
import { inferCapabilities, readCapability, readSecurity } from './capabilities.ts';
import { isOpenAIWrapper } from './detect.ts';
import { cloneObject, jsonKind, own, ownObject, setOwn } from './json-value.ts';
import type { CanonicalTool, SourceFormat, ToolCapability } from './types.ts';

/** A format parser: a canonical tool, or why the definition cannot be read in that format. */
export type FormatParser = (definition: JsonObject) => Result<CanonicalTool, string>;

const DEFAULT_VERSION = '1.0.0';

/** A string field: absent or null reads as `""`; any other non-string is a parser error. */
function readString(source: JsonObject, key: string, label = key): Result<string, string> {
  const value = own(source, key);
  if (value === undefined || value === null) return ok('');
  if (typeof value === 'string') return ok(value);
  return err(`${label} must be a string, got ${jsonKind(value)}`);
}

/** An object field: absent or null reads as `{}`; any other non-object is a parser error. */
function readObject(source: JsonObject, key: string, label = key): Result<JsonObject, string> {
  const value = own(source, key);
  if (value === undefined || value === null) return ok({});
  if (isJsonObject(value)) return ok(cloneObject(value));
  return err(`${label} must be a JSON object, got ${jsonKind(value)}`);
}

/** The definition's own `version` string when it has one, else the default. */
function readVersion(...sources: JsonObject[]): string {
  for (const source of sources) {
    const value = own(source, 'version');
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return DEFAULT_VERSION;
}

interface ToolFields {
  name: string;
  description: string;
  inputs: JsonObject;
  outputs?: JsonObject;
  capabilities?: ToolCapability;
  version: string;
}

function build(format: SourceFormat, definition: JsonObject, fields: ToolFields): CanonicalTool {
  return {
    name: fields.name,
    version: fields.version,
    description: fields.description,
    capabilities: fields.capabilities ?? inferCapabilities(fields.name, fields.description),
    inputs: fields.inputs,
    outputs: fields.outputs ?? {},
    security: null,
    source_format: format,
    original_definition: definition,
  };
}

/**
 * OpenAI function calling, both shapes: the tools[] wrapper `{"type": "function", "function":
 * {name, description, parameters}}` and the legacy `{name, description, parameters}`.
 * A boolean `strict` becomes the tool's `strict` (OpenAI export writes it back); other
 * OpenAI-only keys stay in `original_definition` only.
 */
export const parseOpenAI: FormatParser = (definition) => {
  let fields = definition;
  if (isOpenAIWrapper(definition)) {
    const inner = own(definition, 'function');
    if (!isJsonObject(inner)) return err(`function must be a JSON object, got ${jsonKind(inner)}`);
    fields = inner;
  }
  const name = readString(fields, 'name');
  if (!name.ok) return name;
  const description = readString(fields, 'description');
  if (!description.ok) return description;
  const parameters = readObject(fields, 'parameters');
  if (!parameters.ok) return parameters;
  const tool = build('openai', definition, { name: name.value, description: description.value, inputs: parameters.value, version: readVersion(fields, definition) });
  const strict = own(fields, 'strict');
  if (typeof strict === 'boolean') tool.strict = strict;
  return ok(tool);
};

/**
 * Anthropic tool use: `{name, description, input_schema}`. An `output_schema` (the internal tool
 * definition of tool-definition-format.md has one) becomes `outputs`.
 */
export const parseAnthropic: FormatParser = (definition) => {
  const name = readString(definition, 'name');
  if (!name.ok) return name;
  const description = readString(definition, 'description');
  if (!description.ok) return description;
  const inputs = readObject(definition, 'input_schema');
  if (!inputs.ok) return inputs;
  const outputs = readObject(definition, 'output_schema');
  if (!outputs.ok) return outputs;
  return ok(
    build('anthropic', definition, {
      name: name.value,
      description: description.value,
      inputs: inputs.value,
      outputs: outputs.value,
      version: readVersion(definition),
    }),
  );
};

/**
 * MCP: `{name, description, inputSchema}` (falls back to `input_schema`). Also read, as an analyst
 * would expect: `outputSchema` into `outputs`, and the explicit `annotations` hints
 * (`readOnlyHint`, `destructiveHint`, `idempotentHint`) into the capabilities.
 */
export const parseMcp: FormatParser = (definition) => {
  const name = readString(definition, 'name');
  if (!name.ok) return name;
  const description = readString(definition, 'description');
  if (!description.ok) return description;
  const inputs = readObject(definition, Object.hasOwn(definition, 'inputSchema') ? 'inputSchema' : 'input_schema');
  if (!inputs.ok) return inputs;
  const outputs = readObject(definition, 'outputSchema');
  if (!outputs.ok) return outputs;
  const capabilities = inferCapabilities(name.value, description.value);
  const annotations = ownObject(definition, 'annotations');
  if (annotations) {
    const readOnly = own(annotations, 'readOnlyHint');
    const destructive = own(annotations, 'destructiveHint');
    const idempotent = own(annotations, 'idempotentHint');
    if (readOnly === true) Object.assign(capabilities, { side_effects: false, idempotent: true });
    if (readOnly === false || destructive === true) capabilities.side_effects = true;
    if (typeof idempotent === 'boolean') capabilities.idempotent = idempotent;
  }
  return ok(
    build('mcp', definition, {
      name: name.value,
      description: description.value,
      inputs: inputs.value,
      outputs: outputs.value,
      capabilities,
      version: readVersion(definition),
    }),
  );
};

const PYTHON_TYPES: Record<string, string> = {
  str: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  list: 'array',
  dict: 'object',
};

/** A JSON Schema type for a Pydantic annotation string (`int`, `Optional[str]`, `List[int]`); `string` when unsure. */
function typeOfAnnotation(annotation: JsonValue | undefined): string {
  if (typeof annotation !== 'string') return 'string';
  const inner = /^(?:typing\.)?Optional\[(.*)\]$/.exec(annotation.trim())?.[1] ?? annotation.trim();
  const head = inner.replace(/^typing\./, '').split('[')[0].toLowerCase();
  return Object.hasOwn(PYTHON_TYPES, head) ? PYTHON_TYPES[head] : 'string';
}

/**
 * A LangChain schema as a JSON Schema object: a JSON Schema is kept whole (its `$defs`,
 * `additionalProperties`, descriptions) with `type: "object"` added when it only has
 * `properties`; a Pydantic `model_fields` dump becomes properties typed from their annotations
 * (`string` when unsure), required unless `is_required` is false.
 */
function langChainSchema(schema: JsonObject): JsonObject {
  const fields = ownObject(schema, 'model_fields');
  if (fields && !Object.hasOwn(schema, 'properties')) {
    const properties: JsonObject = {};
    const required: string[] = [];
    for (const [fieldName, info] of Object.entries(fields)) {
      const property: JsonObject = { type: typeOfAnnotation(isJsonObject(info) ? own(info, 'annotation') : undefined) };
      const description = isJsonObject(info) ? own(info, 'description') : undefined;
      if (typeof description === 'string') property.description = description;
      setOwn(properties, fieldName, property);
      if (!isJsonObject(info) || own(info, 'is_required') !== false) required.push(fieldName);
    }
    return { type: 'object', properties, required };
  }
  if (!Object.hasOwn(schema, 'type') && Object.hasOwn(schema, 'properties')) return { type: 'object', ...schema };
  return schema;
}

/**
 * LangChain, its three shapes: a BaseTool `{name, description, args_schema}`, a StructuredTool
 * `{name, description, schema}`, and the loose `{name, description, properties, required?}`
 * (also `parameters` when forced). `title` stands in for a missing `name`.
 */
export const parseLangChain: FormatParser = (definition) => {
  const nameKey = Object.hasOwn(definition, 'name') ? 'name' : 'title';
  const name = readString(definition, nameKey);
  if (!name.ok) return name;
  const description = readString(definition, 'description');
  if (!description.ok) return description;
  let inputs: JsonObject = {};
  const schemaKey = ['args_schema', 'schema'].find((key) => Object.hasOwn(definition, key));
  if (schemaKey) {
    const schema = readObject(definition, schemaKey);
    if (!schema.ok) return schema;
    inputs = langChainSchema(schema.value);
  } else if (Object.hasOwn(definition, 'parameters')) {
    const parameters = readObject(definition, 'parameters');
    if (!parameters.ok) return parameters;
    inputs = parameters.value;
  } else if (Object.hasOwn(definition, 'properties')) {
    const properties = readObject(definition, 'properties');
    if (!properties.ok) return properties;
    inputs = { type: 'object', properties: properties.value };
    const required = own(definition, 'required');
    if (Array.isArray(required)) inputs.required = [...required];
  }
  return ok(build('langchain', definition, { name: name.value, description: description.value, inputs, version: readVersion(definition) }));
};

/** The parser of each format that has one (`raw` has none: it is the heuristic below). */
export const FORMAT_PARSERS: Record<Exclude<SourceFormat, 'raw'>, FormatParser> = {
  openai: parseOpenAI,
  anthropic: parseAnthropic,
  mcp: parseMcp,
  langchain: parseLangChain,
};

/** The keys of a JSON Schema document the `json_schema` emitter adds around the input schema. */
export const JSON_SCHEMA_DOCUMENT_KEYS = ['$schema', 'title', 'description', 'x-capabilities', 'x-outputs', 'x-security'] as const;

/** A JSON Schema document at the root (as `emitJsonSchema` writes one, or a Pydantic `model_json_schema()`). */
function isSchemaDocument(definition: JsonObject): boolean {
  return (
    Object.hasOwn(definition, '$schema') ||
    ['x-capabilities', 'x-outputs', 'x-security'].some((key) => Object.hasOwn(definition, key)) ||
    (own(definition, 'type') === 'object' && isJsonObject(own(definition, 'properties')))
  );
}

function textOf(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** The heuristic's result: a tool, plus notes on what it did that the caller may show as warnings. */
export interface RawExtraction {
  tool: CanonicalTool;
  notes: string[];
}

/** Note added when the heuristic reads a JSON Schema document. */
export const SCHEMA_DOCUMENT_NOTE =
  'Read as a JSON Schema document: title as the name, the root schema as the inputs, x-capabilities, x-outputs and x-security as metadata.';

/**
 * Best-effort extraction from any object (toolcanon-api.md raw passthrough). Never fails:
 * name from `name`, `title` or `function.name`; description from `description` or
 * `function.description`; inputs from the first non-empty object of `parameters`,
 * `input_schema`, `inputSchema`, `schema`, `args_schema`, `function.parameters`. Beyond the
 * document: a JSON Schema document (the `json_schema` emitter's output) gives back its root
 * schema as the inputs and its `x-capabilities`, `x-outputs`, `x-security`.
 */
export function extractRaw(definition: JsonObject): RawExtraction {
  const inner = ownObject(definition, 'function') ?? {};
  const name = [own(definition, 'name'), own(definition, 'title'), own(inner, 'name')].map(textOf).find((text) => text !== '') ?? '';
  const description = [own(definition, 'description'), own(inner, 'description')].map(textOf).find((text) => text !== '') ?? '';
  const notes: string[] = [];
  const candidates = [own(definition, 'parameters'), own(definition, 'input_schema'), own(definition, 'inputSchema'), own(definition, 'schema'), own(definition, 'args_schema'), own(inner, 'parameters')];
  let inputs = candidates.find((value): value is JsonObject => isJsonObject(value) && Object.keys(value).length > 0);
  const schemaDocument = isSchemaDocument(definition);
  if (!inputs && schemaDocument) {
    const rest: JsonObject = { ...definition };
    for (const key of JSON_SCHEMA_DOCUMENT_KEYS) delete rest[key];
    inputs = rest;
    notes.push(SCHEMA_DOCUMENT_NOTE);
  }
  const outputs = [own(definition, 'x-outputs'), own(definition, 'output_schema'), own(definition, 'outputSchema')].find(isJsonObject);
  const capabilities = Object.hasOwn(definition, 'x-capabilities') ? readCapability(own(definition, 'x-capabilities')) : inferCapabilities(name, description);
  return {
    notes,
    tool: {
      name,
      version: readVersion(definition, inner),
      description,
      capabilities,
      inputs: cloneObject(inputs ?? {}),
      outputs: cloneObject(outputs ?? {}),
      security: readSecurity(own(definition, 'x-security')),
      source_format: 'raw',
      original_definition: definition,
    },
  };
}
