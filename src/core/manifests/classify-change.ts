import type { ToolManifest } from '../contract/types.ts';
import { jsonEqual, toJsonValue } from '../toolcanon/json-value.ts';
import { compareSemVer, formatSemVer, parseSemVer, type SemVer } from '../tools/semver.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import { formatJsonPath, type JsonPathSegments } from './json-path.ts';

/** How much a change needs of a version (tool-contract.md §7): nothing, a patch, a minor or a major bump. */
export type ChangeKind = 'none' | 'patch' | 'minor' | 'major';

/** One classified difference. `path` is the JSONPath of the changed value in the new manifest (or the old one, for a removal). */
export interface ChangeReason {
  kind: Exclude<ChangeKind, 'none'>;
  path: string;
  message: string;
}

/** The bump from the old version to the new: a `ChangeKind`, a `downgrade`, or `invalid` when either is not `major.minor.patch`. */
export type VersionBump = ChangeKind | 'downgrade' | 'invalid';

/** What `classifyChange` says about publishing `next` after `old`. */
export interface ChangeClassification {
  /** The largest kind among the reasons; `none` when the manifests are the same. */
  kind: ChangeKind;
  /** Every difference found, in manifest order. */
  reasons: ChangeReason[];
  /** The smallest bump the change allows (the same as `kind`). */
  requiredBump: ChangeKind;
  /** The bump `old.version` → `next.version` actually makes. */
  actualBump: VersionBump;
  /** True when the actual bump is at least the required one (and not a downgrade). */
  versionOk: boolean;
  /** The smallest version `next` may have: `old.version` bumped by `requiredBump`; null when `old.version` is invalid. */
  suggestedVersion: string | null;
  /** One paragraph for people: the verdict and, when refused, which changes force which bump. */
  message: string;
}

const RANK: Record<ChangeKind, number> = { none: 0, patch: 1, minor: 2, major: 3 };

type Direction = 'input' | 'output';
type Kind = Exclude<ChangeKind, 'none'>;

interface DiffContext {
  direction: Direction;
  reasons: ChangeReason[];
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** Validation keywords compared as a whole: any change may reject valid payloads, and proving otherwise is out of reach. */
const OPAQUE_KEYWORDS = [
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  '$dynamicRef',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
];
/** Keywords with their own rules below. */
const HANDLED_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'allOf',
  '$defs',
  'definitions',
  'multipleOf',
  'pattern',
  'format',
  'uniqueItems',
  'deprecated',
  'default',
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...OPAQUE_KEYWORDS,
]);
const ANNOTATIONS = ['title', 'description', 'examples', '$comment', 'readOnly', 'writeOnly'];

