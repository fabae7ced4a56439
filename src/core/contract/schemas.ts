import type { JsonSchema } from './types.ts';

const SEMVER_PATTERN = '^\\d+\\.\\d+\\.\\d+$';
const SNAKE_CASE_PATTERN = '^[a-z][a-z0-9]*(_[a-z0-9]+)*$';

const timeRangeSchema: JsonSchema = {
  type: 'object',
  properties: {
    start_ms: { type: 'integer', minimum: 0 },
    end_ms: { type: 'integer', minimum: 0 },
  },
  required: ['start_ms', 'end_ms'],
  additionalProperties: false,
};

/** JSON Schema of a `ToolManifest` (tool-contract.md §1, §5.1: every top-level field is required). */
export const toolManifestSchema: JsonSchema = {
  $id: 'https://sextant.local/schemas/tool-manifest.json',
  title: 'ToolManifest',
  type: 'object',
  properties: {
    name: { type: 'string', pattern: SNAKE_CASE_PATTERN, description: 'Stable lowercase snake_case identifier.' },
    version: { type: 'string', pattern: SEMVER_PATTERN, description: 'Semantic version major.minor.patch.' },
    description: { type: 'string', minLength: 1 },
    capabilities: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    input_schema: {
      type: 'object',
      properties: { type: { const: 'object' } },
      required: ['type'],
      description: 'JSON Schema for ToolInvocation.arguments.',
    },
    output_schema: { type: 'object', description: 'JSON Schema for ToolResult.structured_output.' },
    execution_constraints: {
      type: 'object',
      properties: {
        max_timeout_ms: { type: 'integer', minimum: 1 },
        max_payload_bytes: { type: 'integer', minimum: 1 },
        supports_streaming: { type: 'boolean' },
        side_effects: { enum: ['none', 'read_only', 'external_write'] },
        // Optional (default `required`): `none` for a tool that reads no capture, whose invocations carry none.
        capture_selection: { enum: ['required', 'none'] },
      },
      required: ['max_timeout_ms', 'max_payload_bytes', 'supports_streaming', 'side_effects'],
      additionalProperties: false,
    },
    cost_hint: {
      type: 'object',
      properties: {
        unit: { enum: ['call', 'second', 'record'] },
        estimated_cost: { type: 'number', minimum: 0 },
        currency: { type: 'string', minLength: 1 },
      },
      required: ['unit', 'estimated_cost', 'currency'],
      additionalProperties: false,
    },
    deterministic: { type: 'boolean' },
  },
  required: [
    'name',
    'version',
    'description',
    'capabilities',
    'input_schema',
    'output_schema',
    'execution_constraints',
    'cost_hint',
    'deterministic',
  ],
  additionalProperties: false,
};

/**
 * JSON Schema of the `ToolInvocation` envelope. `capture_selection` is only required to be an
 * object here: its two accepted shapes are told apart and checked by `normalizeCaptureSelection`,
 * which reports precise paths for each shape. Whether it must be present depends on the tool
 * (its manifest's `execution_constraints.capture_selection`), so `validateInvocation` checks that.
 */
export const toolInvocationSchema: JsonSchema = {
  $id: 'https://sextant.local/schemas/tool-invocation.json',
  title: 'ToolInvocation',
  type: 'object',
  properties: {
    tool_name: { type: 'string', minLength: 1 },
    tool_version: { type: 'string', pattern: SEMVER_PATTERN },
    capture_selection: { type: 'object' },
    arguments: { type: 'object' },
    request_id: { type: 'string', minLength: 1 },
    timeout_ms: { type: 'integer', minimum: 0 },
  },
  required: ['tool_name', 'tool_version', 'arguments', 'request_id', 'timeout_ms'],
  additionalProperties: false,
};

/** The generic `capture_selection` shape (tool-contract.md §2). */
export const genericCaptureSelectionSchema: JsonSchema = {
  type: 'object',
  properties: {
    capture_id: { type: 'string', minLength: 1 },
    selectors: {
      type: 'object',
      properties: {
        time_range: timeRangeSchema,
        channels: { type: 'array', items: { type: 'string' } },
        filters: { type: 'array', items: { type: 'string' } },
      },
      additionalProperties: false,
    },
  },
  required: ['capture_id'],
  additionalProperties: false,
};

/** The BLE `capture_selection` shape (tool-contract.md §7.1). */
export const bleCaptureSelectionSchema: JsonSchema = {
  type: 'object',
  properties: {
    capture_ids: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
    time_window: timeRangeSchema,
    filter_expression: { type: 'string' },
  },
  required: ['capture_ids', 'time_window'],
  additionalProperties: false,
};

/** JSON Schema of a `ToolResult` (tool-contract.md §3 and settled decision 8). */
export const toolResultSchema: JsonSchema = {
  $id: 'https://sextant.local/schemas/tool-result.json',
  title: 'ToolResult',
  type: 'object',
  properties: {
    status: { enum: ['ok', 'partial', 'error'] },
    summary: { type: 'string' },
    structured_output: { type: 'object' },
    artifacts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1 },
          mime_type: { type: 'string', minLength: 1 },
          uri: { type: 'string', minLength: 1 },
          sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
        required: ['name', 'mime_type', 'uri', 'sha256'],
        additionalProperties: false,
      },
    },
    warnings: {
      type: 'array',
      items: {
        type: 'object',
        properties: { code: { type: 'string', minLength: 1 }, message: { type: 'string' } },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string', minLength: 1 },
          message: { type: 'string' },
          field: { type: 'string' },
        },
        required: ['code', 'message', 'field'],
        additionalProperties: false,
      },
    },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['status', 'summary', 'warnings', 'errors', 'confidence'],
  allOf: [
    { if: { properties: { status: { enum: ['ok', 'partial'] } } }, then: { required: ['structured_output'] } },
    { if: { properties: { status: { const: 'partial' } } }, then: { properties: { warnings: { minItems: 1 } } } },
    {
      if: { properties: { status: { const: 'error' } } },
      then: {
        properties: { errors: { minItems: 1 }, structured_output: { type: 'object', maxProperties: 0 } },
      },
    },
  ],
  additionalProperties: false,
};
