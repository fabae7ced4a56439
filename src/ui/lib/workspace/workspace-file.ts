import { safeParseJson, type JsonValue, type Result } from '../../../core/index.ts';
import { captureInfoProblem, isFiniteNumber, isIsoInstant, isObject, isString, plannerRunProblem, runProblem } from './validate.ts';
import type { CaptureSummary, WorkspacePlannerRun, WorkspaceProblem, WorkspaceRun } from './workspace-types.ts';
import { WORKSPACE_IMPORT_LIMITS, jsonNestingDepth } from './import-review.ts';

/**
 * # Workspace file format, version 1
 *
 * One binary file holding every capture, run and setting of a workspace:
 *
 * | offset   | size | content                                                             |
 * |----------|------|---------------------------------------------------------------------|
 * | 0        | 8    | magic, ASCII `SXTWKSP1`                                             |
 * | 8        | 4    | format version, uint32 little-endian (1)                            |
 * | 12       | 4    | header length H in bytes, uint32 little-endian                      |
 * | 16       | H    | header: UTF-8 JSON, {@link WorkspaceFileHeader}                     |
 * | 16 + H   | …    | payload: the captures' Arrow IPC bytes, one after another, unpadded |
 *
 * Each header capture has `offset` (from the start of the payload) and `byteLength`; captures are
 * contiguous and in header order, so the file is exactly `16 + H + payloadBytes` long. Runs,
 * planner runs (optional `plannerRuns`, added without a version change: readers that do not know
 * it ignore it, files without it read as none) and settings are in the header as JSON.
 *
 * Why not one JSON with base64: base64 adds a third, and building or parsing one JSON string the
 * size of all captures needs that much contiguous memory twice over. Here export assembles a `Blob`
 * from the stored `Blob`s (the browser streams them, the bytes never enter the JS heap) and import
 * reads only the first 16 bytes and the header, then stores `file.slice()`s of the payload.
 */
export const WORKSPACE_FILE_MAGIC = 'SXTWKSP1';
export const WORKSPACE_FILE_VERSION = 1;
/** Media type of exported workspace files. */
export const WORKSPACE_FILE_TYPE = 'application/x-sextant-workspace';
/** Suggested file name extension. */
export const WORKSPACE_FILE_EXTENSION = '.sextant-workspace';

const PREFIX_BYTES = 16;
/** Refuse headers above this size before reading them (a corrupt length must not allocate gigabytes). */
const MAX_HEADER_BYTES = WORKSPACE_IMPORT_LIMITS.maxHeaderBytes;

/** A capture as the header describes it. */
export interface WorkspaceFileCapture extends CaptureSummary {
  /** Start of its Arrow bytes, from the start of the payload. */
  offset: number;
}

/** The JSON header of a workspace file. */
export interface WorkspaceFileHeader {
  format: 'sextant-workspace';
  version: 1;
  /** When the file was written, ISO 8601. */
  exportedAt: string;
  /** Sum of the captures' byte lengths: the payload's size. */
  payloadBytes: number;
  captures: WorkspaceFileCapture[];
  runs: WorkspaceRun[];
  /** The Planner page's runs; absent in files written before planner runs existed. */
  plannerRuns?: WorkspacePlannerRun[];
  settings: Array<{ key: string; value: JsonValue }>;
}

/** What {@link encodeWorkspaceFile} writes. */
export interface WorkspaceFileContent {
  exportedAt: string;
  captures: Array<{ summary: CaptureSummary; bytes: Blob | ArrayBuffer }>;
  runs: WorkspaceRun[];
  plannerRuns?: WorkspacePlannerRun[];
  settings: Array<{ key: string; value: JsonValue }>;
}

/** A decoded workspace file: the header's entries, each capture with a `Blob` of its bytes. */
export interface DecodedWorkspaceFile {
  header: WorkspaceFileHeader;
  captures: Array<{ summary: CaptureSummary; bytes: Blob }>;
  runs: WorkspaceRun[];
  plannerRuns: WorkspacePlannerRun[];
  settings: Array<{ key: string; value: JsonValue }>;
}

const encoder = new TextEncoder();

