/**
 * Reading back what `sextant analyze-dataset` writes (docs/dataset.md, "The output is paged"):
 * `analysis.json`, the stitched `clusters.jsonl`, `relations.jsonl` and `conflicts.jsonl`, and
 * each window's `windows/<n>/result.json`. The files come from the analyst's disk, so they are
 * input like any other: every field the viewer reads is checked, and a bad one is refused with
 * a code, the file and (for JSON lines) the line.
 */
import { toolResultSchema } from '../../../contract/schemas.ts';
import type { ToolResult } from '../../../contract/types.ts';
import { validateAgainstSchema } from '../../../validation/schema-validator.ts';
import { err, ok, type Result } from '../../../util/result.ts';
import { bleAddressAnalyzerManifest } from '../tool/manifest.ts';
import type { StitchConflict, StitchedAnalysis, StitchedCluster, StitchedRelation } from './stitch-windows.ts';

export const ANALYSIS_FILE = 'analysis.json';

/** The stitched files of a windowed analysis, by their names in `analysis.json`'s `files`. */
export const STITCHED_FILES = { clusters: 'clusters.jsonl', relations: 'relations.jsonl', conflicts: 'conflicts.jsonl' } as const;
export type StitchedFile = keyof typeof STITCHED_FILES;

export interface StitchedOutputProblem {
  code: 'ANALYSIS_NOT_FOUND' | 'ANALYSIS_INVALID' | 'ANALYSIS_FILE_MISSING' | 'ANALYSIS_LINE_INVALID' | 'WINDOW_RESULT_INVALID';
  message: string;
  /** The file concerned, relative to the output directory. */
  path?: string;
  /** 1-based, for a line of a JSON-lines file. */
  line?: number;
}

/** One window of the run, as `analysis.json` lists it. */
export interface AnalysedWindowEntry {
  index: number;
  from_ms: number;
  /** Where the window proper ends; `to_ms` includes the overlap into the next one. */
  end_ms: number;
  to_ms: number;
  rows: number;
  captures: Array<{ capture_id: string; rows: number }>;
  status: 'ok' | 'partial' | 'error' | 'empty';
  summary?: string;
  confidence?: number;
  duration_ms?: number;
  /** `windows/<n>/result.json`, null for an empty window. */
  result: string | null;
}

/** `analysis.json`: what was analysed, how, and where the rest is. */
export interface DatasetAnalysisOverview {
  dataset: string;
  range: { from_ms: number | null; to_ms: number | null };
  /** Null for a one-window run (no `--window`; `windows` is then empty): its one result is `result.json`. */
  windowing: { window: string; overlap: string; window_ms: number; overlap_ms: number } | null;
  captures: Array<{ capture_id: string; rows: number; file: string | null; sha256: string | null }>;
  windows: AnalysedWindowEntry[];
  stitched: StitchedAnalysis['counts'] | null;
  status: string;
  summary: string;
  result: string;
}

const WINDOW_STATUSES = new Set(['ok', 'partial', 'error', 'empty']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
const isTexts = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);
/** A relative path that stays inside the output directory. */
const isInnerPath = (value: unknown): value is string => isText(value) && !value.startsWith('/') && !value.split('/').includes('..');

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

function windowProblem(entry: unknown): string | null {
  if (!isRecord(entry)) return 'not an object';
  for (const key of ['index', 'rows'] as const) if (!isCount(entry[key])) return `${key} is not a count`;
  for (const key of ['from_ms', 'end_ms', 'to_ms'] as const) if (!isNumber(entry[key])) return `${key} is not a time in milliseconds`;
  if (!isText(entry.status) || !WINDOW_STATUSES.has(entry.status)) return 'status is not ok, partial, error or empty';
  if (!(entry.result === null || isInnerPath(entry.result))) return 'result is not a path inside the output directory';
  if (!Array.isArray(entry.captures) || !entry.captures.every((capture) => isRecord(capture) && isText(capture.capture_id) && isCount(capture.rows))) {
    return 'captures is not a list of { capture_id, rows }';
  }
  if (entry.confidence !== undefined && !isNumber(entry.confidence)) return 'confidence is not a number';
  return null;
}

