import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import AjvDraft07 from 'ajv';
import addFormats from 'ajv-formats';
import type { ToolError, ToolErrorCode } from '../contract/tool-error.ts';
import type { JsonSchema } from '../contract/types.ts';
import { formatFieldPath, parseJsonPointer, type FieldPath } from './field-path.ts';

/**
 * One ajv instance for the whole core. `strict: false` because authored schemas carry
 * annotation keywords (`example`, `x-…`) that strict mode rejects; `verbose` gives the
 * parent schema to error messages (allowed keys, expected types).
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
addFormats(ajv);
/** Schemas that declare draft-07 (or draft-06), as MCP servers' tool schemas often do (issue 13). */
const ajvDraft07 = new AjvDraft07({ allErrors: true, strict: false, verbose: true });
addFormats(ajvDraft07);
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/;

/** The ajv instance for the draft a schema declares in `$schema`; 2020-12 when it declares none. */
function ajvFor(schema: unknown): Ajv2020 {
  const declared = typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  // Both are ajv `Core` instances with the same API; only the meta-schema and keyword set differ.
  return typeof declared === 'string' && DRAFT_07.test(declared) ? (ajvDraft07 as unknown as Ajv2020) : ajv;
}

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles a schema once per schema object; compilation is the expensive part. */
function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajvFor(schema).compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Checks that a schema is itself valid JSON Schema (the 2020-12 meta-schema, or draft-07 when it declares that) and compiles; returns
 * ajv's messages. Never throws, and leaves nothing behind in ajv's cache (authored schemas are
 * checked on every keystroke, often with the same `$id`).
 */
export function checkSchemaDocument(schema: unknown): string[] {
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

/** Validates `value` against `schema`; one coded error per problem, paths from the envelope root. */
export function validateAgainstSchema(schema: JsonSchema, value: unknown, options: MappingOptions): ToolError[] {
  const validate = validatorFor(schema);
  if (validate(value)) return [];
  const errors: ToolError[] = [];
  const seen = new Set<string>();
  for (const ajvError of validate.errors ?? []) {
    const mapped = mapAjvError(ajvError, options);
    if (!mapped) continue;
    const key = `${mapped.code}\u0000${mapped.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(mapped);
  }
  return errors;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function listOf(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(', ') : String(values);
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
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} must be one of ${listOf(params.allowedValues)}, got ${JSON.stringify(error.data)}` };
    case 'const':
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} must be ${JSON.stringify(params.allowedValue)}, got ${JSON.stringify(error.data)}` };
    case 'if':
      // The failing `then` branch reports its own, more precise error.
      return null;
    default:
      return { code: 'INVALID_VALUE', field: field(base), message: `${at} ${error.message ?? 'is invalid'}` };
  }
}
