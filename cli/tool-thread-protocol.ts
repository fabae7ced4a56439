import type { RunRequest, ToolOutcome } from '../src/core/index.ts';

/** Messages from the runner to a tool thread. */
export type ToThread =
  | { type: 'init'; testTools: boolean; captures: Uint8Array[] }
  | { type: 'run'; request: RunRequest };

/** Messages from a tool thread to the runner. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'progress'; fraction: number }
  | { type: 'outcome'; outcome: ToolOutcome }
  | { type: 'init-failed'; message: string };