/** `analysis.json` of `sextant analyze-dataset`, checked field by field. */
export function parseAnalysisOverview(text: string): Result<DatasetAnalysisOverview, StitchedOutputProblem> {
  const invalid = (message: string) => err<StitchedOutputProblem>({ code: 'ANALYSIS_INVALID', message: `${ANALYSIS_FILE}: ${message}`, path: ANALYSIS_FILE });
  const parsed = parseJson(text);
  if (!parsed.ok) return invalid(`not JSON: ${parsed.message}`);
  const value = parsed.value;
  if (!isRecord(value) || !isText(value.dataset) || !isRecord(value.invocation)) {
    return invalid('not the analysis of a dataset (sextant analyze-dataset DIR --out OUT writes it): dataset and invocation are needed');
  }
  if (value.invocation.tool_name !== bleAddressAnalyzerManifest.name) return invalid(`the invocation is of ${String(value.invocation.tool_name)}, not ${bleAddressAnalyzerManifest.name}`);
  // A one-window run (no --window) lists no windows: its result.json is the whole answer.
  const windowed = value.windowing !== undefined && value.windowing !== null;
  if (windowed && !Array.isArray(value.windows)) return invalid('windows is needed where windowing is given');
  const windows: unknown[] = Array.isArray(value.windows) ? value.windows : [];
  for (const [index, entry] of windows.entries()) {
    const problem = windowProblem(entry);
    if (problem) return invalid(`windows[${index}]: ${problem}`);
  }
  const windowing = value.windowing;
  if (windowing !== undefined && windowing !== null && !(isRecord(windowing) && isText(windowing.window) && isText(windowing.overlap) && isNumber(windowing.window_ms) && isNumber(windowing.overlap_ms))) {
    return invalid('windowing needs window, overlap, window_ms and overlap_ms');
  }
  const range = isRecord(value.window) ? value.window : {};
  const captures = Array.isArray(value.captures) ? value.captures.filter(isRecord) : [];
  const stitched = isRecord(value.stitched) && Object.values(value.stitched).every(isCount) ? (value.stitched as unknown as StitchedAnalysis['counts']) : null;
  return ok({
    dataset: value.dataset,
    range: { from_ms: isNumber(range.from_ms) ? range.from_ms : null, to_ms: isNumber(range.to_ms) ? range.to_ms : null },
    windowing: isRecord(windowing) ? (windowing as unknown as DatasetAnalysisOverview['windowing']) : null,
    captures: captures.map((capture) => ({
      capture_id: String(capture.capture_id),
      rows: isCount(capture.rows) ? capture.rows : 0,
      file: isText(capture.file) ? capture.file : null,
      sha256: isText(capture.sha256) ? capture.sha256 : null,
    })),
    // Checked one by one just above.
    windows: windows as AnalysedWindowEntry[],
    stitched,
    status: isText(value.status) ? value.status : 'unknown',
    summary: isText(value.summary) ? value.summary : '',
    result: isInnerPath(value.result) ? value.result : 'result.json',
  });
}

function clusterProblem(value: Record<string, unknown>): string | null {
  if (!isText(value.id)) return 'id is not a string';
  if (!isTexts(value.addresses) || value.addresses.length === 0) return 'addresses is not a non-empty list of strings';
  if (!isTextOrNull(value.first_seen) || !isTextOrNull(value.last_seen)) return 'first_seen and last_seen must be times or null';
  if (!Array.isArray(value.windows) || !value.windows.every(isCount)) return 'windows is not a list of window indices';
  if (!Array.isArray(value.window_clusters) || !value.window_clusters.every((entry) => isRecord(entry) && isCount(entry.window) && isTextOrNull(entry.cluster_id))) {
    return 'window_clusters is not a list of { window, cluster_id }';
  }
  if (!isNumber(value.confidence) || value.confidence < 0 || value.confidence > 1) return 'confidence is not a probability';
  if (!isCount(value.conflicts)) return 'conflicts is not a count';
  if (value.tracker_kind !== undefined && !isText(value.tracker_kind)) return 'tracker_kind is not a string';
  return null;
}

