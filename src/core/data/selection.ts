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
  const isBle = 'capture_ids' in value || 'time_window' in value || 'filter_expression' in value;
  const schema = isBle ? bleCaptureSelectionSchema : genericCaptureSelectionSchema;
  const errors = validateAgainstSchema(schema, value, { prefix: [ROOT], typeErrorCode: 'INVALID_TYPE' });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: isBle ? fromBle(value) : fromGeneric(value) };
}

/** Only called on values the shape's schema has accepted. */
function toTimeRange(value: unknown): TimeRange {
  const range = value as { start_ms: number; end_ms: number };
  return { start_ms: range.start_ms, end_ms: range.end_ms };
}

function fromGeneric(value: JsonObject): NormalizedSelection {
  const selectors = (value.selectors ?? {}) as { time_range?: unknown; channels?: string[]; filters?: string[] };
  return {
    shape: 'generic',
    captures: [{ id: value.capture_id as string, field: `${ROOT}.capture_id` }],
    timeRange: selectors.time_range ? { range: toTimeRange(selectors.time_range), field: `${ROOT}.selectors.time_range` } : null,
    channels: selectors.channels ? { values: selectors.channels, field: `${ROOT}.selectors.channels` } : null,
    filters: (selectors.filters ?? []).map((expression, index) => ({
      expression,
      field: formatFieldPath([ROOT, 'selectors', 'filters', index]),
    })),
  };
}

function fromBle(value: JsonObject): NormalizedSelection {
  const filter = value.filter_expression as string | undefined;
  return {
    shape: 'ble',
    captures: (value.capture_ids as string[]).map((id, index) => ({ id, field: formatFieldPath([ROOT, 'capture_ids', index]) })),
    timeRange: { range: toTimeRange(value.time_window), field: `${ROOT}.time_window` },
    channels: null,
    filters: filter !== undefined && filter.trim() !== '' ? [{ expression: filter, field: `${ROOT}.filter_expression` }] : [],
  };
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
 * The whole selection of one capture as one predicate: the time window and the channels are
 * expressed in the filter language too, so everything goes through the same vectorized compiler.
 */
function predicateFor(selection: NormalizedSelection, info: CaptureInfo): CompiledFilter {
  const parts: string[] = [];
  if (selection.timeRange) {
    const { start_ms, end_ms } = selection.timeRange.range;
    parts.push(`${quoteIdentifier(info.timeColumn)} BETWEEN ${start_ms} AND ${end_ms}`);
  }
  // An empty `channels` list selects no channel subset, like an absent one.
  if (selection.channels && selection.channels.values.length > 0 && info.channelColumn) {
    const kind = info.columns.find((column) => column.name === info.channelColumn)?.kind ?? 'string';
    const list = selection.channels.values.map((channel) => quoteLiteral(channel, kind)).join(', ');
    parts.push(`${quoteIdentifier(info.channelColumn)} IN (${list})`);
  }
  for (const { expression } of selection.filters) parts.push(`(${expression})`);
  const compiled = parts.map((part) => {
    const result = compileFilter(part, info.columns);
    // checkSelection has already compiled every user filter against this capture.
    if (!result.ok) throw new Error(`selection predicate does not compile: ${result.error.message}`);
    return result.value;
  });
  return combineFilters(compiled);
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
