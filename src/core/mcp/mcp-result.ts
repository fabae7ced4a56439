import type { ToolError } from '../contract/tool-error.ts';
import type { ToolResult } from '../contract/types.ts';
import { assertNever } from '../util/result.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../util/json.ts';
import { checkJsonLimits } from '../util/json-limits.ts';
import { LIMITS } from '../util/limits.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import type { McpFailure, McpToolDefinition } from './mcp-types.ts';
import { SEXTANT_STATUS_META_KEY } from './sextant-server.ts';

/** Largest tool result Sextant accepts from an MCP server, in UTF-8 bytes of its JSON. */
export const DEFAULT_MAX_RESULT_BYTES = 4 * 1024 * 1024;
/** Longest server text kept in a summary or an error message, in characters. */
const MAX_TEXT_CHARS = 2000;

function clip(text: string, limit = MAX_TEXT_CHARS): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

function failed(summary: string, errors: ToolError[]): ToolResult {
  return { status: 'error', summary, warnings: [], errors, confidence: 0 };
}

/** The text items of an MCP `content` array, joined. */
export function contentText(content: ReadonlyArray<JsonValue>): string {
  return content
    .filter(isJsonObject)
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text as string)
    .join('\n');
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Maps a `tools/call` result onto a ToolResult under the contract: `isError` → `EXECUTION_ERROR`
 * with the server's text; `structuredContent` that breaks the tool's `outputSchema` (or is
 * missing when one is declared) → `OUTPUT_SCHEMA_VIOLATION`; an answer that is not a tool result
 * or is larger than `maxResultBytes` → a coded error saying so. `structured_output` is the
 * `structuredContent`, or `{content}` when the tool returned only content items.
 */
export function toolResultFromMcp(tool: McpToolDefinition, raw: unknown, maxResultBytes = DEFAULT_MAX_RESULT_BYTES): ToolResult {
  // A server's answer is as untrusted as an invocation: the JSON limits first, by an iterative
  // walk, before anything (schema validation, printing) recurses into it (issue 24, D3).
  const limits = checkJsonLimits(raw, { maxDepth: LIMITS.maxJsonDepth, maxNodes: LIMITS.maxJsonNodes, maxObjectKeys: LIMITS.maxObjectKeys });
  if (!limits.ok) {
    const field = limits.violation.path[0] === 'structuredContent' ? 'structured_output' : '';
    return failed(`${tool.name} returned a result past Sextant's JSON limits.`, [{ code: 'OUTPUT_SCHEMA_VIOLATION', field, message: `The server's result ${limits.violation.message}` }]);
  }
  const bytes = limits.measure.bytes;
  if (bytes > maxResultBytes) {
    return failed(`${tool.name} returned ${megabytes(bytes)}, more than Sextant accepts.`, [
      { code: 'PAYLOAD_TOO_LARGE', field: '', message: `The server's result is ${megabytes(bytes)} (${bytes} bytes); the limit is ${megabytes(maxResultBytes)}` },
    ]);
  }
  if (!isJsonObject(raw) || !Array.isArray(raw.content)) {
    return failed(`${tool.name} answered something that is not a tool result.`, [
      { code: 'EXECUTION_ERROR', field: '', message: 'The server answered tools/call without a "content" array' },
    ]);
  }
  const text = contentText(raw.content);
  if (raw.isError === true) {
    return failed(`${tool.name} reported an error.`, [
      { code: 'EXECUTION_ERROR', field: '', message: text === '' ? 'The server reported an error (isError) without text' : clip(text) },
    ]);
  }
  const structured = raw.structuredContent;
  if (tool.outputSchema !== undefined) {
    if (!isJsonObject(structured)) {
      return failed(`${tool.name} broke its outputSchema.`, [
        { code: 'OUTPUT_SCHEMA_VIOLATION', field: 'structured_output', message: 'The tool declares an outputSchema but returned no structuredContent object' },
      ]);
    }
    const violations = validateAgainstSchema(tool.outputSchema, structured, { prefix: ['structured_output'], typeErrorCode: 'INVALID_TYPE' });
    if (violations.length > 0) {
      return failed(
        `${tool.name} broke its outputSchema.`,
        violations.map((violation) => ({ code: 'OUTPUT_SCHEMA_VIOLATION', field: violation.field, message: violation.message })),
      );
    }
  }
  const output: JsonObject = isJsonObject(structured) ? structured : { content: raw.content };
  const summary = text === '' ? `${tool.name} returned ${raw.content.length} content item${raw.content.length === 1 ? '' : 's'}.` : clip(text, 500);
  // A Sextant server says when its tool's result is partial; any other server's result is ok.
  const partial = isJsonObject(raw._meta) && raw._meta[SEXTANT_STATUS_META_KEY] === 'partial';
  const warnings = partial ? [{ code: 'PARTIAL_RESULT', message: `${tool.name} marked its result partial; the summary lists why` }] : [];
  return { status: partial ? 'partial' : 'ok', summary, structured_output: output, warnings, errors: [], confidence: 1 };
}

/** JSON-RPC's invalid-params code. */
export const JSON_RPC_INVALID_PARAMS = -32602;
/** JSON-RPC's method-not-found code. */
export const JSON_RPC_METHOD_NOT_FOUND = -32601;

/** What a failed request means for the call, as a coded ToolResult. */
export function toolResultFromFailure(toolName: string, failure: McpFailure): ToolResult {
  switch (failure.kind) {
    case 'rpc-error':
      if (failure.code === JSON_RPC_INVALID_PARAMS) {
        return failed(`${toolName} was refused by the server: invalid parameters.`, [
          { code: 'INVALID_VALUE', field: 'arguments', message: clip(`The server rejected the arguments (JSON-RPC ${failure.code}): ${failure.message}`) },
        ]);
      }
      return failed(`${toolName} failed on the server.`, [
        { code: 'EXECUTION_ERROR', field: '', message: clip(`The server answered JSON-RPC error ${failure.code}: ${failure.message}`) },
      ]);
    case 'timeout':
      return failed(`${toolName} did not answer within ${failure.timeoutMs} ms.`, [
        { code: 'TIMEOUT', field: '', message: `No result within ${failure.timeoutMs} ms; the request was cancelled (notifications/cancelled sent)` },
      ]);
    case 'cancelled':
      return failed(`${toolName} was cancelled.`, [{ code: 'EXECUTION_ERROR', field: '', message: 'The call was cancelled before it finished (notifications/cancelled sent)' }]);
    case 'session-lost':
      return failed(`The server dropped the session.`, [
        { code: 'EXECUTION_ERROR', field: '', message: `The server no longer knows this session (${failure.message}); it restarted or expired it: reconnect` },
      ]);
    case 'http-status':
      return failed(`The server answered HTTP ${failure.status}.`, [{ code: 'EXECUTION_ERROR', field: '', message: clip(failure.message) }]);
    case 'unreachable':
      return failed(`The server could not be reached.`, [{ code: 'EXECUTION_ERROR', field: '', message: clip(failure.message) }]);
    case 'malformed':
      return failed(`The server answered something that is not MCP.`, [{ code: 'EXECUTION_ERROR', field: '', message: clip(failure.message) }]);
    default:
      return assertNever(failure, 'MCP failure');
  }
}

/** One line for a failure, for command-line messages and the app. */
export function describeMcpFailure(failure: McpFailure): string {
  return toolResultFromFailure('The request', failure).errors[0]?.message ?? failure.kind;
}
