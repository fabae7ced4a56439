import { toolManifestSchema } from '../contract/schemas.ts';
import { DEFAULT_EXECUTOR_SETTINGS } from '../executor/validate-invocation.ts';
import { parseSemVer } from '../tools/semver.ts';
import { isJsonObject, jsonByteLength, safeParseJson, type JsonObject, type JsonValue } from '../util/json.ts';
import { checkJsonLimits } from '../util/json-limits.ts';
import { parseJsonPointer } from '../validation/field-path.ts';
import { compilePattern } from '../validation/regexp.ts';
import { guardSchema, type SchemaGuardKind } from '../validation/schema-guards.ts';
import { checkSchemaDocument, validateAgainstSchema } from '../validation/schema-validator.ts';
import { formatJsonPath, parseJsonPath, type JsonPathSegments } from './json-path.ts';

/** The closed set of lint codes (`ManifestProblem.code`). */
export const MANIFEST_PROBLEM_CODES = [
  /** The text is not JSON. */
  'INVALID_JSON',
  /** The manifest is not a JSON object. */
  'NOT_AN_OBJECT',
  /** A required field is missing (manifest schema). */
  'MISSING_FIELD',
  /** A field the manifest schema does not know. */
  'UNKNOWN_FIELD',
  /** A field of the wrong JSON type (manifest schema). */
  'INVALID_TYPE',
  /** Any other manifest schema violation (a range, a duplicate…). */
  'INVALID_VALUE',
  'NAME_NOT_SNAKE_CASE',
  /** Warning: OpenAI and Anthropic reject tool names over 64 characters. */
  'NAME_TOO_LONG',
  'VERSION_NOT_SEMVER',
  'EMPTY_DESCRIPTION',
  /** `input_schema` or `output_schema` is not valid JSON Schema (2020-12 meta-schema, or it does not compile). */
  'INVALID_JSON_SCHEMA',
  'INPUT_SCHEMA_NOT_OBJECT',
  'OUTPUT_SCHEMA_NOT_OBJECT',
  /** A `required` name that no `properties` entry declares. */
  'REQUIRED_NOT_DECLARED',
  'TIMEOUT_BELOW_RUNTIME_MINIMUM',
  /** Warning: `max_timeout_ms` over an hour. */
  'TIMEOUT_UNUSUALLY_LONG',
  /** `max_payload_bytes` below the smallest possible invocation (error) or below 1 KiB (warning). */
  'PAYLOAD_LIMIT_TOO_SMALL',
  /** `side_effects` or `cost_hint.unit` outside its enum. */
  'INVALID_ENUM_VALUE',
  /** Warning: `cost_hint.currency` is neither an ISO 4217 code nor a lowercase pseudo-unit. */
  'CURRENCY_NOT_RECOGNIZED',
  /** The manifest or one of its schemas nests deeper than `LIMITS.maxJsonDepth`. */
  'TOO_DEEP',
  /** More values, keys, subschemas, properties or enum values than `LIMITS` allows. */
  'TOO_LARGE',
  /** A `$ref` cycle that never descends into the instance: validating any value would never end. */
  'SCHEMA_REF_CYCLE',
  /** A `pattern` or `patternProperties` key the linear-time (RE2) engine cannot run: lookaround, backreferences, or too long. */
  'UNSUPPORTED_PATTERN',
] as const;

/** One of `MANIFEST_PROBLEM_CODES`. */
export type ManifestProblemCode = (typeof MANIFEST_PROBLEM_CODES)[number];

/** One lint finding. `error`s make a manifest unusable; `warning`s are advice. */
export interface ManifestProblem {
  code: ManifestProblemCode;
  message: string;
  /** JSONPath of the offending value, `$` for the whole manifest: `$.input_schema.required[1]`. */
  path: string;
  severity: 'error' | 'warning';
}

