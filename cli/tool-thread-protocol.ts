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

/** Messages from the runner to a tool thread: `window` replaces the captures of the last window it read. */
export type ToThread =
  | { type: 'init'; testTools: boolean; captures: Uint8Array[] }
  | { type: 'window'; window: WindowCapturesRequest }
  | { type: 'run'; request: RunRequest };

/** Messages from a tool thread to the runner; `window-read` describes the captures of the window it read. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'window-read'; captures: CaptureInfo[] }
  | { type: 'window-failed'; message: string }
  | { type: 'progress'; fraction: number }
  | { type: 'outcome'; outcome: ToolOutcome }
  | { type: 'init-failed'; message: string };
