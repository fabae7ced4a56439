// Test support only (imported by *.test.ts, never by the app): fast-check generators for the
// hostile JSON families of issue 14's fuzz suite. Every family is seeded by the test that uses it.
import fc from 'fast-check';
import type { JsonValue } from './json.ts';

/** Wraps a value in `depth` arrays or objects (chosen per level from `shape`), built without recursion. */
export function nestValue(leaf: JsonValue, depth: number, shape: 'array' | 'object' | 'mixed' = 'array', key = 'a'): JsonValue {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) {
    const asArray = shape === 'array' || (shape === 'mixed' && level % 2 === 0);
    value = asArray ? [value] : { [key]: value };
  }
  return value;
}

/** Deep values: nesting just under, at and over the limit, and far over it (up to 20,000 levels). */
export const deepJson: fc.Arbitrary<JsonValue> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 95, max: 105 }), fc.integer({ min: 1, max: 20_000 })),
    fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
    fc.oneof(fc.constant<JsonValue>(0.05), fc.constant<JsonValue>(null), fc.string({ maxLength: 8 })),
    fc.constantFrom('a', '__proto__', 'constructor', 'arguments'),
  )
  .map(([depth, shape, leaf, key]) => nestValue(leaf, depth, shape, key));

/** Wide values: long arrays, objects with many keys, long strings. */
export const wideJson: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.integer({ min: 1_000, max: 20_000 }).map((length): JsonValue => Array.from({ length }, (_, index) => index % 3 === 0 ? index : `v${index}`)),
  fc.integer({ min: 1_000, max: 5_000 }).map((keys): JsonValue => Object.fromEntries(Array.from({ length: keys }, (_, index) => [`k${index}`, index]))),
  fc.integer({ min: 10_000, max: 200_000 }).map((length): JsonValue => 'x'.repeat(length)),
);

/** Strings a parser or a spreadsheet may trip on: formulas, lone surrogates, control characters, prototype keys. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '=HYPERLINK("http://x","y")',
    '+SUM(1,2)',
    '-2+3',
    '@SUM(A1)',
    '\tx',
    '\r\n',
    '\ud800',
    '\udfff\ud800',
    '\u0000',
    '__proto__',
    'constructor',
    '\ufeff',
    '^(a+)+$',
    'a'.repeat(64) + '!',
    'cap_2026_03_14_a',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Numbers at the edges of double precision. */
export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, 1e-17, 5e-324, 1e308, -1e308, 2 ** 53, -(2 ** 53) - 2, 0.1 + 0.2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, mixing ordinary JSON with the deep, wide and hostile families. */
export const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 6 }) as fc.Arbitrary<JsonValue> },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: wideJson },
  { weight: 1, arbitrary: hostileString as fc.Arbitrary<JsonValue> },
  { weight: 1, arbitrary: edgeNumber as fc.Arbitrary<JsonValue> },
);

/** A copy of `base` with one mutation: a key deleted, a value replaced by a hostile one, or a value nested deep. */
export function mutateObject(base: Record<string, JsonValue>): fc.Arbitrary<Record<string, JsonValue>> {
  const keys = Object.keys(base);
  return fc.oneof(
    fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(base).filter(([name]) => name !== key))),
    fc.tuple(fc.constantFrom(...keys), anyJson).map(([key, value]) => ({ ...base, [key]: value })),
    fc.tuple(fc.constantFrom(...keys), fc.integer({ min: 50, max: 5_000 })).map(([key, depth]) => ({ ...base, [key]: nestValue(base[key], depth) })),
    fc.tuple(hostileString, anyJson).map(([key, value]) => ({ ...base, [key]: value })),
  );
}