function own(target: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

function show(value: JsonValue | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Who reads a location: "argument address_columns.advertiser_addr", "output field coefficients", "the arguments". */
function describe(segments: JsonPathSegments, direction: Direction): string {
  const parts: string[] = [];
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index];
    const following = segments[index + 1];
    if (segment === 'properties' && following !== undefined) {
      parts.push(String(following));
      index++;
    } else if (segment === 'items') {
      parts.push('[]');
    } else if (segment === 'prefixItems' && typeof following === 'number') {
      parts.push(`[${following}]`);
      index++;
    } else if (segment === 'additionalProperties') {
      parts.push('{*}');
    } else if ((segment === '$defs' || segment === 'definitions') && following !== undefined) {
      parts.push(`#${String(following)}`);
      index++;
    }
    // Applicators (allOf[1], then…) describe the same value as their parent.
  }
  const name = parts.join('.').replace(/\.\[/g, '[').replace(/\.\{/g, '{');
  if (name === '') return direction === 'input' ? 'the arguments' : 'the output';
  return direction === 'input' ? `argument ${name}` : `output field ${name}`;
}

function add(context: DiffContext, kind: Kind, segments: JsonPathSegments, message: string): void {
  context.reasons.push({ kind, path: formatJsonPath(segments), message });
}

/**
 * A constraint got stricter: arguments that were valid may be rejected (input: major); outputs
 * only get narrower, which clients already handle (output: patch).
 */
function stricter(context: DiffContext, segments: JsonPathSegments, what: string): void {
  const subject = describe(segments.slice(0, -1), context.direction);
  if (context.direction === 'input') add(context, 'major', segments, `${subject}: ${what} (stricter: arguments that were valid may now be rejected)`);
  else add(context, 'patch', segments, `${subject}: ${what} (the output only gets narrower)`);
}

/**
 * A constraint got looser: more arguments are accepted (input: `inputKind`, a patch for a relaxed
 * value constraint); outputs may hold values clients have not seen (output: minor).
 */
function looser(context: DiffContext, segments: JsonPathSegments, what: string, inputKind: Kind = 'patch'): void {
  const subject = describe(segments.slice(0, -1), context.direction);
  if (context.direction === 'input') add(context, inputKind, segments, `${subject}: ${what} (more arguments are accepted)`);
  else add(context, 'minor', segments, `${subject}: ${what} (clients may see values they have not seen before)`);
}

function opaque(context: DiffContext, segments: JsonPathSegments, keyword: string): void {
  const subject = describe(segments.slice(0, -1), context.direction);
  add(context, 'major', segments, `${subject}: "${keyword}" changed; Sextant cannot prove the change backward-compatible, so it counts as breaking`);
}

function typeSet(value: JsonValue | undefined): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...new Set(value as string[])].sort();
  return null;
}

function asSchema(value: JsonValue | undefined): JsonObject | undefined {
  if (value === true) return {};
  if (value === false) return { not: {} };
  return isJsonObject(value) ? value : undefined;
}

function withoutAnnotations(value: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !ANNOTATIONS.includes(key) && key !== 'default')) as JsonObject;
}

type Openness = 0 | 1 | 2;
const OPENNESS_NAME = ['closed (additionalProperties false)', 'restricted by an additionalProperties schema', 'open (additionalProperties true)'];

function openness(schema: JsonObject, atInputRoot: boolean): Openness {
  const value = own(schema, 'additionalProperties');
  if (value === false) return 0;
  if (value === true) return 2;
  if (isJsonObject(value)) return 1;
  // Settled decision 2: unknown arguments are rejected unless the schema says otherwise.
  return atInputRoot ? 0 : 2;
}