/** Options of `lintManifest`. */
export interface LintOptions {
  /** The runtime's smallest accepted `timeout_ms` (settled decision 6); default the executor's, 1000 ms. */
  minTimeoutMs?: number;
}

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const PROVIDER_NAME_LIMIT = 64;
const ONE_HOUR_MS = 3_600_000;
const SMALL_PAYLOAD_BYTES = 1024;
const SIDE_EFFECTS = ['none', 'read_only', 'external_write'];
const COST_UNITS = ['call', 'second', 'record'];
const FIELD_ORDER = ['name', 'version', 'description', 'capabilities', 'input_schema', 'output_schema', 'execution_constraints', 'cost_hint', 'deterministic'];
const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];

const SIDE_EFFECT_SYNONYMS: Record<string, string> = {
  no: 'none',
  false: 'none',
  pure: 'none',
  readonly: 'read_only',
  read: 'read_only',
  reads: 'read_only',
  write: 'external_write',
  writes: 'external_write',
  external: 'external_write',
  true: 'external_write',
};
const COST_UNIT_SYNONYMS: Record<string, string> = {
  calls: 'call',
  request: 'call',
  requests: 'call',
  invocation: 'call',
  invocations: 'call',
  seconds: 'second',
  sec: 'second',
  s: 'second',
  records: 'record',
  row: 'record',
  rows: 'record',
};

/** A suggestion for a near miss: `read-only` → `read_only`, `calls` → `call`. */
function suggest(value: JsonValue | undefined, allowed: readonly string[], synonyms: Record<string, string>): string | undefined {
  if (typeof value !== 'string') return undefined;
  const normalized = value.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (allowed.includes(normalized)) return normalized;
  const compact = normalized.replace(/_/g, '');
  return Object.hasOwn(synonyms, compact) ? synonyms[compact] : Object.hasOwn(synonyms, normalized) ? synonyms[normalized] : undefined;
}

function own(target: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** Manifest schema errors (ajv through core/validation) as problems with JSONPaths. */
function schemaProblems(value: JsonObject): ManifestProblem[] {
  return validateAgainstSchema(toolManifestSchema, value, { prefix: [], typeErrorCode: 'INVALID_TYPE' }).map((error) => {
    const segments = parseJsonPath(error.field) ?? [];
    const path = formatJsonPath(segments);
    let message = error.message;
    if (error.field !== '' && message.startsWith(error.field)) message = path + message.slice(error.field.length);
    else if (message.startsWith('the invocation')) message = `The manifest${message.slice('the invocation'.length)}`;
    message = message.replace(/ is not a recognized field/, ' is not a ToolManifest field');
    const code =
      error.code === 'MISSING_REQUIRED_ARGUMENT'
        ? 'MISSING_FIELD'
        : error.code === 'UNKNOWN_ARGUMENT'
          ? 'UNKNOWN_FIELD'
          : error.code === 'INVALID_TYPE'
            ? 'INVALID_TYPE'
            : 'INVALID_VALUE';
    return { code, message, path, severity: 'error' };
  });
}

function stripIds(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(stripIds);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key, item]) => !(key === '$id' && typeof item === 'string')).map(([key, item]) => [key, stripIds(item)])) as JsonObject;
}

/** The dialect the core validates with; a schema may name it in `$schema` (with or without the empty fragment). */
const SUPPORTED_DIALECTS = ['https://json-schema.org/draft/2020-12/schema', 'https://json-schema.org/draft/2020-12/schema#'];

