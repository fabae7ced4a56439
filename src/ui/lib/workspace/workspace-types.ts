import type { CaptureInfo, ExecutionRecord, JsonValue } from '../../../core/index.ts';

/** A capture to store: its description, its normalized table as Arrow IPC bytes, and its import report. */
export interface CaptureEntry {
  /** The capture's description; `info.id` is the key it is stored under (saving the same id replaces it). */
  info: CaptureInfo;
  /** Arrow IPC bytes (file or stream format) of the capture's table. */
  arrow: Blob | ArrayBuffer | Uint8Array;
  /** The import report, any JSON-compatible value; null when there is none. */
  report?: unknown;
}

/** A stored capture without its bytes: what lists and the catalog need. */
export interface CaptureSummary {
  id: string;
  info: CaptureInfo;
  /** The import report as saved; null when none was given. */
  report: unknown;
  /** When it was saved, ISO 8601. */
  addedAt: string;
  /** Size of the stored Arrow IPC bytes. */
  byteLength: number;
}

/** A run as stored: what was sent, what came back, and how long it took. Plain JSON throughout. */
export interface WorkspaceRun {
  /** Key; saving the same id again replaces the run (e.g. when it finishes). */
  id: string;
  /** The invocation or plan as the user sent it (JSON). */
  input: unknown;
  isPlan: boolean;
  /** When it started, ISO 8601. */
  startedAt: string;
  /** One record per invocation (one for a single invocation, one per step for a plan). */
  records: ExecutionRecord[];
  /** Wall time of the whole run, in milliseconds. */
  durationMs: number;
}

/**
 * A Planner page run as stored: the question, the targets (without keys), the settings and the
 * loop's step recording, in whatever shape the page records (plain JSON). The workspace refuses
 * one that holds a credential property (`apiKey`, `authorization`, …).
 */
export interface WorkspacePlannerRun {
  /** Key; saving the same id again replaces the run (it is saved after every step). */
  id: string;
  /** When it started, ISO 8601. */
  startedAt: string;
  /** The Planner page's record of the run. */
  record: JsonValue;
}

/** A run to save; without an id, one is generated. */
export type NewWorkspaceRun = Omit<WorkspaceRun, 'id'> & { id?: string };

/** Browser storage use for this origin, from `navigator.storage.estimate()`. */
export interface StorageUsage {
  /** Bytes used by this origin (all storage kinds, not only the workspace). */
  usageBytes: number;
  /** Bytes this origin may use. */
  quotaBytes: number;
  /** Whether the browser has made the storage persistent (not evicted under pressure); null when unknown. */
  persisted: boolean | null;
}

/** Outcome of asking for persistent storage. */
export type PersistenceResult = 'granted' | 'denied' | 'unsupported';

/** The part of `navigator.storage` the workspace uses; injectable for tests. */
export interface StorageManagerLike {
  estimate(): Promise<{ usage?: number; quota?: number }>;
  persist?(): Promise<boolean>;
  persisted?(): Promise<boolean>;
}

/** Why a workspace operation did not happen. Nothing stored is changed when one is returned. */
export type WorkspaceProblem =
  | {
      code: 'QUOTA_EXCEEDED';
      message: string;
      /** Size of what was being saved. */
      requestedBytes: number;
      /** Origin usage and quota at the time, when the browser reports them. */
      usageBytes: number | null;
      quotaBytes: number | null;
    }
  | { code: 'NOT_FOUND'; id: string; message: string }
  /** IndexedDB is missing or refused to open (private modes, disabled storage). */
  | { code: 'UNAVAILABLE'; message: string }
  /** Any other IndexedDB failure (closed database, disk error, another tab upgrading). */
  | { code: 'STORAGE_ERROR'; message: string }
  /** The entry is malformed or holds values that cannot be stored (functions, class instances). */
  | { code: 'INVALID_ENTRY'; message: string }
  /** Import: the browser could not read the file (it changed or disappeared on disk). */
  | { code: 'UNREADABLE_FILE'; message: string }
  /** Import: the file is not a Sextant workspace file (wrong magic). */
  | { code: 'NOT_A_WORKSPACE_FILE'; message: string }
  /** Import: the file is shorter than its header says. */
  | { code: 'TRUNCATED'; message: string }
  /** Import: the header is not valid JSON or does not describe a valid workspace. */
  | { code: 'BAD_HEADER'; message: string }
  /** Import: the file was written by a format version this build does not read. */
  | { code: 'UNSUPPORTED_VERSION'; message: string; version: number };

export type WorkspaceProblemCode = WorkspaceProblem['code'];

/** Counts of what an import wrote. */
export interface WorkspaceImportSummary {
  captures: number;
  /** Tool runs and planner runs. */
  runs: number;
  settings: number;
  /** Entries left alone because an entry with the same id already existed (`onConflict: 'skip'`). */
  skipped: number;
}