function stringList(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function diffProperties(old: JsonObject, next: JsonObject, segments: JsonPathSegments, context: DiffContext, depth: number): void {
  const oldProperties = isJsonObject(own(old, 'properties')) ? (own(old, 'properties') as JsonObject) : {};
  const nextProperties = isJsonObject(own(next, 'properties')) ? (own(next, 'properties') as JsonObject) : {};
  const oldRequired = new Set(stringList(own(old, 'required')));
  const nextRequired = new Set(stringList(own(next, 'required')));
  const input = context.direction === 'input';
  const subject = describe(segments, context.direction);
  const prefix = subject.startsWith('the ') ? '' : `${subject}: `;
  const propertyPath = (name: string) => [...segments, 'properties', name];

  const removed = Object.keys(oldProperties).filter((name) => !Object.hasOwn(nextProperties, name));
  const added = new Set(Object.keys(nextProperties).filter((name) => !Object.hasOwn(oldProperties, name)));
  for (const name of removed) {
    const renamedTo = [...added].find((candidate) => jsonEqual(withoutAnnotations(oldProperties[name]), withoutAnnotations(nextProperties[candidate])));
    if (renamedTo !== undefined) {
      added.delete(renamedTo);
      add(
        context,
        'major',
        propertyPath(renamedTo),
        input
          ? `${prefix}property "${name}" was renamed to "${renamedTo}": callers that send "${name}" are rejected`
          : `${prefix}output property "${name}" was renamed to "${renamedTo}": clients reading "${name}" break`,
      );
    } else {
      add(
        context,
        'major',
        propertyPath(name),
        input ? `${prefix}property "${name}" was removed: callers that send it are rejected` : `${prefix}output property "${name}" was removed: clients reading it break`,
      );
    }
  }
  for (const name of added) {
    if (!input) add(context, 'minor', propertyPath(name), `${prefix}new output property "${name}" (old clients ignore it)`);
    else if (nextRequired.has(name)) add(context, 'major', propertyPath(name), `${prefix}new required property "${name}": existing calls lack it`);
    else add(context, 'minor', propertyPath(name), `${prefix}new optional property "${name}"`);
  }
  for (const name of Object.keys(nextProperties)) {
    if (!Object.hasOwn(oldProperties, name)) continue;
    diffSchema(oldProperties[name], nextProperties[name], propertyPath(name), context, depth + 1, false);
    const wasRequired = oldRequired.has(name);
    const isRequired = nextRequired.has(name);
    if (!wasRequired && isRequired) {
      add(context, input ? 'major' : 'minor', [...segments, 'required'], input ? `${prefix}"${name}" is now required: existing calls may lack it` : `${prefix}output property "${name}" is now always present`);
    } else if (wasRequired && !isRequired) {
      add(context, input ? 'minor' : 'major', [...segments, 'required'], input ? `${prefix}"${name}" is now optional` : `${prefix}output property "${name}" is no longer guaranteed: clients relying on it break`);
    }
  }
  // Required names without a property of their own (declared by a parent or left open).
  for (const name of nextRequired) {
    if (oldRequired.has(name) || Object.hasOwn(oldProperties, name) || Object.hasOwn(nextProperties, name)) continue;
    add(context, input ? 'major' : 'minor', [...segments, 'required'], input ? `${prefix}"${name}" is now required: existing calls may lack it` : `${prefix}"${name}" is now always present`);
  }
  for (const name of oldRequired) {
    if (nextRequired.has(name) || Object.hasOwn(oldProperties, name) || Object.hasOwn(nextProperties, name)) continue;
    add(context, input ? 'minor' : 'major', [...segments, 'required'], input ? `${prefix}"${name}" is no longer required` : `${prefix}"${name}" is no longer guaranteed: clients relying on it break`);
  }
}

function diffSchemaList(oldList: JsonValue[], nextList: JsonValue[], segments: JsonPathSegments, context: DiffContext, depth: number): void {
  const common = Math.min(oldList.length, nextList.length);
  for (let index = 0; index < common; index++) diffSchema(oldList[index], nextList[index], [...segments, index], context, depth + 1, false);
}

/** Compares two schemas of the same location and records every classified difference. */
function diffSchema(oldValue: JsonValue | undefined, nextValue: JsonValue | undefined, segments: JsonPathSegments, context: DiffContext, depth: number, atInputRoot: boolean): void {
  if (jsonEqual(oldValue, nextValue)) return;
  const old = asSchema(oldValue);
  const next = asSchema(nextValue);
  if (!old || !next || depth > 64) {
    add(context, 'major', segments, `${describe(segments, context.direction)}: the schema changed in a way Sextant cannot analyse, so it counts as breaking`);
    return;
  }
  const at = (keyword: string) => [...segments, keyword];

  // type
  const oldType = typeSet(own(old, 'type'));
  const nextType = typeSet(own(next, 'type'));
  if (!jsonEqual(own(old, 'type'), own(next, 'type'))) {
    if (oldType && nextType) {
      if (!jsonEqual(oldType, nextType)) {
        add(context, 'major', at('type'), `${describe(segments, context.direction)}: type changed from ${oldType.join('|')} to ${nextType.join('|')}`);
      }
    } else if (!oldType && nextType) {
      if (context.direction === 'input') add(context, 'major', at('type'), `${describe(segments, context.direction)}: type ${nextType.join('|')} is now enforced (stricter: arguments that were valid may now be rejected)`);
      else add(context, 'patch', at('type'), `${describe(segments, context.direction)}: now declares type ${nextType.join('|')}`);
    } else if (oldType && !nextType) {
      if (context.direction === 'input') add(context, 'minor', at('type'), `${describe(segments, context.direction)}: type ${oldType.join('|')} is no longer enforced (more arguments are accepted)`);
      else add(context, 'major', at('type'), `${describe(segments, context.direction)}: type ${oldType.join('|')} is no longer guaranteed: clients relying on it break`);
    } else {
      opaque(context, at('type'), 'type');
    }
  }

  // enum and const
  const oldEnum = own(old, 'enum');
  const nextEnum = own(next, 'enum');
  if (!jsonEqual(oldEnum, nextEnum)) {
    if (Array.isArray(oldEnum) && Array.isArray(nextEnum)) {
      const removed = oldEnum.filter((value) => !nextEnum.some((other) => jsonEqual(value, other)));
      const added = nextEnum.filter((value) => !oldEnum.some((other) => jsonEqual(value, other)));
      if (removed.length > 0) stricter(context, at('enum'), `enum value${removed.length > 1 ? 's' : ''} ${removed.map(show).join(', ')} removed`);
      if (added.length > 0) {
        add(context, 'minor', at('enum'), `${describe(segments, context.direction)}: enum value${added.length > 1 ? 's' : ''} ${added.map(show).join(', ')} added`);
      }
    } else if (nextEnum === undefined) {
      looser(context, at('enum'), 'no longer restricted to an enum', 'minor');
    } else if (oldEnum === undefined) {
      stricter(context, at('enum'), `now restricted to ${show(nextEnum)}`);
    } else {
      opaque(context, at('enum'), 'enum');
    }
  }
  const oldConst = own(old, 'const');
  const nextConst = own(next, 'const');
  if (!jsonEqual(oldConst, nextConst)) {
    if (oldConst !== undefined && nextConst !== undefined) add(context, 'major', at('const'), `${describe(segments, context.direction)}: const changed from ${show(oldConst)} to ${show(nextConst)}`);
    else if (nextConst !== undefined) stricter(context, at('const'), `now fixed to ${show(nextConst)}`);
    else looser(context, at('const'), `no longer fixed to ${show(oldConst)}`, 'minor');
  }

  // numeric and size bounds
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const before = own(old, keyword);
    const after = own(next, keyword);
    if (jsonEqual(before, after)) continue;
    const lower = LOWER_BOUNDS.includes(keyword);
    if ((before !== undefined && typeof before !== 'number') || (after !== undefined && typeof after !== 'number')) {
      opaque(context, at(keyword), keyword);
    } else if (before === undefined) {
      stricter(context, at(keyword), `${keyword} ${show(after)} added`);
    } else if (after === undefined) {
      looser(context, at(keyword), `${keyword} ${show(before)} removed`);
    } else if (lower ? (after as number) > before : (after as number) < before) {
      stricter(context, at(keyword), `${keyword} ${lower ? 'raised' : 'lowered'} from ${before} to ${show(after)}`);
    } else {
      looser(context, at(keyword), `${keyword} ${lower ? 'lowered' : 'raised'} from ${before} to ${show(after)}`);
    }
  }
  const oldMultiple = own(old, 'multipleOf');
  const nextMultiple = own(next, 'multipleOf');
  if (!jsonEqual(oldMultiple, nextMultiple)) {
    if (nextMultiple === undefined) looser(context, at('multipleOf'), `multipleOf ${show(oldMultiple)} removed`);
    else if (typeof oldMultiple === 'number' && typeof nextMultiple === 'number' && Number.isInteger(oldMultiple / nextMultiple)) {
      looser(context, at('multipleOf'), `multipleOf changed from ${oldMultiple} to ${nextMultiple}, a divisor`);
    } else stricter(context, at('multipleOf'), `multipleOf ${oldMultiple === undefined ? `${show(nextMultiple)} added` : `changed from ${show(oldMultiple)} to ${show(nextMultiple)}`}`);
  }
  for (const keyword of ['pattern', 'format']) {
    const before = own(old, keyword);
    const after = own(next, keyword);
    if (jsonEqual(before, after)) continue;
    if (after === undefined) looser(context, at(keyword), `${keyword} ${show(before)} removed`);
    else stricter(context, at(keyword), before === undefined ? `${keyword} ${show(after)} added` : `${keyword} changed from ${show(before)} to ${show(after)}`);
  }
  if ((own(old, 'uniqueItems') === true) !== (own(next, 'uniqueItems') === true)) {
    if (own(next, 'uniqueItems') === true) stricter(context, at('uniqueItems'), 'items must now be unique');
    else looser(context, at('uniqueItems'), 'items no longer need to be unique');
  }

  // objects
  diffProperties(old, next, segments, context, depth);
  const oldOpen = openness(old, atInputRoot);
  const nextOpen = openness(next, atInputRoot);
  if (nextOpen < oldOpen) stricter(context, at('additionalProperties'), `now ${OPENNESS_NAME[nextOpen]}, was ${OPENNESS_NAME[oldOpen]}`);
  else if (nextOpen > oldOpen) looser(context, at('additionalProperties'), `now ${OPENNESS_NAME[nextOpen]}, was ${OPENNESS_NAME[oldOpen]}`, 'minor');
  else if (oldOpen === 1) diffSchema(own(old, 'additionalProperties'), own(next, 'additionalProperties'), at('additionalProperties'), context, depth + 1, false);

  // arrays
  for (const keyword of ['items', 'prefixItems']) {
    const before = own(old, keyword);
    const after = own(next, keyword);
    if (jsonEqual(before, after)) continue;
    if (before === undefined) stricter(context, at(keyword), `${keyword} schema added`);
    else if (after === undefined) looser(context, at(keyword), `${keyword} schema removed`);
    else if (Array.isArray(before) && Array.isArray(after)) {
      diffSchemaList(before, after, at(keyword), context, depth);
      if (before.length !== after.length) opaque(context, at(keyword), `${keyword} length`);
    } else if (!Array.isArray(before) && !Array.isArray(after)) diffSchema(before, after, at(keyword), context, depth + 1, false);
    else opaque(context, at(keyword), keyword);
  }

  // composition and definitions
  const oldAll = own(old, 'allOf');
  const nextAll = own(next, 'allOf');
  if (!jsonEqual(oldAll, nextAll)) {
    const before = Array.isArray(oldAll) ? oldAll : [];
    const after = Array.isArray(nextAll) ? nextAll : [];
    diffSchemaList(before, after, at('allOf'), context, depth);
    for (let index = before.length; index < after.length; index++) stricter(context, [...at('allOf'), index], 'an allOf constraint was added');
    for (let index = after.length; index < before.length; index++) looser(context, [...at('allOf'), index], 'an allOf constraint was removed');
  }
  for (const keyword of ['$defs', 'definitions']) {
    const before = own(old, keyword);
    const after = own(next, keyword);
    if (!isJsonObject(before) || !isJsonObject(after)) {
      if (!jsonEqual(before, after) && before !== undefined && after !== undefined) opaque(context, at(keyword), keyword);
      continue;
    }
    for (const name of Object.keys(after)) if (Object.hasOwn(before, name)) diffSchema(before[name], after[name], [...at(keyword), name], context, depth + 1, false);
  }
  for (const keyword of OPAQUE_KEYWORDS) if (!jsonEqual(own(old, keyword), own(next, keyword))) opaque(context, at(keyword), keyword);

  // annotations: wording
  const oldDeprecated = own(old, 'deprecated') === true;
  const nextDeprecated = own(next, 'deprecated') === true;
  if (!oldDeprecated && nextDeprecated) add(context, 'minor', at('deprecated'), `${describe(segments, context.direction)} is now deprecated (announced in a minor release before its removal in a major one)`);
  else if (oldDeprecated && !nextDeprecated) add(context, 'patch', at('deprecated'), `${describe(segments, context.direction)} is no longer deprecated`);
  if (!jsonEqual(own(old, 'default'), own(next, 'default'))) {
    add(context, 'patch', at('default'), `${describe(segments, context.direction)}: default changed from ${show(own(old, 'default'))} to ${show(own(next, 'default'))}`);
  }
  const wording = [...new Set([...Object.keys(old), ...Object.keys(next)])].filter((key) => !HANDLED_KEYWORDS.has(key) && !jsonEqual(own(old, key), own(next, key)));
  if (wording.length > 0) {
    add(
      context,
      'patch',
      wording.length === 1 ? at(wording[0]) : segments,
      `${describe(segments, context.direction)}: ${wording.join(', ')} changed (wording and annotations only)`,
    );
  }
}

