export type {
  ComparisonOperator,
  FilterAnd,
  FilterAst,
  FilterBetween,
  FilterBooleanLiteral,
  FilterColumn,
  FilterComparison,
  FilterIn,
  FilterIsNull,
  FilterLiteral,
  FilterNot,
  FilterNumberLiteral,
  FilterOperand,
  FilterOr,
  FilterStringLiteral,
} from './ast.ts';
export { FILTER_KEYWORDS, filterColumns, isAddressColumn, isBareIdentifier } from './ast.ts';
export type { FilterProblem, FilterProblemKind } from './problem.ts';
export { MAX_FILTER_DEPTH, parseFilter } from './parser.ts';
export { renderFilter, renderOperand } from './render.ts';
export { combineFilters, compileFilter } from './compile.ts';
export type { CompiledFilter } from './compile.ts';
export { evaluateFilterReference } from './reference.ts';
