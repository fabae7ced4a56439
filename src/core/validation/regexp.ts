import { RE2JS } from 're2js';
import { LIMITS } from '../util/limits.ts';

/** A compiled pattern: only `test` (does it match anywhere in the string), which is all JSON Schema needs. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

export type PatternCompilation = { ok: true; regExp: LinearRegExp } | { ok: false; message: string };

/**
 * Compiles a JSON Schema `pattern` (or `patternProperties` key) for RE2JS, a pure-JavaScript port
 * of RE2 whose matching time is linear in the input: `^(a+)+$` against 30 `a`s and a `!` takes
 * microseconds instead of the backtracking engine's minutes (issue 14, item 2). The pattern is
 * first translated from ECMAScript syntax (`\u00e9`, `(?<name>…)`, `\/`); constructs RE2 cannot
 * run in linear time — lookahead `(?=…)`, lookbehind, backreferences `\1` — are refused with a
 * message instead of falling back to the backtracking engine.
 * Semantic differences from ECMAScript, documented in the README: `.` excludes only `\n` (not `\r`,
 * U+2028, U+2029), and `\s` is ASCII whitespace.
 */
export function compilePattern(pattern: string): PatternCompilation {
  if (pattern.length > LIMITS.maxPatternLength) {
    return { ok: false, message: `the pattern is ${pattern.length} characters long; at most ${LIMITS.maxPatternLength} are accepted` };
  }
  try {
    const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { ok: true, regExp: { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/` } };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, message: `the pattern cannot run on the linear-time (RE2) engine: ${detail}` };
  }
}

/** Thrown by `linearRegExp` at schema compile time; `checkSchema…` and the validator turn it into a coded problem. */
export class UnsupportedPatternError extends Error {
  constructor(
    readonly pattern: string,
    detail: string,
  ) {
    super(`Pattern ${JSON.stringify(pattern.slice(0, 80))} is not supported: ${detail}`);
    this.name = 'UnsupportedPatternError';
  }
}

/** ajv's `code.regExp` engine: every `pattern` and `patternProperties` key is compiled by RE2JS. */
export function linearRegExp(pattern: string): LinearRegExp {
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new UnsupportedPatternError(pattern, compiled.message);
  return compiled.regExp;
}
