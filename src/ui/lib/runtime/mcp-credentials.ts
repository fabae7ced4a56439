// A bearer token and custom headers per MCP server (issue 23), kept like the planner's API keys
// (`lib/planner/keys.ts`): in this tab's memory unless the analyst ticks "remember on this
// device", and then in localStorage only — never IndexedDB, so never in a workspace export, a
// run or the call history. Only the transport of that server's URL is handed them. Nothing here
// logs a value.

import { useSyncExternalStore } from 'react';
import type { ToolError } from '../../../core/index.ts';
import { createExternalStore } from '../stores/external-store.ts';

export const REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY = 'sextant.mcp.server-credentials.v1';

export interface McpHeader {
  name: string;
  value: string;
}

/** What is sent to one server besides MCP's own headers. */
export interface McpCredentials {
  /** Sent as `Authorization: Bearer TOKEN`; empty: none. */
  token: string;
  headers: McpHeader[];
}

/** The part of `localStorage` the store uses; injectable for tests. */
export interface CredentialStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the MCP transport sets itself (a second value would break the protocol). */
const TRANSPORT_HEADERS = new Set(['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);
/** Headers a browser refuses to let a page set (the Fetch standard's forbidden request headers). */
const FORBIDDEN_HEADERS = new Set([
  'accept-charset', 'accept-encoding', 'access-control-request-headers', 'access-control-request-method', 'connection', 'content-length', 'cookie', 'cookie2',
  'date', 'dnt', 'expect', 'host', 'keep-alive', 'origin', 'referer', 'set-cookie', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via',
]);
const MAX_VALUE_CHARS = 8192;
/** A token goes in one header value: visible ASCII, no spaces. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/**
 * Problems with credentials the analyst typed, one coded error per problem at its field
 * (`token`, `headers[1].name`); empty when they can be sent.
 */
export function credentialProblems(credentials: McpCredentials): ToolError[] {
  const problems: ToolError[] = [];
  if (credentials.token !== '' && (!TOKEN_CHARS.test(credentials.token) || credentials.token.length > MAX_VALUE_CHARS)) {
    problems.push({ code: 'INVALID_VALUE', field: 'token', message: 'A bearer token is visible ASCII characters without spaces (paste the token alone, without "Bearer ")' });
  }
  const seen = new Set<string>();
  credentials.headers.forEach((header, index) => {
    const field = `headers[${index}]`;
    const name = header.name.toLowerCase();
    if (!HEADER_NAME.test(header.name)) problems.push({ code: 'INVALID_VALUE', field: `${field}.name`, message: `${JSON.stringify(header.name)} is not a header name (letters, digits and !#$%&'*+.^_\`|~- only)` });
    else if (name === 'authorization') problems.push({ code: 'INVALID_VALUE', field: `${field}.name`, message: 'Give the bearer token in its own field; it is sent as Authorization: Bearer TOKEN' });
    else if (TRANSPORT_HEADERS.has(name)) problems.push({ code: 'INVALID_VALUE', field: `${field}.name`, message: `${header.name} is set by the MCP transport itself` });
    else if (FORBIDDEN_HEADERS.has(name) || name.startsWith('proxy-') || name.startsWith('sec-')) problems.push({ code: 'INVALID_VALUE', field: `${field}.name`, message: `Browsers do not let a page set ${header.name}` });
    else if (seen.has(name)) problems.push({ code: 'INVALID_VALUE', field: `${field}.name`, message: `${header.name} is given twice` });
    seen.add(name);
    if (/[\r\n\0]/.test(header.value) || header.value.length > MAX_VALUE_CHARS) {
      problems.push({ code: 'INVALID_VALUE', field: `${field}.value`, message: `A header value is one line of at most ${MAX_VALUE_CHARS} characters` });
    }
  });
  return problems;
}

/** The request headers for a server: its custom headers and the bearer token. */
export function requestHeaders(credentials: McpCredentials | undefined): Record<string, string> {
  if (!credentials) return {};
  const headers: Record<string, string> = {};
  for (const header of credentials.headers) headers[header.name] = header.value;
  if (credentials.token !== '') headers.Authorization = `Bearer ${credentials.token}`;
  return headers;
}

export interface McpCredentialStore {
  get(url: string): McpCredentials | undefined;
  /** Sets a server's credentials (after {@link credentialProblems} found none); `remember` also keeps them on this device. */
  set(url: string, credentials: McpCredentials, remember: boolean): void;
  /** Removes a server's credentials from memory and from this device. */
  forget(url: string): void;
  isRemembered(url: string): boolean;
  /** Every secret value known (tokens and header values), for redacting them from anything that leaves the app. */
  allSecrets(): string[];
  version(): number;
  subscribe(listener: () => void): () => void;
}

function isCredentials(value: unknown): value is McpCredentials {
  if (typeof value !== 'object' || value === null) return false;
  const { token, headers } = value as Partial<McpCredentials>;
  return typeof token === 'string' && Array.isArray(headers) && headers.every((header) => typeof header?.name === 'string' && typeof header.value === 'string');
}

/** A store over `storage` (null: memory only, for browsers that refuse storage). */
export function createCredentialStore(storage: CredentialStorage | null): McpCredentialStore {
  const memory = new Map<string, McpCredentials>();
  const remembered = new Set<string>();
  // The snapshot is a counter: the secrets stay out of React state.
  const version = createExternalStore(0);

  try {
    const parsed: unknown = JSON.parse(storage?.getItem(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) {
      for (const [url, value] of Object.entries(parsed)) {
        if (!isCredentials(value) || credentialProblems(value).length > 0) continue;
        memory.set(url, value);
        remembered.add(url);
      }
    }
  } catch {
    // Unreadable: nothing remembered.
  }

  function persist(): void {
    if (!storage) return;
    const kept = Object.fromEntries([...remembered].flatMap((url) => (memory.has(url) ? [[url, memory.get(url)]] : [])));
    try {
      if (Object.keys(kept).length === 0) storage.removeItem(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY);
      else storage.setItem(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Storage full or refused: the credentials still work in this tab, they just are not remembered.
    }
  }

  const changed = () => version.update((current) => current + 1);

  return {
    get: (url) => memory.get(url),
    set(url, credentials, remember) {
      const kept: McpCredentials = { token: credentials.token.trim(), headers: credentials.headers.filter((header) => header.name.trim() !== '').map((header) => ({ name: header.name.trim(), value: header.value })) };
      if (kept.token === '' && kept.headers.length === 0) return this.forget(url);
      memory.set(url, kept);
      if (remember) remembered.add(url);
      else remembered.delete(url);
      persist();
      changed();
    },
    forget(url) {
      memory.delete(url);
      remembered.delete(url);
      persist();
      changed();
    },
    isRemembered: (url) => remembered.has(url),
    allSecrets: () => [...memory.values()].flatMap((credentials) => [credentials.token, ...credentials.headers.map((header) => header.value)]).filter((value) => value !== ''),
    version: version.get,
    subscribe: version.subscribe,
  };
}

let appStore: McpCredentialStore | null = null;

/** The app's MCP credential store (localStorage when the browser allows it). */
export function getMcpCredentials(): McpCredentialStore {
  appStore ??= createCredentialStore(browserStorage());
  return appStore;
}

function browserStorage(): CredentialStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Re-renders when any server's credentials change. */
export function useMcpCredentials(store: McpCredentialStore = getMcpCredentials()): McpCredentialStore {
  useSyncExternalStore(store.subscribe, store.version);
  return store;
}
