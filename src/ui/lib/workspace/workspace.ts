import type { JsonValue, Result } from '../../../core/index.ts';
import { ALL_STORES, WORKSPACE_DB_NAME, openWorkspaceDb, type CaptureRecord, type WorkspaceDb, type WorkspaceStore, type WorkspaceTransaction } from './workspace-db.ts';
import { decodeWorkspaceFile, encodeWorkspaceFile } from './workspace-file.ts';
import { defaultStorageManager, formatBytes, requestPersistentStorage, storageEstimate } from './storage.ts';
import { captureInfoProblem, plannerRunProblem, runProblem } from './validate.ts';
import { withoutIdentityKeys } from '../keyring/keyring-model.ts';
import { HISTORY_SETTING_KEY, historySetting, mergeHistories, readStoredHistory } from '../runtime/mcp-history-model.ts';
import { SAVED_MANIFESTS_SETTING, mergeManifests, reviewManifests, type ManifestReview } from './import-review.ts';
import type {
  CaptureEntry,
  CaptureSummary,
  NewWorkspaceRun,
  PersistenceResult,
  StorageManagerLike,
  StorageUsage,
  WorkspaceImportSummary,
  WorkspacePlannerRun,
  WorkspaceProblem,
  WorkspaceRun,
} from './workspace-types.ts';

/** Options of {@link openWorkspace}; all optional, for tests and special set-ups. */
export interface OpenWorkspaceOptions {
  /** IndexedDB database name; default `sextant-workspace`. */
  dbName?: string;
  /** IndexedDB factory; default the global `indexedDB` (tests pass fake-indexeddb's). */
  indexedDB?: IDBFactory;
  /** `navigator.storage` stand-in; default the real one when present. `null`: none. */
  storage?: StorageManagerLike | null;
  /**
   * How capture bytes are stored: `blob` (default; the browser keeps them on disk and reads lazily)
   * or `arraybuffer` (for engines that cannot store Blobs in IndexedDB).
   */
  bytesAs?: 'blob' | 'arraybuffer';
  /** Clock for `addedAt`/`exportedAt`; default `new Date()`. */
  now?: () => Date;
  /** Id generator for runs saved without one; default `crypto.randomUUID()`. */
  newId?: () => string;
}

/** What to do when an imported entry has the id of one already stored. */
export interface ImportWorkspaceOptions {
  /** `replace` (default): the file's entry wins. `skip`: keep the stored one and count it as skipped. */
  onConflict?: 'replace' | 'skip';
  /**
   * `name@version` of the imported saved manifests whose endpoint bindings the analyst confirmed.
   * Every other imported binding is stored disabled (`pendingEndpoint`); default: none confirmed.
   */
  enableEndpoints?: ReadonlyArray<string>;
}

/** What importing a workspace file would change, for the analyst to confirm first. */
export interface WorkspaceImportPreview {
  exportedAt: string;
  captures: Array<{ id: string; source: string; rows: number; replaces: boolean }>;
  runs: { count: number; replacing: number };
  plannerRuns: { count: number; replacing: number };
  /** Settings other than the saved manifests and the MCP call history. */
  settings: Array<{ key: string; replaces: boolean }>;
  /** The file's MCP call history: its calls, and how many are not in this workspace's (it merges entry by entry). */
  mcpHistory: { count: number; new: number };
  /** Saved manifests, re-linted, with their endpoints. */
  manifests: ManifestReview[];
}

/** Options of {@link Workspace.exportWorkspace}. */
export interface ExportWorkspaceOptions {
  /** Include identity resolving keys (default false: they are sensitive, the analyst must ask). */
  includeIdentityKeys?: boolean;
}

/**
 * The browser workspace: captures (Arrow IPC bytes plus description and import report), runs and
 * settings in IndexedDB. Every write resolves after its transaction has completed with strict
 * durability, so a resolved `ok` means the data survives a reload or a crash. Every expected
 * failure (quota, missing entry, malformed import, unavailable storage) is a {@link WorkspaceProblem}
 * value; a failed write changes nothing.
 */
