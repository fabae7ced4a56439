import { describe, expect, it } from 'vitest';
import openaiWrapped from './__fixtures__/openai-list-files.json';
import { canonicalize } from './canonicalize.ts';
import { EMIT_TARGETS, emit, emitAnthropic, emitJsonSchema, emitMcp, emitOpenAI, emitOpenAILegacy } from './emit.ts';
import { defaultCapability, type CanonicalTool } from './types.ts';

function tool(overrides: Partial<CanonicalTool> = {}): CanonicalTool {
  return {
    name: 'list_files',
    version: '1.0.0',
    description: 'List all files in a directory',
    capabilities: { action: 'list', domain: 'filesystem', side_effects: false, idempotent: true, cost_estimate: 'free' },
    inputs: { type: 'object', properties: { directory: { type: 'string', description: 'Absolute path to the directory' } }, required: ['directory'] },
    outputs: {},
    security: null,
    source_format: 'openai',
    original_definition: {},
    ...overrides,
  };
}

describe('provider emitters (toolcanon-api.md shapes)', () => {
  it('writes the OpenAI wrapper back exactly as it came', () => {
    expect(emitOpenAI(canonicalize(openaiWrapped).tool)).toEqual(openaiWrapped);
    expect(emitOpenAILegacy(tool())).toEqual(openaiWrapped.function);
  });

  it('writes Anthropic and MCP shapes', () => {
    expect(emitAnthropic(tool())).toEqual({ name: 'list_files', description: 'List all files in a directory', input_schema: tool().inputs });
    expect(emitMcp(tool())).toEqual({ name: 'list_files', description: 'List all files in a directory', inputSchema: tool().inputs });
  });

  it('gives empty inputs {"type": "object", "properties": {}} and adds a missing type', () => {
    const empty = tool({ inputs: {} });
    expect(emitOpenAI(empty)).toEqual({ type: 'function', function: { name: 'list_files', description: 'List all files in a directory', parameters: { type: 'object', properties: {} } } });
    expect(emitAnthropic(empty).input_schema).toEqual({ type: 'object', properties: {} });
    expect(emitMcp(empty).inputSchema).toEqual({ type: 'object', properties: {} });
    const untyped = tool({ inputs: { properties: { a: { type: 'string' } } } });
    for (const emitted of [emitOpenAILegacy(untyped).parameters, emitAnthropic(untyped).input_schema, emitMcp(untyped).inputSchema]) {
      expect(emitted).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
      expect(Object.keys(emitted as object)[0]).toBe('type');
    }
  });

  it('shares nothing with the tool', () => {
    const source = tool();
    for (const target of EMIT_TARGETS) {
      const emitted = JSON.stringify(emit(source, target));
      const output = emit(source, target);
      JSON.stringify(output, (_key, value: unknown) => {
        if (value && typeof value === 'object') {
          expect(value).not.toBe(source.inputs);
          expect(value).not.toBe(source.inputs.properties);
        }
        return value;
      });
      expect(JSON.stringify(emit(source, target))).toBe(emitted);
    }
  });
});

describe('emitJsonSchema', () => {
  // The document's own example: delete_record with capabilities and security.
  const deleteRecord = tool({
    name: 'delete_record',
    description: 'Delete a record permanently',
    capabilities: { ...defaultCapability(), action: 'delete', domain: 'database', side_effects: true },
    security: { required_permissions: ['records:delete'], data_classification: 'confidential', pii_handling: 'processes' },
    inputs: { type: 'object', properties: { id: { type: 'string' } } },
    source_format: 'raw',
  });

  it('writes $schema, title, description, the inputs at the root, x-capabilities and x-security', () => {
    expect(emitJsonSchema(deleteRecord)).toEqual({
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      title: 'delete_record',
      description: 'Delete a record permanently',
      type: 'object',
      properties: { id: { type: 'string' } },
      'x-capabilities': { action: 'delete', domain: 'database', side_effects: true, idempotent: true, cost_estimate: 'unknown' },
      'x-security': { required_permissions: ['records:delete'], data_classification: 'confidential', pii_handling: 'processes' },
    });
  });

  it('writes x-outputs only with outputs and x-security only with security', () => {
    const outputs = { type: 'object', properties: { deleted: { type: 'boolean' } } };
    expect(emitJsonSchema({ ...deleteRecord, outputs })['x-outputs']).toEqual(outputs);
    expect(emitJsonSchema(deleteRecord)).not.toHaveProperty('x-outputs');
    expect(emitJsonSchema({ ...deleteRecord, security: null })).not.toHaveProperty('x-security');
    expect(emitJsonSchema(deleteRecord)).toHaveProperty('x-capabilities');
  });

  it("lets the tool's name and description win over the input schema's title and description", () => {
    const pydantic = tool({ inputs: { title: 'ListFilesInput', description: 'Arguments', $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} } });
    const document = emitJsonSchema(pydantic);
    expect(document).toMatchObject({ $schema: 'https://json-schema.org/draft/2019-09/schema', title: 'list_files', description: 'List all files in a directory' });
  });

  it('is read back by the raw heuristic', () => {
    const result = canonicalize(emitJsonSchema({ ...deleteRecord, outputs: { type: 'object' } }));
    expect(result.source_format_detected).toBe('raw');
    expect(result.tool).toMatchObject({
      name: 'delete_record',
      description: 'Delete a record permanently',
      inputs: deleteRecord.inputs,
      outputs: { type: 'object' },
      capabilities: deleteRecord.capabilities,
      security: deleteRecord.security,
    });
  });
});