function compareCapabilities(old: JsonObject, next: JsonObject, reasons: ChangeReason[]): void {
  const before = stringList(own(old, 'capabilities'));
  const after = stringList(own(next, 'capabilities'));
  for (const capability of after) {
    if (!before.includes(capability)) reasons.push({ kind: 'minor', path: formatJsonPath(['capabilities', after.indexOf(capability)]), message: `capability "${capability}" added` });
  }
  for (const capability of before) {
    if (!after.includes(capability)) reasons.push({ kind: 'major', path: '$.capabilities', message: `capability "${capability}" removed: planners that chose the tool for it break` });
  }
}

const SIDE_EFFECT_RANK: Record<string, number> = { none: 0, read_only: 1, external_write: 2 };

function compareConstraints(old: JsonObject, next: JsonObject, reasons: ChangeReason[]): void {
  const before = isJsonObject(own(old, 'execution_constraints')) ? (own(old, 'execution_constraints') as JsonObject) : {};
  const after = isJsonObject(own(next, 'execution_constraints')) ? (own(next, 'execution_constraints') as JsonObject) : {};
  const path = (key: string) => formatJsonPath(['execution_constraints', key]);
  for (const [key, unit, consequence] of [
    ['max_timeout_ms', 'ms', 'runs that used to finish may now time out'],
    ['max_payload_bytes', 'bytes', 'invocations that were accepted may now fail with PAYLOAD_TOO_LARGE'],
  ] as const) {
    const was = own(before, key);
    const is = own(after, key);
    if (jsonEqual(was, is)) continue;
    if (typeof was === 'number' && typeof is === 'number' && is > was) reasons.push({ kind: 'patch', path: path(key), message: `${key} raised from ${was} to ${is} ${unit}` });
    else reasons.push({ kind: 'major', path: path(key), message: `${key} changed from ${show(was)} to ${show(is)}${typeof was === 'number' && typeof is === 'number' ? ` ${unit}` : ''}: ${consequence}` });
  }
  const streamingBefore = own(before, 'supports_streaming');
  const streamingAfter = own(after, 'supports_streaming');
  if (!jsonEqual(streamingBefore, streamingAfter)) {
    if (streamingAfter === true) reasons.push({ kind: 'minor', path: path('supports_streaming'), message: 'streaming is now supported' });
    else reasons.push({ kind: 'major', path: path('supports_streaming'), message: 'streaming is no longer supported: streaming clients break' });
  }
  // Tools that read no capture (issue 24): either way round, invocations that were valid are refused.
  const ruleBefore = own(before, 'capture_selection') ?? 'required';
  const ruleAfter = own(after, 'capture_selection') ?? 'required';
  if (!jsonEqual(ruleBefore, ruleAfter)) {
    const consequence = ruleAfter === 'none' ? 'invocations that carry a selection are refused' : 'invocations without a selection are refused';
    reasons.push({ kind: 'major', path: path('capture_selection'), message: `capture_selection changed from ${show(ruleBefore)} to ${show(ruleAfter)}: ${consequence}` });
  }
  const effectsBefore = own(before, 'side_effects');
  const effectsAfter = own(after, 'side_effects');
  if (!jsonEqual(effectsBefore, effectsAfter)) {
    const was = typeof effectsBefore === 'string' ? SIDE_EFFECT_RANK[effectsBefore] : undefined;
    const is = typeof effectsAfter === 'string' ? SIDE_EFFECT_RANK[effectsAfter] : undefined;
    if (was !== undefined && is !== undefined && is < was) {
      reasons.push({ kind: 'patch', path: path('side_effects'), message: `side_effects reduced from ${show(effectsBefore)} to ${show(effectsAfter)}` });
    } else {
      reasons.push({
        kind: 'major',
        path: path('side_effects'),
        message: `side_effects changed from ${show(effectsBefore)} to ${show(effectsAfter)}: callers that relied on the tool doing less break`,
      });
    }
  }
}

