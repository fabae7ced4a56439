import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import internalWeather from './__fixtures__/internal-weather-tool.json';
import langchainArgsSchema from './__fixtures__/langchain-args-schema.json';
import langchainModelFields from './__fixtures__/langchain-model-fields.json';
import langchainProperties from './__fixtures__/langchain-properties.json';
import langchainSchema from './__fixtures__/langchain-schema.json';
import mcpDeleteRecord from './__fixtures__/mcp-delete-record.json';
import mcpToolsList from './__fixtures__/mcp-tools-list-response.json';
import openaiLegacy from './__fixtures__/openai-legacy-list-files.json';
import openaiWrapped from './__fixtures__/openai-list-files.json';
import rawUnknown from './__fixtures__/raw-unknown.json';
import { CANONICALIZATION_WARNINGS, canonicalize, canonicalizeDefinitions, splitDefinitions } from './canonicalize.ts';
import { SOURCE_FORMATS, type CanonicalizationResult } from './types.ts';

const listFilesInputs = {
  type: 'object',
  properties: { directory: { type: 'string', description: 'Absolute path to the directory' } },
  required: ['directory'],
};

describe('warnings (toolcanon-api.md texts)', () => {
  it('has the document texts word for word', () => {
    expect(CANONICALIZATION_WARNINGS).toEqual({
      noName: 'Tool has no name',
      noDescription: 'Tool has no description',
      couldNotDetect: 'Could not detect source format; using raw passthrough.',
      rawRequested: "No parser for 'raw' format; extracted fields by heuristic.",
    });
  });

  it('says when a tool has no name or no description', () => {
    expect(canonicalize({ name: '', input_schema: { type: 'object' } }).warnings).toEqual(['Tool has no name', 'Tool has no description']);
    expect(canonicalize({ name: 'my_tool', input_schema: { type: 'object' } }).warnings).toEqual(['Tool has no description']);
  });

  it('falls back to the raw heuristic when nothing is detected', () => {
    const result = canonicalize(rawUnknown);
    expect(result.source_format_detected).toBe('raw');
    expect(result.tool.source_format).toBe('raw');
    expect(result.warnings).toEqual(['Could not detect source format; using raw passthrough.', 'Tool has no name', 'Tool has no description']);
  });

  it('says when raw was requested', () => {
    const result = canonicalize(openaiLegacy, { format: 'raw' });
    expect(result.source_format_detected).toBe('raw');
    expect(result.warnings).toEqual(["No parser for 'raw' format; extracted fields by heuristic."]);
    // The heuristic still finds the name, description and parameters.
    expect(result.tool).toMatchObject({ name: 'list_files', description: 'List all files in a directory', inputs: listFilesInputs, source_format: 'raw' });
  });

  it('reports a parser error and falls back to the raw heuristic', () => {
    const result = canonicalize({ type: 'function', function: 'list_files', name: 'list_files', parameters: listFilesInputs });
    expect(result.source_format_detected).toBe('openai');
    expect(result.warnings).toEqual(['Parser error for openai: function must be a JSON object, got string', 'Tool has no description']);
    expect(result.tool).toMatchObject({ name: 'list_files', inputs: listFilesInputs, source_format: 'raw' });
  });

  it('reports mistyped fields as parser errors, whatever the format', () => {
    expect(canonicalize({ name: 7, parameters: {} }).warnings[0]).toBe('Parser error for openai: name must be a string, got number');
    expect(canonicalize({ name: 'x', description: ['a'], input_schema: {} }).warnings[0]).toBe('Parser error for anthropic: description must be a string, got array');
    expect(canonicalize({ name: 'x', inputSchema: 'object' }).warnings[0]).toBe('Parser error for mcp: inputSchema must be a JSON object, got string');
    expect(canonicalize({ name: 'x', description: 'y', args_schema: 'SearchInput' }).warnings[0]).toBe('Parser error for langchain: args_schema must be a JSON object, got string');
    // The raw fallback still keeps what it can: the number becomes the name.
    expect(canonicalize({ name: 7, parameters: {} }).tool.name).toBe('7');
  });

  it('says when a forced format has none of its signals', () => {
    const result = canonicalize(openaiLegacy, { format: 'mcp' });
    expect(result.source_format_detected).toBe('mcp');
    expect(result.warnings).toEqual(["The input has none of the mcp format's signals; it was read as mcp because that format was requested."]);
    expect(result.tool).toMatchObject({ name: 'list_files', inputs: {}, source_format: 'mcp' });
  });
});

