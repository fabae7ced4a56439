import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../contract/types.ts';
import { closedByDefault } from '../executor/validate-invocation.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { anyJson, hostileString, mutateObject, nestValue } from '../util/fuzz-arbitraries.ts';
import type { JsonObject, JsonValue } from '../util/json.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import { parseJsonPath } from './json-path.ts';
import { isCleanManifest, lintManifest, lintManifestText, MANIFEST_PROBLEM_CODES, type ManifestProblem } from './lint.ts';
import { withCpuTime } from '../../test-support/cpu-time.ts';

// Issue 14 fuzz suite, manifest families. Seeded and bounded; the README's "Reliability" section
// lists the families and their run counts (`RUNS`).

export const RUNS = { arbitrary: 200, mutated: 100, hostileSchemas: 100, texts: 100 } as const;
// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const PER_CALL_CPU_MS = 5_000;

const manifests = builtinTools({ testTools: true }).map((tool) => tool.manifest as unknown as JsonObject);

function checkProblems(problems: ManifestProblem[]): void {
  for (const problem of problems) {
    expect(MANIFEST_PROBLEM_CODES).toContain(problem.code);
    expect(parseJsonPath(problem.path)).not.toBeNull();
    expect(['error', 'warning']).toContain(problem.severity);
    expect(problem.message).not.toMatch(/\n\s+at |Maximum call stack/);
  }
  expect(JSON.stringify(problems).length).toBeLessThan(1_000_000);
}

function timed<T>(work: () => T): T {
  const { value, cpuMs } = withCpuTime(work);
  expect(cpuMs).toBeLessThan(PER_CALL_CPU_MS);
  return value;
}

/** Patterns: catastrophic-backtracking shapes, constructs RE2 refuses, invalid syntax, very long ones. */
const pattern = fc.oneof(
  fc.constantFrom('^(a+)+$', '(a|aa)+$', '^(a|a?)+$', '(.*a){12}', '^(\\w+\\s?)*$', 'a(?=b)', '(?<!a)b', '(a)\\1', '[', '(?<n>x)\\k<n>', '\\p{L}+', '\\u{1F600}'),
  fc.integer({ min: 1000, max: 3000 }).map((length) => 'a'.repeat(length)),
  hostileString,
);

/** Schemas built to hurt: ReDoS patterns, $ref graphs with and without same-instance cycles, deep, wide, huge enums. */
const hostileSchema: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.tuple(pattern, hostileString).map(([source, name]): JsonValue => ({
    type: 'object',
    properties: { s: { type: 'string', pattern: source } },
    patternProperties: { [source]: { type: 'string' } },
    required: [name],
    additionalProperties: false,
  })),
  // A random graph of $defs, each referring to others through an in-place or a descending keyword.
  fc
    .array(fc.tuple(fc.nat(4), fc.constantFrom('allOf', 'anyOf', 'oneOf', 'not', 'then', 'properties', 'items')), { minLength: 1, maxLength: 6 })
    .map((edges): JsonValue => {
      const defs: JsonObject = {};
      edges.forEach(([target, keyword], index) => {
        const ref = { $ref: `#/$defs/d${target % edges.length}` };
        defs[`d${index}`] =
          keyword === 'properties' ? { type: 'object', properties: { next: ref } } : keyword === 'items' ? { type: 'array', items: ref } : keyword === 'not' || keyword === 'then' ? { [keyword]: ref } : { [keyword]: [ref] };
      });
      return { type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, $defs: defs };
    }),
  fc.integer({ min: 20, max: 3000 }).map((depth): JsonValue => ({ type: 'object', properties: { a: nestValue({ type: 'string' }, depth, 'object', 'not') } })),
  fc.integer({ min: 200, max: 5_000 }).map((count): JsonValue => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'number' }])) })),
  fc.integer({ min: 5000, max: 20_000 }).map((count): JsonValue => ({ type: 'object', properties: { e: { enum: Array.from({ length: count }, (_, index) => `v${index}`) } } })),
  anyJson,
);

describe('manifest fuzz (issue 14)', () => {
  it(`arbitrary JSON as a manifest (${RUNS.arbitrary} inputs)`, () => {
    fc.assert(
      fc.property(anyJson, (value) => checkProblems(timed(() => lintManifest(value)))),
      { seed: 1421, numRuns: RUNS.arbitrary },
    );
  });

  it(`built-in manifests with one field deleted, replaced or nested deep (${RUNS.mutated} inputs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...manifests).chain(mutateObject), (value) => checkProblems(timed(() => lintManifest(value)))),
      { seed: 1422, numRuns: RUNS.mutated },
    );
  });

  it(`hostile input schemas; whatever lints clean also validates any value without throwing (${RUNS.hostileSchemas} inputs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...manifests), hostileSchema, fc.array(anyJson, { maxLength: 3 }), (base, schema, values) => {
        const manifest = { ...base, input_schema: schema };
        const problems = timed(() => lintManifest(manifest));
        checkProblems(problems);
        if (!isCleanManifest(problems)) return;
        const closed = closedByDefault(schema as JsonSchema);
        for (const value of values) {
          const errors = timed(() => validateAgainstSchema(closed, { x: value, s: value }, { prefix: ['arguments'], typeErrorCode: 'INVALID_TYPE' }));
          expect(errors.length).toBeLessThanOrEqual(100);
        }
      }),
      { seed: 1423, numRuns: RUNS.hostileSchemas },
    );
  });

  it(`manifest texts: BOM, truncated, deep, garbage (${RUNS.texts} inputs)`, () => {
    const text = fc.oneof(
      fc.constantFrom(...manifests).map((manifest) => `\ufeff${JSON.stringify(manifest)}`),
      fc.tuple(fc.constantFrom(...manifests), fc.nat()).map(([manifest, cut]) => {
        const full = JSON.stringify(manifest);
        return full.slice(0, cut % full.length);
      }),
      fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"name":"deep","input_schema":${'['.repeat(depth)}${']'.repeat(depth)}}`),
      fc.integer({ min: 1000, max: 100_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
      fc.string({ unit: 'binary', maxLength: 200 }),
    );
    fc.assert(
      fc.property(text, (source) => checkProblems(timed(() => lintManifestText(source)))),
      { seed: 1424, numRuns: RUNS.texts },
    );
  });
});
