// Conformance check (issue 5): invocations generated from a manifest's `input_schema` — one valid,
// one per way to break it — and a judge that compares what the executor answered with the code and
// field the contract prescribes (spec/README.md, settled decisions 1–6).

import fc from 'fast-check';
import { compilePattern, type LinearRegExp } from '../validation/regexp.ts';
import type { ToolErrorCode } from '../contract/tool-error.ts';
import type { JsonSchema, ToolManifest, ToolStatus } from '../contract/types.ts';
import type { CaptureInfo } from '../data/capture.ts';
import type { ExecutionRecord } from '../executor/executor.ts';
import { closedByDefault, DEFAULT_EXECUTOR_SETTINGS } from '../executor/validate-invocation.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import { formatFieldPath } from '../validation/field-path.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';

/** What the contract says an invocation must produce. */
export interface ConformanceExpectation {
  /** `ok` passes on `ok` or `partial`; `error` passes when `code` is reported at `field`. */
  status: 'ok' | 'error';
  code?: ToolErrorCode;
  /** Dotted path from the envelope root, as in `errors[].field`. */
  field?: string;
}

/** One generated invocation and its expected outcome. */
export interface ConformanceCase {
  /** Stable, unique within a run: `valid`, `missing-argument.target`, `wrong-type.alpha`, … */
  id: string;
  /** One line for the table. */
  title: string;
  /** A full `ToolInvocation` envelope; its `request_id` is `conf-<id>`. */
  invocation: JsonObject;
  expected: ConformanceExpectation;
}

/** What the executor actually answered for one case. */
export interface ConformanceActual {
  /** The result's status; null when no execution record matched the case. */
  status: ToolStatus | null;
  /** `errors[].code`, in order. */
  codes: string[];
  /** `errors[].field`, parallel to `codes`. */
  fields: string[];
}

/** One row of the expected-vs-actual table. */
export interface ConformanceRow {
  case: ConformanceCase;
  actual: ConformanceActual;
  passed: boolean;
  /** Why the case failed; absent when it passed. */
  reason?: string;
}

export interface ConformanceOptions {
  /** The runtime's smallest accepted `timeout_ms` (settled decision 6); default 1000. */
  minTimeoutMs?: number;
}

/** Timeout of the generated invocations before clamping to `max_timeout_ms`, in milliseconds. */
const PREFERRED_TIMEOUT_MS = 30_000;

type SelectionShape = 'generic' | 'ble';

/**
 * Generates the conformance cases of `manifest` against `capture`: first the valid invocation
 * (every required argument filled, conditional requirements included), then one case per way to
 * break it. Deterministic: the same manifest and capture give the same cases. A tool that reads no
 * capture (`execution_constraints.capture_selection: none`) gets envelopes without a selection;
 * its selection cases are replaced by one that gives it a selection, which must be refused
 * (UNKNOWN_ARGUMENT at `capture_selection`). `capture` then only lends its columns to arguments
 * named like columns.
 */
