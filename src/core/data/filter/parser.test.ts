import { describe, expect, it } from 'vitest';
import type { FilterAst } from './ast.ts';
import { withoutPositions } from './__fixtures__/filter-test-support.ts';
import { MAX_FILTER_DEPTH, parseFilter } from './parser.ts';
import type { FilterProblem } from './problem.ts';
import { renderFilter } from './render.ts';

function parse(expression: string): FilterAst {
  const result = parseFilter(expression);
  if (!result.ok) throw new Error(`expected ${expression} to parse: ${result.error.message}`);
  return result.value;
}

function shape(expression: string): unknown {
  return withoutPositions(parse(expression));
}

function problem(expression: string): FilterProblem {
  const result = parseFilter(expression);
  if (result.ok) throw new Error(`expected ${expression} to fail, got ${renderFilter(result.value)}`);
  return result.error;
}

const column = (name: string) => ({ kind: 'column', name });
const number = (value: number) => ({ kind: 'number', value });
const string = (value: string) => ({ kind: 'string', value });
const compare = (left: unknown, operator: string, right: unknown) => ({ kind: 'comparison', operator, left, right });

describe('parseFilter: constructs', () => {
  it.each([
    ['=', '='],
    ['!=', '!='],
    ['<>', '!='],
    ['<', '<'],
    ['<=', '<='],
    ['>', '>'],
    ['>=', '>='],
  ])('comparison %s', (source, operator) => {
    expect(shape(`rssi ${source} -92`)).toEqual(compare(column('rssi'), operator, number(-92)));
    expect(shape(`rssi${source}-92`)).toEqual(compare(column('rssi'), operator, number(-92)));
  });

  it('parses the spec examples', () => {
    expect(shape('signal_quality >= 0.95')).toEqual(compare(column('signal_quality'), '>=', number(0.95)));
    expect(shape('channel IN (37,38,39) AND rssi > -92')).toEqual({
      kind: 'and',
      operands: [
        { kind: 'in', subject: column('channel'), values: [number(37), number(38), number(39)], negated: false },
        compare(column('rssi'), '>', number(-92)),
      ],
    });
    expect(shape("adv_type IN ('ADV_IND','ADV_NONCONN_IND')")).toEqual({
      kind: 'in',
      subject: column('adv_type'),
      values: [string('ADV_IND'), string('ADV_NONCONN_IND')],
      negated: false,
    });
    expect(shape("channel = 'ch1' OR NOT (snr BETWEEN 1 AND 2)")).toEqual({
      kind: 'or',
      operands: [
        compare(column('channel'), '=', string('ch1')),
        { kind: 'not', operand: { kind: 'between', subject: column('snr'), low: number(1), high: number(2), negated: false } },
      ],
    });
    expect(shape('local_name IS NOT NULL')).toEqual({ kind: 'is_null', subject: column('local_name'), negated: true });
  });

  it('accepts a literal on the left and column-to-column comparisons', () => {
    expect(shape('0.95 <= signal_quality')).toEqual(compare(number(0.95), '<=', column('signal_quality')));
    expect(shape("'ch1' = channel")).toEqual(compare(string('ch1'), '=', column('channel')));
    expect(shape('snr > jitter')).toEqual(compare(column('snr'), '>', column('jitter')));
  });

  it('parses NOT IN, NOT BETWEEN, IS NULL and column bounds', () => {
    expect(shape('channel NOT IN (37)')).toEqual({ kind: 'in', subject: column('channel'), values: [number(37)], negated: true });
    expect(shape('t NOT BETWEEN 0 AND 10')).toEqual({ kind: 'between', subject: column('t'), low: number(0), high: number(10), negated: true });
    expect(shape('t BETWEEN start_ms AND end_ms')).toEqual({ kind: 'between', subject: column('t'), low: column('start_ms'), high: column('end_ms'), negated: false });
    expect(shape('local_name IS NULL')).toEqual({ kind: 'is_null', subject: column('local_name'), negated: false });
  });

  it.each([
    ['37', 37],
    ['0.95', 0.95],
    ['-92', -92],
    ['1e3', 1000],
    ['1.5E-2', 0.015],
    ['2e+2', 200],
    ['.5', 0.5],
    ['-.5', -0.5],
    ['1.', 1],
    ['-0', -0],
    ['1e999', Number.POSITIVE_INFINITY],
  ])('number literal %s', (source, value) => {
    expect(shape(`x = ${source}`)).toEqual(compare(column('x'), '=', number(value)));
  });

  it('reads string literals with doubled quotes and any characters', () => {
    expect(shape("name = 'it''s'")).toEqual(compare(column('name'), '=', string("it's")));
    expect(shape("name = ''")).toEqual(compare(column('name'), '=', string('')));
    expect(shape("name = ''''")).toEqual(compare(column('name'), '=', string("'")));
    expect(shape("name = 'a AND b = \"c\" é 😀'")).toEqual(compare(column('name'), '=', string('a AND b = "c" é 😀')));
  });

  it('reads double-quoted column names, including keywords and doubled quotes', () => {
    expect(shape('"odd name" = 1')).toEqual(compare(column('odd name'), '=', number(1)));
    expect(shape('"say ""hi""" = 1')).toEqual(compare(column('say "hi"'), '=', number(1)));
    expect(shape('"and" = 1')).toEqual(compare(column('and'), '=', number(1)));
    expect(shape('"2g_rssi" > 1')).toEqual(compare(column('2g_rssi'), '>', number(1)));
  });

  it('reads keywords in any case, and TRUE/FALSE as booleans', () => {
    expect(shape('a in (1) and not b is null or c between 1 and 2')).toEqual(
      shape('a IN (1) AND NOT b IS NULL OR c BETWEEN 1 AND 2'),
    );
    expect(shape('flag = true')).toEqual(compare(column('flag'), '=', { kind: 'boolean', value: true }));
    expect(shape('flag IN (FALSE, 1)')).toEqual({
      kind: 'in',
      subject: column('flag'),
      values: [{ kind: 'boolean', value: false }, number(1)],
      negated: false,
    });
    // Identifiers are case-sensitive and only whole words are keywords.
    expect(shape('Android = 1 AND notes = 2')).toEqual({
      kind: 'and',
      operands: [compare(column('Android'), '=', number(1)), compare(column('notes'), '=', number(2))],
    });
  });

  it('records the start offset of every node', () => {
    const ast = parse("  rssi > -92 AND  name IN ('a')");
    expect(ast).toMatchObject({
      kind: 'and',
      position: 2,
      operands: [
        { kind: 'comparison', position: 2, left: { position: 2 }, right: { position: 9 } },
        { kind: 'in', position: 18, subject: { position: 18 }, values: [{ position: 27 }] },
      ],
    });
    expect(parse('NOT x = 1')).toMatchObject({ kind: 'not', position: 0, operand: { position: 4 } });
  });
});

