/**
 * One window of a dataset through `bluetooth_address_analyzer`, exactly as a capture file goes
 * through it: the window's rows as captures (window-captures.ts, read by the tool thread that
 * analyses them), the invocation over their span, the executor with that thread. The thread
 * drops the window's captures when it reads the next one, so nothing of a window outlives the
 * next but its result.
 */
import { ToolRegistry, bleAddressAnalyzerManifest, builtinTools, createExecutor, type CaptureInfo, type CaptureLookup, type ExecutionRecord, type JsonObject, type ToolInvocation } from '../../src/core/index.ts';
import { ThreadRunner } from '../thread-runner.ts';
import type { DatasetEngine } from './duckdb-engine.ts';
import type { DatasetWindow } from './window-captures.ts';

export interface WindowCount {
  captureId: string;
  rows: number;
  firstMs: number | null;
  lastMs: number | null;
}

export interface WindowAnalysis {
  invocation: ToolInvocation;
  record: ExecutionRecord;
}

/**
 * `threads`: the tool thread to run in, kept for the next window (a windowed analysis passes one
 * per job, so each thread's compiled code serves all its windows); without it, a thread of the
 * window's own, closed when it ends.
 */
export async function analyseWindow(engine: DatasetEngine, window: DatasetWindow, counts: WindowCount[], toolArguments: JsonObject, timeoutMs: number, requestId: string, threads?: ThreadRunner): Promise<WindowAnalysis> {
  const firsts = counts.flatMap((entry) => (entry.firstMs === null ? [] : [entry.firstMs]));
  const lasts = counts.flatMap((entry) => (entry.lastMs === null ? [] : [entry.lastMs]));
  // The selected rows' span in whole milliseconds, as the captures' bounds are counted (the rows are already the window's); every capture of the window declares it.
  const timeWindow = { start_ms: Math.floor(Math.min(...firsts)), end_ms: Math.ceil(Math.max(...lasts)) };
  const captureIds = counts.map((entry) => entry.captureId);
  // The thread reads the window's rows itself (window-captures.ts): only the sources it needs go to it.
  const sources = engine.manifest.sources.filter((source) => captureIds.includes(source.capture_id));
  const runner = threads ?? new ThreadRunner({ testTools: false, captures: [] });
  try {
    const captures = await runner.readWindow({ dataset: { root: engine.root, manifest: { sources } }, window, captureIds, bounds: timeWindow });
    const invocation: ToolInvocation = {
      tool_name: bleAddressAnalyzerManifest.name,
      tool_version: bleAddressAnalyzerManifest.version,
      capture_selection: { capture_ids: captures.map((info) => info.id), time_window: timeWindow },
      arguments: toolArguments,
      request_id: requestId,
      timeout_ms: timeoutMs,
    };
    const executor = createExecutor({ registry: new ToolRegistry(builtinTools({ testTools: false })), catalog: captureLookup(captures), runner });
    const record = await executor.execute(invocation);
    return { invocation, record };
  } finally {
    if (!threads) runner.close();
  }
}

/** The window's captures as the executor checks an invocation against them: their descriptions (the rows stay in the thread). */
function captureLookup(captures: ReadonlyArray<CaptureInfo>): CaptureLookup {
  const byId = new Map(captures.map((info) => [info.id, info]));
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()].sort() };
}
