// What an import worker offers over comlink: a File in, a capture (as a Blob of Arrow IPC bytes) out.
import { tableToIPC } from 'apache-arrow';
import {
  importCaptureSource,
  importDatasetWindow,
  mapToCapture,
  MANIFEST_FILE,
  parseManifest,
  type CaptureInfo,
  type CaptureSource,
  type ColumnMapping,
  type ColumnSchema,
  type CaptureImportReport,
  type DatasetTimeWindow,
  type ImportedFile,
  type JsonObject,
  type PartDecoder,
} from '../src/core/index.ts';
import { blobChunks } from './blob-chunks.ts';

export type ImportOutcome =
  | { ok: true; kind: 'capture'; info: CaptureInfo; report: JsonObject; arrow: Blob }
  | { ok: true; kind: 'needs-mapping'; columns: ColumnSchema[]; suggestion: ColumnMapping; report: JsonObject }
  | { ok: false; code: string; message: string };

export interface ImportWorkerApi {
  importFile(file: File, id: string, onProgress: (fraction: number) => void): Promise<ImportOutcome>;
  /** Finishes an import that needed a column mapping. */
  applyMapping(mapping: ColumnMapping): ImportOutcome;
  /**
   * A time window of one capture of a dataset directory: `files` by their path under the
   * dataset root (manifest.json and the parts), as a directory picker gives them. Only the parts
   * the window needs are read.
   */
  importDatasetWindow(files: ReadonlyMap<string, File>, request: DatasetWindowJob, onProgress: (fraction: number) => void): Promise<ImportOutcome>;
}

export interface DatasetWindowJob {
  captureId: string;
  window: DatasetTimeWindow;
  id: string;
  maxRows: number;
}

/** The browser's adapter to the one import pipeline: a File (or Blob) as a CaptureSource. */
export function fileCaptureSource(file: Blob, fileName: string): CaptureSource {
  return {
    fileName,
    byteLength: file.size,
    stream: () => blobChunks(file),
    slice: (start, end) => file.slice(start, end).arrayBuffer(),
  };
}

/**
 * `decodePart` reads a dataset's Parquet part into Arrow with its own types (parquet-wasm: the
 * worker loads its browser build, Node tests its Node build).
 */
export function createImportApi(decodePart: PartDecoder): ImportWorkerApi {
  let pending: { file: File; id: string; imported: Extract<ImportedFile, { kind: 'needs-mapping' }> } | null = null;

  // Import reports are plain JSON data (counts, names, hashes); JsonObject is their stored shape.
  const json = (report: CaptureImportReport): JsonObject => report as unknown as JsonObject;
  const answer = (imported: ImportedFile): ImportOutcome => {
    if (imported.kind === 'needs-mapping') return { ok: true, kind: 'needs-mapping', columns: imported.columns, suggestion: imported.suggestion, report: json(imported.report) };
    const ipc = tableToIPC(imported.capture.table);
    // A Blob goes to the page by reference: copying a large capture would stall its main thread.
    // tableToIPC returns bytes over a fresh ArrayBuffer.
    return { ok: true, kind: 'capture', info: imported.capture.info, report: json(imported.report), arrow: new Blob([ipc as Uint8Array<ArrayBuffer>]) };
  };

  const failure = (error: unknown): ImportOutcome => ({
    ok: false,
    code: 'IMPORT_FAILED',
    message: error instanceof Error ? error.message.split('\n')[0] : String(error),
  });

  return {
    async importFile(file, id, onProgress) {
      try {
        const result = await importCaptureSource(fileCaptureSource(file, file.name), { id, onProgress });
        if (!result.ok) return { ok: false, ...result.error };
        if (result.value.kind === 'needs-mapping') pending = { file, id, imported: result.value };
        return answer(result.value);
      } catch (error) {
        return failure(error);
      }
    },
    async importDatasetWindow(files, request, onProgress) {
      try {
        const manifestFile = files.get(MANIFEST_FILE);
        if (!manifestFile) return { ok: false, code: 'DATASET_NOT_FOUND', message: `the directory has no ${MANIFEST_FILE} at its top: it is not a Sextant dataset (sextant import FILE --dataset DIR makes one)` };
        const manifest = parseManifest(await manifestFile.text());
        if (!manifest.ok) return { ok: false, code: manifest.error.code, message: manifest.error.message };
        const reader = (path: string) => {
          const file = files.get(path);
          return file ? { byteLength: file.size, slice: (start: number, end?: number) => file.slice(start, end).arrayBuffer() } : undefined;
        };
        const result = await importDatasetWindow(manifest.value, reader, { ...request, onProgress, decodePart });
        if (!result.ok) return { ok: false, code: result.error.code, message: result.error.message };
        return answer(result.value);
      } catch (error) {
        return failure(error);
      }
    },
    applyMapping(mapping) {
      if (!pending) return { ok: false, code: 'NOTHING_TO_MAP', message: 'No import is waiting for a column mapping' };
      try {
        const { imported, id, file } = pending;
        const result = mapToCapture(imported.table, mapping, id, file.name, imported.report);
        if (!result.ok) return { ok: false, ...result.error };
        pending = null;
        return answer(result.value);
      } catch (error) {
        return failure(error);
      }
    },
  };
}
