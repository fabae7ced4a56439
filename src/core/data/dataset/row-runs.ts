/**
 * Rows picked out of record batches as runs — a part's rows of one hour, a window's rows of a
 * part — and put back together as batches. Long runs are zero-copy slices. Short ones are copied:
 * a clock that steps back and forth across an hour boundary (or two interfaces of a pcapng with
 * skewed clocks) makes runs of a row or two, and a table of thousands of one-row slices costs
 * more to write or read than its values (each slice is a record batch with its dictionaries).
 * Arrow's JavaScript library has no take kernel, so the copy goes through its builders, value by
 * value: slow per row, and only ever for the rows of short runs.
 */
import { RecordBatch, Struct, Vector, makeBuilder, makeData, type Data, type Schema } from 'apache-arrow';

/** Rows [start, end) of a record batch. */
export interface RowRun {
  batch: RecordBatch;
  start: number;
  end: number;
}

/** Runs at least this long are sliced; shorter ones are copied together. */
export const MIN_SLICE_ROWS = 4_096;

/**
 * The runs' rows, in order, as batches of `schema` (the runs' batches must have its fields, in
 * its order). Consecutive short runs are copied into one batch of up to `maxCopiedRows` rows.
 */
export function batchesOfRuns(schema: Schema, runs: readonly RowRun[], maxCopiedRows = 65_536): RecordBatch[] {
  const batches: RecordBatch[] = [];
  for (let index = 0; index < runs.length; ) {
    const run = runs[index];
    if (run.end - run.start >= MIN_SLICE_ROWS) {
      batches.push(run.start === 0 && run.end === run.batch.numRows ? run.batch : run.batch.slice(run.start, run.end));
      index++;
      continue;
    }
    const short: RowRun[] = [];
    let rows = 0;
    while (index < runs.length && runs[index].end - runs[index].start < MIN_SLICE_ROWS && rows < maxCopiedRows) {
      rows += runs[index].end - runs[index].start;
      short.push(runs[index++]);
    }
    if (rows > 0) batches.push(copiedBatch(schema, short, rows));
  }
  return batches;
}

function copiedBatch(schema: Schema, runs: readonly RowRun[], length: number): RecordBatch {
  const children = schema.fields.map((field, column): Data => {
    const builder = makeBuilder({ type: field.type, nullValues: [null, undefined] });
    for (const run of runs) {
      const values = run.batch.getChildAt(column)!;
      for (let row = run.start; row < run.end; row++) {
        const value: unknown = values.get(row);
        // A list cell reads as a vector of its items; the builder takes them as an array.
        builder.append(value instanceof Vector ? (value.toArray() as unknown[]) : value);
      }
    }
    return builder.finish().flush();
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}
