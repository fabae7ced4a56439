import type { JsonObject, JsonValue } from '../util/json.ts';
import { selectedCaptureIds, selectionOfInvocation } from '../data/selection.ts';
import type { CaptureProvenance, CaseReport, ReportCapture, ReportSelection, ReportStep, RunDocument } from './report-types.ts';

/** tool-contract.md §7.3, verbatim: printed with every report in which the BLE analyzer ran. */
export const BLE_CAVEATS: readonly string[] = [
  'Confidence semantics: `confidence` and linkage probabilities are model-based posterior-like scores conditioned on observed packets plus `rpa_rotation_model` assumptions; they are not frequentist p-values and should not be interpreted as proof.',
  'Similar traffic profiles from nearby devices can inflate linkage probabilities.',
  'Capture blind spots can force the model to connect addresses across unobserved intervals.',
  'Aggressive `linkage_window_s` values increase recall but may raise false-positive cluster merges.',
  'Use `evidence` and `rationale` fields to present uncertainty and alternate explanations in LLM responses.',
];

/** What replaces key material wherever a report would otherwise carry it. */
export const REDACTED_KEY = '(key material not recorded)';

export const BLE_ANALYZER_NAME = 'bluetooth_address_analyzer';

export interface BuildReportOptions {
  /** Provenance of every capture the app or runner knows, by id. */
  captures: ReadonlyMap<string, CaptureProvenance>;
  /** RFC3339 instant the report is made (injected: the core has no clock). */
  createdAt: string;
  title?: string;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The selection of an invocation in either contract shape, spelled out; null when it has none. */
export function selectionOf(invocation: JsonValue): ReportSelection | null {
  const selection = selectionOfInvocation(invocation);
  if (!selection) return null;
  return {
    capture_ids: selectedCaptureIds(selection),
    start_ms: selection.timeRange?.range.start_ms ?? null,
    end_ms: selection.timeRange?.range.end_ms ?? null,
    channels: selection.channels?.values ?? [],
    filters: selection.filters.map((filter) => filter.expression),
  };
}

/** Labels of the IRKs an invocation supplies. */
export function keyLabelsOf(invocation: JsonValue): string[] {
  if (!isObject(invocation) || !isObject(invocation.arguments) || !Array.isArray(invocation.arguments.irks)) return [];
  return invocation.arguments.irks.map((key, index) => (isObject(key) && typeof key.label === 'string' ? key.label : `key ${index + 1}`));
}

/** The invocation with every IRK's key material replaced: a report names keys, never holds them. */
export function redactKeys(invocation: JsonValue): JsonValue {
  if (!isObject(invocation) || !isObject(invocation.arguments) || !Array.isArray(invocation.arguments.irks)) return invocation;
  const irks = invocation.arguments.irks.map((key) => (isObject(key) ? { ...key, irk: REDACTED_KEY } : REDACTED_KEY));
  return { ...invocation, arguments: { ...invocation.arguments, irks } };
}

function reportCapture(provenance: CaptureProvenance): ReportCapture {
  return {
    id: provenance.id,
    source: provenance.source,
    description: provenance.description,
    rows: provenance.rows,
    bounds: provenance.bounds,
    channels: provenance.channels,
    time_origin: provenance.timeOrigin,
    bytes: provenance.bytes,
    sha256: provenance.sha256,
    hash_basis: provenance.sha256 ? provenance.hashBasis : 'not-recorded',
    import_report: provenance.importReport,
  };
}

/** Turns an exported run into a case report: provenance of every capture read, redacted keys, caveats. */
export function buildCaseReport(run: RunDocument, options: BuildReportOptions): CaseReport {
  const notes: string[] = [];
  const captureIds: string[] = [];
  const keys = new Set<string>();
  const tools = new Map<string, string>();
  const steps: ReportStep[] = run.steps.map((step, index) => {
    const selection = selectionOf(step.invocation);
    for (const id of selection?.capture_ids ?? []) if (!captureIds.includes(id)) captureIds.push(id);
    for (const label of keyLabelsOf(step.invocation)) keys.add(label);
    const requested = isObject(step.invocation) ? stringOrNull(step.invocation.tool_version) : null;
    if (step.tool_name && step.resolved_version) tools.set(`${step.tool_name}@${step.resolved_version}`, step.resolved_version);
    return {
      index: index + 1,
      tool_name: step.tool_name,
      requested_version: requested,
      resolved_version: step.resolved_version,
      phase: step.phase,
      source: step.source ?? null,
      invocation: redactKeys(step.invocation),
      selection,
      result: step.result,
      duration_ms: step.duration_ms,
    };
  });
  const captures: ReportCapture[] = [];
  for (const id of captureIds) {
    const provenance = options.captures.get(id);
    if (provenance) captures.push(reportCapture(provenance));
    else notes.push(`Capture ${id} was not available when the report was made: its provenance is not recorded.`);
  }
  const ranBle = steps.some((step) => step.tool_name === BLE_ANALYZER_NAME && step.phase === 'execution');
  const firstTool = steps.find((step) => step.tool_name)?.tool_name ?? 'tool';
  return {
    format: 'sextant.case-report',
    format_version: 1,
    title: options.title ?? (run.kind === 'planner-run' ? 'Planner run' : `${steps.length > 1 ? `Plan of ${steps.length} steps` : firstTool} run`),
    created_at: options.createdAt,
    run_started_at: run.started_at,
    sextant_version: run.sextant_version,
    kind: run.kind,
    tools: [...tools.keys()].map((key) => ({ name: key.slice(0, key.lastIndexOf('@')), version: tools.get(key)! })),
    captures,
    steps,
    keys_used: [...keys],
    caveats: ranBle ? [...BLE_CAVEATS] : [],
    planner: run.planner ?? null,
    notes,
  };
}

/** A run document's shape, checked before use (the file may come from anywhere). */
export function parseRunDocument(value: unknown): { ok: true; value: RunDocument } | { ok: false; message: string } {
  if (!isObject(value)) return { ok: false, message: 'A run file is a JSON object' };
  if (value.format !== 'sextant.run') return { ok: false, message: `Not a Sextant run file: format is ${JSON.stringify(value.format ?? null)}, expected "sextant.run"` };
  if (value.format_version !== 1) return { ok: false, message: `Unsupported run file version ${JSON.stringify(value.format_version ?? null)} (this Sextant reads 1)` };
  if (value.kind !== 'tool-run' && value.kind !== 'planner-run') return { ok: false, message: 'kind must be "tool-run" or "planner-run"' };
  if (!Array.isArray(value.steps)) return { ok: false, message: 'steps must be an array' };
  for (const [index, step] of value.steps.entries()) {
    if (!isObject(step) || !isObject(step.result) || typeof step.result.status !== 'string') return { ok: false, message: `steps[${index}] needs a result` };
    if (step.phase !== 'validation' && step.phase !== 'execution') return { ok: false, message: `steps[${index}].phase must be "validation" or "execution"` };
  }
  // Checked field by field above; the rest are display strings.
  return { ok: true, value: value as unknown as RunDocument };
}

/** A case report's shape, checked before `report verify` trusts it. */
export function parseCaseReport(value: unknown): { ok: true; value: CaseReport } | { ok: false; message: string } {
  if (!isObject(value)) return { ok: false, message: 'A case report is a JSON object' };
  if (value.format !== 'sextant.case-report') return { ok: false, message: `Not a Sextant case report: format is ${JSON.stringify(value.format ?? null)}, expected "sextant.case-report"` };
  if (value.format_version !== 1) return { ok: false, message: `Unsupported case report version ${JSON.stringify(value.format_version ?? null)} (this Sextant reads 1)` };
  if (!Array.isArray(value.steps) || !Array.isArray(value.captures)) return { ok: false, message: 'A case report needs steps and captures arrays' };
  for (const [index, step] of value.steps.entries()) {
    if (!isObject(step) || !isObject(step.result) || !('invocation' in step)) return { ok: false, message: `steps[${index}] needs an invocation and a result` };
  }
  for (const [index, capture] of value.captures.entries()) {
    if (!isObject(capture) || typeof capture.id !== 'string') return { ok: false, message: `captures[${index}] needs an id` };
  }
  if (value.html_sha256 !== undefined && (typeof value.html_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(value.html_sha256))) {
    return { ok: false, message: 'html_sha256 must be 64 lowercase hex digits' };
  }
  // Checked field by field above; the rest are display strings.
  return { ok: true, value: value as unknown as CaseReport };
}
