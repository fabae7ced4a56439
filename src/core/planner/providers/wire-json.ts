// Small readers for untrusted provider JSON: each returns undefined instead of throwing when a
// field is missing or has the wrong type, so the wire parsers can stay flat.
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';

export function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

export function objectField(value: JsonValue | undefined, key: string): JsonObject | undefined {
  const found = field(value, key);
  return isJsonObject(found) ? found : undefined;
}

export function stringField(value: JsonValue | undefined, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === 'string' ? found : undefined;
}

/** A finite, non-negative number (token counts), or undefined. */
export function countField(value: JsonValue | undefined, key: string): number | undefined {
  const found = field(value, key);
  return typeof found === 'number' && Number.isFinite(found) && found >= 0 ? found : undefined;
}

export function arrayField(value: JsonValue | undefined, key: string): JsonValue[] | undefined {
  const found = field(value, key);
  return Array.isArray(found) ? found : undefined;
}

/** An id as text: LM Studio sends numeric ids, some servers numbers. */
export function idField(value: JsonValue | undefined, key: string): string | undefined {
  const found = field(value, key);
  if (typeof found === 'string' && found !== '') return found;
  if (typeof found === 'number' && Number.isFinite(found)) return String(found);
  return undefined;
}

/**
 * Tool-call arguments as the raw text the loop parses: a string passes through untouched (even
 * when it is not valid JSON), an object (Ollama's native shape, some compatible servers) is
 * serialized, anything else is absent.
 */
export function argumentsText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (isJsonObject(value) || Array.isArray(value)) return JSON.stringify(value);
  return undefined;
}
