import { bleCaptureSelectionSchema, genericCaptureSelectionSchema, toolInvocationSchema } from '../contract/schemas.ts';
import { toolError, type ToolError, type ToolWarning } from '../contract/tool-error.ts';
import type { JsonSchema, ToolManifest } from '../contract/types.ts';
import { checkSelection, normalizeCaptureSelection, renderSelection, type CaptureLookup, type NormalizedSelection } from '../data/selection.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { CaptureDescription, ToolImplementation } from '../tools/tool.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import { checkJsonLimits } from '../util/json-limits.ts';
import { formatFieldPath } from '../validation/field-path.ts';
import { isTrustedSchema, precompileSchema, trustSchemas, validateAgainstSchema } from '../validation/schema-validator.ts';
import type { RunRequest } from './runner.ts';
// Marks the contract's and the built-in tools' schemas as shipped (no meta-schema compile on the first validation).
import './shipped-schemas.ts';

/** Runtime settings that validation enforces. */
export interface ExecutorSettings {
  /** Smallest `timeout_ms` the runtime accepts (settled decision 6). */
  minTimeoutMs: number;
}

export const DEFAULT_EXECUTOR_SETTINGS: ExecutorSettings = { minTimeoutMs: 1000 };

export interface ValidationContext {
  registry: ToolRegistry;
  catalog: CaptureLookup;
  settings: ExecutorSettings;
}

export type ValidationOutcome =
  | { ok: true; request: RunRequest; tool: ToolImplementation; warnings: ToolWarning[] }
  | { ok: false; errors: ToolError[]; warnings: ToolWarning[]; tool?: ToolImplementation };

/**
 * The validators `validateInvocation` will need for these tools, as one small step each (every
 * step compiles one schema, ~2–10 ms): a caller with a busy thread (the app's main thread) runs
 * them in idle time, so the first invocation does not compile them all in one task.
 */
export function validationWarmUp(registry: ToolRegistry): Array<() => void> {
  // Shipped schemas only: another's first compile also compiles the meta-schema (~35 ms), which
  // then happens when that tool is first used rather than in an idle moment it would overrun.
  const inputs = registry
    .manifests()
    .filter((manifest) => isTrustedSchema(manifest.input_schema))
    .map((manifest) => closedByDefault(manifest.input_schema));
  const schemas = [toolInvocationSchema, genericCaptureSelectionSchema, bleCaptureSelectionSchema, ...inputs];
  return schemas.map((schema) => () => precompileSchema(schema));
}

/**
 * Every check that runs before execution (tool-contract.md §5, settled decisions 1–7): the
 * envelope, the tool and version, the arguments against the tool's `input_schema`, the capture
 * selection against the catalog, the tool's own checks, the timeout and the payload size.
 * Errors are collected, not short-circuited: the caller sees every problem at once.
 */
