// `check` (issue 13): the conformance cases Sextant generates from a schema, sent to an MCP server
// as they are (no client-side validation), to see whether the server honours its own schemas.

import type { Deadline } from '../util/deadline.ts';
import type { CaptureInfo } from '../data/capture.ts';
import type { ToolManifest } from '../contract/types.ts';
import { generateConformanceCases } from '../manifests/conformance.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import { contentText, DEFAULT_MAX_RESULT_BYTES, describeMcpFailure, toolResultFromMcp } from './mcp-result.ts';
import type { McpConnection, McpToolDefinition } from './mcp-types.ts';

/** How the server treated one call. */
export type McpCheckOutcome =
  /** A result without `isError`. */
  | 'accepted'
  /** A JSON-RPC error (e.g. -32602). */
  | 'rejected-json-rpc'
  /** A result with `isError: true`. */
  | 'rejected-is-error'
  /** No answer before the deadline. */
  | 'timeout'
  /** The request failed for another reason (transport, garbage, session lost). */
  | 'failed';

/** One row of the check table. */
export interface McpCheckRow {
  tool: string;
  /** The conformance case id: `valid`, `missing-argument.message`, `wrong-type.a`, `unknown-argument`… */
  caseId: string;
  title: string;
  arguments: JsonObject;
  expected: 'accept' | 'reject';
  outcome: McpCheckOutcome;
  /** The server's error text or code, clipped; empty when it accepted. */
  detail: string;
  /** Whether `structuredContent` matched `outputSchema`: null when not accepted or no outputSchema declared. */
  outputMatches: boolean | null;
  durationMs: number;
  /** The server honoured its schema for this case. Accepting a broken call is a finding. */
  passed: boolean;
}

export interface McpCheckOptions {
  /** Deadline of each call, in milliseconds. */
  timeoutMs: number;
  now: () => number;
  maxResultBytes?: number;
  /**
   * The whole check's deadline (issue 24, D10): a call never outlives it, and the cases left when
   * it fires are reported as `timeout` rows that say they were not run.
   */
  overall?: Pick<Deadline, 'signal' | 'remainingMs'> & { limitMs: number };
}

/** A capture with no columns: MCP tools' arguments name no capture columns. */
const NO_CAPTURE: CaptureInfo = {
  id: 'mcp',
  description: '',
  source: 'mcp',
  rowCount: 0,
  columns: [],
  timeColumn: 'ts_ms',
  channelColumn: null,
  channels: [],
  bounds: { start_ms: 0, end_ms: 1000 },
  boundsSource: 'declared',
  timeOrigin: null,
};

/** The conformance cases that concern `arguments` (the envelope cases mean nothing to an MCP server). */
export function mcpCheckCases(tool: McpToolDefinition): Array<{ id: string; title: string; arguments: JsonObject; expected: 'accept' | 'reject' }> {
  const manifest: ToolManifest = {
    name: tool.name,
    version: '1.0.0',
    description: tool.description ?? '',
    capabilities: [],
    input_schema: tool.inputSchema,
    output_schema: tool.outputSchema ?? { type: 'object' },
    execution_constraints: { max_timeout_ms: 60_000, max_payload_bytes: 1_000_000, supports_streaming: false, side_effects: 'none', capture_selection: 'none' },
    cost_hint: { unit: 'call', estimated_cost: 0, currency: 'credits' },
    deterministic: false,
  };
  // Sextant closes object schemas by default (settled decision 2), but a server is judged by its
  // own schema: an unknown argument is a case only when the schema itself refuses extra keys.
  const closedByItself = tool.inputSchema.additionalProperties === false || tool.inputSchema.unevaluatedProperties === false;
  return generateConformanceCases(manifest, NO_CAPTURE, { minTimeoutMs: 0 })
    .filter((conformanceCase) => conformanceCase.id === 'valid' || (conformanceCase.expected.field ?? '').startsWith('arguments'))
    .filter((conformanceCase) => conformanceCase.id !== 'unknown-argument' || closedByItself)
    .map((conformanceCase) => ({
      id: conformanceCase.id,
      title: conformanceCase.title,
      arguments: isJsonObject(conformanceCase.invocation.arguments) ? conformanceCase.invocation.arguments : {},
      expected: conformanceCase.expected.status === 'ok' ? 'accept' : 'reject',
    }));
}

