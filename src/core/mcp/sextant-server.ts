// Sextant as an MCP server (issue 13), the protocol-neutral half: what `tools/list`,
// `tools/call` and `resources/*` answer, built from manifests, ToolResults and captures. The SDK
// `Server` and its transports live at the edge (cli/mcp).

import type { Capture, CaptureInfo } from '../data/capture.ts';
import type { ToolManifest, ToolResult } from '../contract/types.ts';
import type { JsonObject, JsonValue } from '../util/json.ts';
import { isJsonObject } from '../util/json.ts';
import { digestToolResultText, type DigestingTool } from '../tools/result-digest.ts';

/** Timeout the server fills in when the client gives none, before clamping to `max_timeout_ms`. */
export const MCP_DEFAULT_TIMEOUT_MS = 30_000;

const TIME_RANGE: JsonObject = {
  type: 'object',
  properties: { start_ms: { type: 'number' }, end_ms: { type: 'number' } },
  required: ['start_ms', 'end_ms'],
};

/** The two `capture_selection` shapes of settled decision 3, for a model to read. */
const CAPTURE_SELECTION_SCHEMA: JsonObject = {
  description:
    'Which capture rows the tool reads. Generic shape: {capture_id, selectors: {time_range: {start_ms, end_ms}, channels[], filters[]}}; ' +
    'BLE shape: {capture_ids[], time_window: {start_ms, end_ms}, filter_expression}. Times are milliseconds in the capture\'s own time base; ' +
    'read the sextant://captures/{id} resources for ids, bounds, channels and columns. Filters are a SQL WHERE subset.',
  anyOf: [
    {
      type: 'object',
      properties: {
        capture_id: { type: 'string' },
        selectors: {
          type: 'object',
          properties: { time_range: TIME_RANGE, channels: { type: 'array', items: { type: 'string' } }, filters: { type: 'array', items: { type: 'string' } } },
        },
      },
      required: ['capture_id'],
    },
    {
      type: 'object',
      properties: { capture_ids: { type: 'array', items: { type: 'string' }, minItems: 1 }, time_window: TIME_RANGE, filter_expression: { type: 'string' } },
      required: ['capture_ids', 'time_window'],
    },
  ],
};

/** An MCP tool definition, as `tools/list` returns it. */
export interface McpListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
}

/**
 * The MCP tool for a manifest: its `inputSchema` is the invocation as a model writes it
 * (`capture_selection` and `arguments`, optional `tool_version` and `timeout_ms`; the server
 * fills `tool_name` and `request_id`), its `outputSchema` the manifest's `output_schema`.
 */
export function mcpToolForManifest(manifest: ToolManifest): McpListedTool {
  const outputIsObject = manifest.output_schema.type === 'object';
  return {
    name: manifest.name,
    title: `${manifest.name.replace(/_/g, ' ')} ${manifest.version}`,
    description: manifest.description,
    inputSchema: {
      type: 'object',
      properties: {
        capture_selection: CAPTURE_SELECTION_SCHEMA,
        arguments: withoutSelectionArgument(manifest.input_schema),
        tool_version: { type: 'string', description: `Semantic version to run; default ${manifest.version}. Same major, highest minor at least this one.` },
        timeout_ms: {
          type: 'integer',
          description: `Timeout in milliseconds; default ${Math.min(MCP_DEFAULT_TIMEOUT_MS, manifest.execution_constraints.max_timeout_ms)}, clamped to ${manifest.execution_constraints.max_timeout_ms}.`,
        },
      },
      required: ['capture_selection', 'arguments'],
      additionalProperties: false,
    },
    // MCP requires an object schema here; a manifest with another top-level type lists none.
    ...(outputIsObject ? { outputSchema: manifest.output_schema } : {}),
  };
}

/**
 * A tool's `input_schema` as the `arguments` of an MCP call: a declared `capture_selection`
 * argument is the envelope's `capture_selection` (settled decision 3), so it is listed once, at
 * the top, and not required again inside `arguments`.
 */
function withoutSelectionArgument(schema: JsonObject): JsonObject {
  if (!isJsonObject(schema.properties) || !('capture_selection' in schema.properties)) return schema;
  const { capture_selection: _selection, ...properties } = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => name !== 'capture_selection') : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/**
 * The ToolInvocation envelope for a `tools/call` on `manifest` with the client's `args`. The
 * client's fields are kept as written (the executor validates them, coded errors and all);
 * `tool_name` and `request_id` are the server's.
 */
