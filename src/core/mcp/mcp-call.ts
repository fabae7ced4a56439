import type { ToolError } from '../contract/tool-error.ts';
import type { ToolResult } from '../contract/types.ts';
import { closedByDefault } from '../executor/validate-invocation.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import { DEFAULT_MAX_RESULT_BYTES, toolResultFromFailure, toolResultFromMcp } from './mcp-result.ts';
import type { McpConnection, McpRequestOptions, McpToolDefinition } from './mcp-types.ts';

/**
 * Checks `args` against the tool's `inputSchema` under Sextant's rules: unknown arguments are
 * rejected unless the schema allows them (settled decision 2), one coded error per problem, each
 * at its path from the envelope root (`arguments.message`). Works for draft-07 and 2020-12.
 */
export function validateMcpArguments(tool: McpToolDefinition, args: unknown): ToolError[] {
  if (!isJsonObject(args)) {
    const got = args === null ? 'null' : Array.isArray(args) ? 'array' : typeof args;
    return [{ code: 'INVALID_TYPE', field: 'arguments', message: `arguments must be an object, got ${got}` }];
  }
  try {
    return validateAgainstSchema(closedByDefault(tool.inputSchema), args, { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' });
  } catch (error) {
    // Listed tools were checked to compile; this is a schema that compiles only in its open form.
    return [{ code: 'INVALID_VALUE', field: 'arguments', message: `The tool's inputSchema cannot be used: ${error instanceof Error ? error.message : String(error)}` }];
  }
}

/** What happened to one call: rejected before sending (`validation`) or sent (`execution`). */
export interface McpCallRecord {
  toolName: string;
  phase: 'validation' | 'execution';
  result: ToolResult;
  /** Milliseconds from the request to the answer (0 when nothing was sent). */
  durationMs: number;
}

export interface McpCallOptions extends McpRequestOptions {
  maxResultBytes?: number;
  /** A clock in milliseconds; injected so the core reads no global one. */
  now: () => number;
}

/** Validates, then (only when valid) calls the tool and maps its answer to a ToolResult. */
export async function callMcpTool(connection: McpConnection, tool: McpToolDefinition, args: unknown, options: McpCallOptions): Promise<McpCallRecord> {
  const errors = validateMcpArguments(tool, args);
  if (errors.length > 0) {
    return {
      toolName: tool.name,
      phase: 'validation',
      result: { status: 'error', summary: 'Invocation failed validation; nothing was sent to the server.', warnings: [], errors, confidence: 0 },
      durationMs: 0,
    };
  }
  const started = options.now();
  const answer = await connection.callTool(tool.name, args as JsonObject, options);
  const durationMs = options.now() - started;
  const result = answer.ok ? toolResultFromMcp(tool, answer.value, options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES) : toolResultFromFailure(tool.name, answer.failure);
  return { toolName: tool.name, phase: 'execution', result, durationMs };
}
