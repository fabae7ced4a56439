import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { describeCapture, type Capture, type CaptureInfo } from '../data/capture.ts';
import {
  advertiserSummary,
  columnSummaries,
  matchingRows,
  readRows,
  timeHistogram,
  type AddressSummary,
  type CellValue,
  type ColumnSummary,
  type TimeHistogram,
} from '../data/explore.ts';
import { builtinCaptures } from '../demo/builtin-captures.ts';
import { builtinTools } from '../tools/builtin-tools.ts';
import { ToolRegistry } from '../tools/registry.ts';
import type { ToolOutcome } from '../tools/tool.ts';
import { builtinCaptureFingerprint } from '../report/fingerprint.ts';
import type { ToolResult } from '../contract/types.ts';
import { checkOutcome } from './finalize-result.ts';
import { runTool } from './run-tool.ts';
import type { RunRequest } from './runner.ts';
import { installLinearSchemaAssign } from '../data/linear-schema.ts';
import { tableToParquet } from '../data/tabular/parquet-writer.ts';

// Captures arrive here as Arrow IPC: decode wide ones in linear time and keep duplicate column
// names on their own types, as the import did (see linear-schema.ts).
installLinearSchemaAssign();

/** What the Captures page shows for one capture under one filter. */
export interface CaptureView {
  filter: string;
  rowCount: number;
  histogram: TimeHistogram;
  summaries: ColumnSummary[];
  advertisers: AddressSummary[];
}

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
  private readonly selections = new Map<string, { filter: string; rows: Uint32Array }>();

  constructor(options: ToolHostOptions = {}) {
    this.registry = new ToolRegistry(builtinTools({ testTools: options.testTools }));
  }

  /** Loads a capture from Arrow IPC bytes whose schema metadata names it; returns its description. */
  loadCapture(bytes: Uint8Array): CaptureInfo {
    const table = tableFromIPC(bytes);
    const described = describeCapture(table);
    if (!described.ok) throw new Error(described.error.message);
    return this.addCapture({ info: described.value, table });
  }

  /** Adds a capture built where the host runs (a dataset window's rows, read by the thread itself); returns its description. */
  addCapture(capture: Capture): CaptureInfo {
    const id = capture.info.id;
    this.captures.set(id, capture);
    this.builtinIds.delete(id);
    this.selections.delete(id);
    return capture.info;
  }

  /** Every capture this host can run on, built-in ones included. */
  captureInfos(): CaptureInfo[] {
    this.ensureBuiltins();
    return [...this.captures.values()].map((capture) => capture.info);
  }

  removeCapture(id: string): void {
    this.captures.delete(id);
    this.selections.delete(id);
  }

  /**
   * How many rows of a capture a filter keeps, or the filter's problem. The row selection is
   * kept for the page reads that follow (one per capture).
   */
  selectRows(id: string, filter: string): CaptureView | { error: string; position: number | null } {
    const capture = this.requireCapture(id);
    const rows = matchingRows(capture, filter);
    if (!rows.ok) return { error: rows.error.message, position: rows.error.position };
    this.selections.set(id, { filter, rows: rows.value });
    return {
      filter,
      rowCount: rows.value.length,
      histogram: timeHistogram(capture, rows.value),
      summaries: columnSummaries(capture, rows.value),
      advertisers: advertiserSummary(capture, rows.value),
    };
  }

  /** Rows `offset .. offset+limit` of the capture under `filter` (the selection is cached per capture). */
  readRows(id: string, filter: string, offset: number, limit: number): CellValue[][] {
    const capture = this.requireCapture(id);
    let selection = this.selections.get(id);
    if (!selection || selection.filter !== filter) {
      const rows = matchingRows(capture, filter);
      if (!rows.ok) return [];
      selection = { filter, rows: rows.value };
      this.selections.set(id, selection);
    }
    return readRows(capture, selection.rows, offset, limit);
  }

  private requireCapture(id: string): Capture {
    this.ensureBuiltins();
    const capture = this.captures.get(id);
    if (!capture) throw new Error(`Capture '${id}' is not loaded`);
    return capture;
  }

  /** The capture's whole table as an Arrow IPC file (what `sextant import --out` writes), for download. */
  exportArrow(id: string): Uint8Array {
    return tableToIPC(this.requireCapture(id).table, 'file');
  }

  /** The capture's whole table as a Parquet file (its capture metadata kept), for download. */
  exportParquet(id: string): Uint8Array {
    return tableToParquet(this.requireCapture(id).table);
  }

  hasCapture(id: string): boolean {
    this.ensureBuiltins();
    return this.captures.has(id);
  }

  /**
   * A built-in capture's provenance for case reports: the SHA-256 of its Arrow IPC stream as built
   * (it has no source file). Null for captures loaded from bytes, whose source file hash is in
   * their description.
   */
  async builtinFingerprint(id: string): Promise<{ sha256: string; bytes: number } | null> {
    this.ensureBuiltins();
    const capture = this.captures.get(id);
    if (!capture || !this.builtinIds.has(id)) return null;
    return builtinCaptureFingerprint(capture.table);
  }

  private readonly builtinIds = new Set<string>();

  run(request: RunRequest, onProgress?: (fraction: number) => void): Promise<ToolOutcome> {
    // The built-in captures are generated only when a run asks for one that is not loaded: a
    // dataset window's thread runs on the window's captures alone (~0.1–0.3 s saved per thread).
    const capture = (id: string): Capture | undefined => {
      if (!this.captures.has(id)) this.ensureBuiltins();
      return this.captures.get(id);
    };
    return runTool(request, { registry: this.registry, capture }, onProgress);
  }

  /**
   * Runs a request and checks its outcome here, against the manifest of the tool that ran
   * (`checkOutcome`): a runner answers `{ kind: 'checked', result }` and its caller never walks the
   * output itself. The app's tools workers use it, so the page's main thread does not.
   */
  async runChecked(request: RunRequest, onProgress?: (fraction: number) => void): Promise<ToolResult> {
    const outcome = await this.run(request, onProgress);
    const resolved = this.registry.resolve(request.toolName, request.toolVersion);
    if (!resolved.ok) return { status: 'error', summary: 'The tool is not installed where it runs.', errors: [resolved.error], warnings: [], confidence: 0 };
    return checkOutcome(outcome, resolved.tool.manifest);
  }

  /** Built-in captures are generated on first use, not sent: they are deterministic. */
  private ensureBuiltins(): void {
    if (this.builtinsLoaded) return;
    for (const capture of builtinCaptures()) {
      if (this.captures.has(capture.info.id)) continue;
      this.captures.set(capture.info.id, capture);
      this.builtinIds.add(capture.info.id);
    }
    this.builtinsLoaded = true;
  }
}
