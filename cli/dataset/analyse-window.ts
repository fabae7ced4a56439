/**
 * One window of a dataset through `bluetooth_address_analyzer`, exactly as a capture file goes
 * through it: the window's rows as captures (window-captures.ts), the invocation over their span,
 * the executor with a tool thread of its own. The thread is closed when the analysis ends, so
 * nothing of the window outlives it but its result.
 */
import { tableToIPC } from 'apache-arrow';
import { CaptureCatalog, ToolRegistry, bleAddressAnalyzerManifest, builtinTools, createExecutor, type ExecutionRecord, type JsonObject, type ToolInvocation } from '../../src/core/index.ts';
import { ThreadRunner } from '../thread-runner.ts';
import type { DatasetEngine } from './duckdb-engine.ts';
import { windowCaptures, type DatasetWindow } from './window-captures.ts';

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
  const captures = await windowCaptures(engine, window, counts.map((entry) => entry.captureId), undefined, timeWindow);
  const invocation: ToolInvocation = {
    tool_name: bleAddressAnalyzerManifest.name,
    tool_version: bleAddressAnalyzerManifest.version,
    capture_selection: { capture_ids: captures.map((entry) => entry.capture.info.id), time_window: timeWindow },
    arguments: toolArguments,
    request_id: requestId,
    timeout_ms: timeoutMs,
  };
  const runner = new ThreadRunner({ testTools: false, captures: captures.map((entry) => tableToIPC(entry.capture.table)) });
  try {
    const executor = createExecutor({ registry: new ToolRegistry(builtinTools({ testTools: false })), catalog: new CaptureCatalog(captures.map((entry) => entry.capture)), runner });
    const record = await executor.execute(invocation);
    return { invocation, record };
  } finally {
    runner.close();
  }
}
