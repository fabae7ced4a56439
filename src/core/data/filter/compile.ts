import type { RecordBatch } from 'apache-arrow';
import { assertNever, err, ok, type Result } from '../../util/result.ts';
import { numericColumn, stringColumn, type ColumnKind, type ColumnSchema } from '../columns.ts';
import { filterColumns, isAddressColumn, type ComparisonOperator, type FilterAst, type FilterColumn, type FilterLiteral, type FilterOperand } from './ast.ts';
import { likeTest } from './like.ts';
import { nearestColumns, pduTypeName, WIRESHARK_FIELDS } from './wireshark-fields.ts';
import {
  andInto,
  compareNumberColumns,
  compareNumberToConstant,
  compareStringColumns,
  matchStrings,
  negate,
  numberBetweenConstants,
  numberInConstants,
  numberIsNull,
  orInto,
  stringBetweenMatcher,
  stringComparisonMatcher,
  stringInMatcher,
  stringIsNull,
  type BasicComparison,
  type MaskNode,
} from './kernels.ts';
import { parseFilter } from './parser.ts';
import type { FilterProblem } from './problem.ts';
import { renderOperand } from './render.ts';

/** A filter expression checked against a schema and compiled into a vectorized predicate. */
export interface CompiledFilter {
  /** The source text (for a combination, the parts joined by `AND`). */
  readonly expression: string;
  /** Columns the predicate reads, in order of first appearance. */
  readonly columns: readonly string[];
  /**
   * 1 for rows where the predicate is TRUE, else 0 (FALSE or UNKNOWN); length
   * `batch.numRows`, freshly allocated. Works column at a time over the batch's arrays.
   * Throws if the batch lacks one of `columns` (the batch does not match the schema the
   * filter was compiled against: a programmer error).
   */
  evaluate(batch: RecordBatch): Uint8Array;
}

/** Most column names listed in an unknown-column message. */
const LISTED_COLUMNS = 30;

type Compiled = Result<MaskNode, FilterProblem>;

interface Context {
  kinds: ReadonlyMap<string, ColumnKind>;
  schema: ReadonlyArray<ColumnSchema>;
}

/**
 * Parses `expression`, checks every column against `schema` and every literal against
 * its column's kind, and compiles the tree once into closures that each compute a whole
 * mask per batch. Type rules: number columns compare with numbers, string columns with
 * 'strings', boolean columns with TRUE, FALSE, 0 or 1; two columns compare when their
 * kinds match. Semantics are SQL's three-valued logic (a null or NaN operand makes a
 * comparison UNKNOWN) and a row is kept only when the whole predicate is TRUE. Strings
 * order by UTF-16 code units (JavaScript's `<`). Never throws.
 */
export function compileFilter(expression: string, schema: ReadonlyArray<ColumnSchema>): Result<CompiledFilter, FilterProblem> {
  const parsed = parseFilter(expression);
  if (!parsed.ok) return parsed;
  const context: Context = { kinds: new Map(schema.map((column) => [column.name, column.kind])), schema };
  const resolved = resolveFieldNames(parsed.value, context);
  if (!resolved.ok) return resolved;
  const root = compileNode(resolved.value, context);
  if (!root.ok) return root;
  const node = root.value;
  return ok({
    expression,
    columns: Object.freeze(filterColumns(resolved.value)),
    evaluate: (batch: RecordBatch) => node(batch).isTrue,
  });
}

/**
 * The AND of several compiled filters: a row is kept when every filter keeps it. With
 * no filters every row is kept (and `expression` is '').
 */
export function combineFilters(filters: ReadonlyArray<CompiledFilter>): CompiledFilter {
  if (filters.length === 1) return filters[0];
  const parts = [...filters];
  const columns = new Set<string>();
  for (const filter of parts) for (const column of filter.columns) columns.add(column);
  return {
    expression: parts.map((filter) => `(${filter.expression})`).join(' AND '),
    columns: Object.freeze([...columns]),
    evaluate: (batch: RecordBatch) => {
      const result = new Uint8Array(batch.numRows).fill(1);
      for (const filter of parts) {
        const mask = filter.evaluate(batch);
        for (let row = 0; row < result.length; row++) result[row] &= mask[row];
      }
      return result;
    },
  };
}