function relationProblem(value: Record<string, unknown>): string | null {
  if (!isCount(value.window)) return 'window is not a window index';
  if (!isText(value.device_a) || !isText(value.device_b)) return 'device_a and device_b must be device ids';
  if (!isNumber(value.probability) || value.probability < 0 || value.probability > 1) return 'probability is not a probability';
  if (!isText(value.start_ts) || !isText(value.end_ts)) return 'start_ts and end_ts must be times';
  if (!isNumber(value.duration_s)) return 'duration_s is not a number';
  if (value.tracker_kind !== undefined && !isText(value.tracker_kind)) return 'tracker_kind is not a string';
  return null;
}

function conflictProblem(value: Record<string, unknown>): string | null {
  if (!isCount(value.window) || !isCount(value.other_window) || !isCount(value.kept_apart_in_window)) return 'window, other_window and kept_apart_in_window must be window indices';
  if (!isTextOrNull(value.cluster_id) || !isTextOrNull(value.other_cluster_id)) return 'cluster_id and other_cluster_id must be cluster ids or null';
  if (!isTexts(value.shared_addresses)) return 'shared_addresses is not a list of strings';
  if (!Array.isArray(value.kept_apart) || value.kept_apart.length !== 2 || !value.kept_apart.every(isTextOrNull)) return 'kept_apart is not a pair of cluster ids';
  if (!isTexts(value.devices) || value.devices.length !== 2) return 'devices is not a pair of device ids';
  return null;
}

export type StitchedLine = { file: 'clusters'; value: StitchedCluster } | { file: 'relations'; value: StitchedRelation } | { file: 'conflicts'; value: StitchConflict };

const LINE_CHECKS: Record<StitchedFile, (value: Record<string, unknown>) => string | null> = { clusters: clusterProblem, relations: relationProblem, conflicts: conflictProblem };

/** One line of a stitched file (`line` is 1-based, for the message). Blank lines are null. */
export function parseStitchedLine(file: StitchedFile, text: string, line: number): Result<StitchedLine | null, StitchedOutputProblem> {
  if (text.trim() === '') return ok(null);
  const path = STITCHED_FILES[file];
  const invalid = (message: string) => err<StitchedOutputProblem>({ code: 'ANALYSIS_LINE_INVALID', message: `${path} line ${line}: ${message}`, path, line });
  const parsed = parseJson(text);
  if (!parsed.ok) return invalid(`not JSON: ${parsed.message}`);
  if (!isRecord(parsed.value)) return invalid('not an object');
  const problem = LINE_CHECKS[file](parsed.value);
  if (problem) return invalid(problem);
  // Each shape was checked field by field just above.
  return ok({ file, value: parsed.value } as unknown as StitchedLine);
}

/**
 * A window's `result.json` (or a one-window run's): a ToolResult by the contract's schema, whose
 * output (when it has one) is the address analyzer's by its manifest's output schema.
 */
export function parseWindowResult(text: string, path: string): Result<ToolResult, StitchedOutputProblem> {
  const invalid = (message: string) => err<StitchedOutputProblem>({ code: 'WINDOW_RESULT_INVALID', message: `${path}: ${message}`, path });
  const parsed = parseJson(text);
  if (!parsed.ok) return invalid(`not JSON: ${parsed.message}`);
  const problems = validateAgainstSchema(toolResultSchema, parsed.value, { prefix: [], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' });
  if (problems.length > 0) return invalid(`not a ToolResult: ${problems[0].field || 'the result'}: ${problems[0].message}`);
  // A ToolResult by the schema just checked.
  const result = parsed.value as ToolResult;
  const output = result.structured_output;
  // The summary result of a windowed run is a ToolResult too, of its own format; only window results carry the analyzer's output.
  if (result.status !== 'error' && isRecord(output) && output.format === undefined) {
    const outputProblems = validateAgainstSchema(bleAddressAnalyzerManifest.output_schema, output, { prefix: ['structured_output'], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' });
    if (outputProblems.length > 0) return invalid(`not the address analyzer's output: ${outputProblems[0].field}: ${outputProblems[0].message}`);
  }
  return ok(result);
}
