// MCP servers in the app (issue 13): the SDK client over Streamable HTTP from the browser, the
// list of servers kept in the workspace, and each server's checked tool list. Components read it
// through `useMcpServers` (useSyncExternalStore); the contract work happens in the core.
// Issue 23: each server's bearer token and custom headers (mcp-credentials.ts) go to its own
// transport only; its notifications are kept in a log per server; resources and prompts are
// requested through `request`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { useSyncExternalStore } from 'react';
import {
  createSdkConnection,
  describeMcpFailure,
  failureFromError,
  isJsonObject,
  listMcpTools,
  type McpAnswer,
  type McpConnection,
  type McpFailure,
  type McpToolDefinition,
  type McpToolProblem,
  type JsonObject,
} from '../../../core/index.ts';
import { getRuntime } from './sextant-runtime.ts';
import { getMcpCredentials, requestHeaders } from './mcp-credentials.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { createExternalStore, useExternalStore, type ExternalStore } from '../stores/external-store.ts';
import { describeNotification, type LogLevel, type NotificationEntry } from './mcp-inspector-results.ts';

/** Where the server list lives in the workspace (sextant-runtime.ts reads it at start too). */
const SETTING_KEY = 'mcp.servers.v1';
const CONNECT_TIMEOUT_MS = 15_000;

/** One server as the page shows it. */
export interface McpServerState {
  url: string;
  /** The server's name (initialize's serverInfo.name; the host until connected): its tools' namespace for the planner. */
  name: string;
  /** Switched on by the analyst: only then are its tools offered to the planner. */
  enabled: boolean;
  status: 'connecting' | 'connected' | 'error';
  /** What went wrong, in words that say what to fix. */
  error: string | null;
  tools: McpToolDefinition[];
  problems: McpToolProblem[];
  /** What the server declared it offers (initialize's capabilities), once connected. */
  offers?: { resources: boolean; prompts: boolean; logging: boolean };
}

/** Most notifications kept per server; older ones are dropped, and the pane says how many. */
export const MAX_NOTIFICATIONS = 500;

export interface NotificationLog {
  entries: NotificationEntry[];
  /** Entries dropped because the log was full. */
  dropped: number;
}

/** Requests the page makes besides the tool calls the core does. */
export type InspectorMethod = 'resources/list' | 'resources/templates/list' | 'resources/read' | 'prompts/list' | 'prompts/get';

interface Live {
  client: Client;
  connection: McpConnection;
  /** The server's Mcp-Session-Id was not readable (CORS exposes no custom header by default). */
  sessionHidden: boolean;
  request(method: InspectorMethod, params: JsonObject, timeoutMs: number): Promise<McpAnswer>;
}

const SESSION_HIDDEN =
  'The server did not let this page read its Mcp-Session-Id response header, so every request after initialize arrives without a session: ' +
  'the server must send Access-Control-Expose-Headers: Mcp-Session-Id (and allow the mcp-session-id and mcp-protocol-version request headers in its preflight)';

class McpServers {
  private readonly states = createExternalStore<McpServerState[]>([]);
  private readonly live = new Map<string, Live>();
  private readonly logs = new Map<string, ExternalStore<NotificationLog>>();
  private notificationSeq = 0;
  private loaded: Promise<void> | null = null;

  snapshot = (): McpServerState[] => this.states.get();

  subscribe = (listener: () => void): (() => void) => {
    const unsubscribe = this.states.subscribe(listener);
    void this.load();
    return unsubscribe;
  };

  /** Reads the saved server list once and connects to each server. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const workspace = await getWorkspace();
      const stored = workspace ? await workspace.getSetting(SETTING_KEY) : null;
      const entries = stored?.ok && Array.isArray(stored.value) ? stored.value.filter(isJsonObject) : [];
      for (const entry of entries) {
        if (typeof entry.url !== 'string' || this.states.get().some((state) => state.url === entry.url)) continue;
        this.put({ url: entry.url, name: new URL(entry.url).host, enabled: entry.enabled === true, status: 'connecting', error: null, tools: [], problems: [] });
        void this.refresh(entry.url);
      }
    })();
    return this.loaded;
  }

  /** Adds a server by its Streamable HTTP URL and connects; returns a problem with the URL, or null. */
  async add(text: string): Promise<string | null> {
    await this.load();
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return `${JSON.stringify(text)} is not a URL: give the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3001/mcp`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http(s) URLs can be reached from the browser (stdio servers: use the command line)';
    if (this.states.get().some((state) => state.url === url.href)) return `${url.href} is already added`;
    this.put({ url: url.href, name: url.host, enabled: false, status: 'connecting', error: null, tools: [], problems: [] });
    await this.persist();
    await this.refresh(url.href);
    return null;
  }

