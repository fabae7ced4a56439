import type { DatasetManifest } from '../../../core/index.ts';
import { createExternalStore, useExternalStore } from '../stores/external-store.ts';

/** A dataset directory the analyst picked (Captures → Open a dataset window): its files by path and its manifest. */
export interface PickedDataset {
  name: string;
  files: ReadonlyMap<string, File>;
  manifest: DatasetManifest;
}

/**
 * The picked dataset, kept for the session: the Captures page opens windows of it, and a
 * dataset analysis on the Runs page opens a stitched device's packets from it.
 */
const picked = createExternalStore<PickedDataset | null>(null);

export function usePickedDataset(): PickedDataset | null {
  return useExternalStore(picked);
}

export function setPickedDataset(dataset: PickedDataset | null): void {
  picked.set(dataset);
}
