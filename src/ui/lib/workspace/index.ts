// The browser workspace: captures, runs and settings kept in IndexedDB, and whole-workspace files.

export type { Workspace, OpenWorkspaceOptions, ImportWorkspaceOptions, ExportWorkspaceOptions, WorkspaceImportPreview } from './workspace.ts';
export type { ManifestReview } from './import-review.ts';
export { WORKSPACE_IMPORT_LIMITS } from './import-review.ts';
export { openWorkspace } from './workspace.ts';

export type {
  CaptureEntry,
  CaptureSummary,
  WorkspaceRun,
  WorkspacePlannerRun,
  NewWorkspaceRun,
  StorageUsage,
  PersistenceResult,
  StorageManagerLike,
  WorkspaceProblem,
  WorkspaceProblemCode,
  WorkspaceImportSummary,
} from './workspace-types.ts';

export { storageEstimate, requestPersistentStorage, formatBytes } from './storage.ts';

export type { WorkspaceFileHeader, WorkspaceFileCapture } from './workspace-file.ts';
export { WORKSPACE_FILE_MAGIC, WORKSPACE_FILE_VERSION, WORKSPACE_FILE_TYPE, WORKSPACE_FILE_EXTENSION } from './workspace-file.ts';

export { WORKSPACE_DB_NAME, WORKSPACE_DB_VERSION } from './workspace-db.ts';