  async remove(url: string): Promise<void> {
    await this.live.get(url)?.client.close().catch(() => {});
    this.live.delete(url);
    this.states.update((current) => current.filter((state) => state.url !== url));
    // A removed server's token and headers leave with it (from this device too); its history stays.
    getMcpCredentials().forget(url);
    this.logs.delete(url);
    await this.persist();
  }

  async setEnabled(url: string, enabled: boolean): Promise<void> {
    this.update(url, { enabled });
    await this.persist();
  }

  /** Reconnects and lists the tools again. */
  async refresh(url: string): Promise<void> {
    this.update(url, { status: 'connecting', error: null });
    await this.live.get(url)?.client.close().catch(() => {});
    this.live.delete(url);
    const opened = await this.connection(url);
    if (!opened.ok) return this.update(url, { status: 'error', error: this.explain(url, opened.failure), tools: [], problems: [] });
    const listed = await listMcpTools(opened.connection, { timeoutMs: CONNECT_TIMEOUT_MS });
    if (!listed.ok) return this.update(url, { status: 'error', error: this.explain(url, listed.failure), tools: [], problems: [] });
    const client = this.live.get(url)?.client;
    const name = client?.getServerVersion()?.name;
    const capabilities = client?.getServerCapabilities() ?? {};
    const offers = { resources: capabilities.resources !== undefined, prompts: capabilities.prompts !== undefined, logging: capabilities.logging !== undefined };
    this.update(url, { status: 'connected', error: null, tools: listed.list.tools, problems: listed.list.problems, offers, ...(name ? { name } : {}) });
  }

  /** A resources or prompts request over the server's live connection (connecting when there is none). Never throws. */
  async request(url: string, method: InspectorMethod, params: JsonObject, timeoutMs = CONNECT_TIMEOUT_MS): Promise<McpAnswer> {
    const opened = await this.connection(url);
    if (!opened.ok) return opened;
    const live = this.live.get(url);
    if (!live) return { ok: false, failure: { kind: 'session-lost', message: 'the connection closed before the request' } };
    return live.request(method, params, timeoutMs);
  }

  /** Asks the server to send logging messages from `level` up (logging/setLevel); null when it did, else what went wrong. */
  async setLogLevel(url: string, level: LogLevel): Promise<string | null> {
    const opened = await this.connection(url);
    if (!opened.ok) return this.explain(url, opened.failure);
    try {
      await this.live.get(url)?.client.setLoggingLevel(level, { timeout: CONNECT_TIMEOUT_MS });
      return null;
    } catch (error) {
      return this.explain(url, failureFromError(error, CONNECT_TIMEOUT_MS));
    }
  }

  /** A server's notification log, re-rendered on every entry. */
  notifications(url: string): ExternalStore<NotificationLog> {
    let log = this.logs.get(url);
    if (!log) {
      log = createExternalStore<NotificationLog>({ entries: [], dropped: 0 });
      this.logs.set(url, log);
    }
    return log;
  }

  /** Adds an entry to a server's notification log (progress of the page's own calls comes this way too). */
  note(url: string, entry: Pick<NotificationEntry, 'method' | 'level' | 'text'>): void {
    this.notifications(url).update((current) => {
      const entries = [...current.entries, { ...entry, seq: ++this.notificationSeq, at: new Date().toISOString() }];
      const overflow = Math.max(0, entries.length - MAX_NOTIFICATIONS);
      return { entries: entries.slice(overflow), dropped: current.dropped + overflow };
    });
  }