function compileNode(ast: FilterAst, context: Context): Compiled {
  switch (ast.kind) {
    case 'comparison':
      return compileComparison(ast.left, ast.operator, ast.right, context);
    case 'in':
      return compileIn(ast.subject, ast.values, ast.negated, context);
    case 'between': {
      const inside = compileBetween(ast.subject, ast.low, ast.high, context);
      return inside.ok && ast.negated ? ok(negateNode(inside.value)) : inside;
    }
    case 'is_null': {
      const kind = resolveColumn(ast.subject, context);
      if (!kind.ok) return kind;
      const name = ast.subject.name;
      const isNull: MaskNode = kind.value === 'string' ? (batch) => stringIsNull(batch, name) : (batch) => numberIsNull(numericColumn(batch, name));
      return ok(ast.negated ? negateNode(isNull) : isNull);
    }
    case 'like': {
      const kind = resolveColumn(ast.subject, context);
      if (!kind.ok) return kind;
      if (kind.value !== 'string') {
        return err({
          kind: 'type_mismatch',
          column: ast.subject.name,
          position: ast.subject.position,
          message: `column ${describeColumn(ast.subject)} is ${kind.value} but ${ast.operator === 'like' ? 'LIKE' : 'CONTAINS'} matches text at position ${ast.subject.position}; compare numbers with =, <, BETWEEN or IN`,
        });
      }
      const name = ast.subject.name;
      const matcher = { test: likeTest(ast) };
      const node: MaskNode = (batch) => matchStrings(batch, name, matcher);
      return ok(ast.negated ? negateNode(node) : node);
    }
    case 'not': {
      const operand = compileNode(ast.operand, context);
      return operand.ok ? ok(negateNode(operand.value)) : operand;
    }
    case 'and':
    case 'or': {
      const operands: MaskNode[] = [];
      for (const operand of ast.operands) {
        const compiled = compileNode(operand, context);
        if (!compiled.ok) return compiled;
        operands.push(compiled.value);
      }
      const combine = ast.kind === 'and' ? andInto : orInto;
      return ok((batch) => {
        const result = operands[0](batch);
        for (let index = 1; index < operands.length; index++) combine(result, operands[index](batch));
        return result;
      });
    }
    default:
      return assertNever(ast, 'filter node');
  }
}

function negateNode(node: MaskNode): MaskNode {
  return (batch) => negate(node(batch));
}

/** `a op b` ⇔ `b flipped(op) a`. */
const FLIPPED: Record<ComparisonOperator, ComparisonOperator> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Each operator as a kernel comparison, negated or not (valid on known values). */
const DECOMPOSED: Record<ComparisonOperator, { comparison: BasicComparison; negated: boolean }> = {
  '=': { comparison: 'eq', negated: false },
  '!=': { comparison: 'eq', negated: true },
  '<': { comparison: 'lt', negated: false },
  '<=': { comparison: 'le', negated: false },
  '>': { comparison: 'le', negated: true },
  '>=': { comparison: 'lt', negated: true },
};

function compileComparison(left: FilterOperand, operator: ComparisonOperator, right: FilterOperand, context: Context): Compiled {
  // Check in text order so the first problem reported is the leftmost one.
  const leftKind = left.kind === 'column' ? resolveColumn(left, context) : null;
  if (leftKind && !leftKind.ok) return leftKind;
  const rightKind = right.kind === 'column' ? resolveColumn(right, context) : null;
  if (rightKind && !rightKind.ok) return rightKind;

  // The parser guarantees a column on at least one side; put it on the left.
  let column: FilterColumn;
  let other: FilterOperand;
  let kind: ColumnKind;
  if (left.kind === 'column' && leftKind?.ok) {
    column = left;
    other = right;
    kind = leftKind.value;
  } else if (right.kind === 'column' && rightKind?.ok) {
    column = right;
    other = left;
    kind = rightKind.value;
    operator = FLIPPED[operator];
  } else {
    return err({ kind: 'syntax', position: left.position, message: `Expected a column name on one side of '${operator}' at position ${left.position}, found two values` });
  }

  const { comparison, negated } = DECOMPOSED[operator];
  const name = column.name;
  let node: MaskNode;
  if (other.kind === 'column') {
    // Two columns: the left one was chosen above, so `other` is `right`.
    const otherKind = rightKind?.ok ? rightKind.value : kind;
    if (otherKind !== kind) return err(columnMismatch(column, kind, other, otherKind));
    const otherName = other.name;
    node =
      kind === 'string'
        ? (batch) => compareStringColumns(stringColumn(batch, name), comparison, stringColumn(batch, otherName))
        : (batch) => compareNumberColumns(numericColumn(batch, name), comparison, numericColumn(batch, otherName));
  } else {
    const problem = literalProblem(column, kind, other);
    if (problem) return err(problem);
    if (other.kind === 'string') {
      const constant = other.value.toLowerCase();
      // Addresses match whatever their case (Wireshark prints lower case, the importer upper).
      const matcher = comparison === 'eq' && isAddressColumn(name) ? { test: (value: string) => value.toLowerCase() === constant } : stringComparisonMatcher(comparison, other.value);
      node = (batch) => matchStrings(batch, name, matcher);
    } else {
      const constant = numericValue(other);
      node = (batch) => compareNumberToConstant(numericColumn(batch, name), comparison, constant);
    }
  }
  return ok(negated ? negateNode(node) : node);
}

