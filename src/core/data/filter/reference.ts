import { assertNever } from '../../util/result.ts';
import { isAddressColumn, type ComparisonOperator, type FilterAst, type FilterOperand } from './ast.ts';

/** SQL's three truth values: `null` is UNKNOWN. */
type Truth = boolean | null;

type Scalar = number | string | boolean | null;

/**
 * Evaluates a filter on one plain row, node by node, with SQL three-valued logic: the
 * test oracle for the vectorized `compileFilter`, and handy for a handful of rows.
 * Returns true only when the predicate is TRUE (not FALSE, not UNKNOWN).
 *
 * Values: `null`, `undefined` and `NaN` are null; bigints and Dates read as numbers;
 * booleans compare with numbers as 0/1; anything else reads as its string. A missing
 * column reads as null. A comparison of a number with a string is UNKNOWN (compileFilter
 * rejects such expressions before they get here).
 */
export function evaluateFilterReference(ast: FilterAst, row: Record<string, unknown>): boolean {
  return evaluate(ast, row) === true;
}

function evaluate(ast: FilterAst, row: Record<string, unknown>): Truth {
  switch (ast.kind) {
    case 'comparison': {
      // Address columns compare equal whatever the case (written independently of compile.ts's matcher).
      const fold = (ast.operator === '=' || ast.operator === '!=') && [ast.left, ast.right].some((side) => side.kind === 'column' && isAddressColumn(side.name));
      return compare(folded(valueOf(ast.left, row), fold), ast.operator, folded(valueOf(ast.right, row), fold));
    }
    case 'in': {
      const fold = isAddressColumn(ast.subject.name);
      const subject = folded(valueOf(ast.subject, row), fold);
      if (subject === null) return null;
      const found = ast.values.some((literal) => compare(subject, '=', folded(literal.value, fold)) === true);
      return ast.negated ? !found : found;
    }
    case 'like': {
      const fold = isAddressColumn(ast.subject.name);
      const subject = folded(valueOf(ast.subject, row), fold);
      if (subject === null) return null;
      if (typeof subject !== 'string') return null;
      const pattern = String(folded(ast.pattern.value, fold));
      const found = ast.operator === 'contains' ? subject.includes(pattern) : likeAsRegExp(pattern).test(subject);
      return ast.negated ? !found : found;
    }
    case 'between': {
      const subject = valueOf(ast.subject, row);
      const inside = and([compare(subject, '>=', valueOf(ast.low, row)), compare(subject, '<=', valueOf(ast.high, row))]);
      return ast.negated ? not(inside) : inside;
    }
    case 'is_null': {
      const isNull = valueOf(ast.subject, row) === null;
      return ast.negated ? !isNull : isNull;
    }
    case 'not':
      return not(evaluate(ast.operand, row));
    case 'and':
      return and(ast.operands.map((operand) => evaluate(operand, row)));
    case 'or':
      return or(ast.operands.map((operand) => evaluate(operand, row)));
    default:
      return assertNever(ast, 'filter node');
  }
}

function folded(value: Scalar, fold: boolean): Scalar {
  return fold && typeof value === 'string' ? value.toLowerCase() : value;
}

/** LIKE as an anchored RegExp (the oracle for like.ts's wildcard walk). */
function likeAsRegExp(pattern: string): RegExp {
  const source = [...pattern].map((character) => (character === '%' ? '[\\s\\S]*' : character === '_' ? '[\\s\\S]' : character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`);
}

function not(value: Truth): Truth {
  return value === null ? null : !value;
}

function and(values: Truth[]): Truth {
  if (values.includes(false)) return false;
  return values.includes(null) ? null : true;
}

function or(values: Truth[]): Truth {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}

function valueOf(operand: FilterOperand, row: Record<string, unknown>): Scalar {
  if (operand.kind !== 'column') return operand.value;
  return normalize(Object.hasOwn(row, operand.name) ? row[operand.name] : undefined);
}

function normalize(value: unknown): Scalar {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (value instanceof Date) return normalize(value.getTime());
  return String(value);
}

function compare(left: Scalar, operator: ComparisonOperator, right: Scalar): Truth {
  if (left === null || right === null) return null;
  let a: number | string;
  let b: number | string;
  if (typeof left === 'string' && typeof right === 'string') {
    a = left;
    b = right;
  } else if (typeof left !== 'string' && typeof right !== 'string') {
    a = Number(left);
    b = Number(right);
  } else {
    return null;
  }
  switch (operator) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return assertNever(operator, 'comparison operator');
  }
}
