/**
 * Why a filter expression was rejected. `position` is the 0-based character offset the
 * problem points at; `message` is a complete sentence for people (it repeats the
 * position, and for syntax errors says what was expected and what was found).
 */
export type FilterProblem =
  | { kind: 'syntax'; position: number; message: string }
  | { kind: 'unknown_column'; column: string; position: number; message: string }
  | { kind: 'type_mismatch'; column: string; position: number; message: string };

export type FilterProblemKind = FilterProblem['kind'];