function compileIn(subject: FilterColumn, values: ReadonlyArray<FilterLiteral>, negated: boolean, context: Context): Compiled {
  const kind = resolveColumn(subject, context);
  if (!kind.ok) return kind;
  for (const value of values) {
    const problem = literalProblem(subject, kind.value, value);
    if (problem) return err(problem);
  }
  const name = subject.name;
  let node: MaskNode;
  if (kind.value === 'string' && isAddressColumn(name)) {
    const constants = new Set(values.map((value) => String(value.value).toLowerCase()));
    node = (batch) => matchStrings(batch, name, { test: (value) => constants.has(value.toLowerCase()) });
  } else if (kind.value === 'string') {
    const matcher = stringInMatcher(values.map((value) => String(value.value)));
    node = (batch) => matchStrings(batch, name, matcher);
  } else {
    const constants = values.map(numericValue);
    node = (batch) => numberInConstants(numericColumn(batch, name), constants);
  }
  return ok(negated ? negateNode(node) : node);
}

/** `subject BETWEEN low AND high` ⇔ `subject >= low AND subject <= high` (SQL's definition, nulls included). */
function compileBetween(subject: FilterColumn, low: FilterOperand, high: FilterOperand, context: Context): Compiled {
  const kind = resolveColumn(subject, context);
  if (!kind.ok) return kind;
  if (low.kind !== 'column' && high.kind !== 'column') {
    for (const bound of [low, high]) {
      const problem = literalProblem(subject, kind.value, bound);
      if (problem) return err(problem);
    }
    const name = subject.name;
    if (low.kind === 'string' && high.kind === 'string') {
      const matcher = stringBetweenMatcher(low.value, high.value);
      return ok((batch) => matchStrings(batch, name, matcher));
    }
    const lowValue = numericValue(low);
    const highValue = numericValue(high);
    return ok((batch) => numberBetweenConstants(numericColumn(batch, name), lowValue, highValue));
  }
  // A column bound: compose the two comparisons.
  const atLeast = compileComparison(subject, '>=', low, context);
  if (!atLeast.ok) return atLeast;
  const atMost = compileComparison(subject, '<=', high, context);
  if (!atMost.ok) return atMost;
  const lower = atLeast.value;
  const upper = atMost.value;
  return ok((batch) => {
    const result = lower(batch);
    andInto(result, upper(batch));
    return result;
  });
}

function numericValue(literal: FilterLiteral): number {
  switch (literal.kind) {
    case 'number':
      return literal.value;
    case 'boolean':
      return literal.value ? 1 : 0;
    case 'string':
      // literalProblem rejects strings against number and boolean columns first.
      throw new Error('a string literal has no numeric value');
    default:
      return assertNever(literal, 'filter literal');
  }
}

function resolveColumn(column: FilterColumn, context: Context): Result<ColumnKind, FilterProblem> {
  const kind = context.kinds.get(column.name);
  if (kind) return ok(kind);
  const names = context.schema.map((entry) => entry.name);
  const listed = names.length > LISTED_COLUMNS ? `${names.slice(0, LISTED_COLUMNS).join(', ')}, … (${names.length - LISTED_COLUMNS} more)` : names.join(', ');
  const lower = column.name.toLowerCase();
  const nearMatch = names.find((name) => name.toLowerCase() === lower);
  const hint = nearMatch ? `; did you mean ${renderOperand({ kind: 'column', name: nearMatch, position: 0 })}?` : '';
  const nearest = nearMatch || names.length === 0 ? '' : `; nearest: ${nearestColumns(column.name, names).join(', ')}`;
  const what = column.name.includes('.') ? `Unknown column '${column.name}' (a Wireshark field Sextant does not map)` : `Unknown column '${column.name}'`;
  return err({
    kind: 'unknown_column',
    column: column.name,
    position: column.position,
    message: `${what} at position ${column.position}${nearest}; available: ${listed || '(none)'}${hint}`,
  });
}

