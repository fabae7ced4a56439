import { getRuntime } from './sextant-runtime.ts';
import { startRun, updateRun } from './run-store.ts';
import type { ExecutionRecord } from '../../core/index.ts';

/**
 * Runs one invocation or an ordered plan through the executor (validation on this thread,
 * execution in the worker pool) and records it in the session's runs. Resolves with the run id.
 */
export async function runInput(input: unknown, signal?: AbortSignal, onStarted?: (id: number) => void): Promise<number> {
  const isPlan = Array.isArray(input);
  const steps: unknown[] = isPlan ? (input as unknown[]) : [input];
  const entry = startRun(input, isPlan);
  onStarted?.(entry.id);
  const started = performance.now();
  const runtime = getRuntime();
  await runtime.captures();
  const records: ExecutionRecord[] = [];
  for (const [index, step] of steps.entries()) {
    const record = await runtime.currentExecutor.execute(step, {
      signal,
      onProgress: (fraction) => updateRun(entry.id, { progress: (index + Math.min(1, Math.max(0, fraction))) / steps.length }),
    });
    records.push(record);
    updateRun(entry.id, { records: [...records], progress: (index + 1) / steps.length });
  }
  updateRun(entry.id, { state: 'done', records, durationMs: performance.now() - started, progress: 1 });
  return entry.id;
}
