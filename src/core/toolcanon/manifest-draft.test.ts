import { describe, expect, it } from 'vitest';
import { lintManifest } from '../manifests/lint.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import internalWeather from './__fixtures__/internal-weather-tool.json';
import openaiWrapped from './__fixtures__/openai-list-files.json';
import { canonicalize } from './canonicalize.ts';
import { emitJsonSchema } from './emit.ts';
import { fromManifest, MANIFEST_DEFAULTS, toManifest, toSnakeCase } from './manifest-draft.ts';

describe('toManifest', () => {
  it('maps an imported OpenAI function to a draft that passes the lint, every default flagged', () => {
    const { manifest, review } = toManifest(canonicalize(openaiWrapped).tool);
    expect(manifest).toEqual({
      name: 'list_files',
      version: '1.0.0',
      description: 'List all files in a directory',
      capabilities: ['list_files'],
      input_schema: openaiWrapped.function.parameters,
      output_schema: { type: 'object' },
      execution_constraints: { max_timeout_ms: 30_000, max_payload_bytes: 1_048_576, supports_streaming: false, side_effects: 'read_only' },
      cost_hint: { unit: 'call', estimated_cost: 0, currency: 'USD' },
      deterministic: false,
    });
    expect(review.map((item) => item.field)).toEqual([
      '$.capabilities',
      '$.output_schema',
      '$.execution_constraints.max_timeout_ms',
      '$.execution_constraints.max_payload_bytes',
      '$.execution_constraints.supports_streaming',
      '$.execution_constraints.side_effects',
      '$.cost_hint',
      '$.deterministic',
    ]);
    expect(lintManifest(manifest)).toEqual([]);
  });

  it('rewrites names, fills a missing description and input schema, and says so', () => {
    const { manifest, review } = toManifest({ ...canonicalize({ name: 'getWeather-Now', parameters: {} }).tool, version: 'v2' });
    expect(manifest.name).toBe('get_weather_now');
    expect(manifest.version).toBe('1.0.0');
    expect(manifest.description).toBe(MANIFEST_DEFAULTS.description);
    expect(manifest.input_schema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(review.slice(0, 4)).toEqual([
      { field: '$.name', reason: '"getWeather-Now" is not lowercase snake_case; rewritten as "get_weather_now".' },
      { field: '$.version', reason: '"v2" is not a major.minor.patch version; set to 1.0.0.' },
      { field: '$.description', reason: 'The source has no description; models choose tools by their descriptions, so write one.' },
      { field: '$.capabilities', reason: 'The canonical model has no capability list; ["get_weather_now"] stands in. List the operations the tool supports.' },
    ]);
    expect(toManifest(canonicalize({ parameters: {} }).tool).manifest.name).toBe('imported_tool');
  });

  it('maps side effects, outputs and security', () => {
    const deleting = canonicalize({ name: 'delete_record', description: 'Delete a record', inputSchema: { type: 'object' } }).tool;
    expect(toManifest(deleting).manifest.execution_constraints.side_effects).toBe('external_write');
    const weather = toManifest(canonicalize(internalWeather).tool);
    expect(weather.manifest.output_schema).toEqual(internalWeather.output_schema);
    expect(weather.review.map((item) => item.field)).not.toContain('$.output_schema');
    const secured = toManifest({ ...deleting, security: { required_permissions: ['db:write'], data_classification: 'internal', pii_handling: 'none' } });
    expect(secured.review.at(-1)).toEqual({
      field: '$',
      reason: 'ToolManifest has no place for security metadata; dropped: {"required_permissions":["db:write"],"data_classification":"internal","pii_handling":"none"}.',
    });
  });

  it('keeps the manifest fields of a pasted Sextant manifest (detected as Anthropic)', () => {
    for (const { manifest } of builtinTools({ testTools: true })) {
      const result = canonicalize(manifest);
      expect(result.source_format_detected).toBe('anthropic');
      const draft = toManifest(result.tool);
      expect(draft.manifest).toEqual(manifest);
      expect(draft.review).toEqual([]);
    }
  });

  it('removes a $schema of another dialect (zod-to-json-schema writes draft-07 into MCP tools)', () => {
    const mcp = { name: 'echo', description: 'Echo text', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { text: { type: 'string' } } } };
    const { manifest, review } = toManifest(canonicalize(mcp).tool);
    expect(manifest.input_schema).toEqual({ type: 'object', properties: { text: { type: 'string' } } });
    expect(review[1]).toEqual({
      field: '$.input_schema',
      reason: 'Removed "$schema": "http://json-schema.org/draft-07/schema#": Sextant validates schemas as JSON Schema 2020-12; check keywords that differ (tuple "items" arrays are "prefixItems" in 2020-12).',
    });
    expect(lintManifest(manifest).filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it('drafts an MCP tool as reading no capture when told so, and keeps capture_selection of a pasted manifest', () => {
    const mcp = { name: 'echo', description: 'Echo text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };
    expect(toManifest(canonicalize(mcp).tool).manifest.execution_constraints.capture_selection).toBeUndefined();
    const draft = toManifest(canonicalize(mcp, { format: 'mcp' }).tool, { readsNoCapture: true });
    expect(draft.manifest.execution_constraints).toEqual({ max_timeout_ms: 30_000, max_payload_bytes: 1_048_576, supports_streaming: false, side_effects: 'read_only', capture_selection: 'none' });
    expect(lintManifest(draft.manifest)).toEqual([]);
    const pasted = toManifest(canonicalize(draft.manifest).tool);
    expect(pasted.manifest.execution_constraints.capture_selection).toBe('none');
    expect(pasted.review).toEqual([]);
  });

  it('turns names into snake_case', () => {
    expect(toSnakeCase('getWeather')).toBe('get_weather');
    expect(toSnakeCase('HTTPRequest')).toBe('http_request');
    expect(toSnakeCase('get-weather now')).toBe('get_weather_now');
    expect(toSnakeCase('42_tool_')).toBe('tool');
    expect(toSnakeCase('___')).toBe('');
  });
});

describe('fromManifest', () => {
  it('maps a manifest onto the canonical model', () => {
    const [regression] = builtinTools();
    const tool = fromManifest(regression.manifest);
    expect(tool).toMatchObject({
      name: regression.manifest.name,
      version: regression.manifest.version,
      description: regression.manifest.description,
      inputs: regression.manifest.input_schema,
      outputs: regression.manifest.output_schema,
      security: null,
      source_format: 'raw',
    });
    expect(tool.capabilities.side_effects).toBe(false);
    expect(tool.original_definition).toEqual(regression.manifest);
    expect(emitJsonSchema(tool)['x-outputs']).toEqual(regression.manifest.output_schema);
  });
});
