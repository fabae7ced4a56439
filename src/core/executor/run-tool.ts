import { resolveSelection } from '../data/selection.ts';
import type { Capture } from '../data/capture.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { ToolOutcome } from '../tools/tool.ts';
import type { RunRequest } from './runner.ts';
import { countAnalysis } from '../util/analysis-census.ts';

/** Where a run finds its tools and its captures' data. */
export interface RunEnvironment {
  registry: ToolRegistry;
  capture(id: string): Capture | undefined;
}

/**
 * Executes one validated request against real data. Never throws: anything a tool throws
 * becomes an `EXECUTION_ERROR` outcome with a clean message (no stack), because errors lose
 * their shape across a worker boundary.
 */
export async function runTool(request: RunRequest, environment: RunEnvironment, onProgress: (fraction: number) => void = () => {}): Promise<ToolOutcome> {
  countAnalysis('tool_run');
  try {
    const resolved = environment.registry.resolve(request.toolName, request.toolVersion);
    if (!resolved.ok) return { status: 'error', summary: 'The tool is not installed where it runs.', errors: [resolved.error] };
    if (request.selection === null) {
      // Only tools that read no capture validate without a selection, and those run elsewhere (their MCP server).
      return {
        status: 'error',
        summary: 'The tool reads captures but the request selects none.',
        errors: [{ code: 'INVALID_CAPTURE_SELECTION', field: 'capture_selection', message: `${request.toolName} runs on captures: its request must select some` }],
      };
    }
    const captures: Capture[] = [];
    for (const { id, field } of request.selection.captures) {
      const capture = environment.capture(id);
      if (!capture) {
        return {
          status: 'error',
          summary: 'The selected capture is not loaded where the tool runs.',
          errors: [{ code: 'INVALID_CAPTURE_SELECTION', field, message: `Capture '${id}' is not loaded in the runner` }],
        };
      }
      captures.push(capture);
    }
    const selection = resolveSelection(request.selection, captures);
    return await resolved.tool.run(request.arguments, { selection, reportProgress: onProgress });
  } catch (error) {
    return {
      status: 'error',
      summary: `${request.toolName} failed while running.`,
      errors: [{ code: 'EXECUTION_ERROR', field: '', message: cleanMessage(error) }],
    };
  }
}

/** The first line of an error's message: never a stack trace, never an empty string. */
export function cleanMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error';
  const firstLine = text.split('\n')[0].trim();
  return firstLine === '' ? 'The tool failed without a message' : firstLine.slice(0, 500);
}
