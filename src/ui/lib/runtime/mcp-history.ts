// The MCP page's call history (issue 23): every tools/call made from the page — its server, tool,
// arguments as typed, result or error, start time and duration — kept in the workspace (a
// setting in IndexedDB, so it survives reloads and travels with a workspace export) and re-run
// from there. A server's token and headers are never part of an entry, and any of their values a
// server echoed back is redacted before an entry is stored.

import { isJsonObject, type JsonValue, type McpCallRecord, type ToolResult } from '../../../core/index.ts';
import { createExternalStore, useExternalStore, type ExternalStore } from '../stores/external-store.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { getMcpCredentials } from './mcp-credentials.ts';

export const HISTORY_SETTING_KEY = 'mcp.history.v1';
/** Most entries kept; the oldest go first. */
export const MAX_HISTORY_ENTRIES = 200;
/**
 * Largest `structured_output` kept with an entry, in characters of its JSON; a larger one is left out
 * and its size noted. The history is one workspace setting rewritten on every call: 200 entries at
 * this bound stay near 13 MB.
 */
export const MAX_KEPT_OUTPUT_CHARS = 64 * 1024;
/** Secrets shorter than this are not searched for (a 2-character value would redact half the text). */
const MIN_REDACTED_CHARS = 4;
export const REDACTED = '[redacted: a credential of an MCP server]';

export interface McpHistoryEntry {
  id: string;
  serverUrl: string;
  toolName: string;
  /** The arguments exactly as typed (a re-run sends them again, validated again). */
  argumentsText: string;
  /** When the call started, ISO 8601. */
  startedAt: string;
  durationMs: number;
  /** `validation`: refused before sending, nothing reached the server. */
  phase: 'validation' | 'execution';
  result: ToolResult;
  /** Characters of a `structured_output` left out of the history as too large (re-run to see it). */
  omittedOutputChars?: number;
}

export interface McpHistoryState {
  entries: McpHistoryEntry[];
  /** Whether the stored history has been read. */
  loaded: boolean;
  /** Why the last save did not happen (the entries stay in this tab). */
  problem: string | null;
}

/** Where the history is kept; injectable for tests. */
export interface HistoryBackend {
  load(): Promise<unknown>;
  /** Stores the value; null when it was written, else why not. */
  save(value: JsonValue): Promise<string | null>;
}

export interface HistoryOptions {
  /** Values never to store (tokens and header values). */
  secrets: () => string[];
  newId: () => string;
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
    isJsonObject(result) &&
    typeof result.status === 'string' &&
    typeof result.summary === 'string' &&
    Array.isArray(result.errors)
  );
}

/** The stored history's entries; anything malformed is skipped, not fatal. */
export function readStoredHistory(stored: unknown): McpHistoryEntry[] {
  if (!isJsonObject(stored) || !Array.isArray(stored.entries)) return [];
  return (stored.entries as unknown[]).filter(isEntry).slice(0, MAX_HISTORY_ENTRIES);
}

/** An entry for a finished call, bounded and redacted. */
export function historyEntry(
  serverUrl: string,
  argumentsText: string,
  record: McpCallRecord,
  startedAt: Date,
  options: Pick<HistoryOptions, 'secrets' | 'newId'>,
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
  return redact(entry, options.secrets());
}

export interface McpHistory {
  state: ExternalStore<McpHistoryState>;
  /** Reads the stored history once. */
  load(): Promise<void>;
  /** Adds a finished call (newest first) and stores the history. */
  record(serverUrl: string, argumentsText: string, record: McpCallRecord, startedAt: Date): Promise<McpHistoryEntry>;
  /** Removes a server's entries (all entries without a URL). */
  clear(serverUrl?: string): Promise<void>;
}

export function createMcpHistory(backend: HistoryBackend, options: HistoryOptions): McpHistory {
  const state = createExternalStore<McpHistoryState>({ entries: [], loaded: false, problem: null });
  let loading: Promise<void> | null = null;
  // Saves run one after another, each writing the newest list.
  let saving: Promise<void> = Promise.resolve();

  const persist = (): Promise<void> => {
    saving = saving.then(async () => {
      const entries = state.get().entries;
      let problem: string | null;
      try {
        problem = await backend.save({ version: 1, entries: entries as unknown as JsonValue });
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      state.update((current) => ({ ...current, problem: problem === null ? null : `The call history could not be saved (${problem}); it stays in this tab until it can be` }));
    });
    return saving;
  };

  const history: McpHistory = {
    state,
    load() {
      loading ??= (async () => {
        let stored: unknown;
        try {
          stored = await backend.load();
        } catch {
          stored = undefined;
        }
        // Calls made before the stored history arrived stay first.
        state.update((current) => ({ ...current, loaded: true, entries: [...current.entries, ...readStoredHistory(stored)].slice(0, MAX_HISTORY_ENTRIES) }));
      })();
      return loading;
    },
    async record(serverUrl, argumentsText, record, startedAt) {
      await history.load();
      const entry = historyEntry(serverUrl, argumentsText, record, startedAt, options);
      state.update((current) => ({ ...current, entries: [entry, ...current.entries].slice(0, MAX_HISTORY_ENTRIES) }));
      await persist();
      return entry;
    },
    async clear(serverUrl) {
      await history.load();
      state.update((current) => ({ ...current, entries: serverUrl === undefined ? [] : current.entries.filter((entry) => entry.serverUrl !== serverUrl) }));
      await persist();
    },
  };
  return history;
}

let appHistory: McpHistory | null = null;

/** The app's MCP call history, kept in the workspace (in this tab only when IndexedDB is refused). */
export function getMcpHistory(): McpHistory {
  appHistory ??= createMcpHistory(
    {
      async load() {
        const workspace = await getWorkspace();
        const stored = workspace ? await workspace.getSetting(HISTORY_SETTING_KEY) : null;
        return stored?.ok ? stored.value : undefined;
      },
      async save(value) {
        const workspace = await getWorkspace();
        if (!workspace) return 'this browser keeps no workspace';
        const saved = await workspace.saveSetting(HISTORY_SETTING_KEY, value);
        return saved.ok ? null : `${saved.error.code}: ${saved.error.message}`;
      },
    },
    { secrets: () => getMcpCredentials().allSecrets(), newId: () => crypto.randomUUID() },
  );
  return appHistory;
}

/** The history, re-rendering on every change (and reading the stored one on first use). */
export function useMcpHistory(): McpHistoryState {
  const history = getMcpHistory();
  void history.load();
  return useExternalStore(history.state);
}
