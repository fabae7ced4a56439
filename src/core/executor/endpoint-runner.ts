import { signalClock, startDeadline, type Clock, type Deadline } from '../util/deadline.ts';
import { safeParseJson } from '../util/json.ts';
import type { RunOptions, RunRequest, RunnerResponse, ToolRunner } from './runner.ts';

export interface EndpointRunnerOptions {
  /** The URL a tool version is bound to, or null to run it with `fallback`. */
  endpointFor(toolName: string, toolVersion: string): string | null;
  /** Injected, so tests and Node can supply their own. */
  fetch: typeof globalThis.fetch;
  /** Runs every tool that is not bound to an endpoint. */
  fallback: ToolRunner;
  /** Time for the call's deadline; a wall clock by default. */
  clock?: Clock;
}

/**
 * Runs endpoint-bound tools by POSTing the validated `ToolInvocation` JSON to their URL. The
 * timeout is enforced by aborting the request; the reply goes back as-is for the executor to
 * check against the ToolResult rules and the manifest. Network and CORS failures (which a browser
 * reports only as an opaque TypeError) become messages that say what to check.
 */
export function createEndpointRunner(options: EndpointRunnerOptions): ToolRunner {
  return {
    async run(request: RunRequest, runOptions: RunOptions = {}): Promise<RunnerResponse> {
      const url = options.endpointFor(request.toolName, request.toolVersion);
      if (url === null) return options.fallback.run(request, runOptions);
      const deadline = startDeadline({
        clock: options.clock ?? signalClock,
        totalMs: request.timeoutMs,
        ...(runOptions.signal ? { signal: runOptions.signal } : {}),
        ...(runOptions.requestedAt === undefined ? {} : { startedAt: runOptions.requestedAt }),
      });
      try {
        return await call(url, request, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };

  async function call(url: string, request: RunRequest, deadline: Deadline): Promise<RunnerResponse> {
    const ended = (): RunnerResponse | null => (deadline.reason() === null ? null : { kind: deadline.reason() === 'cancelled' ? 'cancelled' : 'timeout' });
    const signal = deadline.signal;
    if (signal.aborted) return ended()!;
    let response: Response;
    try {
      response = await options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(request.invocation),
        signal,
      });
    } catch (error) {
      const stopped = ended();
      if (stopped) return stopped;
      const detail = error instanceof Error ? error.message : String(error);
      return {
        kind: 'crashed',
        message: `Could not reach ${url} (${detail}): check that the server is running, that the address is right, and that it allows this page's origin (it must answer the CORS preflight OPTIONS request and send Access-Control-Allow-Origin)`,
      };
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      const stopped = ended();
      if (stopped) return stopped;
      return { kind: 'crashed', message: `${url} closed the connection before its reply was complete` };
    }
    if (!response.ok) return { kind: 'crashed', message: `${url} answered HTTP ${response.status} ${response.statusText}`.trim() };
    const parsed = safeParseJson(text);
    if (!parsed.ok) return { kind: 'crashed', message: `${url} did not answer with JSON: ${parsed.message}` };
    return { kind: 'reply', result: parsed.value };
  }
}
