import type { RunEnvironment } from './run-tool.ts';
import { runTool } from './run-tool.ts';
import type { RunOptions, RunRequest, RunnerResponse, ToolRunner } from './runner.ts';

/**
 * Runs tools in the calling thread. It cannot stop a tool that computes past its timeout
 * (nothing can interrupt synchronous work in the same thread), so it reports `timeout` only
 * when a run finishes late; the worker-backed runners stop overrunning work for real.
 */
export function createInProcessRunner(environment: RunEnvironment, now: () => number = () => performance.now()): ToolRunner {
  return {
    async run(request: RunRequest, options: RunOptions = {}): Promise<RunnerResponse> {
      if (options.signal?.aborted) return { kind: 'cancelled' };
      const started = now();
      const outcome = await runTool(request, environment, options.onProgress);
      if (options.signal?.aborted) return { kind: 'cancelled' };
      if (now() - started > request.timeoutMs) return { kind: 'timeout' };
      return { kind: 'completed', outcome };
    },
  };
}
