import type { ToolResult } from '../contract/types.ts';
import type { JsonValue } from '../util/json.ts';
import { REDACTED_KEY } from './build-report.ts';
import type { CaseReport, HashBasis } from './report-types.ts';

/** A capture's bytes as given for verification. */
export interface CaptureFingerprint {
  sha256: string;
  bytes: number;
  /** What was hashed: the file given on the command line, or a built-in capture's Arrow IPC stream. */
  basis: HashBasis;
}

export interface VerifyDependencies {
  /** Fingerprints of the captures to verify against, by capture id. */
  fingerprints: ReadonlyMap<string, CaptureFingerprint>;
  /** IRKs by label, for steps whose key material the report leaves out. */
  keys: ReadonlyMap<string, string>;
  /** Re-runs one invocation on the given captures. */
  rerun(invocation: JsonValue): Promise<{ phase: 'validation' | 'execution'; result: ToolResult }>;
}

export interface CaptureCheck {
  id: string;
  /** `match`; `mismatch`: the bytes differ; `missing`: no file given; `not-recorded`: the report has no hash to compare. */
  status: 'match' | 'mismatch' | 'missing' | 'not-recorded';
  expected: string | null;
  actual: string | null;
  message: string;
}

export interface StepCheck {
  index: number;
  toolName: string | null;
  /** `match`: the result body is the recorded one; `mismatch`; `not-run`: it could not be re-run. */
  status: 'match' | 'mismatch' | 'not-run';
  captures: CaptureCheck[];
  /** The first differences, as `path: recorded → now`. */
  differences: string[];
  message: string;
}

export interface VerifyOutcome {
  ok: boolean;
  /** Why the report itself cannot be verified (empty evidence, an edited file); any one fails it. */
  problems: string[];
  captures: CaptureCheck[];
  steps: StepCheck[];
}

/**
 * What makes a report's evidence empty or incomplete, so that matching what is left would prove
 * nothing: no steps, or a step reading a capture the report does not list (its provenance was
 * removed). A report whose steps read no capture at all may list none.
 */
export function evidenceProblems(report: CaseReport): string[] {
  if (report.steps.length === 0) return ['the report has no steps: there is nothing to re-run, so nothing can be verified (were they removed?)'];
  const listed = new Set(report.captures.map((capture) => capture.id));
  const problems: string[] = [];
  for (const step of report.steps) {
    const unlisted = (step.selection?.capture_ids ?? []).filter((id) => !listed.has(id));
    if (unlisted.length > 0) {
      problems.push(`step ${step.index} reads capture${unlisted.length === 1 ? '' : 's'} ${unlisted.join(', ')}, which the report's captures do not list: its provenance is missing (was it removed?)`);
    }
  }
  return problems;
}

