import type { RunOptions, RunRequest, RunnerResponse, ToolRunner } from '../../src/core/index.ts';
import { ThreadRunner, type ThreadRunnerOptions } from '../thread-runner.ts';

/**
 * Worker threads for an MCP server that may run several calls at once: each run gets a thread of
 * its own (a ThreadRunner runs one thing at a time), so cancelling or timing out one call
 * terminates only that call's thread. Idle threads are kept for the next call.
 */
export class RunnerPool implements ToolRunner {
  private readonly idle: ThreadRunner[] = [];
  private readonly all = new Set<ThreadRunner>();

  constructor(
    private readonly options: ThreadRunnerOptions,
    /** Told how each run ended (`cancelled` and `timeout` mean its thread was terminated). */
    private readonly onRunEnd: (request: RunRequest, kind: RunnerResponse['kind']) => void = () => {},
  ) {}

  async run(request: RunRequest, options: RunOptions = {}): Promise<RunnerResponse> {
    const runner = this.idle.pop() ?? new ThreadRunner(this.options);
    this.all.add(runner);
    try {
      const response = await runner.run(request, options);
      this.onRunEnd(request, response.kind);
      return response;
    } finally {
      this.idle.push(runner);
    }
  }

  close(): void {
    for (const runner of this.all) runner.close();
    this.all.clear();
    this.idle.length = 0;
  }
}
