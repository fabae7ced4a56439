/**
 * Puts a capture's rows, read from its Parquet parts, back in the order its source file had them.
 * Parts are written drain by drain, each drain's rows split by UTC hour, so the manifest's order
 * of parts is the file's order except where one drain's rows go back and forth across an hour
 * boundary (a clock stepped back). The importer numbers a capture file's frames in file order,
 * so when every row has a frame number and every part's rows are in frame order, merging the
 * parts by frame number restores the file's order exactly; otherwise (a table of packets whose
 * `frame_number` is missing or not in row order) the manifest's order is the best there is.
 */
import type { RowRun } from './row-runs.ts';

/** The rows of `runs` (given in the manifest's order) as runs in source order. */
export function orderRuns(runs: readonly RowRun[]): RowRun[] {
  const frames: Float64Array[] = [];
  for (const run of runs) {
    const values = frameNumbers(run);
    // No order to restore from: the manifest's is kept.
    if (values === null || !isAscending(values)) return [...runs];
    frames.push(values);
  }
  const entries = runs.map((run, index) => ({ run, frames: frames[index] })).filter((entry) => entry.frames.length > 0);
  // Parts out of order as wholes need no merge, only a (stable) sort by their first frame.
  entries.sort((a, b) => a.frames[0] - b.frames[0]);
  const ordered: RowRun[] = [];
  // Runs whose frame ranges overlap are merged with one another, as groups.
  for (let first = 0; first < entries.length; ) {
    let last = first;
    let reach = entries[first].frames[entries[first].frames.length - 1];
    while (last + 1 < entries.length && entries[last + 1].frames[0] < reach) {
      last++;
      reach = Math.max(reach, entries[last].frames[entries[last].frames.length - 1]);
    }
    const group = entries.slice(first, last + 1);
    ordered.push(...(group.length === 1 ? [group[0].run] : mergeByFrame(group.map((entry) => entry.run), group.map((entry) => entry.frames))));
    first = last + 1;
  }
  return ordered;
}

/** The run's frame numbers, or null when any is missing. */
function frameNumbers(run: RowRun): Float64Array | null {
  const column = run.batch.getChild('frame_number');
  if (!column) return null;
  const data = column.data[0];
  if (column.data.length === 1 && data.nullCount === 0 && ArrayBuffer.isView(data.values)) {
    return Float64Array.from((data.values as Uint32Array).subarray(run.start, run.end));
  }
  const values = new Float64Array(run.end - run.start);
  for (let row = run.start; row < run.end; row++) {
    const value = column.get(row) as number | null;
    if (value === null) return null;
    values[row - run.start] = value;
  }
  return values;
}

function isAscending(values: ArrayLike<number>): boolean {
  for (let index = 1; index < values.length; index++) if (values[index] < values[index - 1]) return false;
  return true;
}

/**
 * A k-way merge of ascending runs by frame number, emitting the longest stretch of one run that
 * stays below every other run's next frame (ties go to the run listed first, as a stable sort
 * would). The other heads do not move during a stretch, so its bounds are found once.
 */
function mergeByFrame(runs: readonly RowRun[], frames: readonly Float64Array[]): RowRun[] {
  const cursor = frames.map(() => 0);
  const merged: RowRun[] = [];
  for (;;) {
    let best = -1;
    for (let index = 0; index < runs.length; index++) {
      if (cursor[index] < frames[index].length && (best < 0 || frames[index][cursor[index]] < frames[best][cursor[best]])) best = index;
    }
    if (best < 0) return merged;
    // Frames of `best` may equal the head of a run listed after it, not of one listed before.
    let below = Infinity;
    let atMost = Infinity;
    for (let other = 0; other < runs.length; other++) {
      if (other === best || cursor[other] >= frames[other].length) continue;
      const head = frames[other][cursor[other]];
      if (other < best) below = Math.min(below, head);
      else atMost = Math.min(atMost, head);
    }
    let end = cursor[best] + 1;
    while (end < frames[best].length && frames[best][end] < below && frames[best][end] <= atMost) end++;
    const run = runs[best];
    merged.push({ batch: run.batch, start: run.start + cursor[best], end: run.start + end });
    cursor[best] = end;
  }
}
