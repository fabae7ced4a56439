import type { RunOptions, RunRequest, RunnerResponse, ToolRunner } from '../executor/runner.ts';
import { DEFAULT_MAX_RESULT_BYTES, toolResultFromFailure, toolResultFromMcp } from './mcp-result.ts';
import type { McpConnection, McpFailure, McpToolDefinition } from './mcp-types.ts';

/** Where a saved manifest bound to an MCP server runs: the server's tool, and how to reach it. */
export interface McpRunBinding {
  /** The tool as the server listed it (its name on the server, its outputSchema). */
  tool: McpToolDefinition;
  /** The live connection to its server, opened (or reused) on demand. */
  connect(): Promise<{ ok: true; connection: McpConnection } | { ok: false; failure: McpFailure }>;
}

export interface McpRunnerOptions {
  /** The MCP binding of a tool version, or null to run it with `fallback`. */
  bindingFor(toolName: string, toolVersion: string): McpRunBinding | null;
  fallback: ToolRunner;
  maxResultBytes?: number;
}

/**
 * Runs MCP-bound saved manifests the way the endpoint runner runs endpoint-bound ones: the
 * executor has already validated the invocation against the manifest; this sends its
 * `arguments` as a `tools/call` (the deadline cancels the request) and hands back the answer
 * mapped to a ToolResult, for the executor to check against the manifest like any reply.
 */
export function createMcpRunner(options: McpRunnerOptions): ToolRunner {
  return {
    async run(request: RunRequest, runOptions: RunOptions = {}): Promise<RunnerResponse> {
      const binding = options.bindingFor(request.toolName, request.toolVersion);
      if (binding === null) return options.fallback.run(request, runOptions);
      if (runOptions.signal?.aborted) return { kind: 'cancelled' };
      const opened = await binding.connect();
      if (!opened.ok) return { kind: 'reply', result: toolResultFromFailure(binding.tool.name, opened.failure) };
      const answer = await opened.connection.callTool(binding.tool.name, request.arguments, {
        timeoutMs: request.timeoutMs,
        signal: runOptions.signal,
        onProgress: (progress, total) => {
          if (total !== undefined && total > 0) runOptions.onProgress?.(Math.min(1, progress / total));
        },
      });
      if (!answer.ok) {
        if (answer.failure.kind === 'timeout') return { kind: 'timeout' };
        if (answer.failure.kind === 'cancelled') return { kind: 'cancelled' };
        return { kind: 'reply', result: toolResultFromFailure(binding.tool.name, answer.failure) };
      }
      return { kind: 'reply', result: toolResultFromMcp(binding.tool, answer.value, options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES) };
    },
  };
}
