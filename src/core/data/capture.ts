import type { Table } from 'apache-arrow';
import type { TimeRange } from '../contract/types.ts';
import { addDistinctStrings, columnSchemaOf, numericColumn, type ColumnSchema } from './columns.ts';

/** Arrow schema metadata keys under which Sextant records what it knows about a capture. */
export const CAPTURE_METADATA = {
  captureId: 'sextant.capture_id',
  description: 'sextant.description',
  source: 'sextant.source',
  /** SHA-256 of the imported file's bytes (64 lowercase hex digits). */
  sourceSha256: 'sextant.source_sha256',
  /** Size of the imported file in bytes (decimal text). */
  sourceBytes: 'sextant.source_bytes',
  timeColumn: 'sextant.time_column',
  channelColumn: 'sextant.channel_column',
  declaredStartMs: 'sextant.declared_start_ms',
  declaredEndMs: 'sextant.declared_end_ms',
  timeOrigin: 'sextant.time_origin',
} as const;

/** What validation and the UI need to know about a capture, without its data. */
export interface CaptureInfo {
  id: string;
  description: string;
  /** Where it came from: `built-in demo`, a file name. */
  source: string;
  rowCount: number;
  columns: ColumnSchema[];
  /** Timestamp column, milliseconds in the capture's own time base. */
  timeColumn: string;
  /** Column that `selectors.channels` filters on, or null when the capture has none. */
  channelColumn: string | null;
  /** Distinct channel values as strings, sorted. */
  channels: string[];
  /** Inclusive time bounds in ms (settled decision 4). */
  bounds: TimeRange;
  /** `declared` when recorded at import or generation, else `observed` min/max of the time column. */
  boundsSource: 'declared' | 'observed';
  /** RFC3339 instant that time 0 of a relative capture stands for; null when unknown. */
  timeOrigin: string | null;
  /** SHA-256 of the file the capture was imported from (64 lowercase hex); absent for built-in captures. */
  sourceSha256?: string;
  /** Size in bytes of the file the capture was imported from; absent for built-in captures. */
  sourceBytes?: number;
}

/** A capture: its description and its data as an Arrow table. */
export interface Capture {
  info: CaptureInfo;
  table: Table;
}

export interface DescribeOptions {
  id?: string;
  source?: string;
  timeColumn?: string;
  channelColumn?: string | null;
}

export type DescribeProblem = { code: 'MISSING_TIME_COLUMN' | 'NON_NUMERIC_TIME_COLUMN' | 'MISSING_CAPTURE_ID'; message: string };

/**
 * Describes a table as a capture: options win over the schema metadata, which wins over
 * conventions (`ts_ms` for time, `channel` when present).
 */
export function describeCapture(table: Table, options: DescribeOptions = {}): { ok: true; value: CaptureInfo } | { ok: false; error: DescribeProblem } {
  const metadata = table.schema.metadata;
  const id = options.id ?? metadata.get(CAPTURE_METADATA.captureId);
  if (!id) return { ok: false, error: { code: 'MISSING_CAPTURE_ID', message: 'The capture has no id' } };
  const columns = columnSchemaOf(table.schema.fields);
  const timeColumn = options.timeColumn ?? metadata.get(CAPTURE_METADATA.timeColumn) ?? 'ts_ms';
  const timeSchema = columns.find((column) => column.name === timeColumn);
  if (!timeSchema) {
    return {
      ok: false,
      error: { code: 'MISSING_TIME_COLUMN', message: `Capture ${id} has no time column '${timeColumn}'; columns: ${columns.map((c) => c.name).join(', ')}` },
    };
  }
  if (timeSchema.kind !== 'number') {
    return { ok: false, error: { code: 'NON_NUMERIC_TIME_COLUMN', message: `Time column '${timeColumn}' of capture ${id} is not numeric` } };
  }
  const requestedChannel = options.channelColumn === undefined ? metadata.get(CAPTURE_METADATA.channelColumn) ?? 'channel' : options.channelColumn;
  const channelColumn = requestedChannel && columns.some((column) => column.name === requestedChannel) ? requestedChannel : null;

  const declaredStart = metadata.get(CAPTURE_METADATA.declaredStartMs);
  const declaredEnd = metadata.get(CAPTURE_METADATA.declaredEndMs);
  const declared = declaredStart !== undefined && declaredEnd !== undefined && Number.isFinite(Number(declaredStart)) && Number.isFinite(Number(declaredEnd));
  return {
    ok: true,
    value: {
      id,
      description: metadata.get(CAPTURE_METADATA.description) ?? '',
      source: options.source ?? metadata.get(CAPTURE_METADATA.source) ?? 'unknown',
      rowCount: table.numRows,
      columns,
      timeColumn,
      channelColumn,
      channels: channelColumn ? distinctValues(table, channelColumn) : [],
      bounds: declared ? { start_ms: Number(declaredStart), end_ms: Number(declaredEnd) } : observedBounds(table, timeColumn),
      boundsSource: declared ? 'declared' : 'observed',
      timeOrigin: metadata.get(CAPTURE_METADATA.timeOrigin) ?? null,
      ...sourceFingerprint(metadata),
    },
  };
}

/** The source file's hash and size from the metadata, when both were recorded and well formed. */
function sourceFingerprint(metadata: Map<string, string>): { sourceSha256?: string; sourceBytes?: number } {
  const sha = metadata.get(CAPTURE_METADATA.sourceSha256);
  const bytes = Number(metadata.get(CAPTURE_METADATA.sourceBytes));
  const fingerprint: { sourceSha256?: string; sourceBytes?: number } = {};
  if (sha !== undefined && /^[0-9a-f]{64}$/.test(sha)) fingerprint.sourceSha256 = sha;
  if (metadata.has(CAPTURE_METADATA.sourceBytes) && Number.isSafeInteger(bytes) && bytes >= 0) fingerprint.sourceBytes = bytes;
  return fingerprint;
}

function observedBounds(table: Table, timeColumn: string): TimeRange {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const batch of table.batches) {
    const values = numericColumn(batch, timeColumn);
    for (let row = 0; row < values.length; row++) {
      const value = values[row];
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  if (min > max) return { start_ms: 0, end_ms: 0 };
  return { start_ms: Math.floor(min), end_ms: Math.ceil(max) };
}

function distinctValues(table: Table, column: string): string[] {
  const values = new Set<string>();
  for (const batch of table.batches) addDistinctStrings(batch, column, values);
  return [...values].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}
