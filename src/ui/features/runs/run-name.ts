import type { RunEntry } from '../../lib/stores/run-store.ts';

type Step = Record<string, unknown>;

function isStep(value: unknown): value is Step {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The captures an invocation reads, in either selection shape (generic `capture_id` or BLE `capture_ids`). */
export function capturesOf(step: unknown): string[] {
  const selection = isStep(step) && isStep(step.capture_selection) ? step.capture_selection : null;
  if (!selection) return [];
  if (Array.isArray(selection.capture_ids)) return selection.capture_ids.filter((id): id is string => typeof id === 'string');
  const single = text(selection.capture_id);
  return single ? [single] : [];
}

/** One invocation in a few words: tool, capture(s), and the operation when the tool has one. */
export function describeInvocation(step: unknown): string {
  if (!isStep(step)) return typeof step === 'string' ? 'unparsed input' : 'invalid input';
  const tool = text(step.tool_name) ?? 'unknown tool';
  const captures = capturesOf(step);
  const operation = isStep(step.arguments) ? text(step.arguments.operation) : null;
  const capturePart = captures.length === 0 ? null : captures.length <= 2 ? captures.join(' + ') : `${captures[0]} + ${captures.length - 1} more`;
  return [tool, capturePart, operation].filter((part): part is string => part !== null).join(' · ');
}

/** The conformance panel's cases carry request ids `conf-<case>` (src/core/manifests/conformance.ts). */
function isConformanceStep(step: unknown): boolean {
  return isStep(step) && typeof step.request_id === 'string' && step.request_id.startsWith('conf-');
}

/**
 * What a run was, in a line that fits a table cell: `statistical_regression_tool · demo · anova`
 * for one invocation, `conformance: lookup_device_vendor, 10 cases` for a conformance check,
 * `plan of 3: tool_a, tool_b ×2` for a plan (repeated tools counted, not listed).
 */
export function runName(entry: Pick<RunEntry, 'input' | 'isPlan'>): string {
  if (!entry.isPlan || !Array.isArray(entry.input)) return describeInvocation(entry.input);
  const steps = entry.input as unknown[];
  const tools = steps.map((step) => (isStep(step) ? text(step.tool_name) : null) ?? 'unknown tool');
  const distinct = [...new Set(tools)];
  const cases = `${steps.length} case${steps.length === 1 ? '' : 's'}`;
  if (steps.length > 0 && steps.every(isConformanceStep)) return `conformance: ${distinct.join(', ')}, ${cases}`;
  const counted = distinct.map((tool) => {
    const count = tools.filter((name) => name === tool).length;
    return count > 1 ? `${tool} ×${count}` : tool;
  });
  return `plan of ${steps.length}: ${counted.join(', ')}`;
}

/** A run's start as date and time in the user's locale, e.g. `27 Nov 2026, 20:14:05`. */
export function formatStarted(date: Date): string {
  return date.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Whether a run matches the filter text: every word in its name, status, id or date. */
export function runMatches(entry: RunEntry, status: string, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `#${entry.id} ${runName(entry)} ${status} ${formatStarted(entry.startedAt)} ${entry.startedAt.toISOString()}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