/**
 * Maps Wireshark field names onto the table's columns (`btle.advertising_address` →
 * `advertiser_addr`) and their numbers onto its values (a PDU type code → its `adv_type` name),
 * or answers a field whose meaning differs with the Sextant way to write it. A name the table
 * has is never remapped. Unknown names are left for resolveColumn to report.
 */
function resolveFieldNames(ast: FilterAst, context: Context): Result<FilterAst, FilterProblem> {
  let problem: FilterProblem | null = null;
  const pduColumns = new Set<string>();
  const renamed = (column: FilterColumn): FilterColumn => {
    if (context.kinds.has(column.name)) return column;
    const field = WIRESHARK_FIELDS.get(column.name);
    if (!field) return column;
    if ('answer' in field) {
      problem ??= { kind: 'unknown_column', column: column.name, position: column.position, message: `Wireshark field '${column.name}' at position ${column.position}: ${field.answer}` };
      return column;
    }
    if (!context.kinds.has(field.column)) return column;
    if (field.pduTypeNames) pduColumns.add(field.column);
    return { ...column, name: field.column };
  };
  const literal = (subject: FilterColumn, value: FilterLiteral): FilterLiteral => {
    if (!pduColumns.has(subject.name) || value.kind !== 'number') return value;
    const name = pduTypeName(value.value);
    if (name === null) {
      problem ??= { kind: 'type_mismatch', column: subject.name, position: value.position, message: `PDU type ${value.value} at position ${value.position} is not a link-layer PDU type code (0–15)` };
      return value;
    }
    return { kind: 'string', value: name, position: value.position };
  };
  const operand = (value: FilterOperand, subject: FilterOperand): FilterOperand => (value.kind === 'column' ? renamed(value) : subject.kind === 'column' ? literal(subject, value) : value);
  const visit = (node: FilterAst): FilterAst => {
    switch (node.kind) {
      case 'comparison': {
        const left = node.left.kind === 'column' ? renamed(node.left) : node.left;
        const right = node.right.kind === 'column' ? renamed(node.right) : node.right;
        return { ...node, left: operand(left, right), right: operand(right, left) };
      }
      case 'in': {
        const subject = renamed(node.subject);
        return { ...node, subject, values: node.values.map((value) => literal(subject, value)) };
      }
      case 'between': {
        const subject = renamed(node.subject);
        return { ...node, subject, low: operand(node.low, subject), high: operand(node.high, subject) };
      }
      case 'is_null':
      case 'like':
        return { ...node, subject: renamed(node.subject) };
      case 'not':
        return { ...node, operand: visit(node.operand) };
      case 'and':
      case 'or':
        return { ...node, operands: node.operands.map(visit) };
      default:
        return assertNever(node, 'filter node');
    }
  };
  const result = visit(ast);
  return problem ? err(problem) : ok(result);
}

function describeColumn(column: FilterColumn): string {
  return renderOperand(column);
}

/** Why `literal` cannot be compared with a column of `kind`, or null when it can. */
function literalProblem(column: FilterColumn, kind: ColumnKind, literal: FilterLiteral): FilterProblem | null {
  const fits =
    kind === literal.kind || (kind === 'boolean' && literal.kind === 'number' && (literal.value === 0 || literal.value === 1));
  if (fits) return null;
  const hint = kind === 'boolean' ? ' (boolean columns compare with TRUE, FALSE, 0 or 1)' : '';
  return {
    kind: 'type_mismatch',
    column: column.name,
    position: literal.position,
    message: `column ${describeColumn(column)} is ${kind} but ${renderOperand(literal)} is a ${literal.kind} at position ${literal.position}${hint}`,
  };
}

function columnMismatch(column: FilterColumn, kind: ColumnKind, other: FilterColumn, otherKind: ColumnKind): FilterProblem {
  return {
    kind: 'type_mismatch',
    column: column.name,
    position: other.position,
    message: `column ${describeColumn(column)} is ${kind} but column ${describeColumn(other)} is ${otherKind} at position ${other.position}`,
  };
}
