/**
 * The closed set of error codes a ToolResult may carry (spec/README.md, settled decision 1).
 * `MISSING_ARGUMENT` is accepted as an alias on input but never emitted.
 */
export const TOOL_ERROR_CODES = [
  'MISSING_REQUIRED_ARGUMENT',
  'INVALID_TYPE',
  'INVALID_VALUE',
  'UNKNOWN_ARGUMENT',
  'INVALID_CAPTURE_SELECTION',
  'UNSUPPORTED_TIME_RANGE',
  'INSUFFICIENT_DATA',
  'UNKNOWN_TOOL',
  'UNSUPPORTED_VERSION',
  'INVALID_INVOCATION',
  'TIMEOUT_BELOW_MINIMUM',
  'PAYLOAD_TOO_LARGE',
  'TIMEOUT',
  'OUTPUT_SCHEMA_VIOLATION',
  'EXECUTION_ERROR',
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** Codes produced before anything runs: a result carrying one of these executed nothing. */
export const VALIDATION_ERROR_CODES: ReadonlySet<ToolErrorCode> = new Set<ToolErrorCode>([
  'MISSING_REQUIRED_ARGUMENT',
  'INVALID_TYPE',
  'INVALID_VALUE',
  'UNKNOWN_ARGUMENT',
  'INVALID_CAPTURE_SELECTION',
  'UNSUPPORTED_TIME_RANGE',
  'UNKNOWN_TOOL',
  'UNSUPPORTED_VERSION',
  'INVALID_INVOCATION',
  'TIMEOUT_BELOW_MINIMUM',
  'PAYLOAD_TOO_LARGE',
]);

/** One problem, located by `field`: a dotted path from the invocation envelope root ("" is the envelope itself). */
export interface ToolError {
  code: ToolErrorCode;
  message: string;
  field: string;
}

/** A non-fatal notice. Codes are UPPER_SNAKE; the set is open (e.g. `TIMEOUT_CLAMPED`, `ROWS_DROPPED`). */
export interface ToolWarning {
  code: string;
  message: string;
}

export function toolError(code: ToolErrorCode, field: string, message: string): ToolError {
  return { code, field, message };
}

/** Normalizes codes arriving from outside (planner output, older tools): `MISSING_ARGUMENT` is an alias. */
export function normalizeErrorCode(code: string): ToolErrorCode | undefined {
  if (code === 'MISSING_ARGUMENT') return 'MISSING_REQUIRED_ARGUMENT';
  return (TOOL_ERROR_CODES as readonly string[]).includes(code) ? (code as ToolErrorCode) : undefined;
}
