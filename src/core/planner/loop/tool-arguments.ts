import { jsonrepair } from 'jsonrepair';
import { isJsonObject, safeParseJson, type JsonObject } from '../../util/json.ts';
import { checkJsonLimits } from '../../util/json-limits.ts';
import { LIMITS } from '../../util/limits.ts';

/** How a tool call's argument text became an object, or why it could not. */
export type ParsedToolArguments =
  | { ok: true; value: JsonObject; repaired: false }
  /** `jsonrepair` fixed the text: the record keeps both texts and the result is validated again like any other. */
  | { ok: true; value: JsonObject; repaired: true; repairedText: string }
  | { ok: false; message: string };

/**
 * The contract's two-step pipeline: native `JSON.parse`, then `jsonrepair` and a second parse
 * when the first fails. Empty text means no arguments (`{}`). Anything that does not end as a
 * JSON object is unrepairable: the call is dropped and the model told to send it again.
 */
export function parseToolArguments(raw: string): ParsedToolArguments {
  const parsed = parseArguments(raw);
  if (!parsed.ok) return parsed;
  // The depth limit holds from here on: the dedup key, accounting and the conversation all walk
  // the arguments, and a model can send them nested 100,000 deep (issue 24, D2).
  const limits = checkJsonLimits(parsed.value, { maxDepth: LIMITS.maxJsonDepth, maxNodes: LIMITS.maxJsonNodes, maxObjectKeys: LIMITS.maxObjectKeys });
  if (!limits.ok) return { ok: false, message: `The arguments go past a limit (their value ${limits.violation.message})` };
  return parsed;
}

function parseArguments(raw: string): ParsedToolArguments {
  if (raw.trim() === '') return { ok: true, value: {}, repaired: false };
  const first = safeParseJson(raw);
  if (first.ok) {
    if (isJsonObject(first.value)) return { ok: true, value: first.value, repaired: false };
    return { ok: false, message: `The arguments must be a JSON object, got ${Array.isArray(first.value) ? 'an array' : typeof first.value}` };
  }
  let repairedText: string;
  try {
    repairedText = jsonrepair(raw);
  } catch (error) {
    return { ok: false, message: `The arguments are not JSON (${first.message}) and could not be repaired (${error instanceof Error ? error.message : String(error)})` };
  }
  const second = safeParseJson(repairedText);
  if (second.ok && isJsonObject(second.value)) return { ok: true, value: second.value, repaired: true, repairedText };
  return { ok: false, message: `The arguments are not a JSON object (${first.message}), even after repair` };
}
