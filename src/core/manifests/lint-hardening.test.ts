import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolManifest } from '../contract/types.ts';
import { isCleanManifest, lintManifest, lintManifestText } from './lint.ts';
import { withCpuTime } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 10_000;

// Regression tests for issue 14's manifest items; each failed (or ran for seconds to minutes) before its fix.

function manifest(inputSchema: JsonSchema): ToolManifest {
  return {
    name: 'hostile_tool',
    version: '1.0.0',
    description: 'A manifest built to stress the lint.',
    capabilities: ['testing'],
    input_schema: inputSchema,
    output_schema: { type: 'object' },
    execution_constraints: { max_timeout_ms: 10_000, max_payload_bytes: 65_536, supports_streaming: false, side_effects: 'none' },
    cost_hint: { unit: 'call', estimated_cost: 0, currency: 'USD' },
    deterministic: true,
  };
}

describe('ReDoS in lint (item 2)', () => {
  it('the 300-byte schema from the issue lints in milliseconds', () => {
    const schema = JSON.parse('{"type":"object","patternProperties":{"^(a+)+$":{"type":"string"}},"required":["aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"],"additionalProperties":false}') as JsonSchema;
    const { value: problems, cpuMs } = withCpuTime(() => lintManifest(manifest(schema)));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([['REQUIRED_NOT_DECLARED', '$.input_schema.required[0]']]);
  });

  it('with 5,000 a\'s it is still fast', () => {
    const schema: JsonSchema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } }, required: [`${'a'.repeat(5000)}!`], additionalProperties: false };
    const { cpuMs } = withCpuTime(() => lintManifest(manifest(schema)));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
  });

  it('a pattern RE2 cannot run is UNSUPPORTED_PATTERN at its path', () => {
    const problems = lintManifest(manifest({ type: 'object', properties: { x: { type: 'string', pattern: '^(?=a)a$' } }, patternProperties: { '(b)\\1': {} } }));
    expect(problems.filter((problem) => problem.code === 'UNSUPPORTED_PATTERN').map((problem) => problem.path).sort()).toEqual([
      '$.input_schema.patternProperties["(b)\\\\1"]',
      '$.input_schema.properties.x.pattern',
    ]);
  });
});

describe('recursive $ref (item 4)', () => {
  it('a same-instance cycle is SCHEMA_REF_CYCLE instead of linting clean', () => {
    const problems = lintManifest(
      manifest({ type: 'object', properties: { x: { $ref: '#/definitions/A' } }, definitions: { A: { allOf: [{ $ref: '#/definitions/A' }] } } }),
    );
    expect(isCleanManifest(problems)).toBe(false);
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([['SCHEMA_REF_CYCLE', '$.input_schema.definitions.A.allOf[0]']]);
  });
});

describe('size limits (item 8)', () => {
  it('a schema with 100,000 properties is TOO_LARGE, quickly and without compiling it', () => {
    const properties = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const { value: problems, cpuMs } = withCpuTime(() => lintManifest(manifest({ type: 'object', properties })));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(problems.map((problem) => [problem.code, problem.path])).toEqual([['TOO_LARGE', '$.input_schema.properties']]);
  });

  it('a manifest nested 100,000 levels deep is TOO_DEEP, and the answer is short', () => {
    const text = `{"name":"x","input_schema":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const problems = lintManifestText(text);
    expect(problems).toHaveLength(1);
    expect(problems[0].code).toBe('TOO_DEEP');
    expect(JSON.stringify(problems).length).toBeLessThan(2000);
  });

  it('an invocation-sized manifest with a BOM lints like one without', () => {
    const text = JSON.stringify(manifest({ type: 'object', properties: {} }));
    expect(lintManifestText(`\ufeff${text}`)).toEqual(lintManifestText(text));
  });
});
