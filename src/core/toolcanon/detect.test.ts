import { describe, expect, it } from 'vitest';
import anthropicMyTool from './__fixtures__/anthropic-my-tool.json';
import internalWeather from './__fixtures__/internal-weather-tool.json';
import langchainArgsSchema from './__fixtures__/langchain-args-schema.json';
import langchainModelFields from './__fixtures__/langchain-model-fields.json';
import langchainProperties from './__fixtures__/langchain-properties.json';
import langchainSchema from './__fixtures__/langchain-schema.json';
import mcpDeleteRecord from './__fixtures__/mcp-delete-record.json';
import openaiLegacy from './__fixtures__/openai-legacy-list-files.json';
import openaiWrapped from './__fixtures__/openai-list-files.json';
import rawUnknown from './__fixtures__/raw-unknown.json';
import { detectFormat, formatConfidence } from './detect.ts';

const none = { openai: 0, anthropic: 0, mcp: 0, langchain: 0, raw: 0.1 };

describe('detectFormat on the spec examples', () => {
  it.each([
    ['OpenAI tools[] wrapper', openaiWrapped, 'openai', { ...none, openai: 1 }],
    ['OpenAI legacy function', openaiLegacy, 'openai', { ...none, openai: 0.7 }],
    ['Anthropic (toolcanon-api.md detect example)', anthropicMyTool, 'anthropic', { ...none, anthropic: 1 }],
    ['internal tool definition (tool-definition-format.md §4)', internalWeather, 'anthropic', { ...none, anthropic: 1 }],
    ['MCP', mcpDeleteRecord, 'mcp', { ...none, mcp: 1 }],
    ['LangChain BaseTool args_schema', langchainArgsSchema, 'langchain', { ...none, langchain: 0.9 }],
    ['LangChain Pydantic model_fields', langchainModelFields, 'langchain', { ...none, langchain: 0.9 }],
    ['LangChain StructuredTool schema', langchainSchema, 'langchain', { ...none, langchain: 0.9 }],
    ['LangChain loose name + properties', langchainProperties, 'langchain', { ...none, langchain: 0.6 }],
    ['something else', rawUnknown, 'raw', none],
  ])('%s → %s', (_label, input, format, confidence) => {
    expect(detectFormat(input)).toEqual({ format, confidence });
  });

  it('follows the priority order, not the highest score', () => {
    // name + parameters (0.7) beats name + input_schema (1.0): OpenAI comes first.
    const both = { name: 'x', parameters: {}, input_schema: {}, inputSchema: {}, args_schema: {} };
    expect(detectFormat(both)).toEqual({ format: 'openai', confidence: { openai: 0.7, anthropic: 1, mcp: 1, langchain: 0.9, raw: 0.1 } });
    expect(detectFormat({ name: 'x', input_schema: {}, inputSchema: {} }).format).toBe('anthropic');
    expect(detectFormat({ name: 'x', inputSchema: {}, schema: {} }).format).toBe('mcp');
  });

  it('needs both signals of a pair', () => {
    expect(detectFormat({ parameters: {} }).format).toBe('raw');
    expect(detectFormat({ input_schema: {} }).format).toBe('raw');
    expect(detectFormat({ inputSchema: {} }).format).toBe('raw');
    expect(detectFormat({ properties: {} }).format).toBe('raw');
    expect(detectFormat({ type: 'function' }).format).toBe('raw');
    expect(detectFormat({ function: {} }).format).toBe('raw');
    expect(detectFormat({ schema: 'x' }).format).toBe('langchain');
  });

  it('ignores inherited keys', () => {
    const definition = Object.create({ name: 'inherited', parameters: {} }) as object;
    expect(detectFormat(definition).format).toBe('raw');
    expect(detectFormat({ constructor: 1, toString: 2 }).format).toBe('raw');
  });

  it('scores anything that is not an object as raw only', () => {
    for (const input of [null, undefined, 3, 'name', [openaiWrapped], true]) {
      expect(detectFormat(input)).toEqual({ format: 'raw', confidence: none });
      expect(formatConfidence(input)).toEqual(none);
    }
  });
});
