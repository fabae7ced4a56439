// The agent contract's `mcpServers` (issue 24): the shape MCP clients share, checked strictly.
// `{"command", "args", "env"}` is a server started as a child process speaking MCP on its
// stdin/stdout; `{"url", "headers"}` is a Streamable HTTP server. `env` and `headers` are passed
// as written (agent-contract.md §7: never `${VAR}`-expanded). Connecting is the edge's job.

import { isJsonObject } from '../util/json.ts';

interface McpServerCommon {
  /** The queue its tools' executions wait in (`queues.<name>`); the default queue when absent. */
  queue?: string;
}

export interface McpStdioServerConfig extends McpServerCommon {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Added to the small safe environment the SDK passes a child process (PATH, HOME, …). */
  env: Record<string, string>;
}

export interface McpHttpServerConfig extends McpServerCommon {
  transport: 'http';
  url: string;
  /** Sent with every request (e.g. `Authorization: Bearer …`). Secrets: never printed. */
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A problem with one entry: the dotted field inside the layer, and what is wrong. */
export interface McpServerConfigProblem {
  field: string;
  message: string;
}

/** `type` as other MCP clients write it; optional, since `command` or `url` already says which. */
const TYPES: Readonly<Record<string, McpServerConfig['transport']>> = { stdio: 'stdio', http: 'http', 'streamable-http': 'http', streamableHttp: 'http' };
const STDIO_FIELDS = new Set(['type', 'command', 'args', 'env', 'queue']);
const HTTP_FIELDS = new Set(['type', 'url', 'headers', 'queue']);
/** A server name becomes its tools' namespace (`name__tool`) and a queue owner in messages. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function stringRecord(value: unknown, field: string): { ok: true; value: Record<string, string> } | { ok: false; problem: McpServerConfigProblem } {
  if (value === undefined) return { ok: true, value: {} };
  if (!isJsonObject(value)) return { ok: false, problem: { field, message: 'must be an object of name → string' } };
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') return { ok: false, problem: { field: `${field}.${key}`, message: 'must be a string' } };
    out[key] = item;
  }
  return { ok: true, value: out };
}

/** One `mcpServers.NAME` entry, or the first problem with it. */
export function checkMcpServerEntry(name: string, value: unknown): { ok: true; value: McpServerConfig } | { ok: false; problem: McpServerConfigProblem } {
  const at = `mcpServers.${name}`;
  const fail = (field: string, message: string) => ({ ok: false as const, problem: { field, message } });
  if (!SERVER_NAME.test(name)) return fail(at, 'is not a usable server name: 1–64 letters, digits, _, . or -, starting with a letter or digit');
  if (!isJsonObject(value)) return fail(at, 'must be {"command", "args", "env"} (stdio) or {"url", "headers"} (Streamable HTTP)');
  if (value.type !== undefined && (typeof value.type !== 'string' || !Object.hasOwn(TYPES, value.type))) {
    return fail(`${at}.type`, `must be one of ${Object.keys(TYPES).join(', ')}`);
  }
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined;
  if (hasCommand === hasUrl) return fail(at, hasCommand ? 'has both command and url: a server is either started (command) or reached (url)' : 'needs a command (stdio) or a url (Streamable HTTP)');
  const transport = hasCommand ? 'stdio' : 'http';
  if (value.type !== undefined && TYPES[value.type as string] !== transport) return fail(`${at}.type`, `says ${String(value.type)} but the entry has a ${hasCommand ? 'command' : 'url'}`);
  const allowed = transport === 'stdio' ? STDIO_FIELDS : HTTP_FIELDS;
  const unknown = Object.keys(value).find((key) => !allowed.has(key));
  if (unknown !== undefined) return fail(`${at}.${unknown}`, `is not a field of a ${transport} server; known: ${[...allowed].join(', ')}`);
  if (value.queue !== undefined && (typeof value.queue !== 'string' || value.queue === '')) return fail(`${at}.queue`, 'must be a queue name');
  const queue = value.queue === undefined ? {} : { queue: value.queue as string };
  if (transport === 'stdio') {
    if (typeof value.command !== 'string' || value.command.trim() === '') return fail(`${at}.command`, 'must be a non-empty string');
    if (value.args !== undefined && (!Array.isArray(value.args) || value.args.some((arg) => typeof arg !== 'string'))) return fail(`${at}.args`, 'must be an array of strings');
    const env = stringRecord(value.env, `${at}.env`);
    if (!env.ok) return env;
    return { ok: true, value: { transport, command: value.command, args: (value.args as string[] | undefined) ?? [], env: env.value, ...queue } };
  }
  if (typeof value.url !== 'string') return fail(`${at}.url`, 'must be a string');
  let url: URL;
  try {
    url = new URL(value.url);
  } catch {
    return fail(`${at}.url`, `is not a URL: ${JSON.stringify(value.url.slice(0, 200))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`${at}.url`, 'must be an http(s) URL');
  const headers = stringRecord(value.headers, `${at}.headers`);
  if (!headers.ok) return headers;
  return { ok: true, value: { transport, url: url.href, headers: headers.value, ...queue } };
}

/** A whole `mcpServers` object (server name → entry), or the first problem. */
export function checkMcpServers(value: unknown): { ok: true; value: Record<string, McpServerConfig> } | { ok: false; problem: McpServerConfigProblem } {
  if (!isJsonObject(value)) return { ok: false, problem: { field: 'mcpServers', message: 'must be an object of server name → {"command", "args", "env"} or {"url", "headers"}' } };
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(value)) {
    const checked = checkMcpServerEntry(name, entry);
    if (!checked.ok) return checked;
    servers[name] = checked.value;
  }
  return { ok: true, value: servers };
}

/** Where a server is, for messages: its command line or its URL (never its env or headers, which may hold secrets). */
export function describeMcpServerConfig(config: McpServerConfig): string {
  return config.transport === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
}