function bumpOf(old: SemVer | null, next: SemVer | null): VersionBump {
  if (!old || !next) return 'invalid';
  const order = compareSemVer(next, old);
  if (order < 0) return 'downgrade';
  if (next.major !== old.major) return 'major';
  if (next.minor !== old.minor) return 'minor';
  if (next.patch !== old.patch) return 'patch';
  return 'none';
}

function bump(version: SemVer, kind: ChangeKind): string {
  switch (kind) {
    case 'major':
      return formatSemVer({ major: version.major + 1, minor: 0, patch: 0 });
    case 'minor':
      return formatSemVer({ major: version.major, minor: version.minor + 1, patch: 0 });
    case 'patch':
      return formatSemVer({ ...version, patch: version.patch + 1 });
    default:
      return formatSemVer(version);
  }
}

const KIND_WORD: Record<ChangeKind, string> = { none: 'no', patch: 'a patch', minor: 'a minor', major: 'a major' };

/**
 * Classifies the change from `old` to `next` by tool-contract.md §7 and checks the version bump.
 *
 * Breaking (major): a removed or renamed property, a type change (widening included: settled
 * decision 7 counts any retyped field), a new required argument or an argument made required, a
 * stricter input constraint (enum values removed, const added or changed, minimum/minLength/
 * minItems raised or added, maximum/maxLength/maxItems lowered or added, pattern/format/multipleOf
 * added or changed, uniqueItems, additionalProperties closed — an absent one at the input root
 * counts as false, settled decision 2 — an allOf branch added, any change to anyOf/oneOf/not/
 * if/then/else/$ref and other keywords whose effect cannot be proven); for outputs, a removed or
 * retyped field or one no longer guaranteed; a removed capability; a lower `max_timeout_ms` or
 * `max_payload_bytes`; streaming dropped; more side effects; `deterministic` dropped; a new name.
 * Minor: a new optional argument, a new output field, enum values added, an argument made
 * optional, an input enum or type restriction removed, additionalProperties opened, a capability
 * or streaming added, a deprecation. Patch: wording and annotations (description, title,
 * examples, default), relaxed value constraints on inputs, tightened constraints on outputs,
 * higher limits, fewer side effects, cost hints.
 * Never throws; fields missing from either manifest compare as absent.
 */
