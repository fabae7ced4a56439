import type { ToolManifest } from '../contract/types.ts';
import type { ToolError, ToolWarning } from '../contract/tool-error.ts';
import type { ColumnSchema } from '../data/columns.ts';
import type { SelectedData } from '../data/selection-types.ts';
import type { JsonObject } from '../util/json.ts';
import type { ToolDigest } from './result-digest.ts';

/** What a tool can know about a selected capture before anything runs. */
export interface CaptureDescription {
  id: string;
  columns: ColumnSchema[];
}

/** An artifact as a tool produces it; the executor encodes it and computes its SHA-256. */
export interface ArtifactContent {
  name: string;
  mime_type: string;
  content: string | Uint8Array;
}

/** What a tool's run returns; the executor turns it into a checked `ToolResult`. */
export type ToolOutcome =
  | {
      status: 'ok' | 'partial';
      summary: string;
      structured_output: JsonObject;
      warnings?: ToolWarning[];
      artifacts?: ArtifactContent[];
      /** In [0, 1]. */
      confidence: number;
    }
  | {
      status: 'error';
      summary: string;
      errors: ToolError[];
      warnings?: ToolWarning[];
    };

export interface ToolRunContext {
  selection: SelectedData;
  /** Report progress in [0, 1]; cheap to call often. */
  reportProgress(fraction: number): void;
}

/** A tool Sextant can execute: its manifest and its implementation. */
export interface ToolImplementation {
  manifest: ToolManifest;
  /**
   * Semantic checks of schema-valid arguments against the selected captures' columns,
   * run before anything executes (e.g. "arguments.target names no column").
   */
  checkArguments?(args: JsonObject, captures: ReadonlyArray<CaptureDescription>): ToolError[];
  run(args: JsonObject, context: ToolRunContext): ToolOutcome | Promise<ToolOutcome>;
  /** What a model reads of this tool's structured output (see `digestToolResult`); a generic digest when absent. */
  digest?: ToolDigest;
}
