import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';

/**
 * Sets an own data property. Plain assignment would run the `__proto__` setter for a key named
 * `__proto__` (a legal JSON key that `JSON.parse` keeps as an own property).
 */
export function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The own value of `key`, never an inherited one (`constructor`, `toString`…). */
export function own(target: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** `own(target, key)` when it is a JSON object. */
export function ownObject(target: JsonObject, key: string): JsonObject | undefined {
  const value = own(target, key);
  return isJsonObject(value) ? value : undefined;
}

/**
 * A JSON copy of any value, with `JSON.stringify`'s rules but no throw: non-finite numbers become
 * null, `undefined`/functions/symbols are dropped from objects (null in arrays), bigints become
 * strings, cycles become null. `undefined` when the value itself has no JSON form.
 */
export function toJsonValue(value: unknown): JsonValue | undefined {
  return copy(value, new Set());
}

function copy(value: unknown, ancestors: Set<object>): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return String(value);
    case 'object': {
      if (value === null) return null;
      if (ancestors.has(value)) return null;
      ancestors.add(value);
      try {
        if (Array.isArray(value)) return value.map((item) => copy(item, ancestors) ?? null);
        const out: JsonObject = {};
        for (const key of Object.keys(value)) {
          const item = copy((value as Record<string, unknown>)[key], ancestors);
          if (item !== undefined) setOwn(out, key, item);
        }
        return out;
      } finally {
        ancestors.delete(value);
      }
    }
    default:
      return undefined;
  }
}

/** A deep copy of a JSON object (emitters hand out copies, never the tool's own schemas). */
export function cloneObject(value: JsonObject): JsonObject {
  return copy(value, new Set()) as JsonObject;
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** The JSON type of a value, for messages: `object`, `array`, `string`, `number`, `boolean`, `null`. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
