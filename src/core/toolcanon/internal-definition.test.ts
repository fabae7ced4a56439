import { describe, expect, it } from 'vitest';
import type { ToolManifest } from '../contract/types.ts';
import internalWeather from './__fixtures__/internal-weather-tool.json';
import { canonicalize } from './canonicalize.ts';
import { exportManifest, internalToAnthropic, internalToMcp, internalToOllama, internalToOpenAI, MANIFEST_EXPORT_TARGETS, toInternalToolDefinition } from './internal-definition.ts';
import { toManifest } from './manifest-draft.ts';

// tool-definition-format.md §4 as a manifest: import the example, then keep its output schema.
const weather: ToolManifest = toManifest(canonicalize(internalWeather).tool).manifest;

describe('toInternalToolDefinition', () => {
  it('gives back the internal definition of tool-definition-format.md §4', () => {
    const internal = toInternalToolDefinition(weather);
    expect(internal).toEqual({ ok: true, value: internalWeather });
  });

  it('leaves out an empty output schema', () => {
    const internal = toInternalToolDefinition({ ...weather, output_schema: {} });
    expect(internal.ok && 'output_schema' in internal.value).toBe(false);
  });

  it('checks the name against [a-zA-Z0-9_]+, the description and the top-level type', () => {
    const result = toInternalToolDefinition({ ...weather, name: 'get-weather', description: ' ', input_schema: { type: 'array' } });
    expect(result).toEqual({
      ok: false,
      error: [
        { field: '$.name', message: 'The tool name must match [a-zA-Z0-9_]+, got "get-weather"' },
        { field: '$.description', message: 'The description is required: models choose tools by it' },
        { field: '$.input_schema.type', message: 'The input schema must have type "object" at the top level, got "array"' },
      ],
    });
    expect(toInternalToolDefinition({ ...weather, name: 'GetWeather2' }).ok).toBe(true);
  });
});

describe('provider conversions', () => {
  const internal = toInternalToolDefinition(weather);
  if (!internal.ok) throw new Error('fixture');
  const definition = internal.value;

  it('OpenAI and Ollama: the tools[] function shape, no output schema', () => {
    const expected = { type: 'function', function: { name: 'get_current_weather', description: internalWeather.description, parameters: internalWeather.input_schema } };
    expect(internalToOpenAI(definition)).toEqual(expected);
    expect(internalToOllama(definition)).toEqual(expected);
  });

  it('Anthropic: name, description, input_schema', () => {
    expect(internalToAnthropic(definition)).toEqual({ name: 'get_current_weather', description: internalWeather.description, input_schema: internalWeather.input_schema });
  });

  it('MCP: inputSchema, and outputSchema only on request', () => {
    expect(internalToMcp(definition)).toEqual({ name: 'get_current_weather', description: internalWeather.description, inputSchema: internalWeather.input_schema });
    expect(internalToMcp(definition, { includeOutputSchema: true }).outputSchema).toEqual(internalWeather.output_schema);
  });

  it('every conversion is detected and canonicalized back to the same name, description and inputs', () => {
    for (const target of MANIFEST_EXPORT_TARGETS) {
      const exported = exportManifest(weather, target);
      if (!exported.ok) throw new Error(target);
      const { tool } = canonicalize(exported.value);
      expect([target, tool.name, tool.description]).toEqual([target, weather.name, weather.description]);
      expect(tool.inputs).toMatchObject(internalWeather.input_schema);
    }
  });

  it('export fails with the internal definition problems', () => {
    expect(exportManifest({ ...weather, name: 'bad name' }, 'openai')).toMatchObject({ ok: false, error: [{ field: '$.name' }] });
    expect(exportManifest({ ...weather, name: 'bad name' }, 'json_schema').ok).toBe(true);
  });
});
