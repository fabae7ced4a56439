// The MCP page's call history (issue 23): every tools/call made from the page — its server, tool,
// arguments as typed (bounded), result or error, start time and duration — kept in the workspace
// (a setting in IndexedDB, so it survives reloads; a workspace export carries it and an import
// merges it entry by entry) and re-run from there. A server's token and headers are never part of
// an entry, and any of their values a server echoed back is redacted before an entry is stored.
// The entries and their bounds are mcp-history-model.ts.

import type { JsonValue, McpCallRecord } from '../../../core/index.ts';
import { createExternalStore, useExternalStore, type ExternalStore } from '../stores/external-store.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { getMcpCredentials } from './mcp-credentials.ts';
import { HISTORY_SETTING_KEY, historyEntry, historySetting, MAX_HISTORY_ENTRIES, mergeHistories, readStoredHistory, type McpHistoryEntry } from './mcp-history-model.ts';

export {
  HISTORY_SETTING_KEY,
  MAX_HISTORY_ENTRIES,
  MAX_KEPT_ARGUMENTS_CHARS,
  MAX_KEPT_OUTPUT_CHARS,
  REDACTED,
  historyEntry,
  readStoredHistory,
  rerunRefusal,
  type McpHistoryEntry,
} from './mcp-history-model.ts';

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

export interface McpHistory {
  state: ExternalStore<McpHistoryState>;
  /** Reads the stored history once. */
  load(): Promise<void>;
  /** Adds a finished call (newest first) and stores the history. */
  record(serverUrl: string, argumentsText: string, record: McpCallRecord, startedAt: Date): Promise<McpHistoryEntry>;
  /** Removes a server's entries (all entries without a URL). */
  clear(serverUrl?: string): Promise<void>;
  /** Reads the stored history again and merges it with the entries in this tab (after a workspace import). */
  reload(): Promise<void>;
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
        problem = await backend.save(historySetting(entries));
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
    async reload() {
      await history.load();
      let stored: unknown;
      try {
        stored = await backend.load();
      } catch {
        return;
      }
      state.update((current) => ({ ...current, entries: mergeHistories(current.entries, readStoredHistory(stored)).entries }));
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