/** Runs every case of one tool against the server, one after the other. */
export async function checkMcpTool(connection: McpConnection, tool: McpToolDefinition, options: McpCheckOptions): Promise<McpCheckRow[]> {
  const rows: McpCheckRow[] = [];
  const { overall } = options;
  const outOfTime = `not run to the end: the check's overall limit of ${overall?.limitMs ?? 0} ms ran out`;
  for (const checkCase of mcpCheckCases(tool)) {
    const row = { tool: tool.name, caseId: checkCase.id, title: checkCase.title, arguments: checkCase.arguments, expected: checkCase.expected };
    if (overall?.signal.aborted) {
      rows.push({ ...row, outcome: 'timeout', detail: outOfTime, outputMatches: null, durationMs: 0, passed: false });
      continue;
    }
    const started = options.now();
    const timeoutMs = overall ? Math.max(1, Math.min(options.timeoutMs, Math.ceil(overall.remainingMs()))) : options.timeoutMs;
    const answer = await connection.callTool(tool.name, checkCase.arguments, { timeoutMs, ...(overall ? { signal: overall.signal } : {}) });
    const durationMs = options.now() - started;
    let outcome: McpCheckOutcome;
    let detail: string;
    let outputMatches: boolean | null = null;
    if (!answer.ok && overall?.signal.aborted) {
      outcome = 'timeout';
      detail = outOfTime;
    } else if (!answer.ok) {
      const failure = answer.failure;
      outcome = failure.kind === 'rpc-error' ? 'rejected-json-rpc' : failure.kind === 'timeout' ? 'timeout' : 'failed';
      detail = describeMcpFailure(failure);
    } else if (isJsonObject(answer.value) && answer.value.isError === true) {
      outcome = 'rejected-is-error';
      detail = Array.isArray(answer.value.content) ? contentText(answer.value.content) : '';
    } else {
      const mapped = toolResultFromMcp(tool, answer.value, options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES);
      const violation = mapped.errors.find((error) => error.code === 'OUTPUT_SCHEMA_VIOLATION');
      outcome = mapped.status === 'ok' || violation ? 'accepted' : 'failed';
      if (tool.outputSchema !== undefined && outcome === 'accepted') outputMatches = violation === undefined;
      detail = mapped.status === 'ok' ? '' : mapped.errors.map((error) => `${error.code}: ${error.message}`).join('; ');
    }
    const passed =
      checkCase.expected === 'accept'
        ? outcome === 'accepted' && outputMatches !== false
        : outcome === 'rejected-json-rpc' || outcome === 'rejected-is-error';
    rows.push({ ...row, outcome, detail: detail.slice(0, 300), outputMatches, durationMs, passed });
  }
  return rows;
}

/** The check table as fixed-width text, one row per case. */
export function formatCheckTable(rows: ReadonlyArray<McpCheckRow>): string {
  const header = ['tool', 'case', 'expected', 'server', 'output', 'ms', 'verdict'];
  const lines = rows.map((row) => [
    row.tool,
    row.caseId,
    row.expected,
    row.outcome === 'accepted' && row.expected === 'reject' ? 'accepted (finding)' : row.outcome,
    row.outputMatches === null ? '-' : row.outputMatches ? 'matches' : 'BREAKS schema',
    row.durationMs.toFixed(0),
    row.passed ? 'pass' : 'FAIL',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column].length)));
  const render = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...lines.map(render)].join('\n');
}
