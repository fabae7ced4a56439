// What a tools worker offers over comlink: plain data in, plain data out, never a throw.
import { ToolHost, type CaptureInfo, type CaptureView, type CellValue, type RunRequest, type ToolResult } from '../src/core/index.ts';

export interface ToolsWorkerApi {
  /** Prepares the worker; test tools are installed only when the developer setting asks for them. */
  init(options: { testTools: boolean }): void;
  /** Descriptions of the captures the worker holds (their data stays in the worker). */
  captureInfos(): CaptureInfo[];
  /** Loads a capture from Arrow IPC bytes; a Blob is read here, off the page's main thread. */
  loadCapture(data: Uint8Array | Blob): Promise<CaptureInfo>;
  removeCapture(id: string): void;
  hasCapture(id: string): boolean;
  /** Applies a filter to a capture for the Captures page: counts, histogram, summaries, addresses. */
  selectRows(id: string, filter: string): CaptureView | { error: string; position: number | null };
  /** A page of the rows a filter keeps. */
  readRows(id: string, filter: string, offset: number, limit: number): CellValue[][];
  /** Runs a request and checks the result against the tool's manifest here, off the page's main thread. */
  run(request: RunRequest, onProgress: (fraction: number) => void): Promise<ToolResult>;
  /** The capture's whole table as an Arrow IPC file. */
  exportArrow(id: string): Uint8Array;
  /** The capture's whole table as a Parquet file. */
  exportParquet(id: string): Uint8Array;
  /** A built-in capture's Arrow IPC SHA-256 and size (for case reports); null for other captures. */
  builtinFingerprint(id: string): Promise<{ sha256: string; bytes: number } | null>;
}

export function createToolsApi(): ToolsWorkerApi {
  let host = new ToolHost();
  return {
    init(options) {
      host = new ToolHost(options);
    },
    captureInfos: () => host.captureInfos(),
    loadCapture: async (data) => host.loadCapture(data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data),
    removeCapture: (id) => host.removeCapture(id),
    hasCapture: (id) => host.hasCapture(id),
    selectRows: (id, filter) => host.selectRows(id, filter),
    readRows: (id, filter, offset, limit) => host.readRows(id, filter, offset, limit),
    run: (request, onProgress) => host.runChecked(request, onProgress),
    builtinFingerprint: (id) => host.builtinFingerprint(id),
    exportArrow: (id) => host.exportArrow(id),
    exportParquet: (id) => host.exportParquet(id),
  };
}
