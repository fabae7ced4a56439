import type { TimeRange } from '../contract/types.ts';
import { toolError, type ToolError } from '../contract/tool-error.ts';
import { bleCaptureSelectionSchema, genericCaptureSelectionSchema } from '../contract/schemas.ts';
import { validateAgainstSchema } from '../validation/schema-validator.ts';
import { formatFieldPath } from '../validation/field-path.ts';
import { isJsonObject, type JsonObject } from '../util/json.ts';
import type { Capture, CaptureInfo } from './capture.ts';
import { combineFilters, compileFilter, type CompiledFilter } from './filter/index.ts';
import type { SelectedBatch, SelectedData } from './selection-types.ts';

/**
 * Both `capture_selection` shapes normalized into one (settled decision 3): several captures,
 * one time window, one predicate (filters ANDed). Each part remembers the envelope path it
 * came from, so errors point where the caller wrote it.
 */
export interface NormalizedSelection {
  shape: 'generic' | 'ble';
  captures: Array<{ id: string; field: string }>;
  timeRange: { range: TimeRange; field: string } | null;
  channels: { values: string[]; field: string } | null;
  filters: Array<{ expression: string; field: string }>;
}

const ROOT = 'capture_selection';

/** Checks a `capture_selection` value's shape and normalizes it; errors are coded, one per problem. */
export function normalizeCaptureSelection(value: unknown): { ok: true; value: NormalizedSelection } | { ok: false; errors: ToolError[] } {
  if (!isJsonObject(value)) {
    return { ok: false, errors: [toolError('INVALID_INVOCATION', ROOT, `${ROOT} must be object`)] };
  }
  const schema = isBleSelectionShape(value) ? bleCaptureSelectionSchema : genericCaptureSelectionSchema;
  const errors = validateAgainstSchema(schema, value, { prefix: [ROOT], typeErrorCode: 'INVALID_TYPE' });
  if (errors.length > 0) return { ok: false, errors };
  // The shape's schema has accepted it, so the reader leaves nothing out.
  return { ok: true, value: readCaptureSelection(value)! };
}

/** Whether a `capture_selection` value is written in the BLE shape (`capture_ids`, `time_window`, `filter_expression`). */
export function isBleSelectionShape(value: JsonObject): boolean {
  return 'capture_ids' in value || 'time_window' in value || 'filter_expression' in value;
}

