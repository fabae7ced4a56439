import { checkJsonLimits, stripByteOrderMark } from './json-limits.ts';

/** A JSON value after it has been parsed and, where it matters, validated. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export type JsonObject = { [key: string]: JsonValue };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parse JSON without throwing. A leading UTF-8 byte order mark is ignored (editors on Windows
 * write one; JSON.parse rejects it). Nesting is not limited here: `JSON.parse` does not recurse
 * on the call stack, and each consumer checks the parsed value with `checkJsonLimits`.
 */
export function safeParseJson(text: string): { ok: true; value: JsonValue } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(stripByteOrderMark(text)) as JsonValue };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Size of a value as the UTF-8 bytes of its compact JSON text, measured without recursion and
 * without building the text. `Infinity` for a value JSON cannot carry (a cycle, a bigint, NaN).
 */
export function jsonByteLength(value: unknown): number {
  const checked = checkJsonLimits(value, { maxDepth: 1_000_000, maxNodes: Number.MAX_SAFE_INTEGER, maxObjectKeys: Number.MAX_SAFE_INTEGER });
  return checked.ok ? checked.measure.bytes : Number.POSITIVE_INFINITY;
}
