import { timelineFromEvents, type PlannerTimelineEntry, type RunStep, type TimelineStep } from '../../../core/index.ts';
import type { PlannerRunRecord } from '../../lib/planner/run-store.ts';
import type { ReportSource } from '../../lib/report/report-export.ts';

function entryOf(step: TimelineStep): PlannerTimelineEntry {
  switch (step.kind) {
    case 'discover':
      return { kind: 'discover', turn: null, title: `${step.tools.length} tool definitions offered (about ${step.tokenEstimate} tokens)`, details: step.tools.map((tool) => tool.name) };
    case 'llm-request':
      return {
        kind: 'llm-request',
        turn: step.turn,
        title: `${step.provider} ${step.model}, attempt ${step.attempt}: ${step.status}${step.status === 'ok' ? ` (${step.inputTokens} in / ${step.outputTokens} out tokens, ${Math.round(step.latencyMs)} ms)` : ''}`,
        details: [...(step.toolCalls?.length ? [`tool calls: ${step.toolCalls.join(', ')}`] : []), ...(step.failure ? [`${step.failure.kind}: ${step.failure.message}`] : []), ...(step.ignored ? [`ignored: ${step.ignored}`] : [])],
      };
    case 'invocation':
      return {
        kind: 'invocation',
        turn: step.turn,
        title: `${step.toolName} ${step.valid ? 'passed validation' : 'failed validation: nothing executed'}${step.source === 'offline-repairer' ? ' (from the offline repairer)' : ''}`,
        details: step.errors.map((error) => `${error.code} ${error.field}: ${error.message}`),
      };
    case 'repair':
      return {
        kind: 'repair',
        turn: step.turn,
        title: `repaired by the ${step.source === 'offline-repairer' ? 'offline repairer' : 'model'}`,
        details: [...step.errors.map((error) => `error: ${error.code} ${error.field}: ${error.message}`), ...(step.reasons ?? []).map((reason) => `change: ${reason}`)],
      };
    case 'execution':
      return { kind: 'execution', turn: step.turn, title: `${step.record.toolName ?? '?'}: ${step.record.result.status} — ${step.record.result.summary}`, details: step.notes ?? [] };
    case 'notice':
      return { kind: 'notice', turn: step.turn, title: step.text, details: [] };
    case 'final-report':
      return { kind: 'final-report', turn: null, title: `final report: ${step.status} (${step.source ?? step.format})`, details: [step.content] };
    case 'session-error':
      return { kind: 'session-error', turn: null, title: step.message, details: [] };
  }
}

/** A Planner page run as a report source: its timeline as text, and each execution with the invocation that produced it. */
export function plannerReportSource(run: PlannerRunRecord): ReportSource {
  const timeline = timelineFromEvents(run.events);
  const invocations = new Map<string, { invocation: TimelineStep & { kind: 'invocation' } }>();
  for (const step of timeline) if (step.kind === 'invocation') invocations.set(step.callId, { invocation: step });
  const steps: RunStep[] = timeline.flatMap((step) => {
    if (step.kind !== 'execution') return [];
    const invocation = invocations.get(step.callId)?.invocation;
    return [
      {
        invocation: invocation?.invocation ?? null,
        tool_name: step.record.toolName,
        resolved_version: step.record.resolvedVersion,
        phase: step.record.phase,
        result: step.record.result,
        duration_ms: Math.round(step.record.durationMs),
        ...(invocation?.source ? { source: invocation.source } : {}),
      },
    ];
  });
  return { kind: 'planner-run', run, timeline: timeline.map(entryOf), steps };
}