/** `checkSchemaDocument` without a throw (it throws for a `$schema` the core's ajv does not know). */
function checkSchema(schema: JsonValue): string[] {
  try {
    return checkSchemaDocument(schema);
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

/** Meta-schema and compile problems of an embedded schema, one per location. */
function schemaDocumentProblems(schema: JsonObject, base: JsonPathSegments): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  let checked: JsonObject = schema;
  const dialect = own(schema, '$schema');
  if (dialect !== undefined && !(typeof dialect === 'string' && SUPPORTED_DIALECTS.includes(dialect))) {
    const path = formatJsonPath([...base, '$schema']);
    problems.push({
      code: 'INVALID_JSON_SCHEMA',
      path,
      severity: 'error',
      message: `${path} ${JSON.stringify(dialect)} is not supported: Sextant validates with JSON Schema 2020-12. Remove $schema or set it to "${SUPPORTED_DIALECTS[0]}"`,
    });
    checked = { ...schema };
    delete checked.$schema;
  }
  let messages = checkSchema(checked);
  // The shared ajv instance keeps every compiled `$id`: a second check of a schema with the same
  // `$id` (the editor lints on each keystroke) reports "already exists". Check a copy without ids.
  if (messages.length === 1 && /^schema with key or id ".*" already exists$/.test(messages[0])) messages = checkSchema(stripIds(checked));
  const byPath = new Map<string, ManifestProblem>();
  for (const text of messages) {
    const match = /^(\/\S*) (.*)$/.exec(text);
    const pointer = match ? (match[1] === '/' ? '' : match[1]) : '';
    const detail = match ? match[2] : text;
    const segments = [...base, ...parseJsonPointer(pointer)];
    const path = formatJsonPath(segments);
    if (byPath.has(path)) continue;
    const last = segments[segments.length - 1];
    const message =
      last === 'type' && /allowed values|must be array|anyOf/.test(detail)
        ? `${path} must be one of the JSON Schema types (${JSON_TYPES.join(', ')}) or an array of them`
        : `${path} ${detail}`;
    byPath.set(path, { code: 'INVALID_JSON_SCHEMA', message: `Not valid JSON Schema: ${message}`, path, severity: 'error' });
  }
  return [...problems, ...byPath.values()];
}

interface Declared {
  names: Set<string>;
  patterns: string[];
  open: boolean;
}

function declaredBy(schema: JsonObject, inherited?: Declared): Declared {
  const properties = own(schema, 'properties');
  const patterns = own(schema, 'patternProperties');
  const additional = own(schema, 'additionalProperties');
  return {
    names: new Set([...(inherited?.names ?? []), ...(isJsonObject(properties) ? Object.keys(properties) : [])]),
    patterns: [...(inherited?.patterns ?? []), ...(isJsonObject(patterns) ? Object.keys(patterns) : [])],
    open: (inherited?.open ?? false) || additional === true || isJsonObject(additional),
  };
}

/** On the same linear-time engine as validation: a hostile pattern cannot stall the lint (issue 14, item 2). */
function matchesPattern(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => {
    const compiled = compilePattern(pattern);
    return compiled.ok && compiled.regExp.test(name);
  });
}

const GUARD_CODES: Record<SchemaGuardKind, ManifestProblemCode> = {
  'too-deep': 'TOO_DEEP',
  'too-large': 'TOO_LARGE',
  'ref-cycle': 'SCHEMA_REF_CYCLE',
  pattern: 'UNSUPPORTED_PATTERN',
};

