import type { JsonValue } from '../../../core/index.ts';

/** A plain-JSON copy (drops undefined fields and functions), for recording and saving. */
export function toJson(value: unknown): JsonValue {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
  } catch {
    return String(value);
  }
}
