import { assertNever } from '../../util/result.ts';
import { isBareIdentifier, type FilterAst, type FilterOperand } from './ast.ts';

/**
 * Writes a syntax tree back as filter text that `parseFilter` reads into the same tree
 * (positions aside): keywords upper-case, `<>` as `!=`, parentheses only where the tree
 * needs them (a nested `AND` inside `AND` keeps its own, so the shape round-trips).
 */
export function renderFilter(ast: FilterAst): string {
  switch (ast.kind) {
    case 'comparison':
      return `${renderOperand(ast.left)} ${ast.operator} ${renderOperand(ast.right)}`;
    case 'in':
      return `${renderOperand(ast.subject)} ${ast.negated ? 'NOT IN' : 'IN'} (${ast.values.map(renderOperand).join(', ')})`;
    case 'between':
      return `${renderOperand(ast.subject)} ${ast.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${renderOperand(ast.low)} AND ${renderOperand(ast.high)}`;
    case 'is_null':
      return `${renderOperand(ast.subject)} ${ast.negated ? 'IS NOT NULL' : 'IS NULL'}`;
    case 'like':
      return `${renderOperand(ast.subject)} ${ast.negated ? 'NOT ' : ''}${ast.operator === 'like' ? 'LIKE' : 'CONTAINS'} ${renderOperand(ast.pattern)}`;
    case 'not':
      return `NOT ${ast.operand.kind === 'and' || ast.operand.kind === 'or' ? `(${renderFilter(ast.operand)})` : renderFilter(ast.operand)}`;
    case 'and':
      // OR binds looser and must be wrapped; a nested AND is wrapped to keep its shape.
      return ast.operands.map((operand) => (operand.kind === 'and' || operand.kind === 'or' ? `(${renderFilter(operand)})` : renderFilter(operand))).join(' AND ');
    case 'or':
      return ast.operands.map((operand) => (operand.kind === 'or' ? `(${renderFilter(operand)})` : renderFilter(operand))).join(' OR ');
    default:
      return assertNever(ast, 'filter node');
  }
}

/** A column, quoted when needed, or a literal in filter syntax. */
export function renderOperand(operand: FilterOperand): string {
  switch (operand.kind) {
    case 'column':
      return isBareIdentifier(operand.name) ? operand.name : `"${operand.name.replaceAll('"', '""')}"`;
    case 'number':
      return renderNumber(operand.value);
    case 'string':
      return `'${operand.value.replaceAll("'", "''")}'`;
    case 'boolean':
      return operand.value ? 'TRUE' : 'FALSE';
    default:
      return assertNever(operand, 'filter operand');
  }
}

function renderNumber(value: number): string {
  if (Object.is(value, -0)) return '-0';
  // The language has no infinity literal; 1e999 overflows to it when read back.
  if (value === Number.POSITIVE_INFINITY) return '1e999';
  if (value === Number.NEGATIVE_INFINITY) return '-1e999';
  return String(value);
}