export function invocationFromMcpCall(manifest: ToolManifest, args: unknown, requestId: string): JsonObject {
  const written: JsonObject = isJsonObject(args) ? args : {};
  const { tool_name: _name, request_id: _id, ...fields } = written;
  return {
    tool_version: manifest.version,
    timeout_ms: Math.min(MCP_DEFAULT_TIMEOUT_MS, manifest.execution_constraints.max_timeout_ms),
    ...fields,
    tool_name: manifest.name,
    request_id: requestId,
  };
}

/**
 * The text a model reads for a result: the same compact JSON digest the planner hands its model
 * (status, summary, warnings and the tool's own digest of its output), so an MCP client's model
 * reads an analysis it can reason over instead of a plot's samples.
 */
export function mcpTextContent(result: ToolResult, tool?: DigestingTool): string {
  return digestToolResultText(result, tool);
}

/** A `tools/call` result as MCP answers it (plain JSON; the edge hands it to the SDK). */
export interface McpCallAnswer {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: JsonObject;
  isError?: boolean;
  [key: string]: JsonValue | undefined;
}

/** Where a Sextant server's answer carries the tool's own status (`ok` or `partial`) for a client to keep. */
export const SEXTANT_STATUS_META_KEY = 'io.sextant/status';

/**
 * `ok`/`partial` → the digest as text, `structuredContent`, and the tool's status in `_meta`
 * (MCP has no status of its own; a Sextant client reads it back); `error` → `isError` with the
 * coded errors as JSON text.
 */
export function mcpAnswerFromToolResult(result: ToolResult, tool?: DigestingTool): McpCallAnswer {
  if (result.status === 'error') {
    const errors = result.errors.map((error) => ({ code: error.code, field: error.field, message: error.message }));
    return { content: [{ type: 'text', text: JSON.stringify({ status: 'error', summary: result.summary, errors }) }], isError: true };
  }
  return {
    content: [{ type: 'text', text: mcpTextContent(result, tool) }],
    ...(result.structured_output ? { structuredContent: result.structured_output } : {}),
    _meta: { [SEXTANT_STATUS_META_KEY]: result.status },
  };
}

/** The URI of a capture's resource. */
export function captureResourceUri(id: string): string {
  return `sextant://captures/${encodeURIComponent(id)}`;
}

/** The capture id a resource URI names, or null. */
export function captureIdFromUri(uri: string): string | null {
  const match = /^sextant:\/\/captures\/([^/]+)$/.exec(uri);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** A `resources/list` entry for a capture. */
export function captureResourceEntry(info: CaptureInfo): { uri: string; name: string; title: string; description: string; mimeType: string } {
  return {
    uri: captureResourceUri(info.id),
    name: info.id,
    title: `Capture ${info.id}`,
    description: `${info.rowCount} rows, ${info.bounds.start_ms}–${info.bounds.end_ms} ms${info.description ? `: ${info.description}` : ''}`,
    mimeType: 'application/json',
  };
}

/** Most distinct receivers listed in a capture's resource. */
const MAX_RECEIVERS = 200;

/** What a model may select in a capture: id, rows, time bounds, receivers, channels, columns. */
export function captureResourceContent(capture: Capture): JsonObject {
  const info = capture.info;
  const receivers = new Set<string>();
  const column = capture.table.getChild('receiver');
  if (column) {
    for (let row = 0; row < column.length && receivers.size < MAX_RECEIVERS; row++) {
      const value: unknown = column.get(row);
      if (value !== null && value !== undefined) receivers.add(String(value));
    }
  }
  return {
    id: info.id,
    description: info.description,
    source: info.source,
    rows: info.rowCount,
    bounds: { start_ms: info.bounds.start_ms, end_ms: info.bounds.end_ms },
    bounds_source: info.boundsSource,
    time_origin: info.timeOrigin,
    time_column: info.timeColumn,
    channel_column: info.channelColumn,
    channels: info.channels,
    receivers: [...receivers].sort(),
    columns: info.columns.map((entry) => ({ name: entry.name, type: entry.kind })),
  };
}
