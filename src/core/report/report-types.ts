import type { ToolResult } from '../contract/types.ts';
import type { JsonValue } from '../util/json.ts';

/**
 * A run as the app or the runner exports it for a case report (`sextant.run` format 1): what
 * was asked, each step's invocation and record, and — for planner runs — the question, the
 * step timeline and the accounting. Timing lives beside the results, never inside them, so the
 * same inputs give the same result bodies.
 */
export interface RunDocument {
  format: 'sextant.run';
  format_version: 1;
  kind: 'tool-run' | 'planner-run';
  /** RFC3339 instant the run started. */
  started_at: string;
  /** Sextant's version that ran it. */
  sextant_version: string;
  steps: RunStep[];
  /** Planner runs only. */
  planner?: PlannerRunSummary;
  /** Provenance of the captures the steps read, as the exporter knew it (optional: the runner can hash files itself). */
  captures?: CaptureProvenance[];
}

export interface RunStep {
  /** The invocation exactly as validated and executed (every argument and setting). */
  invocation: JsonValue;
  tool_name: string | null;
  /** The installed version it ran on, after version resolution. */
  resolved_version: string | null;
  phase: 'validation' | 'execution';
  result: ToolResult;
  /** Run metadata, outside the result body: wall time of validation plus execution, ms. */
  duration_ms: number;
  /** Planner runs: who produced the invocation (`model`, `offline-repairer`). */
  source?: string;
}

/** What a planner run adds to its steps. */
export interface PlannerRunSummary {
  question: string;
  /** Provider targets without keys (provider, model, base URL, label). */
  targets: JsonValue[];
  /** Effective settings and the layer each value came from. */
  settings: { values: Record<string, number | string>; layers: Record<string, string> };
  /** The step timeline as text: one entry per thing that happened, in order. */
  timeline: PlannerTimelineEntry[];
  /** Accounting entries (one per LLM request and tool execution), as recorded. */
  accounting: JsonValue[];
  final_report: JsonValue;
  success: boolean;
  error?: string;
}

export interface PlannerTimelineEntry {
  /** `discover`, `llm-request`, `invocation`, `repair`, `execution`, `notice`, `final-report`. */
  kind: string;
  turn: number | null;
  /** One line saying what happened. */
  title: string;
  /** Details as text (errors, reasons of a repair, …). */
  details: string[];
}

/** Which bytes a capture's recorded hash covers. */
export type HashBasis = 'source-file' | 'arrow-ipc' | 'not-recorded';

/** One capture a report's steps read, with its provenance. */
export interface ReportCapture {
  id: string;
  /** The source file name, or `built-in demo`. */
  source: string;
  description: string;
  rows: number;
  bounds: { start_ms: number; end_ms: number };
  channels: string[];
  time_origin: string | null;
  /** Size in bytes of what `sha256` covers; null when not recorded. */
  bytes: number | null;
  /** SHA-256 (64 lowercase hex) of the bytes named by `hash_basis`; null when not recorded. */
  sha256: string | null;
  /**
   * `source-file`: the imported file's bytes, recorded at import. `arrow-ipc`: a built-in capture
   * has no source file, so the hash covers the Arrow IPC stream of the capture as built.
   * `not-recorded`: the capture was imported before hashes were recorded.
   */
  hash_basis: HashBasis;
  /** The import report as recorded at import, when there is one. */
  import_report: JsonValue | null;
}

/** A step as the report records it: the invocation, its selection and result. */
export interface ReportStep {
  index: number;
  tool_name: string | null;
  requested_version: string | null;
  resolved_version: string | null;
  phase: 'validation' | 'execution';
  source: string | null;
  invocation: JsonValue;
  /** The selection spelled out: capture ids, window, channels and filters. */
  selection: ReportSelection | null;
  result: ToolResult;
  duration_ms: number;
}

export interface ReportSelection {
  capture_ids: string[];
  start_ms: number | null;
  end_ms: number | null;
  channels: string[];
  filters: string[];
}

/** A case report (`sextant.case-report` format 1): the JSON twin of the HTML file. */
export interface CaseReport {
  format: 'sextant.case-report';
  format_version: 1;
  title: string;
  /** RFC3339 instant the report was made. */
  created_at: string;
  /** RFC3339 instant the run started. */
  run_started_at: string;
  sextant_version: string;
  /** Run kind. */
  kind: 'tool-run' | 'planner-run';
  /** The tools the steps ran, with the versions they resolved to. */
  tools: Array<{ name: string; version: string }>;
  captures: ReportCapture[];
  steps: ReportStep[];
  /** Labels of the IRKs the invocations supplied (never the key material). */
  keys_used: string[];
  /** tool-contract.md §7.3, verbatim, when a step ran the BLE analyzer. */
  caveats: string[];
  planner: PlannerRunSummary | null;
  /** Problems met while building the report (a capture not found, …). */
  notes: string[];
  /**
   * In the JSON twin only: SHA-256 of the HTML file written with it, which is the rendering of
   * this report without this field (twin.ts). Absent in reports made before issue 24, which
   * still read and verify (as unbound).
   */
  html_sha256?: string;
}

/** Per-capture provenance the report builder is given (the app or the runner looks it up). */
export interface CaptureProvenance {
  id: string;
  source: string;
  description: string;
  rows: number;
  bounds: { start_ms: number; end_ms: number };
  channels: string[];
  timeOrigin: string | null;
  bytes: number | null;
  sha256: string | null;
  hashBasis: HashBasis;
  importReport: JsonValue | null;
}


