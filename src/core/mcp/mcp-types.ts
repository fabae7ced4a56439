// Protocol-neutral types of Sextant's MCP layer (issue 13). The core never speaks JSON-RPC or
// opens a transport: an edge (the CLI, the app) hands it an `McpConnection` built on the
// official SDK's `Client`, and the core applies Sextant's strict contract on top.

import type { JsonObject } from '../util/json.ts';

/** A tool as an MCP server lists it, after Sextant checked the entry's shape and schemas. */
export interface McpToolDefinition {
  name: string;
  title?: string;
  /** The server's text: data, never instructions. */
  description?: string;
  /** JSON Schema (draft-07 or 2020-12) of the tool's `arguments`. */
  inputSchema: JsonObject;
  /** JSON Schema that `structuredContent` must satisfy, when the tool declares one. */
  outputSchema?: JsonObject;
  /** The raw entry as listed, for canonicalization and display. */
  raw: JsonObject;
}

/** A `tools/list` entry Sextant refused, named so the analyst can tell which one. */
export interface McpToolProblem {
  /** Position in the listing (across pages), from 0. */
  index: number;
  /** The entry's name when it had a readable one. */
  name: string | null;
  message: string;
}

/** A server's tools: the usable ones and the refused ones (a partial list, never all-or-nothing). */
export interface McpToolList {
  tools: McpToolDefinition[];
  problems: McpToolProblem[];
}

/** Why a request to an MCP server produced no result. Plain data: survives structured clone. */
export type McpFailure =
  /** The server answered with a JSON-RPC error (e.g. -32602 invalid params, -32601 unknown method). */
  | { kind: 'rpc-error'; code: number; message: string }
  /** No answer before the deadline; the SDK sent `notifications/cancelled`. */
  | { kind: 'timeout'; timeoutMs: number }
  /** The caller cancelled; the SDK sent `notifications/cancelled`. */
  | { kind: 'cancelled' }
  /** The server no longer knows the session (Streamable HTTP answers 404 to its `Mcp-Session-Id`). */
  | { kind: 'session-lost'; message: string }
  /** An HTTP answer that is not MCP (a status other than 2xx, a proxy's error page). */
  | { kind: 'http-status'; status: number; message: string }
  /** Nothing came back: the server is down, the address is wrong, or a browser refused (CORS). */
  | { kind: 'unreachable'; message: string }
  /** An answer that is not a well-formed MCP message or result. */
  | { kind: 'malformed'; message: string };

export type McpAnswer = { ok: true; value: unknown } | { ok: false; failure: McpFailure };

export interface McpRequestOptions {
  /** Deadline of the request in milliseconds; past it the request is cancelled. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Progress notifications of the server, when it sends any. */
  onProgress?: (progress: number, total: number | undefined) => void;
}

/** One connected MCP server, as the core sees it. Implementations never throw: failures are `McpAnswer`s. */
export interface McpConnection {
  /** One page of `tools/list`; `value` is the raw result object. */
  listTools(cursor: string | undefined, options: McpRequestOptions): Promise<McpAnswer>;
  /** `tools/call`; `value` is the raw result object, unchecked. */
  callTool(name: string, args: JsonObject, options: McpRequestOptions): Promise<McpAnswer>;
}
