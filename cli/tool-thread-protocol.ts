import type { CaptureInfo, RunRequest, TimeRange, ToolOutcome } from '../src/core/index.ts';
import type { DatasetFiles, DatasetWindow } from './dataset/window-captures.ts';

/** A time window of a dataset for a tool thread to read as captures itself (window-captures.ts). */
export interface WindowCapturesRequest {
  dataset: DatasetFiles;
  window: DatasetWindow;
  captureIds: string[];
  /** Declared by every capture of the window (see `windowCaptures`). */
  bounds?: TimeRange;
}

/** Messages from the runner to a tool thread. */
export type ToThread =
  | { type: 'init'; testTools: boolean; captures: Uint8Array[]; window?: WindowCapturesRequest }
  | { type: 'run'; request: RunRequest };

/** Messages from a tool thread to the runner; `ready` describes the captures it was given or read. */
export type FromThread =
  | { type: 'ready'; captures: CaptureInfo[] }
  | { type: 'progress'; fraction: number }
  | { type: 'outcome'; outcome: ToolOutcome }
  | { type: 'init-failed'; message: string };