export function generateConformanceCases(manifest: ToolManifest, capture: CaptureInfo, options: ConformanceOptions = {}): ConformanceCase[] {
  const minTimeoutMs = options.minTimeoutMs ?? DEFAULT_EXECUTOR_SETTINGS.minTimeoutMs;
  const schema = manifest.input_schema;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const shape = selectionShapeOf(properties);
  const validArguments = validArgumentsFor(schema, capture);
  const readsNoCapture = manifest.execution_constraints.capture_selection === 'none';
  const wholeCapture = () => selectionFor(shape, capture.id, capture.bounds.start_ms, capture.bounds.end_ms);

  const cases: ConformanceCase[] = [];
  const envelope = (id: string, overrides: { arguments?: JsonObject; selection?: JsonObject; timeoutMs?: number } = {}): JsonObject => ({
    tool_name: manifest.name,
    tool_version: manifest.version,
    ...(overrides.selection ? { capture_selection: overrides.selection } : readsNoCapture ? {} : { capture_selection: wholeCapture() }),
    arguments: overrides.arguments ?? validArguments,
    request_id: `conf-${id}`,
    timeout_ms: overrides.timeoutMs ?? Math.min(PREFERRED_TIMEOUT_MS, manifest.execution_constraints.max_timeout_ms),
  });
  const errorCase = (id: string, title: string, code: ToolErrorCode, field: string, invocation: JsonObject) =>
    cases.push({ id, title, invocation, expected: { status: 'error', code, field } });
  const withArgument = (key: string, value: JsonValue): JsonObject => ({ ...validArguments, [key]: value });
  const argumentField = (key: string) => formatFieldPath(['arguments', key]);

  cases.push({ id: 'valid', title: 'A valid invocation runs', invocation: envelope('valid'), expected: { status: 'ok' } });

  for (const key of Object.keys(validArguments)) {
    const { [key]: _omitted, ...rest } = validArguments;
    const id = `missing-argument.${key}`;
    errorCase(id, `Required argument ${key} is missing`, 'MISSING_REQUIRED_ARGUMENT', argumentField(key), envelope(id, { arguments: rest }));
  }

  for (const [key, property] of Object.entries(properties)) {
    // The envelope's selection stands in for a declared `capture_selection` argument (settled decision 3).
    if (!isJsonObject(property) || key === 'capture_selection') continue;
    const field = argumentField(key);
    const wrongType = wrongTypeValue(property.type);
    if (wrongType !== undefined) {
      const id = `wrong-type.${key}`;
      errorCase(id, `${key} has the wrong type`, 'INVALID_TYPE', field, envelope(id, { arguments: withArgument(key, wrongType) }));
    }
    for (const violation of valueViolations(property)) {
      const id = `${violation.kind}.${key}`;
      errorCase(id, `${key} ${violation.title}`, 'INVALID_VALUE', field, envelope(id, { arguments: withArgument(key, violation.value) }));
    }
  }

  const unknownName = unknownArgumentName(schema, properties);
  if (unknownName !== null) {
    const id = 'unknown-argument';
    errorCase(id, `Unknown argument ${unknownName}`, 'UNKNOWN_ARGUMENT', argumentField(unknownName), envelope(id, { arguments: withArgument(unknownName, 'x') }));
  }

  if (readsNoCapture) {
    errorCase(
      'capture-selection-given',
      `A capture_selection is given, but ${manifest.name} reads no capture`,
      'UNKNOWN_ARGUMENT',
      'capture_selection',
      envelope('capture-selection-given', { selection: wholeCapture() }),
    );
  } else {
    const span = Math.max(1000, capture.bounds.end_ms - capture.bounds.start_ms);
    errorCase(
      'time-range-outside-capture',
      'The time range ends after the capture',
      'UNSUPPORTED_TIME_RANGE',
      shape === 'ble' ? 'capture_selection.time_window' : 'capture_selection.selectors.time_range',
      envelope('time-range-outside-capture', { selection: selectionFor(shape, capture.id, capture.bounds.start_ms, capture.bounds.end_ms + span) }),
    );
    const unknownCapture = `${capture.id}__no_such_capture`;
    errorCase(
      'unknown-capture',
      `Capture ${unknownCapture} does not exist`,
      'INVALID_CAPTURE_SELECTION',
      shape === 'ble' ? 'capture_selection.capture_ids[0]' : 'capture_selection.capture_id',
      envelope('unknown-capture', { selection: selectionFor(shape, unknownCapture, capture.bounds.start_ms, capture.bounds.end_ms) }),
    );
  }
  const { timeout_ms: _timeout, ...withoutTimeout } = envelope('missing-envelope-field.timeout_ms');
  errorCase('missing-envelope-field.timeout_ms', 'The envelope has no timeout_ms', 'MISSING_REQUIRED_ARGUMENT', 'timeout_ms', withoutTimeout);
  if (minTimeoutMs > 0) {
    errorCase(
      'timeout-below-minimum',
      `timeout_ms ${minTimeoutMs - 1} is below the runtime minimum`,
      'TIMEOUT_BELOW_MINIMUM',
      'timeout_ms',
      envelope('timeout-below-minimum', { timeoutMs: minTimeoutMs - 1 }),
    );
  }
  return cases;
}

/**
 * Compares execution records with the cases' expectations. Records are matched to cases by
 * `request_id`, falling back to position (the order `executePlan` returns them in).
 */
