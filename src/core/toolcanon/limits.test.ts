import { describe, expect, it } from 'vitest';
import { canonicalize, canonicalizeDefinitions, LIMIT_WARNING_PREFIX } from './canonicalize.ts';
import { withCpuTime } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 5_000;

function deepObject(depth: number): unknown {
  let value: unknown = { type: 'string' };
  for (let level = 0; level < depth; level += 1) value = { type: 'object', properties: { a: value } };
  return value;
}

describe('canonicalizing a definition nested 10^5 deep (issue 14, item 8)', () => {
  it('refuses it with a coded warning instead of an empty tool with no reason', () => {
    const definition = { name: 'deep', description: 'd', parameters: deepObject(100_000) };
    const { value: result, cpuMs } = withCpuTime(() => canonicalize(definition));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
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

describe('the number of definitions in one input', () => {
  it('is bounded: 20,000 definitions are refused in one coded warning instead of 20,000 results', () => {
    const { value: list, cpuMs } = withCpuTime(() => canonicalizeDefinitions({ tools: Array.from({ length: 20_000 }, (_, index) => ({ name: `t${index}`, inputSchema: { type: 'object' } })) }));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(list.results).toHaveLength(1);
    expect(list.results[0].warnings[0]).toBe(`${LIMIT_WARNING_PREFIX}TOO_LARGE): $ holds 20000 tool definitions; at most 1000 are read from one input`);
    expect(canonicalizeDefinitions(Array.from({ length: 1000 }, () => ({ name: 'x', parameters: {} }))).results).toHaveLength(1000);
  });
});