describe('parseFilter: precedence', () => {
  const a = compare(column('a'), '=', number(1));
  const b = compare(column('b'), '=', number(2));
  const c = compare(column('c'), '=', number(3));

  it('AND binds tighter than OR', () => {
    expect(shape('a = 1 OR b = 2 AND c = 3')).toEqual({ kind: 'or', operands: [a, { kind: 'and', operands: [b, c] }] });
    expect(shape('a = 1 AND b = 2 OR c = 3')).toEqual({ kind: 'or', operands: [{ kind: 'and', operands: [a, b] }, c] });
  });

  it('NOT binds tighter than AND', () => {
    expect(shape('NOT a = 1 AND b = 2')).toEqual({ kind: 'and', operands: [{ kind: 'not', operand: a }, b] });
    expect(shape('NOT a = 1 OR b = 2')).toEqual({ kind: 'or', operands: [{ kind: 'not', operand: a }, b] });
    expect(shape('NOT NOT a = 1')).toEqual({ kind: 'not', operand: { kind: 'not', operand: a } });
  });

  it('parentheses override precedence', () => {
    expect(shape('(a = 1 OR b = 2) AND c = 3')).toEqual({ kind: 'and', operands: [{ kind: 'or', operands: [a, b] }, c] });
    expect(shape('NOT (a = 1 AND b = 2)')).toEqual({ kind: 'not', operand: { kind: 'and', operands: [a, b] } });
    expect(shape('((a = 1))')).toEqual(a);
  });

  it('flattens a chain at one level and keeps parenthesized chains nested', () => {
    expect(shape('a = 1 AND b = 2 AND c = 3')).toEqual({ kind: 'and', operands: [a, b, c] });
    expect(shape('(a = 1 AND b = 2) AND c = 3')).toEqual({ kind: 'and', operands: [{ kind: 'and', operands: [a, b] }, c] });
    expect(shape('a = 1 OR b = 2 OR c = 3')).toEqual({ kind: 'or', operands: [a, b, c] });
  });

  it('gives the AND of BETWEEN to BETWEEN', () => {
    expect(shape('x BETWEEN 1 AND 2 AND c = 3')).toEqual({
      kind: 'and',
      operands: [{ kind: 'between', subject: column('x'), low: number(1), high: number(2), negated: false }, c],
    });
  });
});

