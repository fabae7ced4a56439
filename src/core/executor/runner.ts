import type { JsonObject } from '../util/json.ts';
import type { NormalizedSelection } from '../data/selection.ts';
import type { ToolResult } from '../contract/types.ts';
import type { ToolOutcome } from '../tools/tool.ts';

/** A validated invocation, ready to run: plain data, so it crosses a worker boundary as is. */
export interface RunRequest {
  requestId: string;
  toolName: string;
  /** The installed version the invocation resolved to. */
  toolVersion: string;
  arguments: JsonObject;
  /** The normalized `capture_selection`; null for a tool that reads no capture (`execution_constraints.capture_selection: none`). */
  selection: NormalizedSelection | null;
  /** Clamped timeout in milliseconds. */
  timeoutMs: number;
  /** The validated invocation as the caller wrote it (what an endpoint-bound tool receives). */
  invocation: JsonObject;
}

/** How a run ended, as seen from outside the tool. */
export type RunnerResponse =
  | { kind: 'completed'; outcome: ToolOutcome }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'crashed'; message: string }
  /** A ToolResult from outside (an endpoint's reply), not yet checked against anything. */
  | { kind: 'reply'; result: unknown }
  /**
   * A built-in tool's result already checked where it ran (`checkOutcome`: codes, artifacts,
   * limits, both schemas) against the same manifest; the executor only adds its own warnings.
   */
  | { kind: 'checked'; result: ToolResult };

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  /** Aborting stops the run for real (a worker is terminated). */
  signal?: AbortSignal;
  /** Called once when the tool itself starts (after any worker start-up), to show it running. */
  onStarted?: () => void;
  /**
   * When the request was made (ms since the epoch), if earlier than this call (it waited in a
   * queue): the run's `timeoutMs` is counted from it, never from when a worker finished loading.
   */
  requestedAt?: number;
}

/**
 * Runs validated requests somewhere: in this thread (Node, tests) or in a pool of workers that
 * can be terminated when a run overruns its timeout or is cancelled.
 */
export interface ToolRunner {
  /** True when `run` calls `onStarted` itself (a worker runner, once its worker is ready); otherwise the executor calls it as the run begins. */
  readonly reportsStart?: boolean;
  run(request: RunRequest, options?: RunOptions): Promise<RunnerResponse>;
}