describe('canonicalize', () => {
  it('reads both OpenAI shapes the same way', () => {
    const wrapped = canonicalize(openaiWrapped);
    const legacy = canonicalize(openaiLegacy);
    expect(wrapped.warnings).toEqual([]);
    expect(wrapped.tool).toEqual({
      name: 'list_files',
      version: '1.0.0',
      description: 'List all files in a directory',
      capabilities: { action: 'list', domain: 'filesystem', side_effects: false, idempotent: true, cost_estimate: 'unknown' },
      inputs: listFilesInputs,
      outputs: {},
      security: null,
      source_format: 'openai',
      original_definition: openaiWrapped,
    });
    expect({ ...legacy.tool, original_definition: null }).toEqual({ ...wrapped.tool, original_definition: null });
  });

  it('reads the internal tool definition, output schema included', () => {
    const { tool, source_format_detected } = canonicalize(internalWeather);
    expect(source_format_detected).toBe('anthropic');
    expect(tool.inputs).toEqual(internalWeather.input_schema);
    expect(tool.outputs).toEqual(internalWeather.output_schema);
  });

  it('reads MCP annotations and outputSchema', () => {
    const { tool } = canonicalize(mcpDeleteRecord);
    expect(tool.capabilities).toEqual({ action: 'delete', domain: 'database', side_effects: true, idempotent: true, cost_estimate: 'unknown' });
    const [, weather] = canonicalizeDefinitions(mcpToolsList).results;
    expect(weather.tool.outputs).toEqual(mcpToolsList.result.tools[1].outputSchema);
  });

  it('reads the LangChain variants', () => {
    expect(canonicalize(langchainArgsSchema).tool.inputs).toEqual(langchainArgsSchema.args_schema);
    expect(canonicalize(langchainSchema).tool.inputs).toEqual({ type: 'object', ...langchainSchema.schema });
    expect(canonicalize(langchainProperties).tool.inputs).toEqual({ type: 'object', properties: langchainProperties.properties, required: ['query'] });
    expect(canonicalize(langchainModelFields).tool.inputs).toEqual({
      type: 'object',
      properties: { sql: { type: 'string', description: 'The SQL statement' }, limit: { type: 'integer' } },
      required: ['sql'],
    });
    for (const input of [langchainArgsSchema, langchainSchema, langchainProperties, langchainModelFields]) {
      expect(canonicalize(input).tool.source_format).toBe('langchain');
    }
  });

  it('keeps a source version and defaults to 1.0.0', () => {
    expect(canonicalize({ ...openaiLegacy, version: '2.1.0' }).tool.version).toBe('2.1.0');
    expect(canonicalize(openaiLegacy).tool.version).toBe('1.0.0');
  });

  it('copies the input: later changes to it do not reach the tool', () => {
    const input = structuredClone(openaiWrapped);
    const { tool } = canonicalize(input);
    input.function.parameters.properties.directory.type = 'number';
    expect(tool.inputs).toEqual(listFilesInputs);
    expect(tool.original_definition).toEqual(openaiWrapped);
  });

  it('keeps a __proto__ key as data', () => {
    const input = JSON.parse('{"name": "x", "description": "y", "input_schema": {"type": "object", "properties": {"__proto__": {"type": "string"}}}}');
    const { tool } = canonicalize(input);
    expect(Object.keys(tool.inputs.properties as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(tool.inputs.properties)).toBe(Object.prototype);
  });

  it('turns non-objects into an empty raw tool, with warnings', () => {
    const result = canonicalize([openaiWrapped]);
    expect(result.tool).toMatchObject({ name: '', description: '', inputs: {}, source_format: 'raw', original_definition: {} });
    expect(result.warnings).toEqual([
      'The input is an array of 1 definition, not one; canonicalizeDefinitions reads each of them.',
      'Could not detect source format; using raw passthrough.',
      'Tool has no name',
      'Tool has no description',
    ]);
  });

  it('points tool lists and other non-definitions to canonicalizeDefinitions', () => {
    expect(canonicalize(mcpToolsList).warnings[0]).toBe('The input is a list of tools, not one; canonicalizeDefinitions reads each of them.');
    expect(canonicalize('list_files').warnings[0]).toBe('The input is not a JSON object (got string); there is no tool definition to read.');
    expect(canonicalize(undefined).warnings[0]).toBe('The input is not a JSON object (got undefined); there is no tool definition to read.');
  });

  it('survives cycles, throwing getters and unknown formats', () => {
    const cyclic: Record<string, unknown> = { name: 'loop', parameters: { type: 'object' } };
    cyclic.self = cyclic;
    expect(canonicalize(cyclic).tool.name).toBe('loop');
    const hostile = Object.defineProperty({ name: 'x' }, 'parameters', {
      enumerable: true,
      get() {
        throw new Error('no access');
      },
    });
    const result = canonicalize(hostile);
    expect(result.warnings).toContain('Could not read the definition: no access');
    expect(canonicalize(openaiLegacy, { format: 'cobol' as never }).warnings[0]).toBe('Unknown format "cobol"; detecting the format instead.');
  });

  it('never throws, and always returns a well-formed result (any value, any forced format)', () => {
    const check = (result: CanonicalizationResult) => {
      expect(typeof result.tool.name).toBe('string');
      expect(typeof result.tool.description).toBe('string');
      expect(SOURCE_FORMATS).toContain(result.source_format_detected);
      expect(result.confidence.raw).toBe(0.1);
      expect(result.warnings.every((warning) => typeof warning === 'string')).toBe(true);
      expect(JSON.parse(JSON.stringify(result.tool))).toEqual(result.tool);
    };
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything()), fc.option(fc.constantFrom(...SOURCE_FORMATS), { nil: undefined }), (input, format) => {
        check(canonicalize(input, { format }));
        canonicalizeDefinitions(input, { format }).results.forEach(check);
      }),
      { seed: 5, numRuns: 1000 },
    );
  });

  it('never throws on definitions built from the signal keys with arbitrary values', () => {
    const keys = ['type', 'function', 'name', 'description', 'parameters', 'input_schema', 'inputSchema', 'outputSchema', 'output_schema', 'args_schema', 'schema', 'properties', 'required', 'title', 'annotations', '$schema', 'x-capabilities', 'x-security', 'x-outputs', 'version'];
    const definition = fc.dictionary(fc.constantFrom(...keys), fc.oneof(fc.constant('function'), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 8 });
    fc.assert(
      fc.property(definition, fc.option(fc.constantFrom(...SOURCE_FORMATS), { nil: undefined }), (input, format) => {
        const result = canonicalize(input, { format });
        expect(typeof result.tool.name).toBe('string');
        expect(result.tool.inputs).toBeTypeOf('object');
      }),
      { seed: 11, numRuns: 2000 },
    );
  });
});