describe('parseFilter: errors', () => {
  it.each<[string, number, string]>([
    ['', 0, 'Expected a condition at position 0, found end of input'],
    ['   ', 3, 'Expected a condition at position 3, found end of input'],
    ['signal_quality >= ', 18, "Expected a value after '>=' at position 18, found end of input"],
    ['rssi > > 3', 7, "Expected a value after '>' at position 7, found '>'"],
    ['AND x = 1', 0, "Expected a condition at position 0, found 'AND'"],
    ['x = 1 AND', 9, "Expected a condition after 'AND' at position 9, found end of input"],
    ['x = 1 AND OR y = 2', 10, "Expected a condition after 'AND' at position 10, found 'OR'"],
    ['rssi 5', 5, "Expected a comparison operator (=, !=, <>, <, <=, >, >=), IN, NOT IN, BETWEEN, LIKE, CONTAINS or IS after 'rssi' at position 5, found '5'"],
    ['x = 1 y = 2', 6, "Expected AND, OR or the end of the expression after '1' at position 6, found 'y'"],
    ['x = 1 )', 6, "Expected AND, OR or the end of the expression after '1' at position 6, found ')'"],
    ['(x = 1', 6, "Expected ')' after '1' at position 6, found end of input; the '(' at position 0 is not closed"],
    ['x IN ()', 6, "Expected at least one value in the IN list after '(' at position 6, found ')'"],
    ['x IN 1', 5, "Expected '(' and a list of values after 'IN' at position 5, found '1'"],
    ['x IN (1,)', 8, "Expected a value after ',' at position 8, found ')'"],
    ['x IN (1 2)', 8, "Expected ',' or ')' in the IN list after '1' at position 8, found '2'"],
    ['x IN (1, y)', 9, "Expected a number, a 'string', TRUE or FALSE in the IN list at position 9, found 'y' (IN lists hold literal values only)"],
    ['x NOT = 1', 6, "Expected IN, BETWEEN, LIKE or CONTAINS after 'NOT' at position 6, found '='"],
    ['x IS 5', 5, "Expected NULL or NOT NULL after 'IS' at position 5, found '5'"],
    ['x IS NOT 5', 9, "Expected NULL after 'NOT' at position 9, found '5'"],
    ['x BETWEEN 1 OR 2', 12, "Expected AND after '1' at position 12, found 'OR'"],
    ['x = NULL', 4, "Expected a value after '=' at position 4, found 'NULL'; compare with NULL using IS NULL or IS NOT NULL"],
    ['1 = 2', 4, "Expected a column name after '=' at position 4, found '2' (one side of a comparison must be a column)"],
    ['37 IN (1)', 0, "Expected a column name before 'IN' at position 0, found '37'"],
    ["name = 'abc", 7, "Expected a closing ' for the string starting at position 7, found end of input"],
    ['"odd name = 1', 0, 'Expected a closing " for the column name starting at position 0, found end of input'],
    ['"" = 1', 0, 'Expected a column name between the double quotes at position 0, found an empty name'],
    ['x = 1 & y = 2', 6, "Unexpected character '&' at position 6; use AND or &&"],
    ['x = 1 | y = 2', 6, "Unexpected character '|' at position 6; use OR or ||"],
    ['x LIKE 5', 7, "Expected a 'string' after 'LIKE' at position 7, found '5'"],
    ['x = 0xg', 4, "Expected hex digits after '0x' at position 4, found 'g'"],
    ['x = 1 ; y', 6, "Unexpected character ';' at position 6"],
    ['größe = 1', 2, `Unexpected character 'ö' at position 2; double-quote column names with other characters, e.g. "ö…"`],
    ['x = 1e', 4, "Expected digits in the exponent of the number at position 4, found end of input"],
    ['x = 12abc', 6, "Expected a space or operator after the number 12 at position 6, found 'a' (a column name that starts with a digit needs double quotes)"],
    ['x = 1.2.3', 7, "Expected a space or operator after the number 1.2 at position 7, found '.'"],
    ['x = - 5', 4, "Expected a number after '-' at position 4, found ' '"],
  ])('%j', (expression, position, message) => {
    expect(problem(expression)).toEqual({ kind: 'syntax', position, message });
  });

  it('reports the earliest problem in the text', () => {
    expect(problem(") = 'unterminated").position).toBe(0);
    expect(problem("x = 1 1 'unterminated").position).toBe(6);
    expect(problem("x = 'unterminated").message).toContain('closing');
  });

  it('caps nesting depth instead of overflowing the stack', () => {
    const deep = `${'('.repeat(MAX_FILTER_DEPTH + 50)}x = 1${')'.repeat(MAX_FILTER_DEPTH + 50)}`;
    expect(problem(deep)).toMatchObject({ kind: 'syntax', position: MAX_FILTER_DEPTH });
    expect(problem(`${'NOT '.repeat(MAX_FILTER_DEPTH + 1)}x = 1`).message).toContain('nested');
    const fine = `${'('.repeat(MAX_FILTER_DEPTH)}x = 1${')'.repeat(MAX_FILTER_DEPTH)}`;
    expect(parseFilter(fine).ok).toBe(true);
    const longChain = Array.from({ length: 5000 }, (_, index) => `x = ${index}`).join(' OR ');
    expect(parseFilter(longChain).ok).toBe(true);
  });
});

