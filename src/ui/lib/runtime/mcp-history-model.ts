// The MCP call history's data (issue 23): entries, their bounds, reading a stored or imported
// history, and merging two histories. Pure functions: mcp-history.ts keeps the app's history, and
// the workspace import merges a file's history through `mergeHistories` (no import of the app's
// stores here, so the workspace can use it without a cycle).

import { isJsonObject, type JsonValue, type McpCallRecord, type ToolResult } from '../../../core/index.ts';

/** The workspace setting that holds the history (`{ version: 1, entries }`). */
export const HISTORY_SETTING_KEY = 'mcp.history.v1';
/** Most entries kept; the oldest go first. */
export const MAX_HISTORY_ENTRIES = 200;
/**
 * Largest `structured_output` kept with an entry, in characters of its JSON; a larger one is left out
 * and its size noted. The history is one workspace setting rewritten on every call.
 */
export const MAX_KEPT_OUTPUT_CHARS = 64 * 1024;
/**
 * Most characters of an entry's arguments kept (16 KiB of text: any hand-typed call fits). Longer
 * arguments keep their first characters and `omittedArgumentsChars` says how many were left out;
 * such an entry cannot be re-run, since what is kept is no longer the call that was made. With the
 * output bound, 200 entries stay under about 16 MB.
 */
export const MAX_KEPT_ARGUMENTS_CHARS = 16 * 1024;
/** Secrets shorter than this are not searched for (a 2-character value would redact half the text). */
const MIN_REDACTED_CHARS = 4;
export const REDACTED = '[redacted: a credential of an MCP server]';

export interface McpHistoryEntry {
  id: string;
  serverUrl: string;
  toolName: string;
  /**
   * The arguments exactly as typed (a re-run sends them again, validated again), or, when
   * `omittedArgumentsChars` is set, only their first `MAX_KEPT_ARGUMENTS_CHARS` characters.
   */
  argumentsText: string;
  /** When the call started, ISO 8601. */
  startedAt: string;
  durationMs: number;
  /** `validation`: refused before sending, nothing reached the server. */
  phase: 'validation' | 'execution';
  result: ToolResult;
  /** Characters of a `structured_output` left out of the history as too large (re-run to see it). */
  omittedOutputChars?: number;
  /** Characters of the arguments left out of `argumentsText` as too long: the entry cannot be re-run. */
  omittedArgumentsChars?: number;
}

/** Why an entry cannot be re-run, or null when it can. */
export function rerunRefusal(entry: McpHistoryEntry): string | null {
  if (entry.omittedArgumentsChars === undefined) return null;
  const total = entry.argumentsText.length + entry.omittedArgumentsChars;
  return `Its arguments (${total.toLocaleString('en')} characters) were longer than the history keeps (${MAX_KEPT_ARGUMENTS_CHARS.toLocaleString('en')}): only their start is kept, so this call cannot be re-run. Call the tool again from its Tools tab.`;
}

/** Replaces every secret in every string of `value`. */
function redact<T>(value: T, secrets: readonly string[]): T {
  const wanted = secrets.filter((secret) => secret.length >= MIN_REDACTED_CHARS);
  if (wanted.length === 0) return value;
  const text = JSON.stringify(value);
  if (!wanted.some((secret) => text.includes(JSON.stringify(secret).slice(1, -1)))) return value;
  let cleaned = text;
  for (const secret of wanted) cleaned = cleaned.split(JSON.stringify(secret).slice(1, -1)).join(REDACTED);
  return JSON.parse(cleaned) as T;
}

/** The entry with its arguments cut to `MAX_KEPT_ARGUMENTS_CHARS` (never inside a surrogate pair). */
function capArguments(entry: McpHistoryEntry): McpHistoryEntry {
  if (entry.argumentsText.length <= MAX_KEPT_ARGUMENTS_CHARS) return entry;
  let cut = MAX_KEPT_ARGUMENTS_CHARS;
  const last = entry.argumentsText.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return {
    ...entry,
    argumentsText: entry.argumentsText.slice(0, cut),
    omittedArgumentsChars: (entry.omittedArgumentsChars ?? 0) + entry.argumentsText.length - cut,
  };
}

