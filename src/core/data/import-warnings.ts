import type { Table } from 'apache-arrow';
import { numericColumn } from './columns.ts';

/**
 * Something an import recovered from that may have changed or lost data. An import with any
 * warning is `partial`, never clean. One warning per code and column: `count` says how often it
 * happened, the location fields say where it happened first.
 */
export interface ImportWarning {
  /**
   * `UNTERMINATED_QUOTE`: a quoted CSV field never closes, so the rest of the file was read into
   * one field (rows after it are lost); `MALFORMED_QUOTE`: a quote inside a quoted field is not
   * doubled; `CSV_PARSE_WARNING`: another problem the CSV parser recovered from; `INVALID_UTF8`:
   * bytes that are not UTF-8, read as U+FFFD; `IMPLAUSIBLE_TIMESTAMP`: time values outside the
   * plausibility window (see {@link TIMESTAMP_PLAUSIBILITY}); `INVALID_VALUE`: cells that could not
   * be read as their column's type and became null; `IMPRECISE_VALUE`: integers beyond ±2^53 that
   * lost precision as float64; `NUMBER_OUT_OF_RANGE`: CSV numbers beyond the float64 range
   * (`1e400`) that became null; `RENAMED_COLUMN`: empty or repeated CSV header names that were
   * given a made-up name (`column_2`, `rssi_2`).
   */
  code: ImportWarningCode;
  /** What happened and where, for people. */
  message: string;
  /** How many times it happened in the file. */
  count: number;
  /** CSV: 1-based record number of the first occurrence (the header is record 1). */
  record?: number;
  /** 0-based byte offset in the file of the first occurrence. */
  byte_offset?: number;
  /** 1-based line number of the first occurrence. */
  line?: number;
  /** 0-based row of the imported table of the first occurrence. */
  row?: number;
  /** The column concerned. */
  column?: string;
}

export type ImportWarningCode =
  | 'UNTERMINATED_QUOTE'
  | 'MALFORMED_QUOTE'
  | 'CSV_PARSE_WARNING'
  | 'INVALID_UTF8'
  | 'IMPLAUSIBLE_TIMESTAMP'
  | 'INVALID_VALUE'
  | 'IMPRECISE_VALUE'
  | 'NUMBER_OUT_OF_RANGE'
  | 'RENAMED_COLUMN';

const DAY_MS = 86_400_000;

/**
 * When a time value (milliseconds) is implausible. Every capture: more than 366 days from the
 * capture's median time (a bit-flipped timestamp inside an otherwise coherent capture). A capture
 * whose median is an epoch time (at least `epochFromMs` from zero, i.e. after early 1973, where a
 * capture of relative times does not reach) also: before the Unix epoch or at or after
 * 2100-01-01T00:00:00Z. Relative captures — times counted from the start or from a trigger, so
 * negative times too — are judged only by their distance from the median.
 */
export const TIMESTAMP_PLAUSIBILITY = {
  minMs: 0,
  /** 2100-01-01T00:00:00Z. */
  maxMs: 4_102_444_800_000,
  maxDistanceFromMedianMs: 366 * DAY_MS,
  /** 1e11 ms ≈ 3.2 years: a median this far from zero is an epoch time, not a relative one. */
  epochFromMs: 100_000_000_000,
} as const;

/** Values sampled to estimate the median time: enough for a stable median, bounded work. */
const MEDIAN_SAMPLE = 65_536;

/** Warns about time values outside {@link TIMESTAMP_PLAUSIBILITY}; nulls and NaN are not counted. */
export function checkTimestamps(table: Table, timeColumn: string): ImportWarning[] {
  const rows = table.numRows;
  if (rows === 0) return [];
  const stride = Math.max(1, Math.floor(rows / MEDIAN_SAMPLE));
  const sample: number[] = [];
  let row = 0;
  for (const batch of table.batches) {
    const values = numericColumn(batch, timeColumn);
    for (let index = 0; index < values.length; index++, row++) {
      if (row % stride === 0 && Number.isFinite(values[index])) sample.push(values[index]);
    }
  }
  if (sample.length === 0) return [];
  const sorted = Float64Array.from(sample).sort();
  const median = sorted[sorted.length >> 1];
  const { minMs, maxMs, maxDistanceFromMedianMs, epochFromMs } = TIMESTAMP_PLAUSIBILITY;
  const epoch = Math.abs(median) >= epochFromMs;
  let count = 0;
  let first: { row: number; value: number } | null = null;
  row = 0;
  for (const batch of table.batches) {
    const values = numericColumn(batch, timeColumn);
    for (let index = 0; index < values.length; index++, row++) {
      const value = values[index];
      if (!Number.isFinite(value)) continue;
      if (Math.abs(value - median) > maxDistanceFromMedianMs || (epoch && (value < minMs || value >= maxMs))) {
        count++;
        first ??= { row, value };
      }
    }
  }
  if (first === null) return [];
  return [
    {
      code: 'IMPLAUSIBLE_TIMESTAMP',
      column: timeColumn,
      count,
      row: first.row,
      message:
        `${count} value${count === 1 ? '' : 's'} of '${timeColumn}' ${count === 1 ? 'lies' : 'lie'} outside the plausible window (within 366 days of the capture's median ` +
        `${epoch ? describeMs(median) : `${median} ms`}${epoch ? ', and 1970–2100' : ''}); the first is row ${first.row}: ${first.value}` +
        `${epoch ? ` (${describeMs(first.value)})` : ' ms'}. They were kept as they are.`,
    },
  ];
}

function describeMs(value: number): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'not a date' : date.toISOString();
}

/**
 * A streaming UTF-8 validator that says where the first invalid sequence is. TextDecoder either
 * replaces bad bytes silently or throws without a position, so this small state machine runs
 * beside it (Unicode 15 §3.9 table 3-7: well-formed byte sequences).
 */
export class Utf8Validator {
  private need = 0;
  private low = 0x80;
  private high = 0xbf;
  private offset = 0;
  private lines = 1;
  private sequenceStart = 0;
  private sequenceLine = 1;
  /** Invalid sequences seen so far. */
  invalid = 0;
  /** Where the first one starts. */
  first: { byte_offset: number; line: number } | null = null;

  push(bytes: Uint8Array): void {
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index];
      const at = this.offset + index;
      if (this.need > 0) {
        if (byte >= this.low && byte <= this.high) {
          this.need--;
          this.low = 0x80;
          this.high = 0xbf;
          continue;
        }
        this.fail(this.sequenceStart, this.sequenceLine);
        this.need = 0;
        this.low = 0x80;
        this.high = 0xbf;
      }
      if (byte < 0x80) {
        if (byte === 0x0a) this.lines++;
        continue;
      }
      this.sequenceStart = at;
      this.sequenceLine = this.lines;
      if (byte >= 0xc2 && byte <= 0xdf) this.need = 1;
      else if (byte >= 0xe0 && byte <= 0xef) {
        this.need = 2;
        if (byte === 0xe0) this.low = 0xa0;
        if (byte === 0xed) this.high = 0x9f;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        this.need = 3;
        if (byte === 0xf0) this.low = 0x90;
        if (byte === 0xf4) this.high = 0x8f;
      } else this.fail(at, this.lines);
    }
    this.offset += bytes.length;
  }

  /** Ends the input: a sequence cut by the end of the file is invalid too. */
  end(): void {
    if (this.need > 0) this.fail(this.sequenceStart, this.sequenceLine);
    this.need = 0;
  }

  private fail(byteOffset: number, line: number): void {
    this.invalid++;
    this.first ??= { byte_offset: byteOffset, line };
  }
}
