import type { CaptureInfo } from '../../../core/index.ts';
import type { WorkspacePlannerRun, WorkspaceRun } from './workspace-types.ts';

// Shape checks for what comes back from a workspace file (untrusted) or goes into the store.
// Each returns null when the value is fine, else what is wrong with it.

type Checks = Record<string, (value: unknown) => boolean>;

const isString = (value: unknown): value is string => typeof value === 'string';
const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isIsoInstant = (value: unknown): boolean => isString(value) && !Number.isNaN(Date.parse(value));

function firstFailure(value: unknown, checks: Checks): string | null {
  if (!isObject(value)) return 'is not an object';
  for (const [key, check] of Object.entries(checks)) if (!check(value[key])) return `has an invalid '${key}'`;
  return null;
}

const captureInfoChecks: Checks = {
  id: (value) => isString(value) && value.length > 0,
  description: isString,
  source: isString,
  rowCount: (value) => isFiniteNumber(value) && value >= 0,
  columns: (value) =>
    Array.isArray(value) &&
    value.every((column) => isObject(column) && isString(column.name) && (column.kind === 'number' || column.kind === 'string' || column.kind === 'boolean')),
  timeColumn: isString,
  channelColumn: (value) => value === null || isString(value),
  channels: (value) => Array.isArray(value) && value.every(isString),
  bounds: (value) => isObject(value) && isFiniteNumber(value.start_ms) && isFiniteNumber(value.end_ms),
  boundsSource: (value) => value === 'declared' || value === 'observed',
  timeOrigin: (value) => value === null || isString(value),
};

/** Problem with a capture description, or null when it is a valid {@link CaptureInfo}. */
export function captureInfoProblem(value: unknown): string | null {
  return firstFailure(value, captureInfoChecks);
}

export function isCaptureInfo(value: unknown): value is CaptureInfo {
  return captureInfoProblem(value) === null;
}

const runChecks: Checks = {
  id: (value) => isString(value) && value.length > 0,
  isPlan: (value) => typeof value === 'boolean',
  startedAt: isIsoInstant,
  durationMs: (value) => isFiniteNumber(value) && value >= 0,
  records: (value) => Array.isArray(value) && value.every((record) => isObject(record) && isObject(record.result)),
};

/** Problem with a run, or null when it is a valid {@link WorkspaceRun}. */
export function runProblem(value: unknown): string | null {
  return firstFailure(value, runChecks);
}

export function isWorkspaceRun(value: unknown): value is WorkspaceRun {
  return runProblem(value) === null;
}

const CREDENTIAL_PROPERTIES = new Set(['apikey', 'api_key', 'authorization', 'x-api-key']);

/** Path of the first property that holds a credential, or null. */
function credentialPath(value: unknown, path: string): string | null {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = credentialPath(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (CREDENTIAL_PROPERTIES.has(key.toLowerCase())) return `${path}.${key}`;
      const found = credentialPath(item, `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

const plannerRunChecks: Checks = {
  id: (value) => isString(value) && value.length > 0,
  startedAt: isIsoInstant,
  record: isObject,
};

/** Problem with a planner run, or null when it is a valid {@link WorkspacePlannerRun} holding no credential. */
export function plannerRunProblem(value: unknown): string | null {
  const shape = firstFailure(value, plannerRunChecks);
  if (shape !== null) return shape;
  const secret = credentialPath((value as WorkspacePlannerRun).record, 'record');
  return secret === null ? null : `holds a credential at ${secret}; API keys are never stored`;
}

export { isIsoInstant, isObject, isString, isFiniteNumber };