const isCount = (value: unknown) => value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0);

function isEntry(value: unknown): value is McpHistoryEntry {
  if (!isJsonObject(value)) return false;
  const result = value.result;
  return (
    typeof value.id === 'string' &&
    typeof value.serverUrl === 'string' &&
    typeof value.toolName === 'string' &&
    typeof value.argumentsText === 'string' &&
    typeof value.startedAt === 'string' &&
    typeof value.durationMs === 'number' &&
    (value.phase === 'validation' || value.phase === 'execution') &&
    isCount(value.omittedOutputChars) &&
    isCount(value.omittedArgumentsChars) &&
    isJsonObject(result) &&
    typeof result.status === 'string' &&
    typeof result.summary === 'string' &&
    Array.isArray(result.errors)
  );
}

/**
 * The stored (or imported) history's entries; anything malformed is skipped, not fatal, and
 * arguments over the bound are cut as a new entry's would be.
 */
export function readStoredHistory(stored: unknown): McpHistoryEntry[] {
  if (!isJsonObject(stored) || !Array.isArray(stored.entries)) return [];
  return (stored.entries as unknown[]).filter(isEntry).slice(0, MAX_HISTORY_ENTRIES).map(capArguments);
}

/** The stored form of a list of entries. */
export function historySetting(entries: readonly McpHistoryEntry[]): JsonValue {
  return { version: 1, entries: entries as unknown as JsonValue };
}

/** An entry for a finished call, redacted (over the whole text), then bounded. */
export function historyEntry(
  serverUrl: string,
  argumentsText: string,
  record: McpCallRecord,
  startedAt: Date,
  options: { secrets: () => string[]; newId: () => string },
): McpHistoryEntry {
  let result = record.result;
  let omittedOutputChars: number | undefined;
  if (result.structured_output !== undefined) {
    const chars = JSON.stringify(result.structured_output).length;
    if (chars > MAX_KEPT_OUTPUT_CHARS) {
      const { structured_output: _left, ...rest } = result;
      result = rest;
      omittedOutputChars = chars;
    }
  }
  const entry: McpHistoryEntry = {
    id: options.newId(),
    serverUrl,
    toolName: record.toolName,
    argumentsText,
    startedAt: startedAt.toISOString(),
    durationMs: record.durationMs,
    phase: record.phase,
    result,
    ...(omittedOutputChars === undefined ? {} : { omittedOutputChars }),
  };
  // Redacting before cutting: a cut through a secret would leave its start unredacted.
  return capArguments(redact(entry, options.secrets()));
}

/** What merging a history into another did. */
export interface HistoryMerge {
  entries: McpHistoryEntry[];
  /** Entries of `incoming` now in the list. */
  added: number;
  /** Entries of `incoming` left out: their id was already there (and not replaced), or they were too old to fit. */
  skipped: number;
}

/**
 * Both histories as one, entry by entry: an id in both keeps `kept`'s entry unless `replace`;
 * newest first by start time; the newest `MAX_HISTORY_ENTRIES` kept.
 */
export function mergeHistories(kept: readonly McpHistoryEntry[], incoming: readonly McpHistoryEntry[], options: { replace?: boolean } = {}): HistoryMerge {
  const byId = new Map(kept.map((entry) => [entry.id, entry]));
  const keptIds = new Set(byId.keys());
  for (const entry of incoming) {
    if (keptIds.has(entry.id) && !options.replace) continue;
    byId.set(entry.id, entry);
  }
  const time = (entry: McpHistoryEntry) => {
    const parsed = Date.parse(entry.startedAt);
    return Number.isNaN(parsed) ? -Infinity : parsed;
  };
  const entries = [...byId.values()].sort((a, b) => time(b) - time(a)).slice(0, MAX_HISTORY_ENTRIES);
  const incomingEntries = new Set(incoming);
  const added = entries.filter((entry) => incomingEntries.has(entry)).length;
  return { entries, added, skipped: incoming.length - added };
}
