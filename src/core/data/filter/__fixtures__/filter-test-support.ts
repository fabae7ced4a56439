import type { Table } from 'apache-arrow';
import type { CompiledFilter } from '../compile.ts';

/** The tree without `position` fields, for comparing shapes (toEqual still tells -0 from 0). */
export function withoutPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPositions);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) if (key !== 'position') out[key] = withoutPositions(entry);
    return out;
  }
  return value;
}

/** The filter's mask over every batch of `table`, concatenated, as plain numbers. */
export function evaluateTable(filter: CompiledFilter, table: Table): number[] {
  const out: number[] = [];
  for (const batch of table.batches) {
    const mask = filter.evaluate(batch);
    if (mask.length !== batch.numRows) throw new Error(`mask length ${mask.length} != ${batch.numRows}`);
    out.push(...mask);
  }
  return out;
}