export interface Workspace {
  /** The database name. */
  readonly name: string;
  /** Stores a capture, replacing one with the same `info.id`. */
  saveCapture(entry: CaptureEntry): Promise<Result<CaptureSummary, WorkspaceProblem>>;
  /** Every stored capture's description, oldest first; no bytes are read. */
  listCaptures(): Promise<Result<CaptureSummary[], WorkspaceProblem>>;
  /** A capture's Arrow IPC bytes. */
  loadCaptureBytes(id: string): Promise<Result<Uint8Array, WorkspaceProblem>>;
  /** A capture's Arrow IPC bytes as a Blob (cheap to hand to a worker). */
  loadCaptureBlob(id: string): Promise<Result<Blob, WorkspaceProblem>>;
  /** Deletes a capture and its bytes; `ok(false)` when there was none. */
  deleteCapture(id: string): Promise<Result<boolean, WorkspaceProblem>>;
  /** Stores a run (replacing one with the same id); returns it with its id. */
  saveRun(run: NewWorkspaceRun): Promise<Result<WorkspaceRun, WorkspaceProblem>>;
  /** Stored runs, newest first, at most `limit`. */
  listRuns(options?: { limit?: number }): Promise<Result<WorkspaceRun[], WorkspaceProblem>>;
  /** Deletes a run; `ok(false)` when there was none. */
  deleteRun(id: string): Promise<Result<boolean, WorkspaceProblem>>;
  /** Stores a planner run (replacing one with the same id); `INVALID_ENTRY` when it holds a credential. */
  savePlannerRun(run: WorkspacePlannerRun): Promise<Result<WorkspacePlannerRun, WorkspaceProblem>>;
  /** Stored planner runs, newest first, at most `limit`. */
  listPlannerRuns(options?: { limit?: number }): Promise<Result<WorkspacePlannerRun[], WorkspaceProblem>>;
  /** Deletes a planner run; `ok(false)` when there was none. */
  deletePlannerRun(id: string): Promise<Result<boolean, WorkspaceProblem>>;
  /** A stored setting, or `undefined` when unset. */
  getSetting(key: string): Promise<Result<unknown, WorkspaceProblem>>;
  /** Stores a JSON setting. */
  saveSetting(key: string, value: JsonValue): Promise<Result<void, WorkspaceProblem>>;
  /**
   * The whole workspace as one file (format: see `workspace-file.ts`), read in one consistent
   * snapshot. Identity keys (the keyring, keys in import reports and in runs' `irks`) are left
   * out unless `includeIdentityKeys` is true.
   */
  exportWorkspace(options?: ExportWorkspaceOptions): Promise<Result<Blob, WorkspaceProblem>>;
  /**
   * Adds a workspace file's captures, runs and settings, all in one transaction. The file is checked
   * completely first: a malformed one (wrong magic, unknown version, truncated, bad header) is
   * rejected and nothing stored changes.
   */
  importWorkspace(file: Blob, options?: ImportWorkspaceOptions): Promise<Result<WorkspaceImportSummary, WorkspaceProblem>>;
  /** Reads a workspace file and says what importing it would add and replace; changes nothing. */
  previewImport(file: Blob): Promise<Result<WorkspaceImportPreview, WorkspaceProblem>>;
  /** This origin's storage use and quota; null when the browser does not say. */
  storageEstimate(): Promise<StorageUsage | null>;
  /** Asks the browser to keep this origin's storage under pressure. */
  requestPersistentStorage(): Promise<PersistenceResult>;
  /** Closes the connection; later calls return `STORAGE_ERROR`. */
  close(): void;
}

