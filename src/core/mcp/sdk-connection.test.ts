import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { createSdkConnection, failureFromError } from './sdk-connection.ts';

// The SDK's own error objects, classified by shape (the core imports no SDK code).
describe('failureFromError', () => {
  it('tells the SDK errors apart', () => {
    expect(failureFromError(new McpError(ErrorCode.RequestTimeout, 'Request timed out'), 500)).toEqual({ kind: 'timeout', timeoutMs: 500 });
    expect(failureFromError(new McpError(ErrorCode.InvalidParams, 'Unknown tool x'), 500)).toEqual({ kind: 'rpc-error', code: -32602, message: 'Unknown tool x' });
    expect(failureFromError(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), 500).kind).toBe('unreachable');
    expect(failureFromError(new StreamableHTTPError(404, 'Error POSTing to endpoint: Session not found'), 500)).toEqual({ kind: 'session-lost', message: 'HTTP 404 for the Mcp-Session-Id' });
    expect(failureFromError(new StreamableHTTPError(-1, 'Unexpected content type: text/html'), 500).kind).toBe('malformed');
    expect(failureFromError(new StreamableHTTPError(502, 'Error POSTing to endpoint: Bad Gateway'), 500)).toMatchObject({ kind: 'http-status', status: 502 });
    expect(failureFromError(new TypeError('Failed to fetch'), 500)).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('Access-Control-Expose-Headers: Mcp-Session-Id') });
    expect(failureFromError(new SyntaxError('Unexpected token <'), 500).kind).toBe('malformed');
  });

  it('reports a cancel as cancelled whatever the SDK threw', () => {
    const controller = new AbortController();
    controller.abort();
    expect(failureFromError(new McpError(ErrorCode.ConnectionClosed, 'x'), 500, controller.signal)).toEqual({ kind: 'cancelled' });
  });
});

describe('createSdkConnection', () => {
  /** A client that, as the SDK does, leaves an abort listener on each request's signal, and answers when told to. */
  function leakyClient() {
    const signals: AbortSignal[] = [];
    let answer: (() => void) | null = null;
    const client = {
      request: (_request: unknown, _schema: unknown, options?: { signal?: AbortSignal }) =>
        new Promise<unknown>((resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
          signals.push(options!.signal!);
          answer = () => resolve({ content: [] });
        }),
    };
    return { client, signals, answer: () => answer?.() };
  }

  it('gives each request a signal of its own, so a shared caller signal keeps no listener per request', async () => {
    const { client, answer } = leakyClient();
    const connection = createSdkConnection(client as never, {} as never);
    const overall = new AbortController();
    for (let index = 0; index < 20; index++) {
      const call = connection.callTool('echo', {}, { timeoutMs: 1_000, signal: overall.signal });
      answer();
      expect((await call).ok).toBe(true);
    }
    expect(getEventListeners(overall.signal, 'abort')).toHaveLength(0);
  });

  it('still cancels the running request when the caller’s signal aborts', async () => {
    const { client, signals } = leakyClient();
    const connection = createSdkConnection(client as never, {} as never);
    const overall = new AbortController();
    const call = connection.callTool('echo', {}, { timeoutMs: 1_000, signal: overall.signal });
    overall.abort();
    expect(signals[0].aborted).toBe(true);
    expect(await call).toEqual({ ok: false, failure: { kind: 'cancelled' } });
  });
});