/** What makes an embedded schema unsafe to compile or run (`guardSchema`), as problems. */
function guardProblems(schema: JsonObject, base: JsonPathSegments): ManifestProblem[] {
  return guardSchema(schema, base).map((problem) => {
    const path = formatJsonPath([...base, ...problem.path]);
    return { code: GUARD_CODES[problem.kind], path, severity: 'error', message: problem.message };
  });
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions'];
// Not `not`: a `required` under `not` forbids a key, which needs no declaration.
const SUBSCHEMA_SINGLE = ['items', 'additionalProperties', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const SUBSCHEMA_LISTS = ['prefixItems', 'items'];
/** Applicators whose branches describe the same instance: their `required` may name the parent's properties. */
const SAME_INSTANCE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_INSTANCE_SINGLE = ['if', 'then', 'else'];

/**
 * Every `required` name that the schema object (with the applicator branches that describe the
 * same instance) does not declare: not in `properties`, matching no `patternProperties`. An error
 * when the object is closed (`additionalProperties` absent or false: the contract rejects unknown
 * arguments, settled decision 2), a warning when it admits other keys.
 */
function undeclaredRequired(schema: JsonValue | undefined, segments: JsonPathSegments, problems: ManifestProblem[], inherited?: Declared, depth = 0): void {
  if (!isJsonObject(schema) || depth > 64) return;
  const declared = declaredBy(schema, inherited);
  const required = own(schema, 'required');
  if (Array.isArray(required)) {
    required.forEach((name, index) => {
      if (typeof name !== 'string' || declared.names.has(name) || matchesPattern(name, declared.patterns)) return;
      const path = formatJsonPath([...segments, 'required', index]);
      problems.push({
        code: 'REQUIRED_NOT_DECLARED',
        path,
        severity: declared.open ? 'warning' : 'error',
        message: declared.open
          ? `${path} requires "${name}", which no property declares; any value will do. Declare it in properties.`
          : `${path} requires "${name}", which no property declares, so no value can ever satisfy the schema. Declare it in properties or remove it from required.`,
      });
    });
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = own(schema, key);
    if (isJsonObject(map)) for (const [name, child] of Object.entries(map)) undeclaredRequired(child, [...segments, key, name], problems, undefined, depth + 1);
  }
  for (const key of SUBSCHEMA_SINGLE) undeclaredRequired(own(schema, key), [...segments, key], problems, undefined, depth + 1);
  for (const key of SUBSCHEMA_LISTS) {
    const list = own(schema, key);
    if (Array.isArray(list)) list.forEach((child, index) => undeclaredRequired(child, [...segments, key, index], problems, undefined, depth + 1));
  }
  for (const key of SAME_INSTANCE_LISTS) {
    const list = own(schema, key);
    if (Array.isArray(list)) list.forEach((child, index) => undeclaredRequired(child, [...segments, key, index], problems, declared, depth + 1));
  }
  for (const key of SAME_INSTANCE_SINGLE) undeclaredRequired(own(schema, key), [...segments, key], problems, declared, depth + 1);
  const dependent = own(schema, 'dependentSchemas');
  if (isJsonObject(dependent)) for (const [name, child] of Object.entries(dependent)) undeclaredRequired(child, [...segments, 'dependentSchemas', name], problems, declared, depth + 1);
}

function typeIncludesObject(type: JsonValue | undefined): boolean {
  return type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
}

function enumProblem(value: JsonValue | undefined, allowed: readonly string[], synonyms: Record<string, string>, segments: JsonPathSegments): ManifestProblem | undefined {
  if (value === undefined || (typeof value === 'string' && allowed.includes(value))) return undefined;
  const path = formatJsonPath(segments);
  const hint = suggest(value, allowed, synonyms);
  return {
    code: 'INVALID_ENUM_VALUE',
    path,
    severity: 'error',
    message: `${path} must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}; got ${JSON.stringify(value)}${hint ? ` (did you mean ${JSON.stringify(hint)}?)` : ''}`,
  };
}

/** The semantic lint on top of the manifest schema (issue 5, "Authoring"). */
function semanticProblems(manifest: JsonObject, options: Required<LintOptions>): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (code: ManifestProblemCode, segments: JsonPathSegments, message: string, severity: ManifestProblem['severity'] = 'error') =>
    problems.push({ code, path: formatJsonPath(segments), message, severity });

  const name = own(manifest, 'name');
  if (typeof name === 'string') {
    if (!SNAKE_CASE.test(name)) {
      const hint = name
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^[^a-z]+|_+$/g, '');
      add(
        'NAME_NOT_SNAKE_CASE',
        ['name'],
        `$.name ${JSON.stringify(name)} must be lowercase snake_case: a letter first, then lowercase letters, digits and single underscores${hint && hint !== name ? ` (e.g. ${JSON.stringify(hint)})` : ''}`,
      );
    }
    if (name.length > PROVIDER_NAME_LIMIT) {
      add('NAME_TOO_LONG', ['name'], `$.name is ${name.length} characters; OpenAI and Anthropic reject tool names over ${PROVIDER_NAME_LIMIT}`, 'warning');
    }
  }

  const version = own(manifest, 'version');
  if (typeof version === 'string' && !parseSemVer(version)) {
    add('VERSION_NOT_SEMVER', ['version'], `$.version ${JSON.stringify(version)} must be a semantic version major.minor.patch without leading zeros, e.g. "1.0.0"`);
  }

  const description = own(manifest, 'description');
  if (typeof description === 'string' && description.trim() === '') {
    add('EMPTY_DESCRIPTION', ['description'], '$.description is empty: models choose tools by their descriptions, so say what the tool does and when to use it');
  }

  const inputSchema = own(manifest, 'input_schema');
  const inputGuards = isJsonObject(inputSchema) ? guardProblems(inputSchema, ['input_schema']) : [];
  problems.push(...inputGuards);
  if (isJsonObject(inputSchema)) {
    if (inputGuards.length === 0) problems.push(...schemaDocumentProblems(inputSchema, ['input_schema']));
    const type = own(inputSchema, 'type');
    if (type !== 'object') {
      add(
        'INPUT_SCHEMA_NOT_OBJECT',
        ['input_schema', 'type'],
        type === undefined
          ? '$.input_schema.type is missing: tool arguments are a JSON object, so the input schema needs "type": "object"'
          : `$.input_schema.type must be "object" (tool arguments are a JSON object); got ${JSON.stringify(type)}`,
      );
    }
    if (inputGuards.length === 0) undeclaredRequired(inputSchema, ['input_schema'], problems);
  }

  const outputSchema = own(manifest, 'output_schema');
  const outputGuards = isJsonObject(outputSchema) ? guardProblems(outputSchema, ['output_schema']) : [];
  problems.push(...outputGuards);
  if (isJsonObject(outputSchema)) {
    if (outputGuards.length === 0) problems.push(...schemaDocumentProblems(outputSchema, ['output_schema']));
    const type = own(outputSchema, 'type');
    if (!typeIncludesObject(type)) {
      add('OUTPUT_SCHEMA_NOT_OBJECT', ['output_schema', 'type'], `$.output_schema.type must be "object": structured_output is always a JSON object; got ${JSON.stringify(type)}`);
    }
    if (outputGuards.length === 0) undeclaredRequired(outputSchema, ['output_schema'], problems);
  }

  const constraints = own(manifest, 'execution_constraints');
  if (isJsonObject(constraints)) {
    const timeout = own(constraints, 'max_timeout_ms');
    if (typeof timeout === 'number' && Number.isInteger(timeout)) {
      if (timeout < options.minTimeoutMs) {
        add(
          'TIMEOUT_BELOW_RUNTIME_MINIMUM',
          ['execution_constraints', 'max_timeout_ms'],
          `$.execution_constraints.max_timeout_ms ${timeout} is below the runtime minimum of ${options.minTimeoutMs} ms: every invocation would fail with TIMEOUT_BELOW_MINIMUM`,
        );
      } else if (timeout > ONE_HOUR_MS) {
        add('TIMEOUT_UNUSUALLY_LONG', ['execution_constraints', 'max_timeout_ms'], `$.execution_constraints.max_timeout_ms ${timeout} is over an hour; is that the unit you meant (milliseconds)?`, 'warning');
      }
    }
    const payload = own(constraints, 'max_payload_bytes');
    if (typeof payload === 'number' && Number.isInteger(payload) && payload >= 1) {
      const smallest = jsonByteLength({
        tool_name: typeof name === 'string' ? name : '',
        tool_version: typeof version === 'string' ? version : '1.0.0',
        capture_selection: { capture_id: 'c' },
        arguments: {},
        request_id: 'r',
        timeout_ms: options.minTimeoutMs,
      });
      if (payload < smallest) {
        add(
          'PAYLOAD_LIMIT_TOO_SMALL',
          ['execution_constraints', 'max_payload_bytes'],
          `$.execution_constraints.max_payload_bytes ${payload} is smaller than the smallest possible invocation of this tool (${smallest} bytes): every invocation would fail with PAYLOAD_TOO_LARGE`,
        );
      } else if (payload < SMALL_PAYLOAD_BYTES) {
        add('PAYLOAD_LIMIT_TOO_SMALL', ['execution_constraints', 'max_payload_bytes'], `$.execution_constraints.max_payload_bytes ${payload} leaves little room for arguments (an empty invocation is ${smallest} bytes)`, 'warning');
      }
    }
    const sideEffects = enumProblem(own(constraints, 'side_effects'), SIDE_EFFECTS, SIDE_EFFECT_SYNONYMS, ['execution_constraints', 'side_effects']);
    if (sideEffects) problems.push(sideEffects);
  }

  const costHint = own(manifest, 'cost_hint');
  if (isJsonObject(costHint)) {
    const unit = enumProblem(own(costHint, 'unit'), COST_UNITS, COST_UNIT_SYNONYMS, ['cost_hint', 'unit']);
    if (unit) problems.push(unit);
    const currency = own(costHint, 'currency');
    if (typeof currency === 'string' && currency !== '' && !/^[A-Z]{3}$/.test(currency) && !/^[a-z][a-z_]*$/.test(currency)) {
      add('CURRENCY_NOT_RECOGNIZED', ['cost_hint', 'currency'], `$.cost_hint.currency ${JSON.stringify(currency)} should be an ISO 4217 code such as "USD" or a lowercase pseudo-unit such as "credits"`, 'warning');
    }
  }
  return problems;
}

