import type { Capture } from './capture.ts';
import { numericColumn, stringColumn } from './columns.ts';
import { compileFilter, type FilterProblem } from './filter/index.ts';

/**
 * The rows of a capture a filter keeps, as global row numbers in table order.
 * An empty filter keeps every row.
 */
export function matchingRows(capture: Capture, expression: string): { ok: true; value: Uint32Array } | { ok: false; error: FilterProblem } {
  const trimmed = expression.trim();
  const total = capture.table.numRows;
  if (trimmed === '') {
    const all = new Uint32Array(total);
    for (let row = 0; row < total; row++) all[row] = row;
    return { ok: true, value: all };
  }
  const compiled = compileFilter(trimmed, capture.info.columns);
  if (!compiled.ok) return compiled;
  const kept: number[] = [];
  let offset = 0;
  for (const batch of capture.table.batches) {
    const mask = compiled.value.evaluate(batch);
    for (let row = 0; row < mask.length; row++) if (mask[row]) kept.push(offset + row);
    offset += batch.numRows;
  }
  return { ok: true, value: Uint32Array.from(kept) };
}

/** A cell as the UI shows it: numbers and booleans as themselves, lists and bytes as text. */
export type CellValue = string | number | boolean | null;

/** Rows `rows[offset .. offset+limit)` of the capture, every column, as plain values. */
export function readRows(capture: Capture, rows: Uint32Array, offset: number, limit: number): CellValue[][] {
  const starts = batchStarts(capture);
  const names = capture.info.columns.map((column) => column.name);
  const out: CellValue[][] = [];
  const end = Math.min(rows.length, offset + limit);
  for (let index = Math.max(0, offset); index < end; index++) {
    const row = rows[index];
    const batchIndex = findBatch(starts, row);
    const batch = capture.table.batches[batchIndex];
    const local = row - starts[batchIndex];
    out.push(names.map((name) => toCell(batch.getChild(name)?.get(local))));
  }
  return out;
}

function toCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  if (value instanceof Uint8Array) return [...value].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  if (typeof value === 'object' && Symbol.iterator in value) return JSON.stringify([...(value as Iterable<unknown>)].map(toCell));
  return String(value);
}

function batchStarts(capture: Capture): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const batch of capture.table.batches) {
    starts.push(offset);
    offset += batch.numRows;
  }
  return starts;
}

function findBatch(starts: number[], row: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= row) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Selected rows over time: `bins` equal-width bins between the capture's bounds. */
export interface TimeHistogram {
  start_ms: number;
  end_ms: number;
  counts: number[];
}

export function timeHistogram(capture: Capture, rows: Uint32Array, bins = 60): TimeHistogram {
  const { start_ms, end_ms } = capture.info.bounds;
  const counts = new Array<number>(bins).fill(0);
  const width = (end_ms - start_ms) / bins || 1;
  forEachSelected(capture, rows, capture.info.timeColumn, (value) => {
    const bin = Math.min(bins - 1, Math.max(0, Math.floor((value - start_ms) / width)));
    if (Number.isFinite(value)) counts[bin]++;
  });
  return { start_ms, end_ms, counts };
}

/** Calls `visit` with the numeric value of `column` for each selected row, batch by batch. */
function forEachSelected(capture: Capture, rows: Uint32Array, column: string, visit: (value: number) => void): void {
  const starts = batchStarts(capture);
  let cursor = 0;
  capture.table.batches.forEach((batch, batchIndex) => {
    const end = starts[batchIndex] + batch.numRows;
    if (cursor >= rows.length || rows[cursor] >= end) return;
    const values = numericColumn(batch, column);
    while (cursor < rows.length && rows[cursor] < end) {
      visit(values[rows[cursor] - starts[batchIndex]]);
      cursor++;
    }
  });
}

/** Per-column summary of the selected rows. */
export type ColumnSummary =
  | { name: string; kind: 'number'; count: number; missing: number; min: number | null; max: number | null; mean: number | null }
  | { name: string; kind: 'string' | 'boolean'; count: number; missing: number; distinct: number; top: Array<{ value: string; count: number }> };

const TOP_VALUES = 5;

export function columnSummaries(capture: Capture, rows: Uint32Array): ColumnSummary[] {
  const starts = batchStarts(capture);
  return capture.info.columns.map((column): ColumnSummary => {
    if (column.kind === 'number') {
      let count = 0;
      let missing = 0;
      let sum = 0;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      forEachSelected(capture, rows, column.name, (value) => {
        if (Number.isNaN(value)) {
          missing++;
          return;
        }
        count++;
        sum += value;
        if (value < min) min = value;
        if (value > max) max = value;
      });
      return { name: column.name, kind: 'number', count, missing, min: count ? min : null, max: count ? max : null, mean: count ? sum / count : null };
    }
    const tally = new Map<string, number>();
    let missing = 0;
    let cursor = 0;
    capture.table.batches.forEach((batch, batchIndex) => {
      const end = starts[batchIndex] + batch.numRows;
      if (cursor >= rows.length || rows[cursor] >= end) return;
      const values = stringColumn(batch, column.name);
      while (cursor < rows.length && rows[cursor] < end) {
        const value = values[rows[cursor] - starts[batchIndex]];
        if (value === null) missing++;
        else tally.set(value, (tally.get(value) ?? 0) + 1);
        cursor++;
      }
    });
    const top = [...tally.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_VALUES)
      .map(([value, count]) => ({ value, count }));
    return { name: column.name, kind: column.kind, count: rows.length - missing, missing, distinct: tally.size, top };
  });
}

/** One advertiser address of the selected rows. */
export interface AddressSummary {
  address: string;
  count: number;
  /** TxAdd values seen (0 public, 1 random); more than one is worth a look. */
  tx_add: number[];
  first_ms: number;
  last_ms: number;
}

/** Advertiser addresses with counts, TxAdd and first/last seen; empty when the capture has no `advertiser_addr`. */
export function advertiserSummary(capture: Capture, rows: Uint32Array, limit = 500): AddressSummary[] {
  const has = (name: string) => capture.info.columns.some((column) => column.name === name);
  if (!has('advertiser_addr')) return [];
  const starts = batchStarts(capture);
  const byAddress = new Map<string, AddressSummary>();
  let cursor = 0;
  capture.table.batches.forEach((batch, batchIndex) => {
    const end = starts[batchIndex] + batch.numRows;
    if (cursor >= rows.length || rows[cursor] >= end) return;
    const addresses = stringColumn(batch, 'advertiser_addr');
    const times = numericColumn(batch, capture.info.timeColumn);
    const txAdd = has('tx_add') ? numericColumn(batch, 'tx_add') : null;
    while (cursor < rows.length && rows[cursor] < end) {
      const local = rows[cursor] - starts[batchIndex];
      cursor++;
      const address = addresses[local];
      if (address === null) continue;
      const time = times[local];
      let entry = byAddress.get(address);
      if (!entry) {
        entry = { address, count: 0, tx_add: [], first_ms: time, last_ms: time };
        byAddress.set(address, entry);
      }
      entry.count++;
      if (time < entry.first_ms) entry.first_ms = time;
      if (time > entry.last_ms) entry.last_ms = time;
      const tx = txAdd ? txAdd[local] : Number.NaN;
      if (!Number.isNaN(tx) && !entry.tx_add.includes(tx)) entry.tx_add.push(tx);
    }
  });
  return [...byAddress.values()].sort((a, b) => b.count - a.count || a.address.localeCompare(b.address)).slice(0, limit);
}