describe('renderFilter', () => {
  it.each([
    ['signal_quality >= 0.95', 'signal_quality >= 0.95'],
    ['channel in (37,38,39) and rssi>-92', 'channel IN (37, 38, 39) AND rssi > -92'],
    ["channel = 'ch1' OR NOT (snr BETWEEN 1 AND 2)", "channel = 'ch1' OR NOT snr BETWEEN 1 AND 2"],
    ['a <> 1', 'a != 1'],
    ['(a = 1 OR b = 2) AND c = 3', '(a = 1 OR b = 2) AND c = 3'],
    ['(a = 1 AND b = 2) AND c = 3', '(a = 1 AND b = 2) AND c = 3'],
    ['NOT (a = 1 OR b = 2)', 'NOT (a = 1 OR b = 2)'],
    ["\"odd name\" = 'it''s'", "\"odd name\" = 'it''s'"],
    ['"and" IS NOT NULL', '"and" IS NOT NULL'],
    ['"a""b" = -0', '"a""b" = -0'],
    ['x < 1e999', 'x < 1e999'],
    ['flag = true', 'flag = TRUE'],
    ['0.95 <= q', '0.95 <= q'],
  ])('%s → %s, which parses to the same tree', (source, rendered) => {
    const ast = parse(source);
    expect(renderFilter(ast)).toBe(rendered);
    expect(withoutPositions(parse(rendered))).toEqual(withoutPositions(ast));
  });
});
