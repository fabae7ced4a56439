import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CaptureInfo, ExecutionRecord } from '../../../core/index.ts';
import { HISTORY_SETTING_KEY, historySetting, MAX_KEPT_ARGUMENTS_CHARS, readStoredHistory, type McpHistoryEntry } from '../runtime/mcp-history-model.ts';
import { openWorkspace, type OpenWorkspaceOptions } from './workspace.ts';
import { WORKSPACE_FILE_MAGIC } from './workspace-file.ts';
import { requestPersistentStorage, storageEstimate } from './storage.ts';
import type { StorageManagerLike, Workspace, WorkspaceRun } from './index.ts';

function info(id: string, rowCount = 3): CaptureInfo {
  return {
    id,
    description: `capture ${id}`,
    source: `${id}.pcap`,
    rowCount,
    columns: [
      { name: 'ts_ms', kind: 'number' },
      { name: 'advertiser_addr', kind: 'string' },
    ],
    timeColumn: 'ts_ms',
    channelColumn: null,
    channels: [],
    bounds: { start_ms: 0, end_ms: 10 },
    boundsSource: 'observed',
    timeOrigin: null,
  };
}

function bytesOf(seed: number, length = 64): Uint8Array<ArrayBuffer> {
  return Uint8Array.from({ length }, (_, index) => (index * 31 + seed) & 0xff);
}

function record(requestId: string): ExecutionRecord {
  return {
    requestId,
    toolName: 'test_echo',
    resolvedVersion: '1.0.0',
    phase: 'execution',
    result: { status: 'ok', summary: 'ok', warnings: [], errors: [], confidence: 1 },
    durationMs: 12.5,
  };
}

function run(id: string, startedAt: string): WorkspaceRun {
  return { id, input: { request_id: id, tool_name: 'test_echo', arguments: { n: 1 } }, isPlan: false, startedAt, records: [record(id)], durationMs: 20 };
}

const storage: StorageManagerLike = {
  estimate: async () => ({ usage: 900 * 1024 * 1024, quota: 1024 * 1024 * 1024 }),
  persisted: async () => false,
  persist: async () => true,
};

let clock = Date.UTC(2025, 0, 1);
const opened: Workspace[] = [];

async function open(options: OpenWorkspaceOptions = {}): Promise<Workspace> {
  const result = await openWorkspace({
    indexedDB: new IDBFactory(),
    storage,
    now: () => new Date((clock += 1_000)),
    ...options,
  });
  if (!result.ok) throw new Error(result.error.message);
  opened.push(result.value);
  return result.value;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Everything stored, bytes included, for before/after comparisons. */
async function snapshot(workspace: Workspace) {
  const captures = value(await workspace.listCaptures());
  const bytes = await Promise.all(captures.map(async (capture) => [...value(await workspace.loadCaptureBytes(capture.id))]));
  const runs = value(await workspace.listRuns());
  const setting = value(await workspace.getSetting('theme'));
  return { captures, bytes, runs, setting };
}

async function populate(workspace: Workspace): Promise<void> {
  value(await workspace.saveCapture({ info: info('alpha'), arrow: bytesOf(1), report: { rows: 3, skipped: { crc: 1 } } }));
  value(await workspace.saveCapture({ info: info('beta', 5), arrow: new Blob([bytesOf(2, 100)]) }));
  value(await workspace.saveRun(run('run-1', '2025-01-01T00:00:00.000Z')));
  value(await workspace.saveRun(run('run-2', '2025-01-02T00:00:00.000Z')));
  value(await workspace.saveSetting('theme', { mode: 'dark' }));
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const workspace of opened.splice(0)) workspace.close();
});

