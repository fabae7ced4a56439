// The one place the core touches the official MCP SDK: an `McpConnection` over an SDK `Client`
// that the edge (CLI, app) created and connected with its transport. Requests go out with the
// SDK's loose `ResultSchema` (handed in by the edge, so the core bundles no SDK code), so that
// Sextant — not the SDK — judges tool lists and results (the SDK's own parsing would reject a
// whole tools/list for one bad entry); every thrown error becomes an `McpFailure`.

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../util/json.ts';
import type { McpAnswer, McpConnection, McpFailure, McpRequestOptions } from './mcp-types.ts';

/** The SDK's `ErrorCode` values this layer tells apart (JSON-RPC and MCP-defined). */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

/** The SDK's `McpError`, recognized by shape: a numeric JSON-RPC `code` and its "MCP error" message. */
function isMcpError(error: unknown): error is Error & { code: number } {
  return error instanceof Error && error.name === 'McpError' && typeof (error as { code?: unknown }).code === 'number';
}

/** What a browser must be told when `fetch` is refused with no detail (CORS looks like a network error). */
export const MCP_CORS_HINT =
  'check that the server is running and the address is right; from a browser page the server must also answer the CORS preflight (OPTIONS) ' +
  'with Access-Control-Allow-Origin for this page, Access-Control-Allow-Headers including content-type, accept, mcp-session-id and ' +
  'mcp-protocol-version (and authorization when a token is used), and send Access-Control-Expose-Headers: Mcp-Session-Id';

/** Classifies anything the SDK threw. */
export function failureFromError(error: unknown, timeoutMs: number, signal?: AbortSignal): McpFailure {
  if (signal?.aborted) return { kind: 'cancelled' };
  const message = error instanceof Error ? error.message : String(error);
  if (isMcpError(error)) {
    if (error.code === REQUEST_TIMEOUT) return { kind: 'timeout', timeoutMs };
    if (error.code === CONNECTION_CLOSED) return { kind: 'unreachable', message: `The connection to the server closed (${message})` };
    return { kind: 'rpc-error', code: error.code, message: message.replace(/^MCP error -?\d+: /, '') };
  }
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'cancelled' };
  // The SDK's StreamableHTTPError: a numeric `code` that is the HTTP status (-1: unexpected content type).
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (message.startsWith('Streamable HTTP error') && typeof code === 'number') {
    // 404 is what the spec prescribes for an unknown session; some servers answer 400 naming the session.
    if ((code === 404 || code === 400) && /session/i.test(message)) return { kind: 'session-lost', message: `HTTP ${code} for the Mcp-Session-Id` };
    if (code === -1) return { kind: 'malformed', message: `The server did not answer with JSON or an event stream (${message})` };
    return { kind: 'http-status', status: code, message: `The server answered HTTP ${code}: ${message}` };
  }
  if (error instanceof TypeError && /fetch|network|load failed/i.test(message)) {
    return { kind: 'unreachable', message: `Could not reach the server (${message}): ${MCP_CORS_HINT}` };
  }
  if (error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError')) {
    return { kind: 'malformed', message: `The server's answer is not a valid MCP message: ${message.slice(0, 300)}` };
  }
  return { kind: 'unreachable', message };
}

/** An `McpConnection` over a connected SDK client; `resultSchema` is the SDK's `ResultSchema`. Never throws. */
export function createSdkConnection(client: Pick<Client, 'request'>, resultSchema: typeof ResultSchema): McpConnection {
  async function send(method: 'tools/list' | 'tools/call', params: JsonObject, options: McpRequestOptions): Promise<McpAnswer> {
    // The SDK leaves its abort listener on the signal it is given after the request ends, so a
    // signal shared by many requests (a check's overall deadline) gathered one per request; each
    // request gets a signal of its own, following the caller's only while it runs.
    const request = new AbortController();
    const follow = (): void => request.abort(options.signal?.reason);
    if (options.signal?.aborted) follow();
    else options.signal?.addEventListener('abort', follow, { once: true });
    try {
      const value: unknown = await client.request({ method, params }, resultSchema, {
        timeout: options.timeoutMs,
        signal: request.signal,
        ...(options.onProgress ? { onprogress: (progress) => options.onProgress?.(progress.progress, progress.total) } : {}),
      });
      return { ok: true, value };
    } catch (error) {
      return { ok: false, failure: failureFromError(error, options.timeoutMs, options.signal) };
    } finally {
      options.signal?.removeEventListener('abort', follow);
    }
  }
  return {
    listTools: (cursor, options) => send('tools/list', cursor === undefined ? {} : { cursor }, options),
    callTool: (name, args, options) => send('tools/call', { name, arguments: args }, options),
  };
}