/** Builds a workspace file. Stored `Blob`s are referenced, not read. */
export function encodeWorkspaceFile(content: WorkspaceFileContent): Blob {
  let offset = 0;
  const captures: WorkspaceFileCapture[] = content.captures.map(({ summary, bytes }) => {
    const byteLength = bytes instanceof Blob ? bytes.size : bytes.byteLength;
    const entry = { ...summary, byteLength, offset };
    offset += byteLength;
    return entry;
  });
  const header: WorkspaceFileHeader = {
    format: 'sextant-workspace',
    version: WORKSPACE_FILE_VERSION,
    exportedAt: content.exportedAt,
    payloadBytes: offset,
    captures,
    runs: content.runs,
    ...(content.plannerRuns && content.plannerRuns.length > 0 ? { plannerRuns: content.plannerRuns } : {}),
    settings: content.settings,
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const prefix = new Uint8Array(PREFIX_BYTES);
  prefix.set(encoder.encode(WORKSPACE_FILE_MAGIC), 0);
  const view = new DataView(prefix.buffer);
  view.setUint32(8, WORKSPACE_FILE_VERSION, true);
  view.setUint32(12, headerBytes.byteLength, true);
  return new Blob([prefix, headerBytes, ...content.captures.map(({ bytes }) => bytes)], { type: WORKSPACE_FILE_TYPE });
}

/**
 * Reads and checks a workspace file's prefix and header, without reading the capture bytes.
 * Every malformation is a problem value: wrong magic, unknown version, truncation, bad JSON,
 * entries of the wrong shape, overlapping or missing capture bytes, duplicate ids.
 */
export async function decodeWorkspaceFile(file: Blob): Promise<Result<DecodedWorkspaceFile, WorkspaceProblem>> {
  const prefix = new Uint8Array(await file.slice(0, PREFIX_BYTES).arrayBuffer());
  const magic = new TextDecoder().decode(prefix.subarray(0, Math.min(8, prefix.length)));
  if (prefix.length < 8 && file.size > 0 && WORKSPACE_FILE_MAGIC.startsWith(magic)) {
    return problem('TRUNCATED', `The file ends after ${file.size} bytes, inside its 16-byte prefix`);
  }
  if (magic !== WORKSPACE_FILE_MAGIC) {
    return problem('NOT_A_WORKSPACE_FILE', file.size === 0 ? 'The file is empty' : `The file is not a Sextant workspace (it does not start with ${WORKSPACE_FILE_MAGIC})`);
  }
  if (prefix.length < PREFIX_BYTES) return problem('TRUNCATED', `The file ends after ${file.size} bytes, inside its 16-byte prefix`);
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const version = view.getUint32(8, true);
  if (version !== WORKSPACE_FILE_VERSION) {
    return { ok: false, error: { code: 'UNSUPPORTED_VERSION', version, message: `Workspace file format version ${version} is not supported; this Sextant reads version ${WORKSPACE_FILE_VERSION}` } };
  }
  const headerLength = view.getUint32(12, true);
  if (headerLength > MAX_HEADER_BYTES) return problem('BAD_HEADER', `The header claims ${headerLength} bytes, more than the ${MAX_HEADER_BYTES} allowed`);
  if (PREFIX_BYTES + headerLength > file.size) {
    return problem('TRUNCATED', `The file has ${file.size} bytes but its header alone needs ${PREFIX_BYTES + headerLength}`);
  }
  let headerText: string;
  try {
    headerText = new TextDecoder('utf-8', { fatal: true }).decode(await file.slice(PREFIX_BYTES, PREFIX_BYTES + headerLength).arrayBuffer());
  } catch {
    return problem('BAD_HEADER', 'The header is not UTF-8 text');
  }
  const depth = jsonNestingDepth(headerText);
  if (depth > WORKSPACE_IMPORT_LIMITS.maxDepth) {
    return problem('BAD_HEADER', `The header nests ${depth} levels deep; at most ${WORKSPACE_IMPORT_LIMITS.maxDepth} are accepted`);
  }
  const parsed = safeParseJson(headerText);
  if (!parsed.ok) return problem('BAD_HEADER', `The header is not valid JSON: ${parsed.message}`);
  const header = parsed.value;
  const shape = headerProblem(header);
  if (shape !== null) return problem('BAD_HEADER', `The header ${shape}`);
  // Safe: headerProblem checked every field of WorkspaceFileHeader.
  const checked = header as unknown as WorkspaceFileHeader;
  if (checked.version !== version) return problem('BAD_HEADER', `The header says version ${String(checked.version)} but the prefix says ${version}`);
  const expectedSize = PREFIX_BYTES + headerLength + checked.payloadBytes;
  if (file.size < expectedSize) return problem('TRUNCATED', `The file has ${file.size} bytes; its header describes ${expectedSize}`);
  if (file.size > expectedSize) return problem('BAD_HEADER', `The file has ${file.size - expectedSize} bytes after the captures its header describes`);
  const payloadStart = PREFIX_BYTES + headerLength;
  return {
    ok: true,
    value: {
      header: checked,
      captures: checked.captures.map(({ offset, ...summary }) => ({
        summary,
        bytes: file.slice(payloadStart + offset, payloadStart + offset + summary.byteLength),
      })),
      runs: checked.runs,
      plannerRuns: checked.plannerRuns ?? [],
      settings: checked.settings,
    },
  };
}

function problem(code: 'NOT_A_WORKSPACE_FILE' | 'TRUNCATED' | 'BAD_HEADER', message: string): { ok: false; error: WorkspaceProblem } {
  return { ok: false, error: { code, message } };
}

function headerProblem(header: unknown): string | null {
  if (!isObject(header)) return 'is not a JSON object';
  if (header.format !== 'sextant-workspace') return "has no format 'sextant-workspace'";
  if (!isIsoInstant(header.exportedAt)) return "has an invalid 'exportedAt'";
  if (!isFiniteNumber(header.payloadBytes) || !Number.isInteger(header.payloadBytes) || header.payloadBytes < 0) return "has an invalid 'payloadBytes'";
  if (!Array.isArray(header.captures)) return "has no 'captures' list";
  if (!Array.isArray(header.runs)) return "has no 'runs' list";
  if (!Array.isArray(header.settings)) return "has no 'settings' list";
  const captureIds = new Set<string>();
  let expectedOffset = 0;
  for (const [index, capture] of header.captures.entries()) {
    const where = `capture ${index}`;
    if (!isObject(capture)) return `${where} is not an object`;
    if (!isString(capture.id) || capture.id.length === 0) return `${where} has no id`;
    if (captureIds.has(capture.id)) return `lists capture '${capture.id}' twice`;
    captureIds.add(capture.id);
    const info = captureInfoProblem(capture.info);
    if (info !== null) return `${where} ('${capture.id}'): info ${info}`;
    if (isObject(capture.info) && capture.info.id !== capture.id) return `${where}: info.id '${String(capture.info.id)}' differs from id '${capture.id}'`;
    if (!isIsoInstant(capture.addedAt)) return `${where} ('${capture.id}') has an invalid 'addedAt'`;
    if (!Number.isInteger(capture.byteLength) || (capture.byteLength as number) < 0) return `${where} ('${capture.id}') has an invalid 'byteLength'`;
    if (capture.offset !== expectedOffset) return `${where} ('${capture.id}') starts at ${String(capture.offset)}, not right after the previous capture (${expectedOffset})`;
    expectedOffset += capture.byteLength as number;
    if (!('report' in capture)) return `${where} ('${capture.id}') has no 'report'`;
  }
  if (expectedOffset !== header.payloadBytes) return `says the payload has ${header.payloadBytes} bytes, but its captures add up to ${expectedOffset}`;
  const runIds = new Set<string>();
  for (const [index, run] of header.runs.entries()) {
    const shape = runProblem(run);
    if (shape !== null) return `run ${index} ${shape}`;
    const id = (run as { id: string }).id;
    if (runIds.has(id)) return `lists run '${id}' twice`;
    runIds.add(id);
  }
  if (header.plannerRuns !== undefined) {
    if (!Array.isArray(header.plannerRuns)) return "has a 'plannerRuns' that is not a list";
    const plannerIds = new Set<string>();
    for (const [index, run] of header.plannerRuns.entries()) {
      const shape = plannerRunProblem(run);
      if (shape !== null) return `planner run ${index} ${shape}`;
      const id = (run as { id: string }).id;
      if (plannerIds.has(id)) return `lists planner run '${id}' twice`;
      plannerIds.add(id);
    }
  }
  const settingKeys = new Set<string>();
  for (const [index, setting] of header.settings.entries()) {
    if (!isObject(setting) || !isString(setting.key) || !('value' in setting)) return `setting ${index} is not { key, value }`;
    if (settingKeys.has(setting.key)) return `lists setting '${setting.key}' twice`;
    settingKeys.add(setting.key);
  }
  return null;
}
