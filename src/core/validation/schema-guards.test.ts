import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../contract/types.ts';
import { compilePattern } from './regexp.ts';
import { guardSchema } from './schema-guards.ts';
import { validateAgainstSchema } from './schema-validator.ts';
import { withCpuTime } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 10_000;

const options = { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' } as const;

describe('patterns run on the linear-time engine (issue 14, item 2)', () => {
  it('the 300-byte catastrophic pattern finishes in milliseconds in validation', () => {
    const schema: JsonSchema = {
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'string' } },
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
      additionalProperties: false,
    };
    expect(validateAgainstSchema(schema, { name: 'aaa' }, options)).toEqual([]); // compiles it
    const { value: errors, cpuMs } = withCpuTime(() => validateAgainstSchema(schema, { name: `${'a'.repeat(5000)}!`, [`${'a'.repeat(5000)}!`]: 'x' }, options));
    // The backtracking engine needs longer than the age of the universe for this; RE2 a few milliseconds.
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(errors.map((error) => error.code).sort()).toEqual(['INVALID_VALUE', 'UNKNOWN_ARGUMENT']);
  });

  it('keeps ECMAScript syntax working: escapes, classes, named groups', () => {
    for (const [pattern, yes, no] of [
      ['^\\d{3}-\\d{4}$', '555-1234', '5555-1234'],
      ['^[A-Z][a-z]+$', 'Sextant', 'sextant'],
      ['^caf\\u00e9$', 'café', 'cafe'],
      ['^(?<year>\\d{4})-\\d{2}$', '2026-03', '26-03'],
      ['^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', 'a.b@c-d.org', 'a@b'],
    ]) {
      const compiled = compilePattern(pattern);
      expect(compiled.ok).toBe(true);
      if (!compiled.ok) continue;
      expect(compiled.regExp.test(yes)).toBe(true);
      expect(compiled.regExp.test(no)).toBe(false);
    }
  });

  it('refuses lookaround and backreferences with a coded answer, not a backtracking fallback', () => {
    for (const pattern of ['a(?=b)', '(?<!x)y', '(a)\\1']) {
      const compiled = compilePattern(pattern);
      expect(compiled.ok ? 'accepted' : compiled.message).toMatch(/linear-time \(RE2\) engine/);
    }
    const errors = validateAgainstSchema({ type: 'object', properties: { x: { type: 'string', pattern: '(a)\\1' } } }, { x: 'aa' }, options);
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe('EXECUTION_ERROR');
    expect(errors[0].message).toContain('cannot be used');
  });
});

describe('recursive $ref (issue 14, item 4)', () => {
  const cyclic: JsonSchema = {
    type: 'object',
    properties: { x: { $ref: '#/definitions/A' } },
    definitions: { A: { allOf: [{ $ref: '#/definitions/A' }] } },
  };

  it('a $ref cycle on the same instance is found', () => {
    const problems = guardSchema(cyclic);
    expect(problems.map((problem) => [problem.kind, problem.path])).toEqual([['ref-cycle', ['definitions', 'A', 'allOf', 0]]]);
  });

  it('validation answers with a coded error instead of overflowing the stack', () => {
    const errors = validateAgainstSchema(cyclic, { x: 1 }, options);
    expect(errors).toEqual([expect.objectContaining({ code: 'EXECUTION_ERROR', field: 'arguments' })]);
    expect(errors[0].message).toContain('refers back to $.definitions.A');
  });

  it('finds cycles through anyOf, not, if/then, $ref to the root and two definitions', () => {
    for (const schema of [
      { $ref: '#' },
      { $defs: { A: { anyOf: [{ $ref: '#/$defs/B' }] }, B: { not: { $ref: '#/$defs/A' } } }, $ref: '#/$defs/A' },
      { if: { $ref: '#' } },
      { type: 'object', properties: { a: { $ref: '#/properties/a/allOf/0' , allOf: [{ $ref: '#/properties/a' }] } } },
    ]) {
      expect(guardSchema(schema).map((problem) => problem.kind)).toContain('ref-cycle');
    }
  });

  it('accepts recursion that descends into the instance (a tree), bounded by the value depth limit', () => {
    const tree: JsonSchema = {
      $defs: { node: { type: 'object', properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
      $ref: '#/$defs/node',
    };
    expect(guardSchema(tree)).toEqual([]);
    expect(validateAgainstSchema(tree, { value: 1, children: [{ value: 2, children: [] }] }, options)).toEqual([]);
    expect(validateAgainstSchema(tree, { value: 1, children: [{ value: 'x' }] }, options).map((error) => error.field)).toEqual(['arguments.children[0].value']);
  });
});

describe('schema size limits', () => {
  it('refuses 100,000 properties in milliseconds, without compiling', () => {
    const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const { value: problems, cpuMs } = withCpuTime(() => guardSchema({ type: 'object', properties }));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(problems.map((problem) => problem.kind)).toEqual(['too-large']);
  });

  it('refuses huge enums and deep schemas', () => {
    expect(guardSchema({ enum: Array.from({ length: 10_001 }, (_, index) => index) }).map((problem) => problem.kind)).toEqual(['too-large']);
    let deep: JsonSchema = { type: 'string' };
    for (let level = 0; level < 200; level += 1) deep = { type: 'object', properties: { a: deep } };
    expect(guardSchema(deep).map((problem) => problem.kind)).toEqual(['too-deep']);
  });
});

describe('error lists are bounded', () => {
  it('lists at most 100 errors and says how many more there were', () => {
    const schema: JsonSchema = { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } } } };
    const errors = validateAgainstSchema(schema, { xs: Array.from({ length: 500 }, () => 'no') }, options);
    expect(errors).toHaveLength(100);
    expect(errors[99].message).toContain('and 400 more problems not listed');
  });

  it('cuts long values in messages', () => {
    const errors = validateAgainstSchema({ type: 'object', properties: { x: { enum: ['a'] } } }, { x: 'b'.repeat(100_000) }, options);
    expect(errors[0].message.length).toBeLessThan(400);
  });
});