describe('captures', () => {
  it('round-trips bytes, description and report, and lists without bytes', async () => {
    const workspace = await open();
    const saved = value(await workspace.saveCapture({ info: info('alpha'), arrow: bytesOf(1), report: { rows: 3 } }));
    expect(saved).toEqual({ id: 'alpha', info: info('alpha'), report: { rows: 3 }, addedAt: '2025-01-01T00:00:01.000Z', byteLength: 64 });
    value(await workspace.saveCapture({ info: info('beta'), arrow: bytesOf(2, 10).slice().buffer }));
    value(await workspace.saveCapture({ info: info('gamma'), arrow: new Blob([bytesOf(3, 5)]) }));
    const listed = value(await workspace.listCaptures());
    expect(listed.map((capture) => [capture.id, capture.byteLength, capture.report])).toEqual([
      ['alpha', 64, { rows: 3 }],
      ['beta', 10, null],
      ['gamma', 5, null],
    ]);
    expect(listed.every((capture) => !('arrow' in capture))).toBe(true);
    expect(value(await workspace.loadCaptureBytes('alpha'))).toEqual(bytesOf(1));
    expect(value(await workspace.loadCaptureBytes('beta'))).toEqual(bytesOf(2, 10));
    const blob = value(await workspace.loadCaptureBlob('gamma'));
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytesOf(3, 5));
  });

  it('is still there after the connection closes and the database is opened again', async () => {
    const factory = new IDBFactory();
    const first = await open({ indexedDB: factory });
    await populate(first);
    const before = await snapshot(first);
    first.close();
    const second = await open({ indexedDB: factory });
    expect(await snapshot(second)).toEqual(before);
  });

  it('replaces a capture saved again under the same id', async () => {
    const workspace = await open();
    value(await workspace.saveCapture({ info: info('alpha'), arrow: bytesOf(1) }));
    value(await workspace.saveCapture({ info: info('alpha', 9), arrow: bytesOf(7, 8) }));
    const listed = value(await workspace.listCaptures());
    expect(listed).toHaveLength(1);
    expect(listed[0].info.rowCount).toBe(9);
    expect(value(await workspace.loadCaptureBytes('alpha'))).toEqual(bytesOf(7, 8));
  });

  it('deletes a capture with its bytes', async () => {
    const workspace = await open();
    await populate(workspace);
    expect(value(await workspace.deleteCapture('alpha'))).toBe(true);
    expect(value(await workspace.deleteCapture('alpha'))).toBe(false);
    expect(value(await workspace.listCaptures()).map((capture) => capture.id)).toEqual(['beta']);
    expect(await workspace.loadCaptureBytes('alpha')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', id: 'alpha' } });
    expect(await workspace.loadCaptureBlob('alpha')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('refuses malformed entries without storing anything', async () => {
    const workspace = await open();
    const broken = { ...info('x'), rowCount: 'many' } as unknown as CaptureInfo;
    expect(await workspace.saveCapture({ info: broken, arrow: bytesOf(1) })).toMatchObject({ ok: false, error: { code: 'INVALID_ENTRY' } });
    expect(await workspace.saveCapture({ info: info('empty'), arrow: new Uint8Array() })).toMatchObject({ ok: false, error: { code: 'INVALID_ENTRY' } });
    expect(await workspace.saveCapture({ info: info('fn'), arrow: bytesOf(1), report: { callback: () => 1 } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ENTRY' },
    });
    expect(value(await workspace.listCaptures())).toEqual([]);
  });

  it('stores bytes as ArrayBuffers when asked to', async () => {
    const workspace = await open({ bytesAs: 'arraybuffer' });
    await populate(workspace);
    expect(value(await workspace.loadCaptureBytes('beta'))).toEqual(bytesOf(2, 100));
    const blob = value(await workspace.loadCaptureBlob('alpha'));
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytesOf(1));
    const copy = await open({ bytesAs: 'arraybuffer' });
    expect(value(await copy.importWorkspace(value(await workspace.exportWorkspace())))).toMatchObject({ captures: 2, runs: 2 });
    expect(await snapshot(copy)).toEqual(await snapshot(workspace));
  });
});

describe('runs and settings', () => {
  it('lists runs newest first, with a limit, and deletes them', async () => {
    const workspace = await open({ newId: () => 'generated' });
    value(await workspace.saveRun(run('old', '2025-01-01T00:00:00.000Z')));
    value(await workspace.saveRun(run('new', '2025-03-01T00:00:00.000Z')));
    const { id: _ignored, ...withoutId } = run('x', '2025-02-01T00:00:00.000Z');
    expect(value(await workspace.saveRun(withoutId)).id).toBe('generated');
    expect(value(await workspace.listRuns()).map((entry) => entry.id)).toEqual(['new', 'generated', 'old']);
    expect(value(await workspace.listRuns({ limit: 1 })).map((entry) => entry.id)).toEqual(['new']);
    expect(value(await workspace.listRuns())[0]).toEqual(run('new', '2025-03-01T00:00:00.000Z'));
    expect(value(await workspace.deleteRun('old'))).toBe(true);
    expect(value(await workspace.deleteRun('old'))).toBe(false);
    expect(value(await workspace.listRuns()).map((entry) => entry.id)).toEqual(['new', 'generated']);
  });

  it('replaces a run saved again (a run that finished)', async () => {
    const workspace = await open();
    value(await workspace.saveRun({ ...run('r', '2025-01-01T00:00:00.000Z'), records: [] }));
    value(await workspace.saveRun(run('r', '2025-01-01T00:00:00.000Z')));
    expect(value(await workspace.listRuns())).toEqual([run('r', '2025-01-01T00:00:00.000Z')]);
  });

  it('refuses malformed runs', async () => {
    const workspace = await open();
    expect(await workspace.saveRun({ ...run('r', 'yesterday') })).toMatchObject({ ok: false, error: { code: 'INVALID_ENTRY' } });
    expect(await workspace.saveRun({ ...run('r', '2025-01-01T00:00:00.000Z'), input: { go: () => 1 } })).toMatchObject({ ok: false, error: { code: 'INVALID_ENTRY' } });
    expect(value(await workspace.listRuns())).toEqual([]);
  });

  it('keeps settings', async () => {
    const workspace = await open();
    expect(value(await workspace.getSetting('theme'))).toBeUndefined();
    value(await workspace.saveSetting('theme', { mode: 'dark' }));
    expect(value(await workspace.getSetting('theme'))).toEqual({ mode: 'dark' });
  });
});

describe('export and import', () => {
  it('round-trips a whole workspace into a fresh database', async () => {
    const source = await open();
    await populate(source);
    const file = value(await source.exportWorkspace());
    expect(file.type).toBe('application/x-sextant-workspace');
    expect(new TextDecoder().decode(new Uint8Array(await file.slice(0, 8).arrayBuffer()))).toBe(WORKSPACE_FILE_MAGIC);
    const target = await open();
    expect(value(await target.importWorkspace(file))).toEqual({ captures: 2, runs: 2, settings: 1, skipped: 0 });
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it('round-trips a large capture', async () => {
    const source = await open();
    const large = new Uint8Array(8 * 1024 * 1024);
    for (let index = 0; index < large.length; index += 4096) large[index] = index / 4096;
    value(await source.saveCapture({ info: info('large'), arrow: large }));
    const target = await open();
    value(await target.importWorkspace(value(await source.exportWorkspace())));
    const loaded = value(await target.loadCaptureBytes('large'));
    // Buffer comparison: vitest's element-wise toEqual takes minutes on 8 MB.
    expect(loaded.length).toBe(large.length);
    expect(Buffer.compare(loaded, large)).toBe(0);
  });

  it('replaces entries with the same ids, or skips them when asked', async () => {
    const source = await open();
    await populate(source);
    const file = value(await source.exportWorkspace());
    const target = await open();
    value(await target.saveCapture({ info: info('alpha', 99), arrow: bytesOf(9) }));
    value(await target.saveSetting('theme', 'light'));
    expect(value(await target.importWorkspace(file, { onConflict: 'skip' }))).toEqual({ captures: 1, runs: 2, settings: 0, skipped: 2 });
    expect(value(await target.loadCaptureBytes('alpha'))).toEqual(bytesOf(9));
    expect(value(await target.getSetting('theme'))).toBe('light');
    expect(value(await target.importWorkspace(file))).toEqual({ captures: 2, runs: 2, settings: 1, skipped: 0 });
    expect(value(await target.loadCaptureBytes('alpha'))).toEqual(bytesOf(1));
    expect(value(await target.getSetting('theme'))).toEqual({ mode: 'dark' });
  });

  it('carries the MCP call history: exported with the workspace, merged call by call on import', async () => {
    const call = (id: string, second: number, argumentsText = '{"message":"hi"}'): McpHistoryEntry => ({
      id,
      serverUrl: 'http://127.0.0.1:4365/mcp',
      toolName: 'echo',
      argumentsText,
      startedAt: new Date(Date.UTC(2026, 10, 27, 23, 0, second)).toISOString(),
      durationMs: 3,
      phase: 'execution',
      result: { status: 'ok', summary: `Echo ${id}`, warnings: [], errors: [], confidence: 1 },
    });
    const source = await open();
    value(await source.saveSetting(HISTORY_SETTING_KEY, historySetting([call('theirs-new', 5), call('shared', 3), call('theirs-old', 1)])));
    const file = value(await source.exportWorkspace());

    // Into a fresh workspace: the history arrives whole.
    const fresh = await open();
    expect(value(await fresh.previewImport(file)).mcpHistory).toEqual({ count: 3, new: 3 });
    value(await fresh.importWorkspace(file));
    expect(readStoredHistory(value(await fresh.getSetting(HISTORY_SETTING_KEY)))).toEqual(readStoredHistory(value(await source.getSetting(HISTORY_SETTING_KEY))));

    // Into a workspace with its own calls: both kept, newest first; the shared call stays ours unless replacing.
    const target = await open();
    value(await target.saveSetting(HISTORY_SETTING_KEY, historySetting([{ ...call('shared', 3), argumentsText: '{"message":"ours"}' }, call('mine', 2)])));
    const preview = value(await target.previewImport(file));
    expect(preview.mcpHistory).toEqual({ count: 3, new: 2 });
    expect(preview.settings.map((setting) => setting.key)).not.toContain(HISTORY_SETTING_KEY);
    expect(value(await target.importWorkspace(file, { onConflict: 'skip' }))).toEqual({ captures: 0, runs: 0, settings: 1, skipped: 1 });
    const merged = readStoredHistory(value(await target.getSetting(HISTORY_SETTING_KEY)));
    expect(merged.map((entry) => entry.id)).toEqual(['theirs-new', 'shared', 'mine', 'theirs-old']);
    expect(merged[1].argumentsText).toBe('{"message":"ours"}');
    value(await target.importWorkspace(file, { onConflict: 'replace' }));
    expect(readStoredHistory(value(await target.getSetting(HISTORY_SETTING_KEY)))[1].argumentsText).toBe('{"message":"hi"}');
  });

  it('bounds the arguments of an imported history call as the app bounds its own', async () => {
    const source = await open();
    const huge = { id: 'huge', serverUrl: 'http://x/mcp', toolName: 'echo', argumentsText: 'q'.repeat(MAX_KEPT_ARGUMENTS_CHARS + 1), startedAt: '2026-11-27T23:00:00.000Z', durationMs: 1, phase: 'execution', result: { status: 'ok', summary: 's', warnings: [], errors: [], confidence: 1 } };
    value(await source.saveSetting(HISTORY_SETTING_KEY, { version: 1, entries: [huge, { broken: true }] }));
    const target = await open();
    value(await target.importWorkspace(value(await source.exportWorkspace())));
    const stored = value(await target.getSetting(HISTORY_SETTING_KEY)) as { entries: McpHistoryEntry[] };
    expect(stored.entries).toHaveLength(1);
    expect(stored.entries[0].argumentsText).toHaveLength(MAX_KEPT_ARGUMENTS_CHARS);
    expect(stored.entries[0].omittedArgumentsChars).toBe(1);
  });

  it('rejects malformed files and changes nothing', async () => {
    const source = await open();
    await populate(source);
    const good = new Uint8Array(await value(await source.exportWorkspace()).arrayBuffer());
    const headerLength = new DataView(good.buffer).getUint32(12, true);
    const headerText = new TextDecoder().decode(good.subarray(16, 16 + headerLength));

    const withHeader = (text: string, version = 1): Blob => {
      const header = new TextEncoder().encode(text);
      const prefix = new Uint8Array(16);
      prefix.set(new TextEncoder().encode(WORKSPACE_FILE_MAGIC));
      new DataView(prefix.buffer).setUint32(8, version, true);
      new DataView(prefix.buffer).setUint32(12, header.length, true);
      return new Blob([prefix, header, good.subarray(16 + headerLength)]);
    };
    const header = JSON.parse(headerText) as { captures: Array<{ offset: number }>; version: number; payloadBytes: number };
    const cases: Array<[string, Blob, string]> = [
      ['empty', new Blob([]), 'NOT_A_WORKSPACE_FILE'],
      ['wrong magic', new Blob([new TextEncoder().encode('PK\u0003\u0004 this is a zip file')]), 'NOT_A_WORKSPACE_FILE'],
      ['prefix only', new Blob([good.subarray(0, 5)]), 'TRUNCATED'],
      ['inside the prefix', new Blob([good.subarray(0, 12)]), 'TRUNCATED'],
      ['inside the header', new Blob([good.subarray(0, 16 + Math.floor(headerLength / 2))]), 'TRUNCATED'],
      ['inside the payload', new Blob([good.subarray(0, good.length - 7)]), 'TRUNCATED'],
      ['trailing bytes', new Blob([good, new Uint8Array([0])]), 'BAD_HEADER'],
      ['future version', withHeader(headerText, 2), 'UNSUPPORTED_VERSION'],
      ['bad JSON', withHeader(headerText.slice(0, -1)), 'BAD_HEADER'],
      ['not an object', withHeader('[]'), 'BAD_HEADER'],
      ['header version differs', withHeader(JSON.stringify({ ...header, version: 3 })), 'BAD_HEADER'],
      ['overlapping captures', withHeader(JSON.stringify({ ...header, captures: header.captures.map((capture) => ({ ...capture, offset: 0 })) })), 'BAD_HEADER'],
      ['header cut off', withHeader(headerText).slice(0, 20), 'TRUNCATED'],
    ];
    const invalidUtf8 = new Uint8Array(16 + 2);
    invalidUtf8.set(new TextEncoder().encode(WORKSPACE_FILE_MAGIC));
    new DataView(invalidUtf8.buffer).setUint32(8, 1, true);
    new DataView(invalidUtf8.buffer).setUint32(12, 2, true);
    invalidUtf8.set([0xc3, 0x28], 16);
    cases.push(['invalid UTF-8 header', new Blob([invalidUtf8]), 'BAD_HEADER']);

    const target = await open();
    value(await target.saveCapture({ info: info('kept'), arrow: bytesOf(5) }));
    value(await target.saveRun(run('kept-run', '2025-05-05T00:00:00.000Z')));
    value(await target.saveSetting('theme', 'mine'));
    const before = await snapshot(target);
    for (const [name, file, code] of cases) {
      const result = await target.importWorkspace(file);
      expect({ name, result: result.ok ? 'ok' : result.error.code }).toEqual({ name, result: code });
    }
    expect(await snapshot(target)).toEqual(before);
  });

  it('rejects every truncation of a valid file (exhaustive over cut points)', async () => {
    const source = await open();
    await populate(source);
    const good = new Uint8Array(await value(await source.exportWorkspace()).arrayBuffer());
    const target = await open();
    for (let cut = 0; cut < good.length; cut += 3) {
      const result = await target.importWorkspace(new Blob([good.subarray(0, cut)]));
      expect(result.ok).toBe(false);
    }
    expect(value(await target.listCaptures())).toEqual([]);
    expect(value(await target.listRuns())).toEqual([]);
  });
});

describe('quota', () => {
  function failPutsInto(storeName: string): void {
    const original = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === storeName) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return original.apply(this, args);
    });
  }

  it('fails a save that does not fit with a coded problem and loses nothing', async () => {
    const workspace = await open();
    await populate(workspace);
    const before = await snapshot(workspace);
    failPutsInto('capture-bytes');
    const result = await workspace.saveCapture({ info: info('huge'), arrow: bytesOf(3, 4096) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'QUOTA_EXCEEDED', requestedBytes: 4096, usageBytes: 900 * 1024 * 1024, quotaBytes: 1024 * 1024 * 1024 });
    expect(result.error.message).toMatch(/Not enough browser storage for saving capture huge \(4\.00 KB\)\. This site uses 900 MB of its 1\.00 GB\. Nothing was changed/);
    // The description was written before the bytes failed, in the same transaction: rolled back.
    const overwrite = await workspace.saveCapture({ info: info('alpha', 42), arrow: bytesOf(8, 4096) });
    expect(overwrite).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    vi.restoreAllMocks();
    expect(await snapshot(workspace)).toEqual(before);
  });

  it('fails an import that does not fit and imports nothing', async () => {
    const source = await open();
    await populate(source);
    const file = value(await source.exportWorkspace());
    const target = await open();
    value(await target.saveCapture({ info: info('kept'), arrow: bytesOf(5) }));
    const before = await snapshot(target);
    failPutsInto('runs');
    expect(await target.importWorkspace(file)).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED' } });
    vi.restoreAllMocks();
    expect(await snapshot(target)).toEqual(before);
  });

  it('reports sizes as unknown when the browser gives no estimate', async () => {
    const workspace = await open({ storage: null });
    failPutsInto('runs');
    const result = await workspace.saveRun(run('r', '2025-01-01T00:00:00.000Z'));
    expect(result).toMatchObject({ ok: false, error: { code: 'QUOTA_EXCEEDED', usageBytes: null, quotaBytes: null } });
  });
});

describe('storage', () => {
  it('reports usage and asks for persistence when the browser can', async () => {
    const workspace = await open();
    expect(await workspace.storageEstimate()).toEqual({ usageBytes: 900 * 1024 * 1024, quotaBytes: 1024 * 1024 * 1024, persisted: false });
    expect(await workspace.requestPersistentStorage()).toBe('granted');
    expect(await requestPersistentStorage({ ...storage, persist: async () => false })).toBe('denied');
    expect(await requestPersistentStorage({ ...storage, persisted: async () => true, persist: async () => false })).toBe('granted');
  });

  it('degrades to null and unsupported without navigator.storage or when it fails', async () => {
    expect(await storageEstimate(null)).toBeNull();
    expect(await requestPersistentStorage(null)).toBe('unsupported');
    expect(await storageEstimate({ estimate: () => Promise.reject(new Error('denied')) })).toBeNull();
    expect(await requestPersistentStorage({ estimate: storage.estimate })).toBe('unsupported');
    expect(await requestPersistentStorage({ estimate: storage.estimate, persist: () => Promise.reject(new Error('no')) })).toBe('unsupported');
    // Node has no navigator.storage: the defaults find nothing.
    expect(await storageEstimate()).toBeNull();
  });

  it('returns UNAVAILABLE when IndexedDB cannot be opened', async () => {
    const refusing = {
      open: () => {
        throw new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError');
      },
    } as unknown as IDBFactory;
    const result = await openWorkspace({ indexedDB: refusing });
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('returns STORAGE_ERROR after the connection is closed', async () => {
    const workspace = await open();
    workspace.close();
    expect(await workspace.listCaptures()).toMatchObject({ ok: false, error: { code: 'STORAGE_ERROR' } });
    expect(await workspace.saveRun(run('r', '2025-01-01T00:00:00.000Z'))).toMatchObject({ ok: false, error: { code: 'STORAGE_ERROR' } });
  });
});
