// Connecting to an MCP server from the command line: the SDK's client and transports, wrapped
// into the core's `McpConnection`. Nothing here speaks JSON-RPC.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createSdkConnection, failureFromError, type McpAnswer, type McpConnection, type McpFailure } from '../../src/core/index.ts';

/** Where a server is: a Streamable HTTP URL, or a command speaking MCP on its stdin/stdout. */
export type McpTarget =
  | { kind: 'http'; url: URL; token?: string; headers?: Readonly<Record<string, string>> }
  | { kind: 'stdio'; command: string; args: string[]; env?: Readonly<Record<string, string>> };

/** Why a connection failed; `missing`: a stdio server's command does not exist (spawn ENOENT). */
export type McpConnectFailure = { ok: false; failure: McpFailure; missing?: boolean };

export interface OpenMcpClient {
  connection: McpConnection;
  client: Client;
  /** The server's stderr so far (stdio targets), for error messages. */
  stderr(): string;
  close(): Promise<void>;
}

/** Splits `"COMMAND ARGS"` on whitespace; double or single quotes keep a word together. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) words.push(match[1] ?? match[2] ?? match[3]);
  return words;
}

export const CLIENT_INFO = { name: 'sextant', version: '0.1.0' } as const;

/** Connects (MCP initialize) within `timeoutMs` (and until `signal` aborts); a failure says what happened. */
export async function connectMcp(target: McpTarget, timeoutMs: number, signal?: AbortSignal): Promise<{ ok: true; value: OpenMcpClient } | McpConnectFailure> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let stderrText = '';
  // A stdio server may write nothing but MCP messages on its stdout. The SDK reports a line that
  // is not one and keeps waiting, so a call would end only at its deadline (issue 24, D13): the
  // first such line ends the connection at once and every answer names it.
  let junk: string | null = null;
  if (target.kind === 'stdio') {
    client.onerror = (error) => {
      if (junk !== null || !(error instanceof SyntaxError || error.name === 'ZodError')) return;
      junk = error.message.replace(/\s+/g, ' ').slice(0, 300);
      void client.close().catch(() => {});
    };
  }
  const named = (failure: McpFailure): McpFailure =>
    junk === null ? failure : { kind: 'malformed', message: `The server wrote something that is not an MCP message on its stdout (${junk}); a stdio server may write only MCP messages there (logs belong on stderr)` };
  let transport: Transport;
  if (target.kind === 'http') {
    const headers: Record<string, string> = { ...target.headers, ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) };
    transport = new StreamableHTTPClientTransport(target.url, { requestInit: { headers } });
  } else {
    // `env` is added to the SDK's small safe default environment, never to all of this process's.
    const stdio = new StdioClientTransport({ command: target.command, args: target.args, stderr: 'pipe', ...(target.env ? { env: { ...target.env } } : {}) });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      if (stderrText.length < 8000) stderrText += chunk.toString('utf8');
    });
    transport = stdio;
  }
  try {
    await client.connect(transport, { timeout: timeoutMs, ...(signal ? { signal } : {}) });
  } catch (error) {
    await client.close().catch(() => {});
    if (target.kind === 'stdio' && (error as { code?: unknown } | null)?.code === 'ENOENT') {
      return { ok: false, missing: true, failure: { kind: 'unreachable', message: `The command ${JSON.stringify(target.command)} was not found (spawn ENOENT)` } };
    }
    const failure = named(failureFromError(error, timeoutMs, signal));
    if (target.kind === 'stdio' && stderrText.trim() !== '' && 'message' in failure) {
      return { ok: false, failure: { ...failure, message: `${failure.message}; the server wrote: ${stderrText.trim().slice(0, 500)}` } };
    }
    return { ok: false, failure };
  }
  return {
    ok: true,
    value: { connection: namingJunk(createSdkConnection(client, ResultSchema), named), client, stderr: () => stderrText, close: () => client.close() },
  };
}

/** The connection with every failure passed through `named`. */
function namingJunk(connection: McpConnection, named: (failure: McpFailure) => McpFailure): McpConnection {
  const rename = (answer: McpAnswer): McpAnswer => (answer.ok ? answer : { ok: false, failure: named(answer.failure) });
  return {
    listTools: async (cursor, options) => rename(await connection.listTools(cursor, options)),
    callTool: async (name, args, options) => rename(await connection.callTool(name, args, options)),
  };
}
