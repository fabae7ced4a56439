import { partOverlapsWindow, type DatasetAnalysisOverview, type DatasetManifest } from '../../../core/index.ts';
import type { PickedDataset } from '../../lib/runtime/picked-dataset.ts';

/** The picked dataset when it holds every capture the analysis read (the same source file, where both name its hash). */
export function datasetOfAnalysis(dataset: PickedDataset | null, analysed: DatasetAnalysisOverview['captures']): PickedDataset | null {
  if (!dataset || analysed.length === 0) return null;
  const sources = new Map(dataset.manifest.sources.map((source) => [source.capture_id, source]));
  const holdsAll = analysed.every((capture) => {
    const source = sources.get(capture.capture_id);
    return source !== undefined && (capture.sha256 === null || capture.sha256 === source.sha256);
  });
  return holdsAll ? dataset : null;
}

export interface DevicePacketsPlan {
  /** From the device's first packet to just past its last. */
  window: { fromMs: number; toMs: number };
  /** The analysed captures whose parts hold packets in the window, with those parts' rows. */
  captures: Array<{ captureId: string; partRows: number }>;
  partRows: number;
}

/** Which windows of which captures hold a device's packets: its span, on every analysed capture with parts there. */
export function devicePacketsPlan(manifest: DatasetManifest, captureIds: readonly string[], firstSeen: string | null, lastSeen: string | null): DevicePacketsPlan | null {
  const fromMs = firstSeen === null ? Number.NaN : Date.parse(firstSeen);
  const lastMs = lastSeen === null ? Number.NaN : Date.parse(lastSeen);
  if (!Number.isFinite(fromMs) || !Number.isFinite(lastMs)) return null;
  const window = { fromMs, toMs: lastMs + 1 };
  const captures = manifest.sources
    .filter((source) => captureIds.includes(source.capture_id))
    .map((source) => ({ captureId: source.capture_id, partRows: source.parts.filter((part) => partOverlapsWindow(part, window)).reduce((sum, part) => sum + part.rows, 0) }))
    .filter((entry) => entry.partRows > 0);
  return { window, captures, partRows: captures.reduce((sum, entry) => sum + entry.partRows, 0) };
}
