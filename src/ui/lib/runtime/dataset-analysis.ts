import { proxy, releaseProxy, wrap, type Remote } from 'comlink';
import type { DatasetAnalysisOverview, DeviceFilter } from '../../../core/index.ts';
import type { AnalysisOpenOutcome, AnalysisWorkerApi } from '../../../../workers/analysis-api.ts';
import { createExternalStore, useExternalStore } from '../stores/external-store.ts';

export type DatasetAnalysisState =
  | { kind: 'none' }
  | { kind: 'opening'; name: string; linesRead: number }
  | { kind: 'failed'; name: string; code: string; message: string }
  | {
      kind: 'open';
      name: string;
      api: Remote<AnalysisWorkerApi>;
      overview: DatasetAnalysisOverview;
      stitched: { devices: number; relations: number; conflicts: number; filters: Record<DeviceFilter, number> } | null;
    };

/**
 * The opened output of `sextant analyze-dataset`, held by a worker of its own: a week's stitched
 * devices are hundreds of thousands of objects, so they stay off the main thread, which asks for
 * pages. One analysis is open at a time (opening another ends the previous worker); it stays open
 * while the analyst visits other pages.
 */
const state = createExternalStore<DatasetAnalysisState>({ kind: 'none' });
let worker: Worker | null = null;

export function useDatasetAnalysis(): DatasetAnalysisState {
  return useExternalStore(state);
}

export async function openDatasetAnalysis(name: string, files: ReadonlyMap<string, File>): Promise<void> {
  closeDatasetAnalysis();
  const opened = new Worker(new URL('../../../../workers/analysis.worker.ts', import.meta.url), { type: 'module', name: 'sextant-dataset-analysis' });
  worker = opened;
  const api = wrap<AnalysisWorkerApi>(opened);
  state.set({ kind: 'opening', name, linesRead: 0 });
  const onProgress = (linesRead: number) => {
    if (worker === opened) state.set({ kind: 'opening', name, linesRead });
  };
  const outcome = await api.open(files, proxy(onProgress)).catch(
    (error: unknown): AnalysisOpenOutcome => ({ ok: false, code: 'ANALYSIS_READ_FAILED', message: error instanceof Error ? error.message : String(error) }),
  );
  // Another directory was picked meanwhile: this one's worker is already gone.
  if (worker !== opened) return;
  if (!outcome.ok) {
    closeDatasetAnalysis();
    state.set({ kind: 'failed', name, code: outcome.code, message: outcome.message });
    return;
  }
  state.set({ kind: 'open', name, api, overview: outcome.overview, stitched: outcome.stitched });
}

export function closeDatasetAnalysis(): void {
  const current = state.get();
  if (current.kind === 'open') current.api[releaseProxy]();
  worker?.terminate();
  worker = null;
  state.set({ kind: 'none' });
}
