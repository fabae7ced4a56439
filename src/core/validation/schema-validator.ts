import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import addFormats from 'ajv-formats';
import type { ToolError, ToolErrorCode } from '../contract/tool-error.ts';
import type { JsonSchema } from '../contract/types.ts';
import { valueForMessage } from '../util/message-value.ts';
import { LIMITS } from '../util/limits.ts';
import { formatFieldPath, parseJsonPointer, type FieldPath } from './field-path.ts';
import { linearRegExp } from './regexp.ts';
import { guardSchema } from './schema-guards.ts';

/** ajv's `code.regExp` engine: RE2 semantics, linear time (`./regexp.ts`). `code` names it in standalone output, which Sextant does not use. */
const regExpEngine = Object.assign((pattern: string) => linearRegExp(pattern), { code: 'linearRegExp' });

/**
 * One ajv instance for the whole core. `strict: false` because authored schemas carry
 * annotation keywords (`example`, `x-…`) that strict mode rejects; `verbose` gives the
 * parent schema to error messages (allowed keys, expected types). Every `pattern` and
 * `patternProperties` key runs on the linear-time engine, in the browser and in Node alike.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, code: { regExp: regExpEngine } });
addFormats(ajv);
/** Schemas that declare draft-07 (or draft-06), as MCP servers' tool schemas often do (issue 13). */
const ajvDraft07 = new AjvDraft07({ allErrors: true, strict: false, verbose: true, code: { regExp: regExpEngine } });
addFormats(ajvDraft07);
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/;

/**
 * For Sextant's own schemas (the contract's, the built-in tools'): the same options without
 * checking each schema against the meta-schema when it is compiled. Compiling the 2020-12
 * meta-schema is ~35 ms of one task, on the first validation of a page's life (the first Run);
 * these schemas are checked against it by the unit tests instead (`trusted-schemas.test.ts`).
 */
const trustedAjv = new Ajv2020({ allErrors: true, strict: false, verbose: true, validateSchema: false, code: { regExp: regExpEngine } });
addFormats(trustedAjv);
const trusted = new WeakSet<object>();

/**
 * Marks schemas that ship with Sextant, so they compile without the meta-schema. Only for schemas
 * whose validity a unit test asserts; a schema from outside (saved manifests, MCP servers) never.
 */
export function trustSchemas(...schemas: JsonSchema[]): void {
  for (const schema of schemas) trusted.add(schema);
}

/** Whether `trustSchemas` marked this schema object. */
export function isTrustedSchema(schema: JsonSchema): boolean {
  return trusted.has(schema);
}

/** The ajv instance for the draft a schema declares in `$schema`; 2020-12 when it declares none. */
function ajvFor(schema: unknown): Ajv2020 {
  const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  // Both are ajv `Core` instances with the same API; only the meta-schema and keyword set differ.
  return typeof declared === 'string' && DRAFT_07.test(declared) ? (ajvDraft07 as unknown as Ajv2020) : ajv;
}

/** A compiled validator, or why the schema cannot be used. */
type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; message: string };

const compiled = new WeakMap<object, Compiled>();

/**
 * Compiles a schema once per schema object; compilation is the expensive part. A schema that
 * `guardSchema` refuses (too deep or large, a pattern RE2 cannot run, a `$ref` cycle that never
 * consumes the instance) or that ajv cannot compile is remembered as unusable.
 */
function validatorFor(schema: JsonSchema): Compiled {
  let entry = compiled.get(schema);
  if (!entry) {
    const problems = guardSchema(schema);
    if (problems.length > 0) {
      entry = { ok: false, message: problems[0].message };
    } else {
      try {
        const instance = ajvFor(schema);
        entry = { ok: true, validate: (instance === ajv && trusted.has(schema) ? trustedAjv : instance).compile(schema) };
      } catch (error) {
        entry = { ok: false, message: firstLine(error) };
      }
    }
    compiled.set(schema, entry);
  }
  return entry;
}

/** Compiles a schema now (and remembers it), so its first validation does not pay for compiling. */
export function precompileSchema(schema: JsonSchema): void {
  validatorFor(schema);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 500);
}

/**
 * Checks that a schema is itself valid JSON Schema (the 2020-12 meta-schema, or draft-07 when it declares that) and compiles; returns
 * ajv's messages. Never throws, and leaves nothing behind in ajv's cache (authored schemas are
 * checked on every keystroke, often with the same `$id`).
 */
export function checkSchemaDocument(schema: unknown): string[] {
  const guarded = guardSchema(schema);
  if (guarded.length > 0) return guarded.map((problem) => `/${problem.path.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')} ${problem.message}`);
  // Within the limits just checked, so the text is bounded. The editor lints on every keystroke
  // and most keystrokes leave the schemas alone: compiling is the expensive part, so remember it.
  const key = JSON.stringify(schema);
  const known = documentChecks.get(key);
  if (known) return known;
  const messages = compileOnce(schema);
  documentChecks.set(key, messages);
  if (documentChecks.size > DOCUMENT_CHECK_CACHE) documentChecks.delete(documentChecks.keys().next().value as string);
  return messages;
}

