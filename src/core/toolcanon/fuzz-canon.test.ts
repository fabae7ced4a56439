import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyJson, deepJson, hostileString, mutateObject, wideJson } from '../util/fuzz-arbitraries.ts';
import { isJsonObject, jsonByteLength, type JsonObject, type JsonValue } from '../util/json.ts';
import { canonicalizeDefinitions } from './canonicalize.ts';
import { emit, EMIT_TARGETS } from './emit.ts';
import { toManifest } from './manifest-draft.ts';
import { SOURCE_FORMATS, type SourceFormat } from './types.ts';
import { cpuMsSince } from '../../test-support/cpu-time.ts';

// Issue 14 fuzz suite, canon families. Seeded and bounded; the README's "Reliability" section
// lists the families and their run counts (`RUNS`).

export const RUNS = { arbitrary: 300, mutatedFixtures: 300, deepWide: 60 } as const;
// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const PER_CALL_CPU_MS = 3_000;

const fixtureDir = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const fixtures = readdirSync(fixtureDir)
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(`${fixtureDir}${name}`, 'utf8')) as JsonValue)
  .filter(isJsonObject);

/** Canonicalizes, then emits every target and drafts a manifest; checks shape, time and output size. */
function roundTrip(input: JsonValue, format?: SourceFormat): void {
  const since = process.cpuUsage();
  const { results } = canonicalizeDefinitions(input, format ? { format } : {});
  let outputBytes = 0;
  for (const result of results) {
    expect(typeof result.tool.name).toBe('string');
    expect(SOURCE_FORMATS).toContain(result.source_format_detected);
    expect(result.warnings.every((warning) => typeof warning === 'string' && !/\n\s+at |Maximum call stack/.test(warning))).toBe(true);
    for (const target of EMIT_TARGETS) outputBytes += JSON.stringify(emit(result.tool, target)).length;
    outputBytes += JSON.stringify(toManifest(result.tool).manifest).length;
  }
  expect(cpuMsSince(since)).toBeLessThan(PER_CALL_CPU_MS);
  // Output stays proportional to the input: no blow-up such as 74 KB in, 80 MB out.
  // Each definition's result has a fixed floor (an empty tool in six shapes, about 1 KB).
  const inputBytes = jsonByteLength(input);
  expect(outputBytes).toBeLessThan(20 * inputBytes + 5_000 * results.length + 200_000);
}

const format = fc.option(fc.constantFrom(...SOURCE_FORMATS), { nil: undefined });

describe('canon fuzz (issue 14)', () => {
  it(`arbitrary JSON, any forced format (${RUNS.arbitrary} inputs)`, () => {
    fc.assert(
      fc.property(anyJson, format, (input, forced) => {
        // Deep inputs are refused before anything reads them; stringify only what is within reach.
        roundTrip(input, forced);
      }),
      { seed: 1431, numRuns: RUNS.arbitrary },
    );
  });

  it(`the format fixtures with one field deleted, replaced or nested deep (${RUNS.mutatedFixtures} inputs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtures).chain((fixture) => mutateObject(fixture as JsonObject)), format, (input, forced) => roundTrip(input, forced)),
      { seed: 1432, numRuns: RUNS.mutatedFixtures },
    );
  });

  it(`deep and wide definitions and tool lists (${RUNS.deepWide} inputs)`, () => {
    const definition = fc.record({ name: hostileString, description: hostileString, parameters: fc.oneof(deepJson, wideJson), input_schema: fc.oneof(deepJson, anyJson) });
    fc.assert(
      fc.property(fc.oneof(definition, fc.array(definition, { maxLength: 5 }), fc.array(definition, { maxLength: 5 }).map((tools) => ({ tools }))), (input) =>
        roundTrip(input as JsonValue),
      ),
      { seed: 1433, numRuns: RUNS.deepWide },
    );
  });
});
