import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { failureFromError } from './sdk-connection.ts';

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
