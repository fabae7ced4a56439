// The run record read back: the timeline of steps, accounting rows and totals, run summaries (for the app and the command line).

export type { TimelineStep, TimelineStepKind } from './timeline-steps.ts';
export type { RecordedEvent } from './timeline.ts';
export { timelineFromEvents } from './timeline.ts';
export type { AccountingRow, AccountingTotals } from './accounting-rows.ts';
export { accountingRows, accountingTotals, formatCost } from './accounting-rows.ts';
export type { RunSummary, SummarizableRun } from './run-summary.ts';
export { summarizeRun, failedInvocations } from './run-summary.ts';
