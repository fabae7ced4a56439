import { describe, expect, it } from 'vitest';
import { canonicalize } from './canonicalize.ts';
import { emit } from './emit.ts';
import { exportManifest } from './internal-definition.ts';
import { fromManifest, OPENAI_STRICT_KEY, toManifest } from './manifest-draft.ts';

const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const openAI = { type: 'function', function: { name: 'get_weather', description: 'Weather for a city.', parameters, strict: true } };

describe("OpenAI's strict flag", () => {
  it('survives canonicalization and OpenAI emission, in both OpenAI shapes', () => {
    const { tool } = canonicalize(openAI);
    expect(tool.strict).toBe(true);
    expect(emit(tool, 'openai')).toEqual(openAI);
    expect(emit(tool, 'openai_legacy')).toEqual(openAI.function);
    expect(canonicalize({ ...openAI.function, strict: false }).tool.strict).toBe(false);
    // Providers without the flag get the schema alone.
    expect(emit(tool, 'anthropic')).toEqual({ name: 'get_weather', description: 'Weather for a city.', input_schema: parameters });
    expect(canonicalize({ ...openAI.function, strict: 'yes' }).tool.strict).toBeUndefined();
  });

  it('survives import as a manifest and the manifest’s OpenAI export', () => {
    const draft = toManifest(canonicalize(openAI).tool);
    expect(draft.manifest.input_schema[OPENAI_STRICT_KEY]).toBe(true);
    expect(draft.review.some((item) => item.field === `$.input_schema.${OPENAI_STRICT_KEY}`)).toBe(true);
    const exported = exportManifest(draft.manifest, 'openai');
    expect(exported.ok && exported.value).toEqual(openAI);
    // Other targets carry no OpenAI-only key, and the canonical tool of the manifest has the flag back.
    const anthropic = exportManifest(draft.manifest, 'anthropic');
    expect(anthropic.ok && anthropic.value).toEqual({ name: 'get_weather', description: 'Weather for a city.', input_schema: parameters });
    const ollama = exportManifest(draft.manifest, 'ollama');
    expect(JSON.stringify(ollama.ok && ollama.value)).not.toContain('strict');
    expect(fromManifest(draft.manifest)).toMatchObject({ strict: true, inputs: parameters });
  });

  it('leaves definitions without it as they were', () => {
    const { strict: _strict, ...plain } = openAI.function;
    const { tool } = canonicalize(plain);
    expect('strict' in tool).toBe(false);
    expect(emit(tool, 'openai_legacy')).toEqual(plain);
    const exported = exportManifest(toManifest(tool).manifest, 'openai');
    expect(exported.ok && exported.value).toEqual({ type: 'function', function: plain });
  });
});
