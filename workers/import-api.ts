// What an import worker offers over comlink: a File in, Arrow IPC bytes and a report out.
import { tableToIPC } from 'apache-arrow';
import { readCaptureFile, type CaptureInfo, type JsonObject } from '../src/core/index.ts';

export type ImportOutcome =
  | { ok: true; info: CaptureInfo; report: JsonObject; arrow: Blob }
  | { ok: false; code: string; message: string };

export interface ImportWorkerApi {
  importFile(file: File, id: string, onProgress: (fraction: number) => void): Promise<ImportOutcome>;
}

/** Reads the file as a stream (so progress is real), then imports it with the core's readers. */
async function readWithProgress(file: File, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size);
  let offset = 0;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, offset);
    offset += value.byteLength;
    onProgress(file.size === 0 ? 1 : (0.5 * offset) / file.size);
  }
  return bytes;
}

export function createImportApi(): ImportWorkerApi {
  return {
    async importFile(file, id, onProgress) {
      try {
        const bytes = await readWithProgress(file, onProgress);
        const read = readCaptureFile(bytes, { id, fileName: file.name });
        if (!read.ok) return { ok: false, code: read.error.code, message: read.error.message };
        onProgress(0.9);
        const ipc = tableToIPC(read.value.table);
        onProgress(1);
        // A Blob goes to the page by reference: copying a large capture would stall its main thread.
        return { ok: true, info: read.value.info, report: { capture_id: id, rows: read.value.info.rowCount }, arrow: new Blob([ipc as Uint8Array<ArrayBuffer>]) }; // tableToIPC returns a fresh ArrayBuffer
      } catch (error) {
        return { ok: false, code: 'IMPORT_FAILED', message: error instanceof Error ? error.message.split('\n')[0] : String(error) };
      }
    },
  };
}
