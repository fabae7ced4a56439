import { describe, expect, it } from 'vitest';
import { checkSchemaDocument, isTrustedSchema } from '../validation/schema-validator.ts';
import { SHIPPED_SCHEMAS } from './shipped-schemas.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import { closedByDefault, validationWarmUp } from './validate-invocation.ts';

describe('shipped schemas', () => {
  it('are valid against the meta-schema, which is why they may compile without it', () => {
    expect(SHIPPED_SCHEMAS.length).toBeGreaterThanOrEqual(9);
    for (const schema of SHIPPED_SCHEMAS) expect(checkSchemaDocument(schema)).toEqual([]);
  });

  it('are trusted, and so is the closed copy of a trusted input schema; other schemas are not', () => {
    for (const schema of SHIPPED_SCHEMAS) expect(isTrustedSchema(schema)).toBe(true);
    const input = SHIPPED_SCHEMAS[SHIPPED_SCHEMAS.length - 2];
    expect(isTrustedSchema(closedByDefault(input))).toBe(true);
    expect(checkSchemaDocument(closedByDefault(input))).toEqual([]);
    expect(isTrustedSchema(closedByDefault({ type: 'object', properties: { a: { type: 'string' } } }))).toBe(false);
  });
});

describe('validationWarmUp', () => {
  it('has one step per shipped schema validation needs, and none for a schema from outside', () => {
    const outside = { ...builtinTools()[0].manifest, name: 'saved_tool', input_schema: { type: 'object', properties: {} } };
    const registry = new ToolRegistry([...builtinTools({ testTools: true }), { manifest: outside, run: () => ({ status: 'ok', summary: '', structured_output: {}, confidence: 1 }) }]);
    const steps = validationWarmUp(registry);
    // The envelope, the two selection shapes, and the three built-in tools' arguments.
    expect(steps).toHaveLength(6);
    for (const step of steps) step();
  });
});