/** Opens (creating or upgrading) the workspace database. `UNAVAILABLE` when IndexedDB is missing or refuses. */
export async function openWorkspace(options: OpenWorkspaceOptions = {}): Promise<Result<Workspace, WorkspaceProblem>> {
  const name = options.dbName ?? WORKSPACE_DB_NAME;
  const factory = options.indexedDB ?? (typeof indexedDB === 'undefined' ? undefined : indexedDB);
  if (!factory) return { ok: false, error: { code: 'UNAVAILABLE', message: 'This browser has no IndexedDB, so nothing can be kept between visits' } };
  let db: WorkspaceDb;
  try {
    db = await openWorkspaceDb(factory, name);
  } catch (error) {
    return { ok: false, error: { code: 'UNAVAILABLE', message: `The workspace database could not be opened: ${describe(error)}` } };
  }
  return { ok: true, value: createWorkspace(db, name, options) };
}

function createWorkspace(db: WorkspaceDb, name: string, options: OpenWorkspaceOptions): Workspace {
  const storage = options.storage === undefined ? defaultStorageManager() : options.storage;
  const bytesAs = options.bytesAs ?? 'blob';
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? defaultId;

  /** Runs `work` in one read-write transaction and resolves once it has committed; aborts on any failure. */
  async function write<T>(
    stores: WorkspaceStore[],
    what: WriteDescription,
    work: (tx: WorkspaceTransaction<'readwrite'>) => Promise<T>,
  ): Promise<Result<T, WorkspaceProblem>> {
    let tx: WorkspaceTransaction<'readwrite'>;
    try {
      tx = db.transaction(stores, 'readwrite', { durability: 'strict' });
    } catch (error) {
      return { ok: false, error: await problemOf(error, what) };
    }
    try {
      const [value] = await Promise.all([work(tx), tx.done]);
      return { ok: true, value };
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already aborted by the failed request, or finished.
      }
      await tx.done.catch(() => undefined);
      return { ok: false, error: await problemOf(error, what) };
    }
  }

  async function read<T>(work: () => Promise<T>): Promise<Result<T, WorkspaceProblem>> {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      return { ok: false, error: await problemOf(error, { description: 'reading the workspace', bytes: 0 }) };
    }
  }

  async function problemOf(error: unknown, what: WriteDescription): Promise<WorkspaceProblem> {
    const name = errorName(error);
    if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED') {
      const requestedBytes = sizeOf(what);
      const usage = await storageEstimate(storage);
      const used = usage ? ` This site uses ${formatBytes(usage.usageBytes)} of its ${formatBytes(usage.quotaBytes)}.` : '';
      return {
        code: 'QUOTA_EXCEEDED',
        message: `Not enough browser storage for ${what.description} (${formatBytes(requestedBytes)}).${used} Nothing was changed; delete captures or export the workspace to free space.`,
        requestedBytes,
        usageBytes: usage?.usageBytes ?? null,
        quotaBytes: usage?.quotaBytes ?? null,
      };
    }
    if (name === 'InvalidStateError') {
      return { code: 'STORAGE_ERROR', message: `${capitalize(what.description)} failed: the workspace database is closed (another tab may have upgraded it); reload the page` };
    }
    if (name === 'DataCloneError') return { code: 'INVALID_ENTRY', message: `${capitalize(what.description)} holds values that cannot be stored: ${describe(error)}` };
    return { code: 'STORAGE_ERROR', message: `${capitalize(what.description)} failed: ${describe(error)}` };
  }

  async function storedBytes(arrow: Blob | ArrayBuffer | Uint8Array): Promise<Blob | ArrayBuffer> {
    if (bytesAs === 'blob') {
      if (arrow instanceof Blob) return arrow;
      return new Blob([arrow instanceof Uint8Array ? arrow.slice() : arrow]);
    }
    if (arrow instanceof Blob) return arrow.arrayBuffer();
    return arrow instanceof Uint8Array ? arrow.slice().buffer : arrow;
  }

  async function loadBytesRecord(id: string) {
    return read(() => db.get('capture-bytes', id));
  }

  return {
    name,

    async saveCapture(entry) {
      const infoProblem = captureInfoProblem(entry.info);
      if (infoProblem !== null) return { ok: false, error: { code: 'INVALID_ENTRY', message: `The capture description ${infoProblem}` } };
      const id = entry.info.id;
      let arrow: Blob | ArrayBuffer;
      try {
        arrow = await storedBytes(entry.arrow);
      } catch (error) {
        return { ok: false, error: { code: 'INVALID_ENTRY', message: `The bytes of capture ${id} could not be read: ${describe(error)}` } };
      }
      const byteLength = arrow instanceof Blob ? arrow.size : arrow.byteLength;
      if (byteLength === 0) return { ok: false, error: { code: 'INVALID_ENTRY', message: `Capture ${id} has no bytes` } };
      const record: CaptureRecord = { id, info: entry.info, report: entry.report ?? null, addedAt: now().toISOString(), byteLength };
      const saved = await write(['captures', 'capture-bytes'], { description: `saving capture ${id}`, bytes: byteLength }, async (tx) => {
        await requests([() => tx.objectStore('captures').put(record), () => tx.objectStore('capture-bytes').put({ id, arrow })]);
      });
      return saved.ok ? { ok: true, value: { ...record } } : saved;
    },

    listCaptures() {
      return read(async () => (await db.getAllFromIndex('captures', 'by-addedAt')).map((record) => ({ ...record })));
    },

    async loadCaptureBytes(id) {
      const loaded = await loadBytesRecord(id);
      if (!loaded.ok) return loaded;
      if (!loaded.value) return notFound('capture', id);
      const arrow = loaded.value.arrow;
      if (!(arrow instanceof Blob)) return { ok: true, value: new Uint8Array(arrow) };
      return read(async () => new Uint8Array(await arrow.arrayBuffer()));
    },

    async loadCaptureBlob(id) {
      const loaded = await loadBytesRecord(id);
      if (!loaded.ok) return loaded;
      if (!loaded.value) return notFound('capture', id);
      const arrow = loaded.value.arrow;
      return { ok: true, value: arrow instanceof Blob ? arrow : new Blob([arrow]) };
    },

    deleteCapture(id) {
      return write(['captures', 'capture-bytes'], { description: `deleting capture ${id}`, bytes: 0 }, async (tx) => {
        const existed = (await tx.objectStore('captures').count(id)) > 0;
        await requests([() => tx.objectStore('captures').delete(id), () => tx.objectStore('capture-bytes').delete(id)]);
        return existed;
      });
    },

    async saveRun(run) {
      const stored: WorkspaceRun = { ...run, id: run.id ?? newId() };
      const shape = runProblem(stored);
      if (shape !== null) return { ok: false, error: { code: 'INVALID_ENTRY', message: `The run ${shape}` } };
      const saved = await write(['runs'], { description: `saving run ${stored.id}`, bytes: () => approximateJsonBytes(stored) }, async (tx) => {
        await tx.objectStore('runs').put(stored);
      });
      return saved.ok ? { ok: true, value: stored } : saved;
    },

    listRuns(listOptions = {}) {
      const limit = listOptions.limit ?? Number.POSITIVE_INFINITY;
      return read(async () => {
        const runs: WorkspaceRun[] = [];
        if (limit <= 0) return runs;
        let cursor = await db.transaction('runs').store.index('by-startedAt').openCursor(null, 'prev');
        while (cursor && runs.length < limit) {
          runs.push(cursor.value);
          cursor = await cursor.continue();
        }
        return runs;
      });
    },

    deleteRun(id) {
      return write(['runs'], { description: `deleting run ${id}`, bytes: 0 }, async (tx) => {
        const existed = (await tx.objectStore('runs').count(id)) > 0;
        await tx.objectStore('runs').delete(id);
        return existed;
      });
    },

    async savePlannerRun(run) {
      const shape = plannerRunProblem(run);
      if (shape !== null) return { ok: false, error: { code: 'INVALID_ENTRY', message: `The planner run ${shape}` } };
      const stored: WorkspacePlannerRun = { id: run.id, startedAt: run.startedAt, record: run.record };
      const saved = await write(['planner-runs'], { description: `saving planner run ${run.id}`, bytes: () => approximateJsonBytes(stored) }, async (tx) => {
        await tx.objectStore('planner-runs').put(stored);
      });
      return saved.ok ? { ok: true, value: stored } : saved;
    },

    listPlannerRuns(listOptions = {}) {
      const limit = listOptions.limit ?? Number.POSITIVE_INFINITY;
      return read(async () => {
        const runs: WorkspacePlannerRun[] = [];
        if (limit <= 0) return runs;
        let cursor = await db.transaction('planner-runs').store.index('by-startedAt').openCursor(null, 'prev');
        while (cursor && runs.length < limit) {
          runs.push(cursor.value);
          cursor = await cursor.continue();
        }
        return runs;
      });
    },

    deletePlannerRun(id) {
      return write(['planner-runs'], { description: `deleting planner run ${id}`, bytes: 0 }, async (tx) => {
        const existed = (await tx.objectStore('planner-runs').count(id)) > 0;
        await tx.objectStore('planner-runs').delete(id);
        return existed;
      });
    },

    async getSetting(key) {
      const loaded = await read(() => db.get('settings', key));
      return loaded.ok ? { ok: true, value: loaded.value?.value } : loaded;
    },

    saveSetting(key, value) {
      return write(['settings'], { description: `saving setting ${key}`, bytes: () => approximateJsonBytes(value) }, async (tx) => {
        await tx.objectStore('settings').put({ key, value });
      });
    },

    async exportWorkspace(exportOptions = {}) {
      const snapshot = await read(async () => {
        const tx = db.transaction(ALL_STORES, 'readonly');
        const [captures, bytes, runs, settings, plannerRuns] = await Promise.all([
          tx.objectStore('captures').index('by-addedAt').getAll(),
          tx.objectStore('capture-bytes').getAll(),
          tx.objectStore('runs').index('by-startedAt').getAll(),
          tx.objectStore('settings').getAll(),
          tx.objectStore('planner-runs').index('by-startedAt').getAll(),
          tx.done,
        ]);
        return { captures, bytes: new Map(bytes.map((record) => [record.id, record.arrow])), runs, settings, plannerRuns };
      });
      if (!snapshot.ok) return snapshot;
      const { bytes, plannerRuns } = snapshot.value;
      const { captures, runs, settings } = exportOptions.includeIdentityKeys ? snapshot.value : withoutIdentityKeys(snapshot.value);
      const parts: Array<{ summary: CaptureSummary; bytes: Blob | ArrayBuffer }> = [];
      for (const capture of captures) {
        const arrow = bytes.get(capture.id);
        if (arrow === undefined) return { ok: false, error: { code: 'STORAGE_ERROR', message: `Capture ${capture.id} has lost its bytes; delete it and import it again` } };
        parts.push({ summary: capture, bytes: arrow });
      }
      return {
        ok: true,
        value: encodeWorkspaceFile({
          exportedAt: now().toISOString(),
          captures: parts,
          runs,
          plannerRuns,
          // Safe: saveSetting only accepts JsonValue, and imports only JSON.
          settings: settings.map(({ key, value }) => ({ key, value: value as JsonValue })),
        }),
      };
    },

    async previewImport(file) {
      let decoded;
      try {
        decoded = await decodeWorkspaceFile(file);
      } catch (error) {
        return { ok: false, error: { code: 'UNREADABLE_FILE', message: `The file could not be read: ${describe(error)}` } };
      }
      if (!decoded.ok) return decoded;
      const content = decoded.value;
      return read(async () => {
        const tx = db.transaction(ALL_STORES, 'readonly');
        const [captureKeys, runKeys, settingKeys, plannerRunKeys, storedManifests, storedHistory] = await Promise.all([
          tx.objectStore('captures').getAllKeys(),
          tx.objectStore('runs').getAllKeys(),
          tx.objectStore('settings').getAllKeys(),
          tx.objectStore('planner-runs').getAllKeys(),
          tx.objectStore('settings').get(SAVED_MANIFESTS_SETTING),
          tx.objectStore('settings').get(HISTORY_SETTING_KEY),
        ]);
        const captures = new Set<string>(captureKeys);
        const runs = new Set<string>(runKeys);
        const settings = new Set<string>(settingKeys);
        const plannerRuns = new Set<string>(plannerRunKeys);
        const importedManifests = content.settings.find((setting) => setting.key === SAVED_MANIFESTS_SETTING)?.value;
        const importedHistory = readStoredHistory(content.settings.find((setting) => setting.key === HISTORY_SETTING_KEY)?.value);
        const knownCalls = new Set(readStoredHistory(storedHistory?.value).map((entry) => entry.id));
        return {
          exportedAt: content.header.exportedAt,
          captures: content.captures.map(({ summary }) => ({ id: summary.id, source: summary.info.source, rows: summary.info.rowCount, replaces: captures.has(summary.id) })),
          runs: { count: content.runs.length, replacing: content.runs.filter((run) => runs.has(run.id)).length },
          plannerRuns: { count: content.plannerRuns.length, replacing: content.plannerRuns.filter((run) => plannerRuns.has(run.id)).length },
          settings: content.settings
            .filter((setting) => setting.key !== SAVED_MANIFESTS_SETTING && setting.key !== HISTORY_SETTING_KEY)
            .map((setting) => ({ key: setting.key, replaces: settings.has(setting.key) })),
          mcpHistory: { count: importedHistory.length, new: importedHistory.filter((entry) => !knownCalls.has(entry.id)).length },
          manifests: reviewManifests(importedManifests, storedManifests?.value),
        };
      });
    },

    async importWorkspace(file, importOptions = {}) {
      const onConflict = importOptions.onConflict ?? 'replace';
      const enableEndpoints = new Set(importOptions.enableEndpoints ?? []);
      let decoded;
      try {
        decoded = await decodeWorkspaceFile(file);
      } catch (error) {
        return { ok: false, error: { code: 'UNREADABLE_FILE', message: `The file could not be read: ${describe(error)}` } };
      }
      if (!decoded.ok) return decoded;
      const content = decoded.value;
      // Blob reads cannot happen inside the transaction (it would commit while waiting), so
      // ArrayBuffer storage reads every capture first.
      let captures: Array<{ summary: CaptureSummary; arrow: Blob | ArrayBuffer }>;
      try {
        captures = await Promise.all(content.captures.map(async ({ summary, bytes }) => ({ summary, arrow: await storedBytes(bytes) })));
      } catch (error) {
        return { ok: false, error: { code: 'UNREADABLE_FILE', message: `The file could not be read: ${describe(error)}` } };
      }
      const bytes = content.header.payloadBytes + approximateJsonBytes(content.runs) + approximateJsonBytes(content.plannerRuns);
      return write(ALL_STORES, { description: 'importing the workspace', bytes }, async (tx) => {
        const summary: WorkspaceImportSummary = { captures: 0, runs: 0, settings: 0, skipped: 0 };
        const [captureKeys, runKeys, settingKeys, plannerRunKeys] =
          onConflict === 'skip'
            ? await Promise.all([
                tx.objectStore('captures').getAllKeys(),
                tx.objectStore('runs').getAllKeys(),
                tx.objectStore('settings').getAllKeys(),
                tx.objectStore('planner-runs').getAllKeys(),
              ])
            : [[], [], [], []];
        const existing = { captures: new Set(captureKeys), runs: new Set(runKeys), settings: new Set(settingKeys), plannerRuns: new Set(plannerRunKeys) };
        const writes: Array<() => Promise<unknown>> = [];
        for (const { summary: capture, arrow } of captures) {
          if (existing.captures.has(capture.id)) {
            summary.skipped++;
            continue;
          }
          writes.push(
            () => tx.objectStore('captures').put({ ...capture }),
            () => tx.objectStore('capture-bytes').put({ id: capture.id, arrow }),
          );
          summary.captures++;
        }
        for (const run of content.runs) {
          if (existing.runs.has(run.id)) {
            summary.skipped++;
            continue;
          }
          writes.push(() => tx.objectStore('runs').put(run));
          summary.runs++;
        }
        for (const run of content.plannerRuns) {
          if (existing.plannerRuns.has(run.id)) {
            summary.skipped++;
            continue;
          }
          writes.push(() => tx.objectStore('planner-runs').put(run));
          summary.runs++;
        }
        for (const setting of content.settings) {
          if (setting.key === SAVED_MANIFESTS_SETTING) {
            // Saved manifests merge entry by entry: re-linted, endpoints disabled unless confirmed.
            const stored = await tx.objectStore('settings').get(SAVED_MANIFESTS_SETTING);
            const merged = mergeManifests(stored?.value, setting.value, { replace: onConflict === 'replace', enableEndpoints });
            writes.push(() => tx.objectStore('settings').put({ key: SAVED_MANIFESTS_SETTING, value: merged.list }));
            summary.settings++;
            summary.skipped += merged.skipped + merged.refused;
            continue;
          }
          if (setting.key === HISTORY_SETTING_KEY) {
            // The MCP call history merges call by call (a call already here is kept unless replacing).
            const stored = await tx.objectStore('settings').get(HISTORY_SETTING_KEY);
            const merged = mergeHistories(readStoredHistory(stored?.value), readStoredHistory(setting.value), { replace: onConflict === 'replace' });
            writes.push(() => tx.objectStore('settings').put({ key: HISTORY_SETTING_KEY, value: historySetting(merged.entries) }));
            summary.settings++;
            summary.skipped += merged.skipped;
            continue;
          }
          if (existing.settings.has(setting.key)) {
            summary.skipped++;
            continue;
          }
          writes.push(() => tx.objectStore('settings').put(setting));
          summary.settings++;
        }
        await requests(writes);
        return summary;
      });
    },

    storageEstimate() {
      return storageEstimate(storage);
    },

    requestPersistentStorage() {
      return requestPersistentStorage(storage);
    },

    close() {
      db.close();
    },
  };
}

