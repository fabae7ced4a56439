/**
 * One window of a dataset through `bluetooth_address_analyzer`, exactly as a capture file goes
 * through it: the window's rows as captures (window-captures.ts, read by the tool thread that
 * analyses them), the invocation over their span, the executor with that thread. The thread is
 * closed when the analysis ends, so nothing of the window outlives it but its result.
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

export async function analyseWindow(engine: DatasetEngine, window: DatasetWindow, counts: WindowCount[], toolArguments: JsonObject, timeoutMs: number, requestId: string): Promise<WindowAnalysis> {
  const firsts = counts.flatMap((entry) => (entry.firstMs === null ? [] : [entry.firstMs]));
  const lasts = counts.flatMap((entry) => (entry.lastMs === null ? [] : [entry.lastMs]));
  // The selected rows' span in whole milliseconds, as the captures' bounds are counted (the rows are already the window's); every capture of the window declares it.
  const timeWindow = { start_ms: Math.floor(Math.min(...firsts)), end_ms: Math.ceil(Math.max(...lasts)) };
  const captureIds = counts.map((entry) => entry.captureId);
  // The thread reads the window's rows itself (window-captures.ts): only the sources it needs go to it.
  const sources = engine.manifest.sources.filter((source) => captureIds.includes(source.capture_id));
  const runner = new ThreadRunner({ testTools: false, captures: [], window: { dataset: { root: engine.root, manifest: { sources } }, window, captureIds, bounds: timeWindow } });
  try {
    const captures = await runner.captureInfos();
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
    runner.close();
  }
}

/** The window's captures as the executor checks an invocation against them: their descriptions (the rows stay in the thread). */
function captureLookup(captures: ReadonlyArray<CaptureInfo>): CaptureLookup {
  const byId = new Map(captures.map((info) => [info.id, info]));
  return { get: (id) => byId.get(id), ids: () => [...byId.keys()].sort() };
}
