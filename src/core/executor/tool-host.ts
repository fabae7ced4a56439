import { tableFromIPC } from 'apache-arrow';
import { describeCapture, type Capture, type CaptureInfo } from '../data/capture.ts';
import { builtinCaptures } from '../demo/builtin-captures.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { ToolOutcome } from '../tools/tool.ts';
import { runTool } from './run-tool.ts';
import type { RunRequest } from './runner.ts';

export interface ToolHostOptions {
  testTools?: boolean;
}

/**
 * Everything a worker (browser or Node thread) holds: the installed tools, the built-in demo
 * captures and the captures sent to it as Arrow IPC bytes. Worker files only adapt messages to it.
 */
export class ToolHost {
  private readonly registry: ToolRegistry;
  private readonly captures = new Map<string, Capture>();
  private builtinsLoaded = false;

  constructor(options: ToolHostOptions = {}) {
    this.registry = new ToolRegistry(builtinTools({ testTools: options.testTools }));
  }

  /** Loads a capture from Arrow IPC bytes whose schema metadata names it; returns its description. */
  loadCapture(bytes: Uint8Array): CaptureInfo {
    const table = tableFromIPC(bytes);
    const described = describeCapture(table);
    if (!described.ok) throw new Error(described.error.message);
    this.captures.set(described.value.id, { info: described.value, table });
    return described.value;
  }

  /** Every capture this host can run on, built-in ones included. */
  captureInfos(): CaptureInfo[] {
    this.ensureBuiltins();
    return [...this.captures.values()].map((capture) => capture.info);
  }

  hasCapture(id: string): boolean {
    this.ensureBuiltins();
    return this.captures.has(id);
  }

  run(request: RunRequest, onProgress?: (fraction: number) => void): Promise<ToolOutcome> {
    this.ensureBuiltins();
    return runTool(request, { registry: this.registry, capture: (id) => this.captures.get(id) }, onProgress);
  }

  /** Built-in captures are generated on first use, not sent: they are deterministic. */
  private ensureBuiltins(): void {
    if (this.builtinsLoaded) return;
    for (const capture of builtinCaptures()) if (!this.captures.has(capture.info.id)) this.captures.set(capture.info.id, capture);
    this.builtinsLoaded = true;
  }
}