  clearNotifications(url: string): void {
    this.notifications(url).set({ entries: [], dropped: 0 });
  }

  /** The live connection to a server, connecting when there is none. */
  async connection(url: string): Promise<{ ok: true; connection: McpConnection } | { ok: false; failure: McpFailure }> {
    const known = this.live.get(url);
    if (known) return { ok: true, connection: known.connection };
    const client = new Client({ name: 'sextant', version: '0.1.0' }, { capabilities: {} });
    // The server's own token and headers, to this URL only: no redirect may carry them elsewhere.
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: requestHeaders(getMcpCredentials().get(url)), redirect: 'error' } });
    // Every notification without a handler of its own (logging, list_changed, resource updates) is kept as text.
    client.fallbackNotificationHandler = async (notification) => {
      if (this.live.get(url)?.client !== client && this.live.has(url)) return;
      this.note(url, describeNotification(notification.method, notification.params));
    };
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (error) {
      await client.close().catch(() => {});
      return { ok: false, failure: failureFromError(error, CONNECT_TIMEOUT_MS) };
    }
    const base = createSdkConnection(client, ResultSchema);
    const sessionHidden = transport.sessionId === undefined;
    // A session the server dropped (it restarted) is forgotten, so the next request reconnects.
    const forgetLostSession = (answer: McpAnswer): McpAnswer => {
      if (!answer.ok && answer.failure.kind === 'session-lost' && !sessionHidden && this.live.get(url)?.client === client) {
        this.live.delete(url);
        void client.close().catch(() => {});
      }
      return answer;
    };
    const connection: McpConnection = {
      listTools: async (cursor, options) => forgetLostSession(await base.listTools(cursor, options)),
      callTool: async (name, args, options) => forgetLostSession(await base.callTool(name, args, options)),
    };
    const request = async (method: InspectorMethod, params: JsonObject, timeoutMs: number): Promise<McpAnswer> => {
      try {
        return forgetLostSession({ ok: true, value: await client.request({ method, params }, ResultSchema, { timeout: timeoutMs }) });
      } catch (error) {
        return forgetLostSession({ ok: false, failure: failureFromError(error, timeoutMs) });
      }
    };
    const live: Live = { client, connection, sessionHidden, request };
    this.live.set(url, live);
    return { ok: true, connection: live.connection };
  }

  /** A failure in words; a lost session on a server whose session id was unreadable is a CORS problem. */
  explain(url: string, failure: McpFailure): string {
    if (failure.kind === 'session-lost' && this.live.get(url)?.sessionHidden) return SESSION_HIDDEN;
    if (failure.kind === 'http-status' && (failure.status === 401 || failure.status === 403)) {
      const has = getMcpCredentials().get(url)?.token ? 'the bearer token set for it was refused: check it' : 'set its bearer token (or header) under "Token and headers" and reconnect';
      return `${describeMcpFailure(failure)} — the server wants credentials: ${has}`;
    }
    return describeMcpFailure(failure);
  }

  private put(state: McpServerState): void {
    this.states.update((current) => [...current, state]);
  }

  private update(url: string, change: Partial<McpServerState>): void {
    this.states.update((current) => current.map((state) => (state.url === url ? { ...state, ...change } : state)));
  }

  private async persist(): Promise<void> {
    const workspace = await getWorkspace();
    await workspace?.saveSetting(SETTING_KEY, this.states.get().map((state) => ({ url: state.url, enabled: state.enabled })));
  }
}

let servers: McpServers | null = null;

/** The app's MCP servers (one set per page load). */
export function getMcpServers(): McpServers {
  if (!servers) {
    servers = new McpServers();
    // Switched-on servers' tools join the registry the planner discovers its tools from.
    getRuntime().followMcpServers(servers);
    void servers.load();
  }
  return servers;
}

export type { McpServers };

/** A server's notification log, re-rendering on every entry. */
export function useMcpNotifications(url: string): NotificationLog {
  return useExternalStore(getMcpServers().notifications(url));
}

/** The servers, re-rendering on every change. */
export function useMcpServers(): McpServerState[] {
  const store = getMcpServers();
  return useSyncExternalStore(store.subscribe, store.snapshot);
}
