import { checkSchemaDocument } from '../validation/schema-validator.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import type { McpConnection, McpFailure, McpToolDefinition, McpToolList, McpToolProblem } from './mcp-types.ts';

/** Pages of `tools/list` read at most; a server that keeps returning cursors is cut off here. */
export const MAX_TOOL_LIST_PAGES = 50;

/** Names MCP allows (spec 2025-06-18: 1–128 characters of letters, digits, `_`, `-`, `.`; some servers use `/`). */
const TOOL_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;

/**
 * Checks listed tool entries one by one: each must be an object with a usable name, an
 * `inputSchema` that is an object schema and compiles (draft-07 or 2020-12), and an
 * `outputSchema` (when present) that does too. Bad entries are named and left out; the rest
 * stay usable. Duplicate names keep the first.
 */
export function readToolEntries(entries: ReadonlyArray<unknown>, firstIndex = 0): McpToolList {
  const tools: McpToolDefinition[] = [];
  const problems: McpToolProblem[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, offset) => {
    const index = firstIndex + offset;
    if (!isJsonObject(entry)) {
      problems.push({ index, name: null, message: 'The entry is not an object' });
      return;
    }
    const name = typeof entry.name === 'string' ? entry.name : null;
    const refuse = (message: string) => problems.push({ index, name, message });
    if (name === null || !TOOL_NAME.test(name)) {
      refuse(name === null ? 'The entry has no name' : `The name ${JSON.stringify(name.slice(0, 80))} is not a valid MCP tool name`);
      return;
    }
    if (seen.has(name)) {
      refuse(`A tool named ${name} was already listed; this duplicate is ignored`);
      return;
    }
    const input = schemaProblem(entry.inputSchema, 'inputSchema', true);
    if (input !== null) return refuse(input);
    const output = entry.outputSchema === undefined ? null : schemaProblem(entry.outputSchema, 'outputSchema', false);
    if (output !== null) return refuse(output);
    seen.add(name);
    tools.push({
      name,
      ...(typeof entry.title === 'string' ? { title: entry.title } : {}),
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      inputSchema: entry.inputSchema as JsonObject,
      ...(isJsonObject(entry.outputSchema) ? { outputSchema: entry.outputSchema } : {}),
      raw: entry,
    });
  });
  return { tools, problems };
}

function schemaProblem(schema: JsonValue | undefined, key: string, required: boolean): string | null {
  if (schema === undefined) return required ? `The entry has no ${key}` : null;
  if (!isJsonObject(schema)) return `${key} is not an object`;
  if (schema.type !== 'object') return `${key} must have "type": "object" (MCP requires it), got ${JSON.stringify(schema.type ?? null)}`;
  const messages = checkSchemaDocument(schema);
  return messages.length === 0 ? null : `${key} is not a valid JSON Schema: ${messages.slice(0, 3).join('; ')}`;
}

export type ListToolsOutcome = { ok: true; list: McpToolList } | { ok: false; failure: McpFailure };

/** Reads every page of `tools/list`, checking each entry (see `readToolEntries`). */
export async function listMcpTools(connection: McpConnection, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ListToolsOutcome> {
  const list: McpToolList = { tools: [], problems: [] };
  let cursor: string | undefined;
  let count = 0;
  for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
    const answer = await connection.listTools(cursor, options);
    if (!answer.ok) return { ok: false, failure: answer.failure };
    const value = answer.value;
    if (!isJsonObject(value) || !Array.isArray(value.tools)) {
      return { ok: false, failure: { kind: 'malformed', message: 'The tools/list result has no "tools" array' } };
    }
    const read = readToolEntries(value.tools, count);
    count += value.tools.length;
    const known = new Set(list.tools.map((tool) => tool.name));
    for (const tool of read.tools) {
      if (known.has(tool.name)) list.problems.push({ index: -1, name: tool.name, message: `A tool named ${tool.name} was already listed; this duplicate is ignored` });
      else list.tools.push(tool);
    }
    list.problems.push(...read.problems);
    cursor = typeof value.nextCursor === 'string' && value.nextCursor !== '' ? value.nextCursor : undefined;
    if (cursor === undefined) return { ok: true, list };
  }
  list.problems.push({ index: count, name: null, message: `The server kept paging after ${MAX_TOOL_LIST_PAGES} pages; the rest of its tools are not listed` });
  return { ok: true, list };
}
