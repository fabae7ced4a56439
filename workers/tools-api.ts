// What a tools worker offers over comlink: plain data in, plain data out, never a throw.
import { ToolHost, type CaptureInfo, type RunRequest, type ToolOutcome } from '../src/core/index.ts';

export interface ToolsWorkerApi {
  /** Prepares the worker; test tools are installed only when the developer setting asks for them. */
  init(options: { testTools: boolean }): void;
  /** Descriptions of the captures the worker holds (their data stays in the worker). */
  captureInfos(): CaptureInfo[];
  /** Loads a capture sent as Arrow IPC bytes. */
  loadCapture(bytes: Uint8Array): CaptureInfo;
  hasCapture(id: string): boolean;
  run(request: RunRequest, onProgress: (fraction: number) => void): Promise<ToolOutcome>;
}

export function createToolsApi(): ToolsWorkerApi {
  let host = new ToolHost();
  return {
    init(options) {
      host = new ToolHost(options);
    },
    captureInfos: () => host.captureInfos(),
    loadCapture: (bytes) => host.loadCapture(bytes),
    hasCapture: (id) => host.hasCapture(id),
    run: (request, onProgress) => host.run(request, onProgress),
  };
}
