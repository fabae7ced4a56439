import type { JsonValue } from '../../util/json.ts';
import { accountingRows, accountingTotals, type AccountingTotals } from './accounting-rows.ts';
import { timelineFromEvents, type RecordedEvent } from './timeline.ts';
import type { TimelineStep } from './timeline-steps.ts';

/** What a summary needs of a run: its state, its recording and its result (the app's run record, or the command line's). */
export interface SummarizableRun {
  state: 'running' | 'done' | 'stopped';
  events: ReadonlyArray<RecordedEvent>;
  result: { success: boolean; error?: string; accounting: ReadonlyArray<JsonValue> } | null;
}

/** What the history list and the comparison show about a run. */
export interface RunSummary {
  status: 'running' | 'stopped' | 'success' | 'failure';
  turns: number;
  invocations: number;
  invalid: number;
  repairs: number;
  executions: number;
  failedExecutions: number;
  totals: AccountingTotals;
  finalReport: string | null;
  error: string | null;
}

export function summarizeRun(run: SummarizableRun, steps: TimelineStep[] = timelineFromEvents(run.events)): RunSummary {
  const executions = steps.filter((step) => step.kind === 'execution');
  const final = steps.find((step) => step.kind === 'final-report');
  const turns = steps.reduce((max, step) => ('turn' in step ? Math.max(max, step.turn) : max), 0);
  const status = run.state === 'running' ? 'running' : run.state === 'stopped' ? 'stopped' : run.result?.success ? 'success' : 'failure';
  return {
    status,
    turns,
    invocations: steps.filter((step) => step.kind === 'invocation').length,
    invalid: steps.filter((step) => step.kind === 'invocation' && !step.valid).length,
    repairs: steps.filter((step) => step.kind === 'repair').length,
    executions: executions.length,
    failedExecutions: executions.filter((step) => step.kind === 'execution' && step.record.result.status === 'error').length,
    totals: accountingTotals(accountingRows(run.result?.accounting ?? [])),
    finalReport: final?.kind === 'final-report' ? final.content : null,
    error: run.result?.error ?? null,
  };
}

/**
 * The invocations of a run that failed: rejected by validation, or executed with status `error`.
 * Each is the envelope as it was validated; the re-run gives it a fresh request id.
 */
export function failedInvocations(steps: ReadonlyArray<TimelineStep>): JsonValue[] {
  const invocationByCall = new Map<string, JsonValue>();
  const failed: JsonValue[] = [];
  for (const step of steps) {
    if (step.kind === 'invocation') {
      invocationByCall.set(step.callId, step.invocation);
      if (!step.valid) failed.push(step.invocation);
    } else if (step.kind === 'execution' && step.record.phase === 'execution' && step.record.result.status === 'error') {
      const invocation = invocationByCall.get(step.callId);
      if (invocation !== undefined) failed.push(invocation);
    }
  }
  return failed;
}