describe('arrays and tool lists', () => {
  it('reads an MCP tools/list JSON-RPC response, tool by tool', () => {
    const { container, results } = canonicalizeDefinitions(mcpToolsList);
    expect(container).toBe('jsonrpc');
    expect(results.map((result) => [result.tool.name, result.source_format_detected])).toEqual([
      ['list_files', 'mcp'],
      ['get_current_weather', 'mcp'],
    ]);
    expect(results[0].tool.capabilities.side_effects).toBe(false);
  });

  it('reads a tools/list result, a request body, a legacy functions body and an array', () => {
    expect(splitDefinitions(mcpToolsList.result)).toEqual({ container: 'tools', definitions: mcpToolsList.result.tools });
    expect(splitDefinitions({ model: 'gpt', tools: [openaiWrapped] })).toEqual({ container: 'tools', definitions: [openaiWrapped] });
    expect(splitDefinitions({ model: 'gpt', functions: [openaiLegacy] })).toEqual({ container: 'functions', definitions: [openaiLegacy] });
    expect(splitDefinitions([openaiWrapped, mcpDeleteRecord]).container).toBe('array');
    expect(canonicalizeDefinitions([openaiWrapped, mcpDeleteRecord]).results.map((result) => result.source_format_detected)).toEqual(['openai', 'mcp']);
  });

  it('treats an object with a name as one definition, even with a tools key', () => {
    expect(splitDefinitions({ name: 'x', tools: [] })).toEqual({ container: 'single', definitions: [{ name: 'x', tools: [] }] });
    expect(canonicalizeDefinitions(openaiWrapped).results).toHaveLength(1);
  });

  it('applies a forced format to every definition', () => {
    const { results } = canonicalizeDefinitions([openaiLegacy, mcpDeleteRecord], { format: 'raw' });
    expect(results.map((result) => result.source_format_detected)).toEqual(['raw', 'raw']);
  });
});
