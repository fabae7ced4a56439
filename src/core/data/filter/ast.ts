/**
 * The syntax tree of a filter expression (spec/README.md, settled decision 5: a SQL
 * `WHERE` subset). Every node carries `position`, the 0-based character offset in the
 * source text where the node starts, so later checks can point at it.
 */

import { assertNever } from '../../util/result.ts';

/** Comparison operators; `<>` is parsed as `!=`. */
export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A column reference, bare (`rssi`) or double-quoted (`"odd name"`). */
export interface FilterColumn {
  kind: 'column';
  /** The column name, unquoted. */
  name: string;
  position: number;
}

/** A number literal: integers, decimals, a leading `-`, exponents. */
export interface FilterNumberLiteral {
  kind: 'number';
  value: number;
  position: number;
}

/** A single-quoted string literal, `''` unescaped. */
export interface FilterStringLiteral {
  kind: 'string';
  value: string;
  position: number;
}

/** The bare keywords `TRUE` / `FALSE`, for boolean columns. */
export interface FilterBooleanLiteral {
  kind: 'boolean';
  value: boolean;
  position: number;
}

export type FilterLiteral = FilterNumberLiteral | FilterStringLiteral | FilterBooleanLiteral;

/** One side of a comparison or a `BETWEEN` bound. */
export type FilterOperand = FilterColumn | FilterLiteral;

/** `left operator right`; at least one side is a column. */
export interface FilterComparison {
  kind: 'comparison';
  operator: ComparisonOperator;
  left: FilterOperand;
  right: FilterOperand;
  position: number;
}

/** `subject [NOT] IN (v1, v2, …)`; the list holds at least one literal. */
export interface FilterIn {
  kind: 'in';
  subject: FilterColumn;
  values: FilterLiteral[];
  negated: boolean;
  position: number;
}

/** `subject [NOT] BETWEEN low AND high`, i.e. `subject >= low AND subject <= high`. */
export interface FilterBetween {
  kind: 'between';
  subject: FilterColumn;
  low: FilterOperand;
  high: FilterOperand;
  negated: boolean;
  position: number;
}

/** `subject IS [NOT] NULL`; never UNKNOWN. */
export interface FilterIsNull {
  kind: 'is_null';
  subject: FilterColumn;
  negated: boolean;
  position: number;
}

/**
 * `subject [NOT] LIKE 'pattern'` (SQL: `%` any run, `_` one character) or
 * `subject [NOT] CONTAINS 'text'` (Wireshark's `contains`); string columns only.
 */
export interface FilterLike {
  kind: 'like';
  operator: 'like' | 'contains';
  subject: FilterColumn;
  pattern: FilterStringLiteral;
  negated: boolean;
  position: number;
}

export interface FilterNot {
  kind: 'not';
  operand: FilterAst;
  position: number;
}

/**
 * `a AND b AND c`: a chain at one level becomes one node with all its operands (at
 * least two); a parenthesized chain stays a nested node.
 */
export interface FilterAnd {
  kind: 'and';
  operands: FilterAst[];
  position: number;
}

/** `a OR b OR c`, flattened like {@link FilterAnd}. */
export interface FilterOr {
  kind: 'or';
  operands: FilterAst[];
  position: number;
}

/** A parsed filter expression. */
export type FilterAst = FilterComparison | FilterIn | FilterBetween | FilterIsNull | FilterLike | FilterNot | FilterAnd | FilterOr;

/** Reserved words (matched case-insensitively); a column with such a name must be double-quoted. */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'IS', 'NULL', 'TRUE', 'FALSE', 'LIKE', 'CONTAINS']);

/**
 * Columns that hold Bluetooth device addresses (`advertiser_addr`, `scanner_addr`, …): `=`, `!=`,
 * `IN`, `LIKE` and `CONTAINS` compare them case-insensitively, since tools print them in either
 * case (Wireshark lower, the importer upper).
 */
export function isAddressColumn(name: string): boolean {
  return /(_addr|address)$/i.test(name);
}

const BARE_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when `name` can be written without double quotes. */
export function isBareIdentifier(name: string): boolean {
  return BARE_IDENTIFIER.test(name) && !FILTER_KEYWORDS.has(name.toUpperCase());
}

/** Column names in order of first appearance. */
export function filterColumns(ast: FilterAst): string[] {
  const seen = new Set<string>();
  const visitOperand = (operand: FilterOperand): void => {
    if (operand.kind === 'column') seen.add(operand.name);
  };
  const visit = (node: FilterAst): void => {
    switch (node.kind) {
      case 'comparison':
        visitOperand(node.left);
        visitOperand(node.right);
        return;
      case 'in':
      case 'is_null':
      case 'like':
        visitOperand(node.subject);
        return;
      case 'between':
        visitOperand(node.subject);
        visitOperand(node.low);
        visitOperand(node.high);
        return;
      case 'not':
        visit(node.operand);
        return;
      case 'and':
      case 'or':
        node.operands.forEach(visit);
        return;
      default:
        assertNever(node, 'filter node');
    }
  };
  visit(ast);
  return [...seen];
}