export function judgeConformance(cases: ReadonlyArray<ConformanceCase>, records: ReadonlyArray<ExecutionRecord>): ConformanceRow[] {
  const byRequest = new Map(records.filter((record) => record.requestId !== null).map((record) => [record.requestId, record]));
  return cases.map((conformanceCase, index) => {
    const requestId = conformanceCase.invocation.request_id;
    const record = (typeof requestId === 'string' ? byRequest.get(requestId) : undefined) ?? records[index];
    if (!record) {
      return { case: conformanceCase, actual: { status: null, codes: [], fields: [] }, passed: false, reason: 'No execution record for this case' };
    }
    const { result } = record;
    const actual: ConformanceActual = {
      status: result.status,
      codes: result.errors.map((error) => error.code),
      fields: result.errors.map((error) => error.field),
    };
    const reason = failureReason(conformanceCase.expected, result.status, result.errors);
    return reason === null ? { case: conformanceCase, actual, passed: true } : { case: conformanceCase, actual, passed: false, reason };
  });
}

function failureReason(expected: ConformanceExpectation, status: ToolStatus, errors: ReadonlyArray<{ code: string; field: string }>): string | null {
  const got = errors.map((error) => `${error.code} at ${error.field || '(envelope)'}`).join('; ');
  if (expected.status === 'ok') {
    return status === 'ok' || status === 'partial' ? null : `Expected ok or partial, got error: ${got || 'no errors listed'}`;
  }
  const want = `${expected.code ?? 'an error'}${expected.field !== undefined ? ` at ${expected.field || '(envelope)'}` : ''}`;
  if (status !== 'error') return `Expected ${want}, but the invocation succeeded (status ${status})`;
  const matches = errors.some(
    (error) => (expected.code === undefined || error.code === expected.code) && (expected.field === undefined || error.field === expected.field),
  );
  return matches ? null : `Expected ${want}, got ${got || 'no errors listed'}`;
}

// ---------------------------------------------------------------------------------------------
// The valid arguments

const MAX_FILL_ROUNDS = 8;

/** Tokens of an argument name that say it names a capture column. */
const COLUMN_TOKENS = new Set([
  'target', 'response', 'outcome', 'column', 'columns', 'col', 'cols', 'feature', 'features', 'predictor', 'predictors',
  'regressor', 'regressors', 'variable', 'variables', 'metric', 'metrics', 'measure', 'measures', 'x', 'y', 'group', 'groups', 'by',
]);
/** Tokens that say the column defines groups: a categorical column fits best. */
const GROUP_TOKENS = new Set(['group', 'groups', 'by', 'category', 'factor']);

/** Picks columns for column-named arguments; columns already picked are not picked again. */
class ColumnPicker {
  private readonly used = new Set<string>();
  private readonly numeric: string[];
  private readonly categorical: string[];

  constructor(capture: CaptureInfo) {
    const numbers = capture.columns.filter((column) => column.kind === 'number').map((column) => column.name);
    // The time column is numeric too, but a poor analysis variable: last resort only.
    this.numeric = [...numbers.filter((name) => name !== capture.timeColumn), ...numbers.filter((name) => name === capture.timeColumn)];
    const others = capture.columns.filter((column) => column.kind !== 'number').map((column) => column.name);
    this.categorical = capture.channelColumn ? [capture.channelColumn, ...others.filter((name) => name !== capture.channelColumn)] : others;
  }

  pick(count: number, grouping: boolean): string[] {
    const pool = grouping ? [...this.categorical, ...this.numeric] : this.numeric;
    const fresh = pool.filter((name) => !this.used.has(name));
    const chosen = (fresh.length >= count ? fresh : [...fresh, ...pool.filter((name) => this.used.has(name))]).slice(0, count);
    for (const name of chosen) this.used.add(name);
    return chosen;
  }
}

