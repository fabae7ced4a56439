import { describe, expect, it } from 'vitest';
import { canonicalize, canonicalizeDefinitions, LIMIT_WARNING_PREFIX } from './canonicalize.ts';

function deepObject(depth: number): unknown {
  let value: unknown = { type: 'string' };
  for (let level = 0; level < depth; level += 1) value = { type: 'object', properties: { a: value } };
  return value;
}

describe('canonicalizing a definition nested 10^5 deep (issue 14, item 8)', () => {
  it('refuses it with a coded warning instead of an empty tool with no reason', () => {
    const definition = { name: 'deep', description: 'd', parameters: deepObject(100_000) };
    const started = performance.now();
    const result = canonicalize(definition);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.tool.name).toBe('');
    expect(result.warnings[0].startsWith(`${LIMIT_WARNING_PREFIX}TOO_DEEP): $.parameters.properties.a.properties…`)).toBe(true);
    const list = canonicalizeDefinitions([definition]);
    expect(list.results).toHaveLength(1);
    expect(list.results[0].warnings[0]).toContain('(TOO_DEEP)');
  });

  it('still reads a definition within the limit', () => {
    const result = canonicalize({ name: 'ok_tool', description: 'd', parameters: deepObject(30) });
    expect(result.tool.name).toBe('ok_tool');
    expect(result.warnings).toEqual([]);
  });
});