/** Numbers agree when equal within this relative tolerance (floating point may differ in its last bits between engines). */
export const RESULT_TOLERANCE = 1e-9;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** The differences between two JSON values (at most `limit`), as `path: recorded → now`. */
export function jsonDifferences(recorded: unknown, now: unknown, limit = 5, path = 'result'): string[] {
  const differences: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (differences.length >= limit) return;
    if (typeof a === 'number' && typeof b === 'number') {
      const scale = Math.max(Math.abs(a), Math.abs(b), Number.MIN_VALUE);
      if (!(a === b || Math.abs(a - b) / scale <= RESULT_TOLERANCE)) differences.push(`${at}: ${short(a)} → ${short(b)}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) differences.push(`${at}: ${a.length} items → ${b.length} items`);
      for (let index = 0; index < Math.min(a.length, b.length); index++) walk(a[index], b[index], `${at}[${index}]`);
      return;
    }
    if (isObject(a) && isObject(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of [...keys].sort()) {
        if (!(key in a)) differences.push(`${at}.${key}: absent → ${short(b[key])}`);
        else if (!(key in b)) differences.push(`${at}.${key}: ${short(a[key])} → absent`);
        else walk(a[key], b[key], `${at}.${key}`);
        if (differences.length >= limit) return;
      }
      return;
    }
    if (a !== b) differences.push(`${at}: ${short(a)} → ${short(b)}`);
  };
  walk(recorded, now, path);
  return differences;
}

function checkCapture(id: string, report: CaseReport, fingerprints: ReadonlyMap<string, CaptureFingerprint>): CaptureCheck {
  const recorded = report.captures.find((capture) => capture.id === id);
  const given = fingerprints.get(id);
  const expected = recorded?.sha256 ?? null;
  if (!given) return { id, status: 'missing', expected, actual: null, message: `capture ${id}: no file given (add --capture ${id}=PATH)` };
  if (!expected) return { id, status: 'not-recorded', expected, actual: given.sha256, message: `capture ${id}: the report records no hash for it, so its file cannot be checked` };
  if (recorded && recorded.hash_basis !== given.basis) {
    return { id, status: 'mismatch', expected, actual: given.sha256, message: `capture ${id}: the report hashed ${recorded.hash_basis === 'arrow-ipc' ? 'a built-in capture' : 'a source file'}, but ${given.basis === 'arrow-ipc' ? 'a built-in capture' : 'a file'} was given` };
  }
  if (given.sha256 !== expected) {
    return { id, status: 'mismatch', expected, actual: given.sha256, message: `capture ${id}: SHA-256 differs — recorded ${expected}, file has ${given.sha256} (${given.bytes.toLocaleString('en-US')} bytes${recorded?.bytes !== null && recorded?.bytes !== undefined ? `, recorded ${recorded.bytes.toLocaleString('en-US')}` : ''})` };
  }
  return { id, status: 'match', expected, actual: given.sha256, message: `capture ${id}: SHA-256 matches (${expected})` };
}

/** Puts the key material back into a redacted invocation; returns the labels it could not fill. */
function withKeys(invocation: JsonValue, keys: ReadonlyMap<string, string>): { invocation: JsonValue; missing: string[] } {
  if (!isObject(invocation) || !isObject(invocation.arguments) || !Array.isArray(invocation.arguments.irks)) return { invocation, missing: [] };
  const missing: string[] = [];
  const irks = invocation.arguments.irks.map((key) => {
    if (!isObject(key) || key.irk !== REDACTED_KEY) return key;
    const label = typeof key.label === 'string' ? key.label : '';
    const irk = keys.get(label);
    if (irk === undefined) {
      missing.push(label);
      return key;
    }
    return { ...key, irk } as JsonValue;
  });
  return { invocation: { ...invocation, arguments: { ...invocation.arguments, irks } } as JsonValue, missing };
}

/**
 * Checks a case report against the given files: that its evidence is complete
 * ({@link evidenceProblems}), each capture's hash, then each recorded invocation re-run and its
 * result body compared with the recorded one. Verified only when all of it matches.
 */
export async function verifyReport(report: CaseReport, dependencies: VerifyDependencies): Promise<VerifyOutcome> {
  const problems = evidenceProblems(report);
  const captures = report.captures.map((capture) => checkCapture(capture.id, report, dependencies.fingerprints));
  const steps: StepCheck[] = [];
  for (const step of report.steps) {
    const ids = step.selection?.capture_ids ?? [];
    const stepCaptures = ids.map((id) => captures.find((check) => check.id === id) ?? checkCapture(id, report, dependencies.fingerprints));
    const base = { index: step.index, toolName: step.tool_name, captures: stepCaptures };
    const absent = stepCaptures.filter((check) => check.status === 'missing');
    if (absent.length > 0) {
      steps.push({ ...base, status: 'not-run', differences: [], message: `not re-run: ${absent.map((check) => check.message).join('; ')}` });
      continue;
    }
    const filled = withKeys(step.invocation, dependencies.keys);
    if (filled.missing.length > 0) {
      steps.push({ ...base, status: 'not-run', differences: [], message: `not re-run: the report leaves out the key material of ${filled.missing.join(', ')} (add --irk LABEL=HEX)` });
      continue;
    }
    const rerun = await dependencies.rerun(filled.invocation);
    const differences = jsonDifferences(step.result, rerun.result);
    if (rerun.phase !== step.phase) differences.unshift(`phase: ${step.phase} → ${rerun.phase}`);
    steps.push({
      ...base,
      status: differences.length === 0 ? 'match' : 'mismatch',
      differences,
      message: differences.length === 0 ? `result matches the recorded one (status ${rerun.result.status})` : `result differs from the recorded one: ${differences.join('; ')}`,
    });
  }
  const ok =
    problems.length === 0 &&
    captures.every((check) => check.status === 'match') &&
    steps.every((step) => step.status === 'match' && step.captures.every((check) => check.status === 'match'));
  return { ok, problems, captures, steps };
}