/**
 * Issues the requests in order and waits for all of them. When one throws as it is issued (a
 * request the browser refuses at once, e.g. over quota), the ones already issued will be aborted
 * with the transaction: their rejections are handled here rather than left unhandled.
 */
async function requests(issue: ReadonlyArray<() => Promise<unknown>>): Promise<void> {
  const issued: Array<Promise<unknown>> = [];
  try {
    for (const request of issue) issued.push(request());
  } catch (error) {
    for (const pending of issued) pending.catch(() => undefined);
    throw error;
  }
  await Promise.all(issued);
}

function notFound(kind: string, id: string): { ok: false; error: WorkspaceProblem } {
  return { ok: false, error: { code: 'NOT_FOUND', id, message: `No ${kind} '${id}' in the workspace` } };
}

function errorName(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : null;
}

function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    const name = errorName(error);
    return name && name !== 'Error' ? `${name}: ${error.message}` : error.message;
  }
  return String(error);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Rough size of a JSON-like value, for quota messages only. */
/**
 * What a write stores, for the message when storage runs out. `bytes` may be a function: a run's
 * size is its JSON's length, megabytes for a large analysis, so it is measured only when a
 * message needs it, not on every save (issue 15).
 */
interface WriteDescription {
  description: string;
  bytes: number | (() => number);
}

function sizeOf(what: WriteDescription): number {
  return typeof what.bytes === 'function' ? what.bytes() : what.bytes;
}

function approximateJsonBytes(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

function defaultId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
