import { fc, test } from '@fast-check/vitest';
import { Bool, Dictionary, Float64, Int32, RecordBatch, Table, Utf8, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect } from 'vitest';
import { columnSchemaOf } from '../columns.ts';
import type { ComparisonOperator, FilterAst, FilterColumn, FilterLiteral, FilterOperand } from './ast.ts';
import { evaluateTable, withoutPositions } from './__fixtures__/filter-test-support.ts';
import { compileFilter } from './compile.ts';
import { parseFilter } from './parser.ts';
import { evaluateFilterReference } from './reference.ts';
import { renderFilter } from './render.ts';

// Seeded so a failure replays; change the seed locally to explore further.
const SEED = 20260314;

// ---------------------------------------------------------------------------------------
// Random tables

interface Row {
  num_a: number | null;
  int_b: number | null;
  'odd name': number;
  str_c: string | null;
  str_d: string | null;
  flag: boolean | null;
}

type Kind = 'number' | 'string' | 'boolean';

const COLUMNS: Record<Kind, readonly string[]> = {
  number: ['num_a', 'int_b', 'odd name'],
  string: ['str_c', 'str_d'],
  boolean: ['flag'],
};

// Small pools make literals hit the data often; the random tails cover the rest.
const NUMBER_POOL = [-2, -1, -0, 0, 0.5, 1, 2, 3];
const STRING_POOL = ['', 'a', 'b', 'ab', 'B', "it's", 'é', '😀', 'AND', 'a b', '\uFFFD'];

const numberValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NUMBER_POOL) },
  { weight: 1, arbitrary: fc.double() },
);
// Literals cannot be NaN (there is no way to write one); data values can.
const numberLiteralValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NUMBER_POOL) },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
);
const stringValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STRING_POOL) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
);
const orNull = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: fc.constant(null) });

const rowArbitrary: fc.Arbitrary<Row> = fc.record({
  // null (validity bitmap) and NaN are both null
  num_a: fc.oneof({ weight: 5, arbitrary: orNull(numberValue) }, { weight: 1, arbitrary: fc.constant(Number.NaN) }),
  int_b: orNull(fc.integer({ min: -3, max: 3 })),
  // a plain Float64Array: NaN is its only null
  'odd name': fc.oneof({ weight: 5, arbitrary: numberValue }, { weight: 1, arbitrary: fc.constant(Number.NaN) }),
  str_c: orNull(stringValue),
  str_d: orNull(stringValue),
  flag: orNull(fc.boolean()),
});

function tableOf(rows: ReadonlyArray<Row>): Table {
  return new Table({
    num_a: vectorFromArray(rows.map((row) => row.num_a), new Float64()),
    int_b: vectorFromArray(rows.map((row) => row.int_b), new Int32()),
    'odd name': makeVector(Float64Array.from(rows, (row) => row['odd name'])),
    str_c: vectorFromArray(rows.map((row) => row.str_c), new Dictionary(new Utf8(), new Int32())),
    str_d: vectorFromArray(rows.map((row) => row.str_d), new Utf8()),
    flag: vectorFromArray(rows.map((row) => row.flag), new Bool()),
  });
}

const SCHEMA = columnSchemaOf(tableOf([]).schema.fields);

interface GeneratedTable {
  rows: Row[];
  table: Table;
}

/**
 * Rows cut into batches; each batch is built with junk rows in front and sliced past
 * them, so batches have their own dictionaries (with unused entries), non-zero offsets
 * into their validity bitmaps, and sliced Utf8 offsets.
 */
const tableArbitrary: fc.Arbitrary<GeneratedTable> = fc
  .record({
    rows: fc.array(rowArbitrary, { maxLength: 30 }),
    cuts: fc.array(fc.nat(), { maxLength: 3 }),
    junk: fc.array(rowArbitrary, { maxLength: 3 }),
  })
  .map(({ rows, cuts, junk }) => {
    const bounds = [...new Set([0, ...cuts.map((cut) => cut % (rows.length + 1)), rows.length])].sort((a, b) => a - b);
    const schema = tableOf([]).schema;
    const batches: RecordBatch[] = [];
    for (let index = 0; index + 1 < bounds.length; index++) {
      const chunk = rows.slice(bounds[index], bounds[index + 1]);
      const sliced = tableOf([...junk, ...chunk]).slice(junk.length);
      for (const batch of sliced.batches) batches.push(new RecordBatch(schema, batch.data));
    }
    return { rows, table: new Table(schema, batches) };
  });

// ---------------------------------------------------------------------------------------
// Random well-typed expressions

const OPERATORS: ComparisonOperator[] = ['=', '!=', '<', '<=', '>', '>='];
const kindArbitrary = fc.constantFrom<Kind>('number', 'string', 'boolean');

function columnOf(kind: Kind): fc.Arbitrary<FilterColumn> {
  return fc.constantFrom(...COLUMNS[kind]).map((name): FilterColumn => ({ kind: 'column', name, position: 0 }));
}

function literalOf(kind: Kind): fc.Arbitrary<FilterLiteral> {
  switch (kind) {
    case 'number':
      return numberLiteralValue.map((value): FilterLiteral => ({ kind: 'number', value, position: 0 }));
    case 'string':
      return stringValue.map((value): FilterLiteral => ({ kind: 'string', value, position: 0 }));
    case 'boolean':
      return fc.oneof(
        fc.boolean().map((value): FilterLiteral => ({ kind: 'boolean', value, position: 0 })),
        fc.constantFrom(0, 1).map((value): FilterLiteral => ({ kind: 'number', value, position: 0 })),
      );
  }
}

