import { formatCost, timelineFromEvents, summarizeRun, type TimelineStep } from '../../../core/index.ts';
import type { PlannerRunRecord } from '../../lib/planner/run-store.ts';
import { formatCount } from '../../components/format.ts';

function invocationLines(steps: ReadonlyArray<TimelineStep>): string[] {
  const lines: string[] = [];
  for (const step of steps) {
    if (step.kind === 'invocation') lines.push(`turn ${step.turn} · ${step.toolName}: ${step.valid ? 'valid' : `invalid (${step.errors.map((error) => error.code).join(', ')})`}`);
    if (step.kind === 'repair') lines.push(`turn ${step.turn} · repaired by ${step.source === 'offline-repairer' ? 'the offline repairer' : 'the model'}`);
    if (step.kind === 'execution') lines.push(`turn ${step.turn} · ${step.record.toolName ?? '?'} → ${step.record.result.status}`);
  }
  return lines;
}

/** Two runs side by side: outcome, counts, tokens and cost, the invocations, the final reports. */
export function RunCompare({ left, right }: { left: PlannerRunRecord; right: PlannerRunRecord }) {
  const columns = [left, right].map((run) => {
    const steps = timelineFromEvents(run.events);
    return { run, summary: summarizeRun(run, steps), lines: invocationLines(steps) };
  });
  const rows: Array<[string, (column: (typeof columns)[number]) => string]> = [
    ['Question', ({ run }) => run.question],
    ['Targets', ({ run }) => run.targets.map((target) => target.label ?? `${target.provider}:${target.model}`).join(' → ')],
    ['Outcome', ({ summary }) => summary.status + (summary.error ? ` — ${summary.error}` : '')],
    ['Turns', ({ summary }) => String(summary.turns)],
    ['Invocations (invalid)', ({ summary }) => `${summary.invocations} (${summary.invalid})`],
    ['Repairs', ({ summary }) => String(summary.repairs)],
    ['Executions (failed)', ({ summary }) => `${summary.executions} (${summary.failedExecutions})`],
    ['LLM requests', ({ summary }) => String(summary.totals.llmRequests)],
    ['Tokens in / out', ({ summary }) => `${formatCount(summary.totals.inputTokens)} / ${formatCount(summary.totals.outputTokens)}`],
    ['Latency', ({ summary }) => `${summary.totals.latencyMs.toFixed(0)} ms`],
    ['Cost', ({ summary }) => formatCost(summary.totals.costUsd)],
  ];
  return (
    <section className="panel planner-compare" aria-label="Compare runs" data-testid="planner.compare">
      <h2>Compare runs</h2>
      <table className="data-table planner-compare__table">
        <thead>
          <tr>
            <th scope="col" />
            {columns.map(({ run }) => (
              <th scope="col" key={run.id}>
                {new Date(run.startedAt).toLocaleTimeString()} · {run.kind}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {columns.map((column) => {
                const text = value(column);
                const differs = value(columns[0]) !== value(columns[1]);
                return (
                  <td key={column.run.id} className={differs ? 'is-different' : undefined}>
                    {text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="planner-compare__columns">
        {columns.map(({ run, summary, lines }) => (
          <div key={run.id} data-testid="planner.compare.column">
            <h3>Steps</h3>
            <ol className="small">
              {lines.map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ol>
            <h3>Final report</h3>
            <pre className="model-text">{summary.finalReport ?? '(none)'}</pre>
          </div>
        ))}
      </div>
    </section>
  );
}
