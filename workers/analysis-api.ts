// What a dataset-analysis worker offers over comlink: the picked output directory of
// `sextant analyze-dataset` in, pages of its stitched devices and its windows' results out.
import {
  openStitchedAnalysis,
  parseWindowResult,
  type AnalysisFiles,
  type DatasetAnalysisOverview,
  type DeviceDetail,
  type DeviceFilter,
  type DevicePage,
  type DeviceQuery,
  type StitchedDevices,
  type ToolResult,
} from '../src/core/index.ts';
import { blobChunks } from './blob-chunks.ts';

export type AnalysisOpenOutcome =
  | {
      ok: true;
      overview: DatasetAnalysisOverview;
      /** Null for a one-window run: its `result.json` is the whole answer. */
      stitched: { devices: number; relations: number; conflicts: number; filters: Record<DeviceFilter, number> } | null;
    }
  | { ok: false; code: string; message: string };

export type WindowResultOutcome = { ok: true; result: ToolResult } | { ok: false; code: string; message: string };

export interface AnalysisWorkerApi {
  /** `files` by their path under the output directory, as a directory picker gives them. */
  open(files: ReadonlyMap<string, File>, onProgress: (linesRead: number) => void): Promise<AnalysisOpenOutcome>;
  devices(query: DeviceQuery): DevicePage;
  device(id: string): DeviceDetail | null;
  /** A window's `result.json` (or the one-window run's), by its path under the output directory. */
  windowResult(path: string): Promise<WindowResultOutcome>;
}

/** The browser's adapter to the reader: picked Files, streamed. */
function pickedFiles(files: ReadonlyMap<string, File>): AnalysisFiles {
  return {
    text: (path) => files.get(path)?.text(),
    bytes(path) {
      const file = files.get(path);
      return file ? blobChunks(file) : undefined;
    },
  };
}

export function createAnalysisApi(): AnalysisWorkerApi {
  let files: ReadonlyMap<string, File> = new Map();
  let devices: StitchedDevices | null = null;
  const failure = (error: unknown) => ({ ok: false as const, code: 'ANALYSIS_READ_FAILED', message: error instanceof Error ? error.message.split('\n')[0] : String(error) });

  return {
    async open(picked, onProgress) {
      files = picked;
      devices = null;
      try {
        const opened = await openStitchedAnalysis(pickedFiles(picked), onProgress);
        if (!opened.ok) return { ok: false, code: opened.error.code, message: opened.error.message };
        devices = opened.value.devices;
        const stitched = devices && { devices: devices.size, relations: devices.relationCount, conflicts: devices.conflictCount, filters: devices.filterCounts() };
        return { ok: true, overview: opened.value.overview, stitched };
      } catch (error) {
        return failure(error);
      }
    },
    devices(query) {
      return devices ? devices.query(query) : { total: 0, rows: [] };
    },
    device(id) {
      return devices?.detail(id) ?? null;
    },
    async windowResult(path) {
      const file = files.get(path);
      if (!file) return { ok: false, code: 'ANALYSIS_FILE_MISSING', message: `${path} is missing from the picked directory` };
      try {
        const parsed = parseWindowResult(await file.text(), path);
        return parsed.ok ? { ok: true, result: parsed.value } : { ok: false, code: parsed.error.code, message: parsed.error.message };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
