import { isJsonObject } from '../../util/json.ts';
import type { PlannerEvent } from './session-types.ts';

/**
 * The persisted form of the step recording, versioned. Version 1: each event is a `PlannerEvent`
 * as emitted (plain JSON). Bump it when an event's required fields change, and teach
 * `checkPlannerEvent` the older form.
 */
export const PLANNER_EVENT_SCHEMA_VERSION = 1;

type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string|null' | 'object|null';

/** Required fields of each event type and their JSON kinds (optional fields are read defensively). */
const EVENT_FIELDS: Readonly<Record<PlannerEvent['type'], Readonly<Record<string, FieldKind>>>> = {
  session_started: { question: 'string', settings: 'object', targets: 'array', nonce: 'string' },
  discover: { definitions: 'array', tokenEstimate: 'number', captures: 'array', problems: 'array' },
  turn_started: { turn: 'number', forcedFinal: 'string|null', tools: 'array' },
  llm_request: { turn: 'number', attempt: 'number', target: 'string', tools: 'array', notices: 'array' },
  llm_response: { turn: 'number', attempt: 'number', target: 'string', text: 'string', toolCalls: 'array', usage: 'object' },
  llm_failure: { turn: 'number', attempt: 'number', target: 'string', failure: 'object', fatal: 'boolean', waitMs: 'number' },
  context_guard: { turn: 'number', where: 'string', projectedTokens: 'number', limitTokens: 'number', action: 'string' },
  calls_dropped: { turn: 'number', calls: 'array' },
  invocation: { turn: 'number', callId: 'string', requestId: 'string', toolName: 'string', invocation: 'object', source: 'string' },
  validation: { turn: 'number', callId: 'string', requestId: 'string', validation: 'object' },
  repair: { turn: 'number', callId: 'string', failed: 'object', regenerated: 'object', errors: 'array', source: 'string', changes: 'array' },
  execution: {
    turn: 'number',
    callId: 'string',
    requestId: 'string',
    toolName: 'string',
    record: 'object|null',
    result: 'object',
    modelContent: 'string',
    timedOut: 'boolean',
    reusedFrom: 'string|null',
    droppedForContext: 'boolean',
  },
  final_report_rejected: { turn: 'number', callId: 'string', errors: 'array' },
  final_report: { report: 'object' },
  warning: { turn: 'number', message: 'string' },
  session_finished: { success: 'boolean', turns: 'number' },
};

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string|null':
      return value === null || typeof value === 'string';
    case 'object|null':
      return value === null || isJsonObject(value);
  }
}

export type CheckedPlannerEvent = { ok: true; event: PlannerEvent } | { ok: false; problem: string };

/**
 * Checks a persisted event against the schema of its version: a known type, `seq` and `ts`, and
 * every required field of its type with its kind. A recording from a newer schema is refused as a
 * whole by its version; an unknown event type is reported (the reader may skip it).
 */
export function checkPlannerEvent(value: unknown, version: number = PLANNER_EVENT_SCHEMA_VERSION): CheckedPlannerEvent {
  if (version > PLANNER_EVENT_SCHEMA_VERSION) return { ok: false, problem: `recorded with event schema ${version}; this build reads up to ${PLANNER_EVENT_SCHEMA_VERSION}` };
  if (!isJsonObject(value)) return { ok: false, problem: 'not an object' };
  const type = value.type;
  if (typeof type !== 'string' || !Object.hasOwn(EVENT_FIELDS, type)) return { ok: false, problem: `unknown event type ${JSON.stringify(type)}` };
  const fields: Record<string, FieldKind> = { seq: 'number', ts: 'number', ...EVENT_FIELDS[type as PlannerEvent['type']] };
  for (const [field, kind] of Object.entries(fields)) {
    if (!hasKind(value[field], kind)) return { ok: false, problem: `${type}.${field} must be ${kind}, got ${JSON.stringify(value[field] ?? null).slice(0, 40)}` };
  }
  // Every required field of this type was checked above.
  return { ok: true, event: value as unknown as PlannerEvent };
}
