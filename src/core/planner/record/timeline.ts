import type { ExecutionRecord } from '../../executor/executor.ts';
import type { JsonObject, JsonValue } from '../../util/json.ts';
import { checkPlannerEvent } from '../loop/event-schema.ts';
import type { PlannerEvent } from '../loop/session-types.ts';
import type { TimelineStep } from './timeline-steps.ts';

/** One event of a run's recording, with when it happened (as the app stores and exports it). */
export interface RecordedEvent {
  /** Milliseconds since the run started. */
  at: number;
  /** The loop's event, as plain JSON. */
  event: JsonValue;
}

type EventOf<T extends PlannerEvent['type']> = Extract<PlannerEvent, { type: T }>;

/** An event core's versioned event schema accepts (unknown types and malformed events are skipped). */
function isPlannerEvent(value: unknown): value is PlannerEvent {
  return checkPlannerEvent(value).ok;
}

const encoder = new TextEncoder();
const utf8Bytes = (text: string): number => encoder.encode(text).byteLength;

/** An execution the loop reports without an executor record (reused result, unknown tool): shown through the same view. */
function recordOf(event: EventOf<'execution'>): ExecutionRecord {
  return event.record ?? { requestId: event.requestId, toolName: event.toolName, resolvedVersion: null, phase: 'execution', result: event.result, durationMs: 0 };
}

/**
 * The timeline of a run's recording (all of it, or its first `count` events when replaying). The
 * loop reports an invocation and then its validation; the timeline shows them as one step.
 * Unknown event types are skipped, so a recording from a newer build still replays.
 */
export function timelineFromEvents(events: ReadonlyArray<RecordedEvent>, count = events.length): TimelineStep[] {
  const steps: TimelineStep[] = [];
  const invocations = new Map<string, EventOf<'invocation'>>();
  /** The llm-request step of each turn/attempt, completed by its response or failure. */
  const requests = new Map<string, Extract<TimelineStep, { kind: 'llm-request' }>>();
  for (const { event } of events.slice(0, count)) {
    if (!isPlannerEvent(event)) continue;
    switch (event.type) {
      case 'discover':
        steps.push({ kind: 'discover', tools: event.definitions, tokenEstimate: event.tokenEstimate });
        for (const problem of event.problems) {
          steps.push({ kind: 'notice', turn: 0, text: `${problem.tool} ${problem.version} was not offered: ${problem.problems.map((item) => `${item.field}: ${item.message}`).join('; ')}` });
        }
        break;
      case 'turn_started':
        if (event.forcedFinal) steps.push({ kind: 'notice', turn: event.turn, text: `Turn ${event.turn} is the forced final turn (${event.forcedFinal}): only agent__final_report is offered.` });
        break;
      case 'llm_request': {
        const step: Extract<TimelineStep, { kind: 'llm-request' }> = {
          kind: 'llm-request',
          turn: event.turn,
          attempt: event.attempt,
          provider: event.provider,
          model: event.model,
          status: 'pending',
          latencyMs: 0,
          inputTokens: 0,
          outputTokens: 0,
          cachedTokens: 0,
          expectedTokens: event.expectedTokens,
          notices: event.notices,
        };
        requests.set(`${event.turn}/${event.attempt}`, step);
        steps.push(step);
        break;
      }
      case 'llm_response': {
        const step = requests.get(`${event.turn}/${event.attempt}`);
        if (!step) break;
        Object.assign(step, {
          status: 'ok',
          latencyMs: event.latencyMs,
          inputTokens: event.usage.inputTokens,
          outputTokens: event.usage.outputTokens,
          cachedTokens: event.usage.cacheReadTokens,
          text: event.text || undefined,
          reasoning: event.reasoning || undefined,
          toolCalls: event.toolCalls.map((call) => call.name),
          ignored: event.ignored,
        });
        break;
      }
      case 'llm_failure': {
        const step = requests.get(`${event.turn}/${event.attempt}`);
        if (!step) break;
        Object.assign(step, { status: 'failed', latencyMs: event.latencyMs, failure: { ...event.failure, fatal: event.fatal }, waitMs: event.waitMs });
        break;
      }
      case 'context_guard':
        steps.push({
          kind: 'notice',
          turn: event.turn,
          text: `Context guard (${event.where}) for ${event.target}: projected ${event.projectedTokens} tokens against a limit of ${event.limitTokens}; ${event.action.replaceAll('_', ' ')}.`,
        });
        break;
      case 'calls_dropped':
        for (const call of event.calls) steps.push({ kind: 'notice', turn: event.turn, text: `Call ${call.name} (${call.id}) dropped: ${call.reason}.` });
        break;
      case 'invocation':
        invocations.set(event.requestId, event);
        break;
      case 'validation': {
        const invocation = invocations.get(event.requestId);
        if (!invocation) break;
        steps.push({
          kind: 'invocation',
          turn: event.turn,
          callId: event.callId,
          toolName: invocation.toolName,
          invocation: invocation.invocation,
          source: invocation.source === 'offline_repairer' ? 'offline-repairer' : 'model',
          argumentsRepaired: invocation.argumentsRepaired,
          ...(invocation.rawArguments !== undefined ? { rawArguments: invocation.rawArguments } : {}),
          valid: event.validation.ok,
          errors: event.validation.ok ? [] : event.validation.errors,
          warnings: event.validation.warnings,
        });
        break;
      }
      case 'repair':
        steps.push({
          kind: 'repair',
          turn: event.turn,
          source: event.source === 'offline_repairer' ? 'offline-repairer' : 'model',
          failed: event.failed,
          regenerated: event.regenerated,
          errors: event.errors,
          reasons: event.changes.map((change) => `${change.field}: ${change.reason}`),
        });
        break;
      case 'execution': {
        // A validation rejection is already shown, with its coded errors, on its invocation step.
        if (event.record?.phase === 'validation' && !event.droppedForContext) break;
        const notes: string[] = [];
        if (event.reusedFrom) notes.push(`Identical to ${event.reusedFrom}, which already passed: its result is reused, not run again.`);
        if (event.timedOut) notes.push('Stopped at the tool timeout: the model was told "(tool failed: timeout)".');
        if (event.truncated) notes.push(`The model received it truncated: ${event.truncated.originalBytes} bytes cut to ${event.truncated.limitBytes}.`);
        if (event.droppedForContext) notes.push('Dropped by the context guard: the model received "(tool failed: context window budget exceeded)".');
        const record = recordOf(event);
        steps.push({
          kind: 'execution',
          turn: event.turn,
          callId: event.callId,
          record,
          notes,
          ...(typeof event.modelContent === 'string'
            ? { modelContent: event.modelContent, modelBytes: event.modelContentBytes ?? utf8Bytes(event.modelContent), fullBytes: utf8Bytes(JSON.stringify(record.result)) }
            : {}),
        });
        break;
      }
      case 'final_report_rejected':
        steps.push({ kind: 'notice', turn: event.turn, text: `The final report was rejected: ${event.errors.join('; ')}` });
        break;
      case 'warning':
        steps.push({ kind: 'notice', turn: event.turn, text: event.message });
        break;
      case 'final_report':
        steps.push({
          kind: 'final-report',
          status: event.report.status,
          format: event.report.format,
          source: event.report.source,
          content: event.report.content,
          metadata: event.report.metadata as JsonObject,
        });
        break;
      case 'session_finished':
        if (event.error) steps.push({ kind: 'session-error', message: event.error });
        break;
      case 'session_started':
        break;
    }
  }
  return steps;
}