function orderKey(path: string): number {
  const first = parseJsonPath(path)?.[0];
  const index = typeof first === 'string' ? FIELD_ORDER.indexOf(first) : -1;
  return index === -1 ? (path === '$' ? -1 : FIELD_ORDER.length) : index;
}

/**
 * Lints a `ToolManifest`: the manifest JSON Schema (`toolManifestSchema`), then the semantic
 * checks — snake_case `name` (and the providers' 64-character limit), semver `version`, a
 * non-blank `description`, `input_schema` valid JSON Schema (2020-12 meta-schema, and it
 * compiles) with `type: "object"`, `required` naming only declared properties (at every level),
 * `output_schema` valid and object-typed, `max_timeout_ms` at least the runtime minimum,
 * `max_payload_bytes` large enough for an invocation, `side_effects` and `cost_hint.unit` in their
 * enums (with a suggestion for near misses). Where a semantic check explains a schema error
 * better, only the semantic problem is kept. Problems are ordered by manifest field. Never throws.
 */
export function lintManifest(value: unknown, options: LintOptions = {}): ManifestProblem[] {
  if (!isJsonObject(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return [{ code: 'NOT_AN_OBJECT', path: '$', severity: 'error', message: `A ToolManifest is a JSON object; got ${kind}` }];
  }
  // Before anything recursive reads it (issue 14, item 1): the whole manifest within the JSON limits.
  const limits = checkJsonLimits(value);
  if (!limits.ok) {
    const path = formatJsonPath(limits.violation.path);
    return [{ code: limits.violation.kind === 'depth' ? 'TOO_DEEP' : 'TOO_LARGE', path, severity: 'error', message: `${path} ${limits.violation.message}` }];
  }
  const settings: Required<LintOptions> = { minTimeoutMs: options.minTimeoutMs ?? DEFAULT_EXECUTOR_SETTINGS.minTimeoutMs };
  const semantic = semanticProblems(value, settings);
  const explained = new Set(semantic.map((problem) => problem.path));
  const problems = [...schemaProblems(value).filter((problem) => !explained.has(problem.path)), ...semantic];
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => orderKey(a.problem.path) - orderKey(b.problem.path) || a.index - b.index)
    .map(({ problem }) => problem);
}

/** Lints manifest text: `INVALID_JSON` when it does not parse, else `lintManifest`. */
export function lintManifestText(text: string, options: LintOptions = {}): ManifestProblem[] {
  const parsed = safeParseJson(text);
  if (!parsed.ok) return [{ code: 'INVALID_JSON', path: '$', severity: 'error', message: `The manifest is not JSON: ${parsed.message}` }];
  return lintManifest(parsed.value, options);
}

/** True when no problem is an error (warnings allowed). */
export function isCleanManifest(problems: readonly ManifestProblem[]): boolean {
  return problems.every((problem) => problem.severity !== 'error');
}
