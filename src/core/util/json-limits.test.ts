import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonLimits, describeJsonPath, jsonStringByteLength, stripByteOrderMark } from './json-limits.ts';
import { jsonByteLength, safeParseJson } from './json.ts';
import { withCpuTime } from '../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const CPU_BOUND_MS = 5_000;

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('checkJsonLimits', () => {
  it('measures depth, nodes and the exact compact JSON size', () => {
    const value = { a: [1, 'é', { b: null, c: true }], d: '\u0001"\\', e: '😀', f: -2.5e-30 };
    const checked = checkJsonLimits(value);
    expect(checked).toEqual({ ok: true, measure: { depth: 3, nodes: 10, bytes: new TextEncoder().encode(JSON.stringify(value)).byteLength } });
  });

  it('matches JSON.stringify byte for byte on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const checked = checkJsonLimits(value);
        expect(checked.ok && checked.measure.bytes).toBe(new TextEncoder().encode(JSON.stringify(value)).byteLength);
      }),
      { seed: 14, numRuns: 300 },
    );
  });

  it('counts lone surrogates as JSON.stringify escapes them', () => {
    for (const text of ['\ud800', 'a\udc00b', '\ud83d\ude00', '\ud83d']) expect(jsonStringByteLength(text)).toBe(new TextEncoder().encode(JSON.stringify(text)).byteLength);
  });

  it('rejects nesting past the limit without recursing, even a million levels deep', () => {
    const { value: checked, cpuMs } = withCpuTime(() => checkJsonLimits({ arguments: { alpha: nested(1_000_000) } }, { maxDepth: 100 }));
    expect(cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.violation.kind).toBe('depth');
    expect(checked.violation.path.slice(0, 3)).toEqual(['arguments', 'alpha', 0]);
    expect(checked.violation.path).toHaveLength(100);
  });

  it('accepts exactly the limit', () => {
    expect(checkJsonLimits(nested(100), { maxDepth: 100 }).ok).toBe(true);
    expect(checkJsonLimits(nested(101), { maxDepth: 100 }).ok).toBe(false);
  });

  it('reports a cycle instead of looping, or reads it as null on request', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = [cyclic];
    const checked = checkJsonLimits(cyclic);
    expect(checked.ok ? 'ok' : [checked.violation.kind, checked.violation.path]).toEqual(['cycle', ['self', 0]]);
    expect(jsonByteLength(cyclic)).toBe(Number.POSITIVE_INFINITY);
    expect(checkJsonLimits(cyclic, { lenient: true })).toEqual({ ok: true, measure: { depth: 2, nodes: 4, bytes: JSON.stringify({ a: 1, self: [null] }).length } });
    const shared = { x: 1 };
    expect(checkJsonLimits([shared, shared]).ok).toBe(true);
  });

  it('never throws, even on a throwing getter', () => {
    const hostile = Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('no access'); } });
    const checked = checkJsonLimits(hostile);
    expect(checked.ok ? null : checked.violation).toEqual({ kind: 'not-json', path: [], message: 'could not be read: no access' });
  });

  it('limits nodes and keys per object', () => {
    const wide = Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`k${index}`, index]));
    const keys = checkJsonLimits({ x: wide }, { maxObjectKeys: 10 });
    expect(keys.ok ? null : [keys.violation.kind, keys.violation.path]).toEqual(['keys', ['x']]);
    const many = checkJsonLimits(Array.from({ length: 50 }, () => [1, 2]), { maxNodes: 100 });
    expect(many.ok ? null : many.violation.kind).toBe('nodes');
  });

  it('names values JSON cannot carry', () => {
    for (const value of [{ a: 1n }, { a: Number.NaN }, [Infinity], { f: [() => 1] }]) {
      const checked = checkJsonLimits(value);
      expect(checked.ok ? null : checked.violation.kind).toBe('not-json');
    }
    expect(checkJsonLimits({ skipped: undefined, kept: 1 })).toEqual({ ok: true, measure: { depth: 1, nodes: 2, bytes: 10 } });
  });

  it('describes paths', () => {
    expect(describeJsonPath(['arguments', 'alpha', 0, 'a b'])).toBe('$.arguments.alpha[0]["a b"]');
  });
});

describe('byte order marks', () => {
  it('are stripped before parsing', () => {
    expect(stripByteOrderMark('\ufeff{}')).toBe('{}');
    expect(safeParseJson('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(safeParseJson('{"a":1}\ufeff').ok).toBe(false);
  });
});