function timeRangeOf(value: unknown): TimeRange | null {
  if (!isJsonObject(value)) return null;
  const { start_ms: start, end_ms: end } = value;
  return typeof start === 'number' && typeof end === 'number' ? { start_ms: start, end_ms: end } : null;
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Any `capture_selection`, in either envelope shape, read into the normalized selection without
 * judging it: the one reader behind execution (after `normalizeCaptureSelection` has checked the
 * shape) and behind every view of a past invocation (Packets, RSSI traces, timeline, report,
 * re-run), so a selection written as `{capture_id, selectors}` is read exactly like one written
 * as `{capture_ids, time_window}`. Parts of the wrong type are left out; null for a non-object.
 */
export function readCaptureSelection(value: unknown): NormalizedSelection | null {
  if (!isJsonObject(value)) return null;
  if (isBleSelectionShape(value)) {
    const window = timeRangeOf(value.time_window);
    const filter = typeof value.filter_expression === 'string' ? value.filter_expression : '';
    return {
      shape: 'ble',
      captures: (Array.isArray(value.capture_ids) ? value.capture_ids : [])
        .map((id, index) => ({ id, field: formatFieldPath([ROOT, 'capture_ids', index]) }))
        .filter((entry): entry is { id: string; field: string } => typeof entry.id === 'string'),
      timeRange: window ? { range: window, field: `${ROOT}.time_window` } : null,
      channels: null,
      filters: filter.trim() !== '' ? [{ expression: filter, field: `${ROOT}.filter_expression` }] : [],
    };
  }
  const selectors = isJsonObject(value.selectors) ? value.selectors : {};
  const range = timeRangeOf(selectors.time_range);
  return {
    shape: 'generic',
    captures: typeof value.capture_id === 'string' ? [{ id: value.capture_id, field: `${ROOT}.capture_id` }] : [],
    timeRange: range ? { range, field: `${ROOT}.selectors.time_range` } : null,
    channels: Array.isArray(selectors.channels) ? { values: stringsOf(selectors.channels), field: `${ROOT}.selectors.channels` } : null,
    filters: (Array.isArray(selectors.filters) ? selectors.filters : [])
      .map((expression, index) => ({ expression, field: formatFieldPath([ROOT, 'selectors', 'filters', index]) }))
      .filter((entry): entry is { expression: string; field: string } => typeof entry.expression === 'string'),
  };
}

/** The selection of an invocation (its `capture_selection`), or null when it has none. */
export function selectionOfInvocation(invocation: unknown): NormalizedSelection | null {
  return isJsonObject(invocation) ? readCaptureSelection(invocation.capture_selection) : null;
}

/** The ids of the captures a selection names, in order. */
export function selectedCaptureIds(selection: NormalizedSelection): string[] {
  return selection.captures.map((capture) => capture.id);
}

/**
 * The normalized selection written in one of the two envelope shapes, so that a manifest whose
 * `input_schema` declares `capture_selection` in one shape accepts a caller who wrote the other
 * (settled decision 3: both shapes are accepted). Only schema validation reads this value;
 * execution always uses the normalized selection itself. A generic selection without a time
 * range covers every selected capture's bounds. Returns undefined when the selection cannot be
 * written in that shape (several captures in the one-capture generic shape).
 */
export function renderSelection(selection: NormalizedSelection, shape: 'generic' | 'ble', catalog: CaptureLookup): JsonObject | undefined {
  const filters = selection.filters.map((filter) => filter.expression);
  if (shape === 'generic') {
    if (selection.captures.length !== 1) return undefined;
    const selectors: JsonObject = {};
    if (selection.timeRange) selectors.time_range = { ...selection.timeRange.range };
    if (selection.channels) selectors.channels = [...selection.channels.values];
    if (filters.length > 0) selectors.filters = filters;
    return { capture_id: selection.captures[0].id, selectors };
  }
  const bounds = selection.captures.map(({ id }) => catalog.get(id)?.bounds).filter((range): range is TimeRange => range !== undefined);
  const window = selection.timeRange?.range ?? {
    start_ms: bounds.length > 0 ? Math.min(...bounds.map((range) => range.start_ms)) : 0,
    end_ms: bounds.length > 0 ? Math.max(...bounds.map((range) => range.end_ms)) : 0,
  };
  const rendered: JsonObject = { capture_ids: selection.captures.map(({ id }) => id), time_window: { start_ms: window.start_ms, end_ms: window.end_ms } };
  if (filters.length > 0) rendered.filter_expression = filters.map((expression) => `(${expression})`).join(' AND ');
  return rendered;
}

/** Looks captures up by id; what validation needs is their description only. */
export interface CaptureLookup {
  get(id: string): CaptureInfo | undefined;
  ids(): string[];
}

/**
 * Semantic checks against the catalog, before anything runs: captures exist, the window lies
 * inside every capture's bounds, channels exist, filters parse and name real columns. A capture
 * named twice in `capture_ids` is refused at its second position rather than de-duplicated: it
 * would analyse every observation twice (issue 14, item 6), and silently dropping what the
 * caller wrote is a change they did not ask for.
 */
export function checkSelection(selection: NormalizedSelection, catalog: CaptureLookup): ToolError[] {
  const errors: ToolError[] = [];
  const found: CaptureInfo[] = [];
  const first = new Map<string, string>();
  for (const { id, field } of selection.captures) {
    const earlier = first.get(id);
    if (earlier !== undefined) {
      errors.push(toolError('INVALID_CAPTURE_SELECTION', field, `Capture '${id}' is already selected at ${earlier}; name each capture once`));
      continue;
    }
    first.set(id, field);
    const info = catalog.get(id);
    if (info) found.push(info);
    else errors.push(toolError('INVALID_CAPTURE_SELECTION', field, `Unknown capture '${id}'; available: ${catalog.ids().join(', ') || 'none'}`));
  }

  if (selection.timeRange) {
    const { range, field } = selection.timeRange;
    if (range.start_ms > range.end_ms) {
      errors.push(toolError('UNSUPPORTED_TIME_RANGE', field, `Requested ${range.start_ms}-${range.end_ms}ms: start_ms is after end_ms`));
    } else {
      const failing = found.find((info) => range.start_ms < info.bounds.start_ms || range.end_ms > info.bounds.end_ms);
      if (failing) {
        errors.push(
          toolError(
            'UNSUPPORTED_TIME_RANGE',
            field,
            `Requested ${range.start_ms}-${range.end_ms}ms but capture ${failing.id} supports ${failing.bounds.start_ms}-${failing.bounds.end_ms}ms`,
          ),
        );
      }
    }
  }

  if (selection.channels) {
    selection.channels.values.forEach((channel, index) => {
      const field = `${selection.channels!.field}[${index}]`;
      for (const info of found) {
        if (!info.channelColumn) {
          errors.push(toolError('INVALID_CAPTURE_SELECTION', field, `Capture ${info.id} has no channel column, so it cannot be filtered by channel`));
        } else if (!info.channels.includes(channel)) {
          errors.push(
            toolError('INVALID_CAPTURE_SELECTION', field, `Unknown channel '${channel}' in capture ${info.id}; available: ${info.channels.join(', ')}`),
          );
        }
      }
    });
  }

  for (const { expression, field } of selection.filters) {
    for (const info of found) {
      const compiled = compileFilter(expression, info.columns);
      if (!compiled.ok) {
        const where = found.length > 1 ? ` (capture ${info.id})` : '';
        errors.push(toolError('INVALID_CAPTURE_SELECTION', field, `Invalid filter '${expression}': ${compiled.error.message}${where}`));
        break;
      }
    }
  }
  return dedupe(errors);
}

function dedupe(errors: ToolError[]): ToolError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.code}\u0000${error.field}\u0000${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(value: string, kind: 'number' | 'string' | 'boolean'): string {
  if (kind === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return String(Number(value));
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * The rows a selection keeps in one capture, as one expression of the filter language: the time
 * window and the channels are written in it too, so execution (one vectorized predicate) and the
 * views that read a past run's rows through the filter API select exactly the same rows.
 * Empty when the selection keeps every row.
 */
export function selectionRowFilter(selection: NormalizedSelection, info: CaptureInfo): string {
  const parts: string[] = [];
  if (selection.timeRange) {
    const { start_ms, end_ms } = selection.timeRange.range;
    parts.push(`(${quoteIdentifier(info.timeColumn)} BETWEEN ${start_ms} AND ${end_ms})`);
  }
  // An empty `channels` list selects no channel subset, like an absent one.
  if (selection.channels && selection.channels.values.length > 0 && info.channelColumn) {
    const kind = info.columns.find((column) => column.name === info.channelColumn)?.kind ?? 'string';
    const list = selection.channels.values.map((channel) => quoteLiteral(channel, kind)).join(', ');
    parts.push(`(${quoteIdentifier(info.channelColumn)} IN (${list}))`);
  }
  for (const { expression } of selection.filters) parts.push(`(${expression})`);
  return parts.join(' AND ');
}

/** The whole selection of one capture as one compiled predicate. */
function predicateFor(selection: NormalizedSelection, info: CaptureInfo): CompiledFilter {
  const text = selectionRowFilter(selection, info);
  if (text === '') return combineFilters([]);
  const result = compileFilter(text, info.columns);
  // checkSelection has already compiled every user filter against this capture.
  if (!result.ok) throw new Error(`selection predicate does not compile: ${result.error.message}`);
  return result.value;
}

/** Applies a checked selection to the captures' data: one mask per record batch. */
export function resolveSelection(selection: NormalizedSelection, captures: ReadonlyArray<Capture>): SelectedData {
  const batches: SelectedBatch[] = [];
  let rowCount = 0;
  for (const capture of captures) {
    const predicate = predicateFor(selection, capture.info);
    for (const batch of capture.table.batches) {
      const mask = predicate.evaluate(batch);
      let selectedCount = 0;
      for (let row = 0; row < mask.length; row++) selectedCount += mask[row];
      rowCount += selectedCount;
      batches.push({ captureId: capture.info.id, batch, mask, selectedCount });
    }
  }
  return { batches, rowCount };
}
