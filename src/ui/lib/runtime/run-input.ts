import { getRuntime } from './sextant-runtime.ts';
import { restoreRuns, startRun, updateRun } from '../stores/run-store.ts';
import { getWorkspace } from '../stores/workspace-session.ts';
import type { WorkspaceRun } from '../workspace/index.ts';
import { checkJsonLimits, type ExecutionRecord } from '../../../core/index.ts';

/**
 * Runs one invocation or an ordered plan through the executor (validation on this thread,
 * execution in the worker pool) and records it in the session's runs. Resolves with the run id.
 */
export async function runInput(input: unknown, signal?: AbortSignal, onStarted?: (id: number) => void): Promise<number> {
  await restoreSavedRuns();
  const isPlan = Array.isArray(input);
  const steps: unknown[] = isPlan ? (input as unknown[]) : [input];
  const entry = startRun(input, isPlan);
  onStarted?.(entry.id);
  const started = performance.now();
  const runtime = getRuntime();
  await Promise.all([runtime.captures(), runtime.savedManifestsReady()]);
  const records: ExecutionRecord[] = [];
  let saveProblem: string | undefined;
  for (const [index, step] of steps.entries()) {
    const record = await runtime.currentExecutor.execute(step, {
      signal,
      onProgress: (fraction) => updateRun(entry.id, { progress: (index + Math.min(1, Math.max(0, fraction))) / steps.length }),
    });
    records.push(record);
    // Each result is saved before it is shown: what the user has seen survives a reload.
    saveProblem = await saveRun({ id: String(entry.id), input, isPlan, startedAt: entry.startedAt.toISOString(), records, durationMs: performance.now() - started });
    updateRun(entry.id, { records: [...records], progress: (index + 1) / steps.length, saveProblem });
  }
  updateRun(entry.id, { state: 'done', records, durationMs: performance.now() - started, progress: 1, saveProblem });
  return entry.id;
}

async function saveRun(run: WorkspaceRun): Promise<string | undefined> {
  const workspace = await getWorkspace();
  if (!workspace) return 'The browser offers no storage here';
  // An input the executor refused for its depth or size (issue 14) cannot be stored either:
  // IndexedDB's structured clone recurses. Say so instead of failing the run.
  const limits = checkJsonLimits(run.input);
  if (!limits.ok) return `The run was not saved: its input ${limits.violation.message}`;
  try {
    const saved = await workspace.saveRun(run);
    return saved.ok ? undefined : saved.error.message;
  } catch (error) {
    return `The run was not saved: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

let restoring: Promise<void> | null = null;

/** Loads the runs saved in the workspace into this session's list, once. */
export function restoreSavedRuns(): Promise<void> {
  restoring ??= loadSavedRuns({ replace: false });
  return restoring;
}

/** Loads the saved runs again (after a workspace import): new ones join the list, replaced ones take their stored version. */
export async function reloadSavedRuns(options: { replace: boolean }): Promise<void> {
  await restoreSavedRuns();
  await loadSavedRuns(options);
}

async function loadSavedRuns(options: { replace: boolean }): Promise<void> {
  const workspace = await getWorkspace();
  const stored = workspace ? await workspace.listRuns({ limit: 500 }) : null;
  if (!stored?.ok) return;
  restoreRuns(
    stored.value
      .filter((run) => /^\d+$/.test(run.id))
      .map((run) => ({
        id: Number(run.id),
        input: run.input,
        isPlan: run.isPlan,
        startedAt: new Date(run.startedAt),
        state: 'done' as const,
        progress: 1,
        records: run.records,
        durationMs: run.durationMs,
      })),
    options,
  );
}
