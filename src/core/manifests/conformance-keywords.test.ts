import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolManifest } from '../contract/types.ts';
import { demoCatalog } from '../executor/test-support.ts';
import { closedByDefault } from '../executor/validate-invocation.ts';
import type { JsonObject, JsonValue } from '../util/json.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import { generateConformanceCases } from './conformance.ts';

// Issue 23, item 8: the "valid" case honours every keyword the validator (Ajv) enforces, so a
// correct manifest passes all of its cases. Each generated valid case is checked with the validator.

const capture = demoCatalog().get('cap_2026_03_14_a')!;

function manifestWith(properties: JsonObject, required: string[]): ToolManifest {
  return {
    name: 'keyword_tool',
    version: '1.0.0',
    description: 'A tool whose arguments use validation keywords.',
    capabilities: ['check'],
    input_schema: { type: 'object', properties, required, additionalProperties: false },
    output_schema: { type: 'object' },
    execution_constraints: { max_timeout_ms: 60_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'none' },
    cost_hint: { unit: 'call', estimated_cost: 0, currency: 'USD' },
    deterministic: true,
  };
}

function validArguments(manifest: ToolManifest): JsonValue {
  const valid = generateConformanceCases(manifest, capture).find((entry) => entry.id === 'valid')!;
  return valid.invocation.arguments;
}

function problems(manifest: ToolManifest) {
  return validateAgainstSchema(closedByDefault(manifest.input_schema as JsonSchema), validArguments(manifest), { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' });
}

const PATTERNS = ['^[A-Z]{3}$', '^[0-9A-Fa-f]{32}$', '^\\d{4}-\\d{2}-\\d{2}$', '^(foo|bar)_\\d+$', '[a-z]+@[a-z]+\\.org', '^[a-z][a-z0-9_]{2,15}$', '^(?:[0-9A-F]{2}:){5}[0-9A-F]{2}$', '^v\\d+\\.\\d+\\.\\d+$'];
const FORMATS = ['date-time', 'date', 'time', 'duration', 'email', 'uri', 'uri-reference', 'uri-template', 'url', 'uuid', 'hostname', 'ipv4', 'ipv6', 'regex', 'json-pointer', 'relative-json-pointer', 'byte'];

// A pattern or a format (one string rarely satisfies both: that would be the manifest's problem).
const stringSchema: fc.Arbitrary<JsonObject> = fc.oneof(
  fc.record({ type: fc.constant('string'), pattern: fc.constantFrom(...PATTERNS), minLength: fc.integer({ min: 0, max: 3 }) }, { requiredKeys: ['type', 'pattern'] }),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom(...FORMATS) }),
);
const numberSchema = fc
  .record({ type: fc.constantFrom('number', 'integer'), multipleOf: fc.constantFrom(0.1, 0.25, 3, 7, 0.01), minimum: fc.integer({ min: -50, max: 50 }), span: fc.integer({ min: 30, max: 200 }) })
  .map(({ type, multipleOf, minimum, span }): JsonObject => ({ type, multipleOf: type === 'integer' ? Math.max(1, Math.round(multipleOf)) : multipleOf, minimum, maximum: minimum + span }));
const arraySchema = fc
  .record({ items: stringSchema.filter((schema) => !('format' in schema)), minItems: fc.integer({ min: 1, max: 3 }), uniqueItems: fc.boolean() })
  .map(({ items, minItems, uniqueItems }): JsonObject => ({ type: 'array', items, minItems, maxItems: minItems + 2, uniqueItems }));
const objectSchema = fc
  .record({ a: stringSchema, b: numberSchema, minProperties: fc.integer({ min: 0, max: 2 }) })
  .map(({ a, b, minProperties }): JsonObject => ({ type: 'object', properties: { a, b }, minProperties, additionalProperties: false }));

describe('conformance: the valid case is valid', () => {
  test.prop([fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(stringSchema, numberSchema, arraySchema, objectSchema), { minKeys: 1, maxKeys: 4 })], { numRuns: 80 })(
    'for schemas with pattern, format, multipleOf, lengths, sizes, uniqueness and minProperties, the validator accepts the generated valid arguments',
    (properties) => {
      expect(problems(manifestWith(properties, Object.keys(properties)))).toEqual([]);
    },
  );

  it('a correct manifest with a pattern passes: the IRK-like key is 32 hex digits', () => {
    const manifest = manifestWith({ irk: { type: 'string', pattern: '^[0-9A-Fa-f]{32}$' }, step: { type: 'number', multipleOf: 0.1, minimum: 0.25 }, when: { type: 'string', format: 'date-time' } }, ['irk', 'step', 'when']);
    expect(problems(manifest)).toEqual([]);
    expect(validArguments(manifest)).toMatchObject({ irk: expect.stringMatching(/^[0-9A-Fa-f]{32}$/), when: '2026-01-01T00:00:00Z' });
  });
});
