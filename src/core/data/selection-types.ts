import type { RecordBatch } from 'apache-arrow';

/** One record batch of a selected capture, with the rows the selection keeps. */
export interface SelectedBatch {
  captureId: string;
  batch: RecordBatch;
  /** 1 where the row is selected, 0 elsewhere; length `batch.numRows`. */
  mask: Uint8Array;
  /** Number of ones in `mask`. */
  selectedCount: number;
}

/** The data an invocation's `capture_selection` resolves to: batches in capture order, masks applied lazily. */
export interface SelectedData {
  batches: SelectedBatch[];
  /** Selected rows over all batches. */
  rowCount: number;
}