function nameTokens(name: string): string[] {
  return name.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

function isColumnName(name: string): boolean {
  return nameTokens(name).some((token) => COLUMN_TOKENS.has(token));
}

function isGroupName(name: string): boolean {
  return nameTokens(name).some((token) => GROUP_TOKENS.has(token));
}

/**
 * Fills every required argument, then the requirements that the filled values switch on
 * (`if`/`then`, `dependentRequired`…), until validation reports no missing argument.
 */
function validArgumentsFor(schema: JsonSchema, capture: CaptureInfo): JsonObject {
  const values: JsonObject = {};
  const picker = new ColumnPicker(capture);
  const topRequired = stringList(schema.required);
  for (let round = 0; round < MAX_FILL_ROUNDS; round++) {
    const branches = activeBranches(schema, values);
    const required = [...topRequired, ...branches.flatMap((branch) => stringList(branch.required)), ...missingBySchema(schema, values)];
    const missing = [...new Set(required)].filter((key) => !(key in values) && key !== 'capture_selection');
    if (missing.length === 0) break;
    for (const key of missing) values[key] = valueFor(key, effectivePropertySchema(schema, branches, key), picker);
  }
  return values;
}

/** Top-level arguments that validation says are missing. */
function missingBySchema(schema: JsonSchema, values: JsonObject): string[] {
  const prefix = 'arguments.';
  return safeValidate(closedByDefault(schema), values)
    .filter((error) => error.code === 'MISSING_REQUIRED_ARGUMENT' && error.field.startsWith(prefix) && !error.field.slice(prefix.length).includes('.'))
    .map((error) => error.field.slice(prefix.length));
}

function safeValidate(schema: JsonSchema, value: JsonValue) {
  try {
    return validateAgainstSchema(schema, value, { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' });
  } catch {
    // A schema ajv cannot compile: the lint reports it; here it simply selects nothing.
    return [{ code: 'INVALID_VALUE' as const, field: '', message: 'schema does not compile' }];
  }
}

/** The `then`/`else` branches (top level and in `allOf`) that the current values select. */
function activeBranches(schema: JsonSchema, values: JsonObject): JsonObject[] {
  const conditionals = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf.filter(isJsonObject) : [])];
  const branches: JsonObject[] = [];
  for (const conditional of conditionals) {
    if (!isJsonObject(conditional.if)) continue;
    const branch = safeValidate(conditional.if, values).length === 0 ? conditional.then : conditional.else;
    if (isJsonObject(branch)) branches.push(branch);
  }
  return branches;
}

/** A property's schema with the refinements of the active branches (`then.properties.columns.minItems`). */
function effectivePropertySchema(schema: JsonSchema, branches: ReadonlyArray<JsonObject>, key: string): JsonObject {
  const base = isJsonObject(schema.properties) && isJsonObject(schema.properties[key]) ? schema.properties[key] : {};
  return branches.reduce<JsonObject>((merged, branch) => {
    const refinement = isJsonObject(branch.properties) ? branch.properties[key] : undefined;
    return isJsonObject(refinement) ? { ...merged, ...refinement } : merged;
  }, base);
}

function valueFor(name: string, schema: JsonObject, picker: ColumnPicker): JsonValue {
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = primaryType(schema);
  // A column name only where the string has no pattern or format of its own to satisfy.
  const plain = (candidate: JsonObject) => primaryType(candidate) === 'string' && !('pattern' in candidate) && !('format' in candidate);
  if (isColumnName(name)) {
    if (type === 'string' && plain(schema)) {
      const [column] = picker.pick(1, isGroupName(name));
      if (column !== undefined) return column;
    }
    if (type === 'array' && isJsonObject(schema.items) && plain(schema.items)) {
      const columns = picker.pick(arrayLength(schema), isGroupName(name));
      if (columns.length > 0) return columns;
    }
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
    case 'number':
      return numberFor(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const items = isJsonObject(schema.items) ? schema.items : {};
      const count = arrayLength(schema);
      // Distinct strings that each fit the item schema (pattern, format, lengths), when uniqueness needs several.
      const strings = schema.uniqueItems === true && primaryType(items) === 'string' && !('enum' in items) && !('const' in items) ? stringsFor(items, count) : [];
      const values = strings.length === count ? strings : Array.from({ length: count }, () => valueFor(name, items, picker));
      // `contains`: the first item is one the contains schema accepts.
      if (isJsonObject(schema.contains) && values.length > 0) values[0] = valueFor(name, schema.contains, picker);
      return schema.uniqueItems === true ? distinct(values) : values;
    }
    case 'object': {
      const nested: JsonObject = {};
      const nestedProperties = isJsonObject(schema.properties) ? schema.properties : {};
      for (const key of stringList(schema.required)) {
        const property = nestedProperties[key];
        nested[key] = valueFor(key, isJsonObject(property) ? property : {}, picker);
      }
      // `minProperties`: optional properties too, in schema order, until there are enough.
      const minProperties = numberOrUndefined(schema.minProperties) ?? 0;
      for (const [key, property] of Object.entries(nestedProperties)) {
        if (Object.keys(nested).length >= minProperties) break;
        if (!(key in nested)) nested[key] = valueFor(key, isJsonObject(property) ? property : {}, picker);
      }
      return nested;
    }
    default: {
      const branch = [schema.anyOf, schema.oneOf].find((list): list is JsonValue[] => Array.isArray(list) && list.length > 0)?.[0];
      return isJsonObject(branch) ? valueFor(name, branch, picker) : 'example';
    }
  }
}

/** The first non-null type of `type`, or what `properties`/`items` imply. */
function primaryType(schema: JsonObject): string | undefined {
  const types = typeList(schema.type);
  const first = types.find((type) => type !== 'null') ?? types[0];
  if (first !== undefined) return first;
  if (isJsonObject(schema.properties)) return 'object';
  if ('items' in schema) return 'array';
  return undefined;
}

function arrayLength(schema: JsonObject): number {
  const minimum = Math.max(1, numberOrUndefined(schema.minItems) ?? 1);
  const maximum = numberOrUndefined(schema.maxItems);
  return maximum === undefined ? minimum : Math.max(0, Math.min(minimum, maximum));
}

function distinct(values: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.map((value, index) => {
    let candidate = value;
    if (seen.has(JSON.stringify(candidate))) {
      if (typeof value === 'string') candidate = `${value}_${index}`;
      else if (typeof value === 'number') candidate = value + index;
    }
    seen.add(JSON.stringify(candidate));
    return candidate;
  });
}

/** A value of every string format ajv-formats checks (the validator's formats), so a `format` never fails the valid case. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  'iso-date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  'iso-time': '00:00:00Z',
  duration: 'P1D',
  email: 'analyst@example.com',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  regex: '^a$',
  'json-pointer': '/a',
  'json-pointer-uri-fragment': '#/a',
  'relative-json-pointer': '0/a',
  byte: 'ZXhhbXBsZQ==',
  password: 'example',
  binary: 'example',
};

/** Deterministic samples of strings matching `pattern` (fast-check's regex-driven generator, fixed seed), shortest first. */
function patternSamples(pattern: string): string[] {
  try {
    const samples = fc.sample(fc.stringMatching(new RegExp(pattern, 'u')), { seed: 20_260_101, numRuns: 40 });
    return [...new Set(samples)].sort((a, b) => a.length - b.length);
  } catch {
    // A pattern ECMAScript cannot compile (RE2-only syntax): the fixed candidates below still try.
    return [];
  }
}

/** Strings that fit a string schema (format, pattern, lengths), best first; the first is the valid case's value. */
function stringsFor(schema: JsonObject, wanted: number): string[] {
  const minLength = numberOrUndefined(schema.minLength) ?? 0;
  const maxLength = numberOrUndefined(schema.maxLength) ?? Number.POSITIVE_INFINITY;
  const pattern = typeof schema.pattern === 'string' ? safeRegExp(schema.pattern) : null;
  const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  const generated = typeof schema.pattern === 'string' ? patternSamples(schema.pattern) : [];
  const candidates = [format, ...generated, 'example', 'a', 'A', '0', '1', 'a1', 'example_1', 'EXAMPLE', ''].filter((value): value is string => value !== undefined);
  // Ajv counts length in code points.
  const length = (value: string) => [...value].length;
  const fits = (value: string) => length(value) >= minLength && length(value) <= maxLength && (pattern === null || pattern.test(value));
  const found = new Set<string>();
  for (const candidate of candidates) if (fits(candidate) && found.size < wanted) found.add(candidate);
  // Repeating a candidate's last character reaches `minLength` and simple patterns such as `^[A-Z]{3}$`.
  for (const candidate of candidates) {
    if (found.size >= wanted) break;
    const start = Math.max(minLength, length(candidate));
    for (let size = start; size <= start + 8 && found.size < wanted; size++) {
      const padded = candidate.padEnd(size, candidate.slice(-1) || 'x');
      if (fits(padded)) found.add(padded);
    }
  }
  return [...found];
}

function stringFor(schema: JsonObject): string {
  return stringsFor(schema, 1)[0] ?? 'x'.repeat(Math.max(numberOrUndefined(schema.minLength) ?? 0, 1));
}

/** On the linear-time engine validation uses (issue 14): a schema's pattern cannot stall case generation. */
function safeRegExp(pattern: string): LinearRegExp | null {
  const compiled = compilePattern(pattern);
  return compiled.ok ? compiled.regExp : null;
}

interface Bound {
  value: number;
  exclusive: boolean;
}

function lowerBound(schema: JsonObject): Bound | null {
  const inclusive = numberOrUndefined(schema.minimum);
  const exclusive = numberOrUndefined(schema.exclusiveMinimum);
  if (inclusive === undefined && exclusive === undefined) return null;
  if (exclusive !== undefined && (inclusive === undefined || exclusive >= inclusive)) return { value: exclusive, exclusive: true };
  return { value: inclusive as number, exclusive: false };
}

function upperBound(schema: JsonObject): Bound | null {
  const inclusive = numberOrUndefined(schema.maximum);
  const exclusive = numberOrUndefined(schema.exclusiveMaximum);
  if (inclusive === undefined && exclusive === undefined) return null;
  if (exclusive !== undefined && (inclusive === undefined || exclusive <= inclusive)) return { value: exclusive, exclusive: true };
  return { value: inclusive as number, exclusive: false };
}

/** 1 when the bounds allow it, else a value near a bound (or their midpoint), honouring `multipleOf`. */
function numberFor(schema: JsonObject, integer: boolean): number {
  const low = lowerBound(schema);
  const high = upperBound(schema);
  const step = numberOrUndefined(schema.multipleOf);
  const fits = (value: number) =>
    (!integer || Number.isInteger(value)) &&
    (low === null || (low.exclusive ? value > low.value : value >= low.value)) &&
    (high === null || (high.exclusive ? value < high.value : value <= high.value)) &&
    // As Ajv checks it: the quotient is an integer, exactly (0.3 is not a multiple of 0.1 there).
    (step === undefined || step <= 0 || Number.isInteger(value / step));
  const candidates = [1, 0];
  if (low !== null) candidates.push(Math.ceil(low.value), Math.floor(low.value) + 1, low.value);
  if (high !== null) candidates.push(Math.floor(high.value), Math.ceil(high.value) - 1, high.value);
  if (low !== null && high !== null) candidates.push((low.value + high.value) / 2);
  if (step !== undefined && step > 0) {
    // The smallest multiples above the lower bound (and below the upper), as whole multiples of the step.
    const first = Math.ceil((low?.value ?? 0) / step);
    for (let index = first; index <= first + 2; index++) candidates.push(index * step);
    if (high !== null) {
      const last = Math.floor(high.value / step);
      candidates.push(last * step, (last - 1) * step);
    }
    candidates.push(step);
  }
  return candidates.find(fits) ?? low?.value ?? high?.value ?? 1;
}

// ---------------------------------------------------------------------------------------------
// The ways to break them

function typeList(type: JsonValue | undefined): string[] {
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** A value whose JSON type `type` does not allow; undefined when `type` is absent or allows everything. */
function wrongTypeValue(type: JsonValue | undefined): JsonValue | undefined {
  const allowed = typeList(type);
  if (allowed.length === 0) return undefined;
  const candidates: Array<[string, JsonValue]> = [
    ['string', 'not-a-value-of-this-type'],
    ['integer', 42],
    ['boolean', true],
    ['object', {}],
    ['array', []],
    ['null', null],
  ];
  const accepts = (candidateType: string) => allowed.includes(candidateType) || (candidateType === 'integer' && allowed.includes('number'));
  return candidates.find(([candidateType]) => !accepts(candidateType))?.[1];
}

interface Violation {
  kind: string;
  title: string;
  value: JsonValue;
}

/** Values of the right type that break one `enum`, `const`, range, length or size keyword. */
function valueViolations(property: JsonObject): Violation[] {
  const violations: Violation[] = [];
  const integer = typeList(property.type).includes('integer') && !typeList(property.type).includes('number');
  if (Array.isArray(property.enum) && property.enum.length > 0) {
    const value = outsideOf(property.enum);
    if (value !== undefined) violations.push({ kind: 'enum', title: `is not one of its enum values`, value });
  }
  if ('const' in property) {
    const value = outsideOf([property.const]);
    if (value !== undefined) violations.push({ kind: 'const', title: `differs from its const value`, value });
  }
  const minimum = numberOrUndefined(property.minimum);
  if (minimum !== undefined) violations.push({ kind: 'minimum', title: `is below its minimum ${minimum}`, value: integer ? Math.ceil(minimum) - 1 : minimum - 1 });
  const exclusiveMinimum = numberOrUndefined(property.exclusiveMinimum);
  if (exclusiveMinimum !== undefined && (!integer || Number.isInteger(exclusiveMinimum))) {
    violations.push({ kind: 'exclusive-minimum', title: `equals its exclusive minimum ${exclusiveMinimum}`, value: exclusiveMinimum });
  }
  const maximum = numberOrUndefined(property.maximum);
  if (maximum !== undefined) violations.push({ kind: 'maximum', title: `is above its maximum ${maximum}`, value: integer ? Math.floor(maximum) + 1 : maximum + 1 });
  const exclusiveMaximum = numberOrUndefined(property.exclusiveMaximum);
  if (exclusiveMaximum !== undefined && (!integer || Number.isInteger(exclusiveMaximum))) {
    violations.push({ kind: 'exclusive-maximum', title: `equals its exclusive maximum ${exclusiveMaximum}`, value: exclusiveMaximum });
  }
  const minLength = numberOrUndefined(property.minLength);
  if (minLength !== undefined && minLength >= 1) violations.push({ kind: 'min-length', title: `is shorter than ${minLength} characters`, value: 'x'.repeat(minLength - 1) });
  const maxLength = numberOrUndefined(property.maxLength);
  if (maxLength !== undefined) violations.push({ kind: 'max-length', title: `is longer than ${maxLength} characters`, value: 'x'.repeat(maxLength + 1) });
  const minItems = numberOrUndefined(property.minItems);
  // An item of the right type would need a generator per item schema; an empty array breaks `minItems: 1` alone.
  if (minItems === 1) violations.push({ kind: 'min-items', title: 'is empty', value: [] });
  return violations;
}

/** A value of the same JSON type as `values[0]` that is not among `values`. */
function outsideOf(values: ReadonlyArray<JsonValue>): JsonValue | undefined {
  const sample = values[0];
  const taken = new Set(values.map((value) => JSON.stringify(value)));
  const candidates: JsonValue[] =
    typeof sample === 'string'
      ? [`${sample}_not_allowed`, 'not_allowed']
      : typeof sample === 'number'
        ? [Math.max(...values.filter((value): value is number => typeof value === 'number')) + 1]
        : typeof sample === 'boolean'
          ? [!sample]
          : [];
  return candidates.find((candidate) => !taken.has(JSON.stringify(candidate)));
}

/**
 * A name validation must reject as unknown, or null when the schema accepts extra keys:
 * `additionalProperties: true` or a schema (settled decision 2), or a matching `patternProperties`.
 */
function unknownArgumentName(schema: JsonSchema, properties: JsonObject): string | null {
  const closed = closedByDefault(schema);
  if (closed.additionalProperties !== false) return null;
  if ('unevaluatedProperties' in closed && closed.unevaluatedProperties !== false) return null;
  const patterns = isJsonObject(schema.patternProperties) ? Object.keys(schema.patternProperties).map(safeRegExp) : [];
  for (const name of ['conformance_unknown_argument', 'zz_unknown_argument_0']) {
    if (!(name in properties) && !patterns.some((pattern) => pattern === null || pattern.test(name))) return name;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The BLE shape when the manifest declares a `capture_selection` argument in that shape (settled decision 3). */
function selectionShapeOf(properties: JsonObject): SelectionShape {
  const declared = properties.capture_selection;
  if (!isJsonObject(declared)) return 'generic';
  const keys = [...(isJsonObject(declared.properties) ? Object.keys(declared.properties) : []), ...stringList(declared.required)];
  return keys.includes('capture_ids') || keys.includes('time_window') ? 'ble' : 'generic';
}

function selectionFor(shape: SelectionShape, captureId: string, startMs: number, endMs: number): JsonObject {
  const range = { start_ms: startMs, end_ms: endMs };
  return shape === 'ble' ? { capture_ids: [captureId], time_window: range } : { capture_id: captureId, selectors: { time_range: range } };
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

function numberOrUndefined(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
