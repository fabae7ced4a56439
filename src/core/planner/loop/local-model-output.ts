import { jsonrepair } from 'jsonrepair';
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';
import type { ChatToolCall, LlmResponse } from '../provider-types.ts';

/**
 * What local models (Ollama, llama.cpp, vLLM serving Qwen, DeepSeek-R1 and others) put in their
 * replies besides the answer: `<think>…</think>` blocks in the content, and tool calls written as
 * JSON text instead of native `tool_calls`. Both are handled here, before any other parsing.
 */

const THINK_TAGS = ['think', 'thinking', 'reasoning'];
// An opening tag may carry attributes or spaces (`<think >`, `<think type="plan">`): a slot inside it is still a thought.
const OPEN = new RegExp(`<(${THINK_TAGS.join('|')})(?:\\s[^<>]*)?>`, 'i');

/**
 * Splits reasoning blocks out of a reply's text. Handles closed blocks anywhere, a block left open
 * at the end (the model was cut off: the rest is reasoning), and a lone closing tag (templates that
 * put the opening `<think>` in the prompt: everything before it is reasoning). Tags are matched by
 * name only; the text inside is never parsed, so a tag mentioned inside a thought changes nothing.
 */
export function separateReasoning(text: string): { content: string; reasoning: string } {
  const thoughts: string[] = [];
  let rest = text;
  const lone = /^([\s\S]*?)<\/(think|thinking|reasoning)\s*>/i.exec(rest);
  if (lone && !OPEN.test(lone[1])) {
    thoughts.push(lone[1]);
    rest = rest.slice(lone[0].length);
  }
  let content = '';
  for (;;) {
    const open = OPEN.exec(rest);
    if (!open) {
      content += rest;
      break;
    }
    content += rest.slice(0, open.index);
    const afterOpen = rest.slice(open.index + open[0].length);
    const close = new RegExp(`</${open[1]}\\s*>`, 'i').exec(afterOpen);
    if (!close) {
      thoughts.push(afterOpen);
      break;
    }
    thoughts.push(afterOpen.slice(0, close.index));
    rest = afterOpen.slice(close.index + close[0].length);
  }
  return { content: thoughts.length > 0 ? content.trim() : content, reasoning: thoughts.map((thought) => thought.trim()).filter(Boolean).join('\n\n') };
}

/** A response with its reasoning blocks moved from `text` to `reasoning` (added to any the provider sent). */
export function withReasoningSeparated(response: LlmResponse): LlmResponse {
  const { content, reasoning } = separateReasoning(response.text);
  if (reasoning === '' && content === response.text) return response;
  const all = [response.reasoning?.trim(), reasoning].filter(Boolean).join('\n\n');
  return { ...response, text: content, ...(all ? { reasoning: all } : {}) };
}

/** One JSON value found in text, and where. */
interface Found {
  value: JsonValue;
  start: number;
  end: number;
}

function parseLoose(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    try {
      return JSON.parse(jsonrepair(text)) as JsonValue;
    } catch {
      return undefined;
    }
  }
}

/**
 * The balanced `{…}`/`[…]` spans of a text that parse as JSON, outermost first. Written by hand:
 * a JSON parser reads one document, and this has to find documents inside prose; strings are
 * tracked so braces inside them do not count.
 */
function jsonSpans(text: string): Found[] {
  const found: Found[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character !== '{' && character !== '[') {
      index += 1;
      continue;
    }
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let cursor = index; cursor < text.length; cursor += 1) {
      const current = text[cursor];
      if (inString) {
        if (current === '\\') cursor += 1;
        else if (current === '"') inString = false;
      } else if (current === '"') inString = true;
      else if (current === '{' || current === '[') depth += 1;
      else if (current === '}' || current === ']') {
        depth -= 1;
        if (depth === 0) {
          end = cursor + 1;
          break;
        }
      }
    }
    if (end < 0) {
      index += 1;
      continue;
    }
    const value = parseLoose(text.slice(index, end));
    if (value !== undefined && typeof value === 'object' && value !== null) {
      found.push({ value, start: index, end });
      index = end;
    } else {
      index += 1;
    }
  }
  return found;
}

function argumentsText(value: JsonValue | undefined): string | null {
  if (value === undefined) return '{}';
  if (typeof value === 'string') return value;
  return isJsonObject(value) ? JSON.stringify(value) : null;
}

/** The call(s) one JSON value describes, in the shapes local models write; empty when it is not a call. */
function callsIn(value: JsonValue, toolNames: ReadonlySet<string>): Array<{ name: string; arguments: string }> {
  if (Array.isArray(value)) return value.flatMap((item) => callsIn(item, toolNames));
  if (!isJsonObject(value)) return [];
  if (Array.isArray(value.tool_calls)) return callsIn(value.tool_calls, toolNames);
  const target: JsonObject = isJsonObject(value.function) ? value.function : value;
  const name = typeof target.name === 'string' ? target.name : typeof target.tool === 'string' ? target.tool : typeof target.tool_name === 'string' ? target.tool_name : null;
  if (name === null || !toolNames.has(name)) return [];
  const args = argumentsText(target.arguments ?? target.parameters ?? target.input ?? target.args);
  return args === null ? [] : [{ name, arguments: args }];
}

export interface ExtractedCalls {
  calls: ChatToolCall[];
  /** The text without the extracted calls. */
  text: string;
}

/**
 * Tool calls a model wrote as text when it sent no native ones: a fenced block, a bare object,
 * `{"name": …, "arguments": …}` (or `parameters`), `{"function": {…}}`, `{"tool_calls": […]}`,
 * an array of those, or Qwen/Hermes `<tool_call>{…}</tool_call>`. Only objects naming an offered
 * tool count, so ordinary JSON in an answer is left alone. Ids are `text-call-N`.
 */
export function extractTextToolCalls(text: string, toolNames: ReadonlySet<string>, firstId = 1): ExtractedCalls | null {
  const spans = jsonSpans(text);
  const calls: ChatToolCall[] = [];
  const cut: Array<[number, number]> = [];
  for (const span of spans) {
    const found = callsIn(span.value, toolNames);
    if (found.length === 0) continue;
    for (const call of found) calls.push({ id: `text-call-${firstId + calls.length}`, name: call.name, arguments: call.arguments });
    cut.push([span.start, span.end]);
  }
  if (calls.length === 0) return null;
  let rest = '';
  let position = 0;
  for (const [start, end] of cut) {
    rest += text.slice(position, start);
    position = end;
  }
  rest += text.slice(position);
  // What wrapped the calls (fences, <tool_call> tags) goes with them.
  rest = rest
    .replace(/```[a-zA-Z]*\s*```/g, '')
    .replace(/<tool_call>\s*<\/tool_call>/g, '')
    .trim();
  return { calls, text: rest };
}
