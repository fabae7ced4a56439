import { tableFromArrays, vectorFromArray, Table, Uint32, type RecordBatch } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { RowRun } from './row-runs.ts';
import { orderRuns } from './source-order.ts';

/** A one-batch table of the given frame numbers (null for a missing one). */
function batchOf(frames: Array<number | null>): RecordBatch {
  return new Table({ frame_number: vectorFromArray(frames, new Uint32()) }).batches[0];
}

const whole = (batch: RecordBatch): RowRun => ({ batch, start: 0, end: batch.numRows });

/** The frame numbers of the ordered runs, in order. */
function framesOf(runs: RowRun[]): Array<number | null> {
  return runs.flatMap((run) => Array.from({ length: run.end - run.start }, (_, index) => run.batch.getChild('frame_number')!.get(run.start + index) as number | null));
}

describe('rows back in source order', () => {
  it('keeps runs already in frame order as they are', () => {
    const runs = [whole(batchOf([1, 2, 3])), whole(batchOf([4, 5]))];
    expect(orderRuns(runs)).toEqual(runs);
  });

  it('sorts whole runs listed out of order, without splitting them', () => {
    const [late, early] = [whole(batchOf([10, 11])), whole(batchOf([1, 2]))];
    const ordered = orderRuns([late, early]);
    expect(ordered).toEqual([early, late]);
  });

  it('merges runs whose frames interleave, stretch by stretch', () => {
    const odd = whole(batchOf([1, 3, 5, 6, 7, 20]));
    const even = whole(batchOf([2, 4, 8, 9]));
    const ordered = orderRuns([odd, even]);
    expect(framesOf(ordered)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 20]);
    // 5, 6, 7 stay one slice of the first run.
    expect(ordered.map((run) => run.end - run.start)).toEqual([1, 1, 1, 1, 3, 2, 1]);
  });

  it('puts equal frame numbers in the order the runs were listed', () => {
    const first = whole(batchOf([1, 2, 2]));
    const second = whole(batchOf([2, 3]));
    const ordered = orderRuns([first, second]);
    expect(ordered.map((run) => [run.batch === first.batch ? 'first' : 'second', run.end - run.start])).toEqual([
      ['first', 3],
      ['second', 2],
    ]);
  });

  it('keeps the listed order when frames are missing or a run is not in frame order', () => {
    const missing = [whole(batchOf([5, null])), whole(batchOf([1, 2]))];
    expect(orderRuns(missing)).toEqual(missing);
    const unsorted = [whole(batchOf([5, 4])), whole(batchOf([1, 2]))];
    expect(orderRuns(unsorted)).toEqual(unsorted);
    const noColumn = [whole(tableFromArrays({ ts_ms: new Float64Array([2]) }).batches[0]), whole(tableFromArrays({ ts_ms: new Float64Array([1]) }).batches[0])];
    expect(orderRuns(noColumn)).toEqual(noColumn);
  });

  it('orders sub-ranges of batches by their own rows only', () => {
    const batch = batchOf([9, 9, 1, 2, 9]);
    const other = batchOf([3, 4]);
    expect(framesOf(orderRuns([{ batch: other, start: 0, end: 2 }, { batch, start: 2, end: 4 }]))).toEqual([1, 2, 3, 4]);
  });
});
