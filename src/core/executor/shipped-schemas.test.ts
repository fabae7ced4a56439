import { describe, expect, it } from 'vitest';
import { checkSchemaDocument, isTrustedSchema } from '../validation/schema-validator.ts';
import { SHIPPED_SCHEMAS } from './shipped-schemas.ts';
import { closedByDefault } from './validate-invocation.ts';

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
