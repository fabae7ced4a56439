import { wrap, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { CaptureInfo } from '../../../core/index.ts';
import type { WorkspacePlannerRun, WorkspaceRun } from './workspace-types.ts';

/** Default IndexedDB database name. */
export const WORKSPACE_DB_NAME = 'sextant-workspace';
/** Current schema version; {@link upgradeWorkspaceDb} migrates every older one. */
export const WORKSPACE_DB_VERSION = 2;

/** A capture's description and report; its bytes live in `capture-bytes` under the same key. */
export interface CaptureRecord {
  id: string;
  info: CaptureInfo;
  report: unknown;
  addedAt: string;
  byteLength: number;
}

/** A capture's Arrow IPC bytes. */
export interface CaptureBytesRecord {
  id: string;
  arrow: Blob | ArrayBuffer;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

/**
 * Version 1. Captures are split over two stores so that listing them never loads their bytes
 * (an `ArrayBuffer` value is copied out in full by every read); both are written in one
 * transaction, so a capture is never half there.
 */
export interface WorkspaceSchema extends DBSchema {
  captures: { key: string; value: CaptureRecord; indexes: { 'by-addedAt': string } };
  'capture-bytes': { key: string; value: CaptureBytesRecord };
  runs: { key: string; value: WorkspaceRun; indexes: { 'by-startedAt': string } };
  settings: { key: string; value: SettingRecord };
  /** Version 2: the Planner page's runs (recordings without API keys). */
  'planner-runs': { key: string; value: WorkspacePlannerRun; indexes: { 'by-startedAt': string } };
}

export type WorkspaceDb = IDBPDatabase<WorkspaceSchema>;
export type WorkspaceStore = StoreNames<WorkspaceSchema>;
export const ALL_STORES: WorkspaceStore[] = ['captures', 'capture-bytes', 'runs', 'settings', 'planner-runs'];

/** Creates or migrates the stores, one step per version, so any older database reaches the current one. */
export function upgradeWorkspaceDb(db: WorkspaceDb, oldVersion: number): void {
  if (oldVersion < 1) {
    const captures = db.createObjectStore('captures', { keyPath: 'id' });
    captures.createIndex('by-addedAt', 'addedAt');
    db.createObjectStore('capture-bytes', { keyPath: 'id' });
    const runs = db.createObjectStore('runs', { keyPath: 'id' });
    runs.createIndex('by-startedAt', 'startedAt');
    db.createObjectStore('settings', { keyPath: 'key' });
  }
  if (oldVersion < 2) {
    // Adds a store; every version-1 store and its data stay as they are.
    const plannerRuns = db.createObjectStore('planner-runs', { keyPath: 'id' });
    plannerRuns.createIndex('by-startedAt', 'startedAt');
  }
  // Version 3 and later: add `if (oldVersion < 3) { … }` here; never edit a step that has shipped.
}

/**
 * Opens the database through `factory` (idb's `openDB` always uses the global `indexedDB`; this
 * does the same steps with an injectable factory). Another tab upgrading the schema closes this
 * connection rather than blocking it. Rejects when the database cannot be opened.
 */
export async function openWorkspaceDb(factory: IDBFactory, name: string): Promise<WorkspaceDb> {
  const request = factory.open(name, WORKSPACE_DB_VERSION);
  request.addEventListener('upgradeneeded', (event) => {
    // Safe: the request's result is the database being upgraded, typed by our schema.
    const db = wrap(request.result) as unknown as WorkspaceDb;
    upgradeWorkspaceDb(db, event.oldVersion);
  });
  const opened = await wrap(request);
  if (!opened) throw new Error(`IndexedDB did not open ${name}`);
  // Safe: the upgrade above gave the database exactly WorkspaceSchema's stores.
  const db = opened as unknown as WorkspaceDb;
  db.addEventListener('versionchange', () => db.close());
  return db;
}

export type WorkspaceTransaction<Mode extends IDBTransactionMode> = IDBPTransaction<WorkspaceSchema, WorkspaceStore[], Mode>;
