import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bleExampleInvocation, correctedPlanExample, regressionExampleInvocation } from '../examples/spec-examples.ts';
import { safeParseJson } from '../util/json.ts';
import { resultProblems, testExecutor } from './test-support.ts';
import { withCpuTimeAsync } from '../../test-support/cpu-time.ts';

// Issue 14 fuzz suite, invocation texts: what `sextant invoke` and the app's JSON editor read.
// Seeded and bounded; the README's "Reliability" section lists the families and run counts.

export const RUNS = { texts: 200, plans: 60 } as const;
// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const PER_CALL_CPU_MS = 10_000;
const { executor } = testExecutor();

const examples = [regressionExampleInvocation, bleExampleInvocation, ...correctedPlanExample].map((example) => JSON.stringify(example));

/** Texts: BOM-prefixed, cut anywhere, a byte flipped, an argument nested deep as text, whitespace and garbage. */
const text = fc.oneof(
  fc.constantFrom(...examples).map((source) => `\ufeff${source}`),
  fc.tuple(fc.constantFrom(...examples), fc.nat()).map(([source, cut]) => source.slice(0, cut % source.length)),
  fc.tuple(fc.constantFrom(...examples), fc.nat(), fc.integer({ min: 0, max: 0xffff })).map(([source, at, code]) => {
    const index = at % source.length;
    return `${source.slice(0, index)}${String.fromCharCode(code)}${source.slice(index + 1)}`;
  }),
  fc.tuple(fc.constantFrom(...examples), fc.integer({ min: 1, max: 100_000 }), fc.constantFrom('[', '{"a":')).map(([source, depth, open]) => {
    const close = open === '[' ? ']' : '}';
    return source.replace('"arguments":{', `"arguments":{"deep":${open.repeat(depth)}1${close.repeat(depth)},`);
  }),
  fc.string({ unit: 'binary', maxLength: 300 }),
);

describe('invocation text fuzz (issue 14)', () => {
  it(`every text either fails to parse with a message or gets a well-formed ToolResult (${RUNS.texts} inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(text, async (source) => {
        const parsed = safeParseJson(source);
        if (!parsed.ok) {
          expect(parsed.message.length).toBeGreaterThan(0);
          return;
        }
        const value = parsed.value;
        const { value: records, cpuMs } = await withCpuTimeAsync(async () => (Array.isArray(value) ? await executor.executePlan(value) : [await executor.execute(value)]));
        expect(cpuMs).toBeLessThan(PER_CALL_CPU_MS);
        for (const record of records) expect(resultProblems(record.result)).toEqual([]);
      }),
      { seed: 1441, numRuns: RUNS.texts },
    );
  });

  it(`plans with repeated request_ids refuse exactly the repeats (${RUNS.plans} inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 5 }), async (ids) => {
        const plan = ids.map((id) => ({ ...structuredClone(regressionExampleInvocation), request_id: id, tool_name: 'no_such_tool' }));
        const records = await executor.executePlan(plan);
        ids.forEach((id, index) => {
          const repeated = ids.indexOf(id) < index;
          expect(records[index].result.errors.some((error) => error.field === 'request_id' && error.code === 'INVALID_INVOCATION')).toBe(repeated);
        });
      }),
      { seed: 1442, numRuns: RUNS.plans },
    );
  });
});
