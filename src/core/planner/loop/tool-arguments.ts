import { jsonrepair } from 'jsonrepair';
import { isJsonObject, safeParseJson, type JsonObject } from '../../util/json.ts';

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