export function classifyChange(old: ToolManifest, next: ToolManifest): ChangeClassification {
  const before = toJsonValue(old);
  const after = toJsonValue(next);
  const oldManifest: JsonObject = isJsonObject(before) ? before : {};
  const nextManifest: JsonObject = isJsonObject(after) ? after : {};
  const reasons: ChangeReason[] = [];

  if (!jsonEqual(own(oldManifest, 'name'), own(nextManifest, 'name'))) {
    reasons.push({ kind: 'major', path: '$.name', message: `name changed from ${show(own(oldManifest, 'name'))} to ${show(own(nextManifest, 'name'))}: callers address the tool by name` });
  }
  if (!jsonEqual(own(oldManifest, 'description'), own(nextManifest, 'description'))) {
    reasons.push({ kind: 'patch', path: '$.description', message: 'description changed (wording)' });
  }
  compareCapabilities(oldManifest, nextManifest, reasons);
  const inputContext: DiffContext = { direction: 'input', reasons };
  diffSchema(own(oldManifest, 'input_schema') ?? {}, own(nextManifest, 'input_schema') ?? {}, ['input_schema'], inputContext, 0, true);
  const outputContext: DiffContext = { direction: 'output', reasons };
  diffSchema(own(oldManifest, 'output_schema') ?? {}, own(nextManifest, 'output_schema') ?? {}, ['output_schema'], outputContext, 0, false);
  compareConstraints(oldManifest, nextManifest, reasons);
  if (!jsonEqual(own(oldManifest, 'cost_hint'), own(nextManifest, 'cost_hint'))) {
    reasons.push({ kind: 'patch', path: '$.cost_hint', message: `cost hint changed from ${show(own(oldManifest, 'cost_hint'))} to ${show(own(nextManifest, 'cost_hint'))}` });
  }
  const wasDeterministic = own(oldManifest, 'deterministic');
  const isDeterministic = own(nextManifest, 'deterministic');
  if (!jsonEqual(wasDeterministic, isDeterministic)) {
    if (wasDeterministic === true) reasons.push({ kind: 'major', path: '$.deterministic', message: 'the tool is no longer deterministic: callers that cache or compare results break' });
    else reasons.push({ kind: 'patch', path: '$.deterministic', message: `deterministic changed from ${show(wasDeterministic)} to ${show(isDeterministic)}` });
  }

  const kind = reasons.reduce<ChangeKind>((largest, reason) => (RANK[reason.kind] > RANK[largest] ? reason.kind : largest), 'none');
  const oldText = typeof own(oldManifest, 'version') === 'string' ? (own(oldManifest, 'version') as string) : show(own(oldManifest, 'version'));
  const nextText = typeof own(nextManifest, 'version') === 'string' ? (own(nextManifest, 'version') as string) : show(own(nextManifest, 'version'));
  const oldVersion = parseSemVer(oldText);
  const nextVersion = parseSemVer(nextText);
  const actualBump = bumpOf(oldVersion, nextVersion);
  const versionOk = actualBump !== 'invalid' && actualBump !== 'downgrade' && RANK[actualBump] >= RANK[kind];
  const suggestedVersion = oldVersion ? bump(oldVersion, kind) : null;
  const forcing = reasons.filter((reason) => reason.kind === kind);
  const listed = forcing.map((reason) => reason.message).join('; ');
  const count = `${reasons.length} difference${reasons.length === 1 ? '' : 's'}`;

  let message: string;
  if (actualBump === 'invalid') {
    const bad = oldVersion ? `"${nextText}"` : `"${oldText}"`;
    message = `Refused: version ${bad} is not major.minor.patch.${kind === 'none' ? '' : ` The change needs ${KIND_WORD[kind]} bump${suggestedVersion ? ` (${suggestedVersion})` : ''}: ${listed}.`}`;
  } else if (actualBump === 'downgrade') {
    message = `Refused: ${oldText} → ${nextText} lowers the version.${kind === 'none' ? '' : ` The change needs ${KIND_WORD[kind]} bump: publish it as ${suggestedVersion}.`}`;
  } else if (kind === 'none') {
    message = actualBump === 'none' ? `No change: ${oldText} and ${nextText} are the same manifest.` : `No contract change; ${oldText} → ${nextText} is fine.`;
  } else if (versionOk) {
    message = `${kind[0].toUpperCase()}${kind.slice(1)} change (${count}): ${oldText} → ${nextText} is ${KIND_WORD[actualBump]} bump, which is enough.`;
  } else if (actualBump === 'none') {
    message = `Refused: the manifest changed but its version stayed ${nextText}. ${kind === 'major' ? 'Breaking changes' : `${kind[0].toUpperCase()}${kind.slice(1)} changes`}: ${listed}. Publish it as ${suggestedVersion} (or higher).`;
  } else {
    message =
      kind === 'major'
        ? `Refused: the change is breaking, but ${oldText} → ${nextText} is only ${KIND_WORD[actualBump]} bump. Breaking changes: ${listed}. Publish it as ${suggestedVersion}.`
        : `Refused: the change needs ${KIND_WORD[kind]} bump, but ${oldText} → ${nextText} is ${KIND_WORD[actualBump]} bump. ${kind[0].toUpperCase()}${kind.slice(1)} changes: ${listed}. Publish it as ${suggestedVersion} (or higher).`;
  }
  return { kind, reasons, requiredBump: kind, actualBump, versionOk, suggestedVersion, message };
}