export function validateInvocation(raw: unknown, context: ValidationContext): ValidationOutcome {
  if (!isJsonObject(raw)) {
    const kind = Array.isArray(raw) ? 'array' : raw === null ? 'null' : typeof raw;
    return { ok: false, warnings: [], errors: [toolError('INVALID_INVOCATION', '', `The invocation must be a JSON object, got ${kind}`)] };
  }
  // Before anything recursive (ajv, the payload size) reads it: depth, node and key limits,
  // checked by an iterative walk that also measures the payload (issue 14, item 1).
  const limits = checkJsonLimits(raw);
  if (!limits.ok) {
    const { path, message } = limits.violation;
    const shown = path.length > 3 ? `${formatFieldPath(path.slice(0, 3))}…` : formatFieldPath(path);
    return { ok: false, warnings: [], errors: [toolError('INVALID_INVOCATION', formatFieldPath(path), `${shown || 'The invocation'} ${message}`)] };
  }
  const errors: ToolError[] = [];
  const warnings: ToolWarning[] = [];
  const envelopeErrors = validateAgainstSchema(toolInvocationSchema, raw, { prefix: [], typeErrorCode: 'INVALID_INVOCATION' });
  const badFields = new Set(envelopeErrors.map((error) => error.field.split(/[.[]/)[0]));
  const usable = (field: string) => field in raw && !badFields.has(field);
  // A present `capture_selection` is checked shape by shape below, with more precise paths.
  errors.push(...envelopeErrors.filter((error) => !('capture_selection' in raw && error.field.startsWith('capture_selection'))));

  let tool: ToolImplementation | undefined;
  if (usable('tool_name') && usable('tool_version')) {
    const resolution = context.registry.resolve(raw.tool_name as string, raw.tool_version as string);
    if (resolution.ok) {
      tool = resolution.tool;
      if (resolution.warning) warnings.push(resolution.warning);
    } else {
      errors.push(resolution.error);
    }
  }

  // Whether the envelope must carry a selection is the tool's to say (`execution_constraints.
  // capture_selection`); for a tool that could not be resolved the contract's default holds.
  const readsNoCapture = tool?.manifest.execution_constraints.capture_selection === 'none';
  let selection: NormalizedSelection | undefined;
  const selectionErrors: ToolError[] = [];
  if (readsNoCapture) {
    if ('capture_selection' in raw) {
      selectionErrors.push(
        toolError('UNKNOWN_ARGUMENT', 'capture_selection', `${tool?.manifest.name} reads no capture: leave capture_selection out of its invocations`),
      );
    }
  } else if (!('capture_selection' in raw)) {
    selectionErrors.push(toolError('MISSING_REQUIRED_ARGUMENT', 'capture_selection', 'capture_selection is required'));
  } else {
    const normalized = normalizeCaptureSelection(raw.capture_selection);
    if (normalized.ok) {
      selection = normalized.value;
      selectionErrors.push(...checkSelection(selection, context.catalog));
    } else {
      selectionErrors.push(...normalized.errors);
    }
  }

  if (tool && usable('arguments')) {
    const argumentErrors = validateArguments(tool.manifest, raw.arguments as JsonObject, selectionForSchema(tool.manifest, raw.capture_selection, selection, context.catalog));
    errors.push(...argumentErrors.filter((error) => !selectionErrors.some((known) => known.field === error.field && known.code === error.code)));
    if (argumentErrors.length === 0 && selection && selectionErrors.length === 0 && tool.checkArguments) {
      errors.push(...tool.checkArguments(raw.arguments as JsonObject, describeSelected(selection, context.catalog)));
    }
  }
  errors.push(...selectionErrors);

  let timeoutMs = 0;
  if (tool && usable('timeout_ms')) {
    const requested = raw.timeout_ms as number;
    const maximum = tool.manifest.execution_constraints.max_timeout_ms;
    if (requested < context.settings.minTimeoutMs) {
      errors.push(
        toolError('TIMEOUT_BELOW_MINIMUM', 'timeout_ms', `timeout_ms ${requested} is below the runtime minimum of ${context.settings.minTimeoutMs} ms`),
      );
    } else if (requested > maximum) {
      timeoutMs = maximum;
      warnings.push({ code: 'TIMEOUT_CLAMPED', message: `timeout_ms ${requested} was clamped to ${tool.manifest.name}'s max_timeout_ms of ${maximum} ms` });
    } else {
      timeoutMs = requested;
    }
  }

  if (tool) {
    const size = limits.measure.bytes;
    const limit = tool.manifest.execution_constraints.max_payload_bytes;
    if (size > limit) {
      errors.push(toolError('PAYLOAD_TOO_LARGE', '', `The invocation is ${size} bytes; ${tool.manifest.name} accepts at most ${limit} bytes`));
    }
  }

  if (errors.length > 0 || !tool || (!selection && !readsNoCapture)) return { ok: false, errors, warnings, tool };
  return {
    ok: true,
    tool,
    warnings,
    request: {
      requestId: raw.request_id as string,
      toolName: tool.manifest.name,
      toolVersion: tool.manifest.version,
      arguments: raw.arguments as JsonObject,
      selection: selection ?? null,
      timeoutMs,
      invocation: raw,
    },
  };
}

/**
 * The envelope's selection as the manifest's `input_schema` should see it: as written, unless the
 * schema declares the other shape of settled decision 3 and the selection normalized cleanly, in
 * which case it is rewritten into the declared shape.
 */
function selectionForSchema(manifest: ToolManifest, written: unknown, selection: NormalizedSelection | undefined, catalog: CaptureLookup): unknown {
  const declared = isJsonObject(manifest.input_schema.properties) ? manifest.input_schema.properties.capture_selection : undefined;
  if (!selection || !isJsonObject(declared) || !isJsonObject(declared.properties)) return written;
  const wants = 'capture_ids' in declared.properties ? 'ble' : 'capture_id' in declared.properties ? 'generic' : undefined;
  if (!wants || wants === selection.shape) return written;
  return renderSelection(selection, wants, catalog) ?? written;
}

/**
 * Arguments against the manifest's `input_schema`. A schema that declares a `capture_selection`
 * property sees the envelope's selection there (settled decision 3); its errors are reported at
 * the envelope path where the caller wrote the selection.
 */
function validateArguments(manifest: ToolManifest, args: JsonObject, envelopeSelection: unknown): ToolError[] {
  const schema = closedByDefault(manifest.input_schema);
  const properties = manifest.input_schema.properties;
  const wantsSelection = isJsonObject(properties) && 'capture_selection' in properties && !('capture_selection' in args);
  const value = wantsSelection && envelopeSelection !== undefined ? { ...args, capture_selection: envelopeSelection } : args;
  return validateAgainstSchema(schema, value, { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' }).map((error) =>
    wantsSelection && (error.field === 'arguments.capture_selection' || error.field.startsWith('arguments.capture_selection.') || error.field.startsWith('arguments.capture_selection['))
      ? { ...error, field: error.field.slice('arguments.'.length), message: error.message.replace(/arguments\.capture_selection/g, 'capture_selection') }
      : error,
  );
}

/**
 * A tool's arguments alone against its `input_schema`, as `validateInvocation` checks them, for
 * callers that make the capture selection themselves (the runner's dataset commands, one
 * selection per window): the selection's errors are left to the invocations they build.
 */
export function argumentSchemaErrors(manifest: ToolManifest, args: JsonObject): ToolError[] {
  // (validateArguments reports the selection at its envelope path.)
  return validateArguments(manifest, args, undefined).filter((error) => error.field !== 'capture_selection' && !/^capture_selection[.[]/.test(error.field));
}

const closedSchemas = new WeakMap<JsonSchema, JsonSchema>();

/**
 * The contract flips JSON Schema's default (settled decision 2): an object schema that does not
 * say `additionalProperties` rejects unknown keys. Applied to the root and to nested `properties`
 * (not inside `allOf`/`anyOf`/`oneOf` branches, where closing one branch would reject the keys the
 * others declare). Cached per schema object, so ajv compiles each once.
 */
export function closedByDefault(schema: JsonSchema): JsonSchema {
  let closed = closedSchemas.get(schema);
  if (!closed) {
    closed = closeObjectSchema(schema);
    // Closing only adds `additionalProperties: false`: a shipped schema stays valid.
    if (isTrustedSchema(schema)) trustSchemas(closed);
    closedSchemas.set(schema, closed);
  }
  return closed;
}

function closeObjectSchema(schema: JsonSchema): JsonSchema {
  const copy: JsonSchema = { ...schema };
  if (isJsonObject(schema.properties)) {
    if (!('additionalProperties' in schema) && !('unevaluatedProperties' in schema)) copy.additionalProperties = false;
    copy.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, isJsonObject(value) ? closeObjectSchema(value) : value]),
    );
  }
  return copy;
}

function describeSelected(selection: NormalizedSelection, catalog: CaptureLookup): CaptureDescription[] {
  return selection.captures.flatMap(({ id }) => {
    const info = catalog.get(id);
    return info ? [{ id, columns: info.columns }] : [];
  });
}
