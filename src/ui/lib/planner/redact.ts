/** Property names that hold credentials, wherever they appear (compared case-insensitively). */
const SECRET_PROPERTIES = new Set(['apikey', 'api_key', 'authorization', 'x-api-key', 'proxy-authorization']);

export const REDACTED = '[redacted]';

/**
 * A deep copy of `value` fit to leave the app (exports, saved runs): credential properties are
 * dropped, and any string that contains one of `knownKeys` has it replaced by {@link REDACTED}
 * (a model or a server could echo a key back inside text). Non-JSON values become null.
 */
export function redactSecrets<T>(value: T, knownKeys: ReadonlyArray<string>): T {
  const keys = knownKeys.filter((key) => key.length >= 4);
  // Safe: the copy has the same shape as the input, minus credential properties.
  return copy(value, keys) as T;
}

function copy(value: unknown, keys: ReadonlyArray<string>): unknown {
  if (typeof value === 'string') return scrub(value, keys);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((item) => copy(item, keys));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      if (SECRET_PROPERTIES.has(name.toLowerCase())) continue;
      if (item === undefined || typeof item === 'function') continue;
      out[name] = copy(item, keys);
    }
    return out;
  }
  return null;
}

function scrub(text: string, keys: ReadonlyArray<string>): string {
  let out = text;
  for (const key of keys) if (out.includes(key)) out = out.split(key).join(REDACTED);
  return out;
}

/** True when the serialized value mentions none of `knownKeys`: the check every export passes. */
export function containsNoSecret(serialized: string, knownKeys: ReadonlyArray<string>): boolean {
  return knownKeys.filter((key) => key.length >= 4).every((key) => !serialized.includes(key));
}