function operandOf(kind: Kind): fc.Arbitrary<FilterOperand> {
  return fc.oneof({ weight: 3, arbitrary: literalOf(kind) }, { weight: 1, arbitrary: columnOf(kind) });
}

const comparison: fc.Arbitrary<FilterAst> = kindArbitrary.chain((kind) =>
  fc
    .record({ column: columnOf(kind), other: operandOf(kind), operator: fc.constantFrom(...OPERATORS), swap: fc.boolean() })
    .map(({ column, other, operator, swap }): FilterAst => ({
      kind: 'comparison',
      operator,
      left: swap ? other : column,
      right: swap ? column : other,
      position: 0,
    })),
);

const inList: fc.Arbitrary<FilterAst> = kindArbitrary.chain((kind) =>
  fc
    .record({ subject: columnOf(kind), values: fc.array(literalOf(kind), { minLength: 1, maxLength: 10 }), negated: fc.boolean() })
    .map(({ subject, values, negated }): FilterAst => ({ kind: 'in', subject, values, negated, position: 0 })),
);

const between: fc.Arbitrary<FilterAst> = kindArbitrary.chain((kind) =>
  fc
    .record({ subject: columnOf(kind), low: operandOf(kind), high: operandOf(kind), negated: fc.boolean() })
    .map(({ subject, low, high, negated }): FilterAst => ({ kind: 'between', subject, low, high, negated, position: 0 })),
);

const isNull: fc.Arbitrary<FilterAst> = kindArbitrary.chain((kind) =>
  fc
    .record({ subject: columnOf(kind), negated: fc.boolean() })
    .map(({ subject, negated }): FilterAst => ({ kind: 'is_null', subject, negated, position: 0 })),
);

const { expression: expressionArbitrary } = fc.letrec<{ expression: FilterAst }>((tie) => ({
  expression: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'filter' },
    fc.oneof(comparison, inList, between, isNull),
    tie('expression').map((operand): FilterAst => ({ kind: 'not', operand, position: 0 })),
    fc.array(tie('expression'), { minLength: 2, maxLength: 3 }).map((operands): FilterAst => ({ kind: 'and', operands, position: 0 })),
    fc.array(tie('expression'), { minLength: 2, maxLength: 3 }).map((operands): FilterAst => ({ kind: 'or', operands, position: 0 })),
  ),
}));

// ---------------------------------------------------------------------------------------

describe('filter properties', () => {
  test.prop([tableArbitrary, expressionArbitrary], { seed: SEED, numRuns: 500 })(
    'the compiled, vectorized filter agrees with the row-by-row reference',
    ({ rows, table }, ast) => {
      expect(table.numRows).toBe(rows.length);
      const text = renderFilter(ast);
      const compiled = compileFilter(text, SCHEMA);
      if (!compiled.ok) throw new Error(`${text}: ${compiled.error.message}`);
      const expected = rows.map((row) => (evaluateFilterReference(ast, { ...row }) ? 1 : 0));
      expect(evaluateTable(compiled.value, table), text).toEqual(expected);
    },
  );

  test.prop([expressionArbitrary], { seed: SEED, numRuns: 1000 })('parseFilter(renderFilter(ast)) gives the tree back', (ast) => {
    const text = renderFilter(ast);
    const parsed = parseFilter(text);
    if (!parsed.ok) throw new Error(`${text}: ${parsed.error.message}`);
    expect(withoutPositions(parsed.value)).toEqual(withoutPositions(ast));
    expect(renderFilter(parsed.value)).toBe(text);
  });

  const fixedTable = tableOf([
    { num_a: 1, int_b: null, 'odd name': Number.NaN, str_c: 'a', str_d: null, flag: true },
    { num_a: null, int_b: 2, 'odd name': 0, str_c: null, str_d: "it's", flag: null },
  ]);

  const TOKENS = [
    ' ', '(', ')', ',', "'", '"', "''", '=', '!=', '<>', '<', '<=', '>', '>=', '-', '.', 'e', '1', '0.5', '-2', '1e3',
    'AND', 'or', 'NOT', 'IN', 'between', 'IS', 'NULL', 'TRUE', 'false', "'a'", "'it''s'", '"odd name"', 'num_a', 'int_b',
    'str_c', 'str_d', 'flag', 'unknown', '&', '==', '\n', 'é',
  ];
  const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }).map((tokens) => tokens.join(''));
  const spacedSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 25 }).map((tokens) => tokens.join(' '));

  test.prop([fc.oneof(fc.string(), fc.string({ unit: 'binary' }), tokenSoup, spacedSoup)], { seed: SEED, numRuns: 3000 })(
    'any text yields a result, never an exception',
    (text) => {
      const parsed = parseFilter(text);
      if (!parsed.ok) {
        expect(parsed.error.position).toBeGreaterThanOrEqual(0);
        expect(parsed.error.position).toBeLessThanOrEqual(text.length);
        expect(parsed.error.message).toContain(`position ${parsed.error.position}`);
      }
      const compiled = compileFilter(text, SCHEMA);
      if (compiled.ok) {
        expect(parsed.ok).toBe(true);
        expect(evaluateTable(compiled.value, fixedTable)).toHaveLength(2);
      } else {
        expect(compiled.error.message).toContain(`position ${compiled.error.position}`);
      }
    },
  );
});