const DOCUMENT_CHECK_CACHE = 64;
const documentChecks = new Map<string, string[]>();

function compileOnce(schema: unknown): string[] {
  const ajv = ajvFor(schema);
  try {
    if (!ajv.validateSchema(schema as object)) {
      return (ajv.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
    }
    ajv.compile(schema as object);
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  } finally {
    if (typeof schema === 'object' && schema !== null) ajv.removeSchema(schema as object);
  }
}

export interface MappingOptions {
  /** Segments prepended to every field (e.g. `['arguments']`). */
  prefix: FieldPath;
  /** Code for a wrong JSON type: `INVALID_TYPE` for arguments, `INVALID_INVOCATION` for the envelope itself. */
  typeErrorCode: ToolErrorCode;
}

/**
 * Validates `value` against `schema`; one coded error per problem, paths from the envelope root,
 * at most `LIMITS.maxErrorsPerResult` of them (the last then says how many more there were).
 * Never throws: a schema that cannot be used, or a validation that fails in ajv itself, is one
 * `EXECUTION_ERROR` naming the schema's problem — the caller's value is not at fault. Callers
 * check the value's depth (`checkJsonLimits`) first, so ajv's recursion over it is bounded.
 */
export function validateAgainstSchema(schema: JsonSchema, value: unknown, options: MappingOptions): ToolError[] {
  const entry = validatorFor(schema);
  const at = formatFieldPath(options.prefix);
  if (!entry.ok) return [{ code: 'EXECUTION_ERROR', field: at, message: `The schema for ${at || 'this value'} cannot be used: ${entry.message}` }];
  const validate = entry.validate;
  try {
    if (validate(value)) return [];
  } catch (error) {
    return [{ code: 'EXECUTION_ERROR', field: at, message: `Validating ${at || 'this value'} failed: ${firstLine(error)}` }];
  }
  const errors: ToolError[] = [];
  const seen = new Set<string>();
  let more = 0;
  for (const ajvError of validate.errors ?? []) {
    const mapped = mapAjvError(ajvError, options);
    if (!mapped) continue;
    const key = `${mapped.code}\u0000${mapped.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (errors.length < LIMITS.maxErrorsPerResult) errors.push(mapped);
    else more += 1;
  }
  if (more > 0) {
    const last = errors[errors.length - 1];
    errors[errors.length - 1] = { ...last, message: `${last.message} (and ${more} more problem${more === 1 ? '' : 's'} not listed; at most ${LIMITS.maxErrorsPerResult} are)` };
  }
  return errors;
}

/** A value for a message: its JSON, cut to `LIMITS.maxValueInMessage` characters without writing it whole. */
function shown(value: unknown): string {
  return valueForMessage(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function listOf(values: unknown): string {
  if (!Array.isArray(values)) return String(values);
  const listed = values.slice(0, 20).map(shown).join(', ');
  return values.length > 20 ? `${listed}, … (${values.length} in all)` : listed;
}

/** Maps one ajv error onto the contract's codes; `null` for errors that only restate others. */
function mapAjvError(error: ErrorObject, options: MappingOptions): ToolError | null {
  const base = [...options.prefix, ...parseJsonPointer(error.instancePath)];
  const field = (path: FieldPath) => formatFieldPath(path);
  const params = error.params as Record<string, unknown>;
  const at = field(base) || 'the invocation';
  switch (error.keyword) {
    case 'required': {
      const path = [...base, String(params.missingProperty)];
      return { code: 'MISSING_REQUIRED_ARGUMENT', field: field(path), message: `${field(path)} is required` };
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params.additionalProperty ?? params.unevaluatedProperty);
      const path = [...base, key];
      const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
      const allowed = properties ? Object.keys(properties) : [];
      const hint = allowed.length > 0 ? `; expected one of: ${allowed.join(', ')}` : '';
      return { code: 'UNKNOWN_ARGUMENT', field: field(path), message: `${field(path)} is not a recognized field${hint}` };
    }
    case 'type':
      return {
        code: options.typeErrorCode,
        field: field(base),
        message: `${at} must be ${listOf(params.type).replace(/"/g, '')}, got ${describeType(error.data)}`,
      };
    case 'enum':
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} must be one of ${listOf(params.allowedValues)}, got ${shown(error.data)}` };
    case 'const':
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} must be ${shown(params.allowedValue)}, got ${shown(error.data)}` };
    case 'if':
      // The failing `then` branch reports its own, more precise error.
      return null;
    default:
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} ${error.message ?? 'is invalid'}` };
  }
}
