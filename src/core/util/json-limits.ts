import { LIMITS } from './limits.ts';

/** One path segment from the root of a JSON value: an object key or an array index. */
export type JsonPathSegment = string | number;

/**
 * Which limit a value crossed. `not-json` is a value JSON cannot carry (bigint, function, NaN, a
 * property that throws when read); `cycle` a value that contains itself.
 */
export type JsonLimitKind = 'depth' | 'nodes' | 'keys' | 'not-json' | 'cycle';

/** The first limit a value crossed, where, and a sentence saying so. */
export interface JsonLimitViolation {
  kind: JsonLimitKind;
  /** Where it happened, from the root (the container that is one level too deep, the object with too many keys…). */
  path: JsonPathSegment[];
  message: string;
}

/** What a walk measured. */
export interface JsonMeasure {
  /** Deepest nesting of arrays and objects; a scalar is 0, `[]` and `{}` are 1. */
  depth: number;
  /** Every value counted once: scalars, arrays and objects. */
  nodes: number;
  /** UTF-8 bytes of `JSON.stringify(value)` (compact form). */
  bytes: number;
}

export interface JsonLimitOptions {
  maxDepth?: number;
  maxNodes?: number;
  maxObjectKeys?: number;
  /**
   * Read what JSON cannot carry — a value containing itself, NaN, a bigint, a function — as
   * `null` (as `toJsonValue` copies it) instead of reporting `cycle` / `not-json`.
   */
  lenient?: boolean;
}

export type JsonLimitCheck = { ok: true; measure: JsonMeasure } | { ok: false; violation: JsonLimitViolation };

interface Frame {
  key: JsonPathSegment | null;
  parent: Frame | null;
}

function pathOf(frame: Frame | null, last?: JsonPathSegment): JsonPathSegment[] {
  const path: JsonPathSegment[] = last === undefined ? [] : [last];
  for (let at = frame; at !== null && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** UTF-8 bytes of `JSON.stringify(text)`, quotes and escapes included, without building it. */
export function jsonStringByteLength(text: string): number {
  let bytes = 2;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) bytes += 2;
    else if (code < 0x20) bytes += 6;
    else if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index += 1;
      } else bytes += 6; // a lone surrogate: JSON.stringify writes \udXXX
    } else if (code >= 0xdc00 && code <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/**
 * Walks a value with an explicit stack — never recursion, so no nesting can overflow the call
 * stack — and checks it against the depth, node and key limits before anything recursive (ajv,
 * `JSON.stringify`, a deep copy) touches it. Stops at the first limit crossed. Also measures the
 * compact JSON size, so a payload check needs no `JSON.stringify` of unchecked input. A value that
 * contains itself is a `cycle` (or `null`, with `lenient`). Never throws.
 * Written by hand: no JSON library exposes a non-recursive depth/size walk over parsed values.
 */
export function checkJsonLimits(value: unknown, options: JsonLimitOptions = {}): JsonLimitCheck {
  try {
    return walk(value, options);
  } catch (error) {
    // A getter or proxy that throws: only reachable from JavaScript callers, never from parsed JSON.
    return { ok: false, violation: { kind: 'not-json', path: [], message: `could not be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` } };
  }
}

type StackItem = { value: unknown; level: number; frame: Frame | null; key: JsonPathSegment | null } | { exit: object };

function walk(value: unknown, options: JsonLimitOptions): JsonLimitCheck {
  const maxDepth = options.maxDepth ?? LIMITS.maxJsonDepth;
  const maxNodes = options.maxNodes ?? LIMITS.maxJsonNodes;
  const maxKeys = options.maxObjectKeys ?? LIMITS.maxObjectKeys;
  let depth = 0;
  let nodes = 0;
  let bytes = 0;
  // The containers on the path from the root to the current value, to tell a cycle from depth.
  const ancestors = new Set<object>();
  // Each entry: a value still to visit, its depth (0 for the root) and the frame of its container;
  // or the marker that a container's members are all visited.
  const stack: StackItem[] = [{ value, level: 0, frame: null, key: null }];
  const fail = (kind: JsonLimitKind, path: JsonPathSegment[], message: string): JsonLimitCheck => ({ ok: false, violation: { kind, path, message } });
  while (stack.length > 0) {
    const item = stack.pop() as StackItem;
    if ('exit' in item) {
      ancestors.delete(item.exit);
      continue;
    }
    nodes += 1;
    if (nodes > maxNodes) return fail('nodes', pathOf(item.frame, item.key ?? undefined), `holds more than ${maxNodes} values`);
    const current = item.value;
    switch (typeof current) {
      case 'string':
        bytes += jsonStringByteLength(current);
        continue;
      case 'boolean':
        bytes += current ? 4 : 5;
        continue;
      case 'number':
        if (!Number.isFinite(current) && options.lenient) {
          bytes += 4;
          continue;
        }
        if (!Number.isFinite(current)) return fail('not-json', pathOf(item.frame, item.key ?? undefined), `is ${String(current)}, which JSON cannot carry`);
        bytes += String(current).length;
        continue;
      case 'undefined':
        // Only reachable as an array item or the root (object members that are undefined are skipped, as JSON.stringify does).
        bytes += 4;
        continue;
      case 'object':
        break;
      default:
        if (options.lenient) {
          bytes += 4;
          continue;
        }
        return fail('not-json', pathOf(item.frame, item.key ?? undefined), `is a ${typeof current}, which JSON cannot carry`);
    }
    if (current === null) {
      bytes += 4;
      continue;
    }
    if (ancestors.has(current)) {
      if (!options.lenient) return fail('cycle', pathOf(item.frame, item.key ?? undefined), 'contains itself, which JSON cannot carry');
      bytes += 4;
      continue;
    }
    const level = item.level + 1;
    const frame: Frame = { key: item.key, parent: item.frame };
    if (level > maxDepth) return fail('depth', pathOf(frame), `is nested more than ${maxDepth} levels deep`);
    if (level > depth) depth = level;
    ancestors.add(current);
    stack.push({ exit: current });
    if (Array.isArray(current)) {
      bytes += 2 + Math.max(0, current.length - 1);
      if (current.length > maxNodes) return fail('nodes', pathOf(frame), `holds more than ${maxNodes} values`);
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], level, frame, key: index });
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > maxKeys) return fail('keys', pathOf(frame), `has ${keys.length} keys; at most ${maxKeys} are accepted`);
    let members = 0;
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const member = (current as Record<string, unknown>)[keys[index]];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      members += 1;
      bytes += jsonStringByteLength(keys[index]) + 1;
      stack.push({ value: member, level, frame, key: keys[index] });
    }
    bytes += 2 + Math.max(0, members - 1);
  }
  return { ok: true, measure: { depth, nodes, bytes } };
}

/** A path as a short readable location: `$.arguments.alpha[0][0]`. */
export function describeJsonPath(path: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  return out;
}

/** Strips one leading UTF-8 byte order mark (U+FEFF) from decoded text: editors on Windows write one. */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
