// MCP servers in the app (issue 13): the SDK client over Streamable HTTP from the browser, the
// list of servers kept in the workspace, and each server's checked tool list. Components read it
// through `useMcpServers` (useSyncExternalStore); the contract work happens in the core.

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
} from '../../../core/index.ts';
import { getRuntime } from './sextant-runtime.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import { createExternalStore } from '../stores/external-store.ts';

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
}

interface Live {
  client: Client;
  connection: McpConnection;
  /** The server's Mcp-Session-Id was not readable (CORS exposes no custom header by default). */
  sessionHidden: boolean;
}

const SESSION_HIDDEN =
  'The server did not let this page read its Mcp-Session-Id response header, so every request after initialize arrives without a session: ' +
  'the server must send Access-Control-Expose-Headers: Mcp-Session-Id (and allow the mcp-session-id and mcp-protocol-version request headers in its preflight)';

class McpServers {
  private readonly states = createExternalStore<McpServerState[]>([]);
  private readonly live = new Map<string, Live>();
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
    const name = this.live.get(url)?.client.getServerVersion()?.name;
    this.update(url, { status: 'connected', error: null, tools: listed.list.tools, problems: listed.list.problems, ...(name ? { name } : {}) });
  }

  /** The live connection to a server, connecting when there is none. */
  async connection(url: string): Promise<{ ok: true; connection: McpConnection } | { ok: false; failure: McpFailure }> {
    const known = this.live.get(url);
    if (known) return { ok: true, connection: known.connection };
    const client = new Client({ name: 'sextant', version: '0.1.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(url));
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
    const live: Live = { client, connection, sessionHidden };
    this.live.set(url, live);
    return { ok: true, connection: live.connection };
  }

  /** A failure in words; a lost session on a server whose session id was unreadable is a CORS problem. */
  explain(url: string, failure: McpFailure): string {
    if (failure.kind === 'session-lost' && this.live.get(url)?.sessionHidden) return SESSION_HIDDEN;
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

/** The servers, re-rendering on every change. */
export function useMcpServers(): McpServerState[] {
  const store = getMcpServers();
  return useSyncExternalStore(store.subscribe, store.snapshot);
}
