import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspace } from './workspace.ts';
import { decodeWorkspaceFile } from './workspace-file.ts';
import type { Workspace, WorkspacePlannerRun } from './index.ts';

const opened: Workspace[] = [];

async function open(factory = new IDBFactory()): Promise<Workspace> {
  const result = await openWorkspace({ indexedDB: factory, storage: null, now: () => new Date(Date.UTC(2026, 3, 3)) });
  if (!result.ok) throw new Error(result.error.message);
  opened.push(result.value);
  return result.value;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

function plannerRun(id: string, startedAt: string): WorkspacePlannerRun {
  return {
    id,
    startedAt,
    record: { question: 'Does jitter explain latency?', targets: [{ provider: 'scripted', model: 'demo' }], events: [{ type: 'session-start' }] },
  };
}

afterEach(() => {
  for (const workspace of opened.splice(0)) workspace.close();
});

describe('planner runs in the workspace', () => {
  it('saves, lists newest first, replaces by id and deletes', async () => {
    const workspace = await open();
    value(await workspace.savePlannerRun(plannerRun('p1', '2026-04-03T08:00:00.000Z')));
    value(await workspace.savePlannerRun(plannerRun('p2', '2026-04-03T09:00:00.000Z')));
    value(await workspace.savePlannerRun({ ...plannerRun('p1', '2026-04-03T08:00:00.000Z'), record: { question: 'again' } }));
    const listed = value(await workspace.listPlannerRuns());
    expect(listed.map((run) => run.id)).toEqual(['p2', 'p1']);
    expect(listed[1].record).toEqual({ question: 'again' });
    expect(value(await workspace.listPlannerRuns({ limit: 1 }))).toHaveLength(1);
    expect(value(await workspace.deletePlannerRun('p2'))).toBe(true);
    expect(value(await workspace.deletePlannerRun('p2'))).toBe(false);
  });

  it('refuses a run that holds an API key, wherever it is', async () => {
    const workspace = await open();
    const leaky = { ...plannerRun('p1', '2026-04-03T08:00:00.000Z'), record: { targets: [{ provider: 'openai', model: 'gpt', apiKey: 'sk-secret' }] } };
    const saved = await workspace.savePlannerRun(leaky);
    expect(saved.ok).toBe(false);
    expect(!saved.ok && saved.error).toMatchObject({ code: 'INVALID_ENTRY', message: expect.stringContaining('record.targets[0].apiKey') });
    expect(value(await workspace.listPlannerRuns())).toEqual([]);
  });

  it('a version-1 database is upgraded with its captures, runs and settings intact', async () => {
    const factory = new IDBFactory();
    // The version-1 schema exactly as it shipped, with one run and one setting in it.
    await new Promise<void>((resolve, reject) => {
      const request = factory.open('sextant-workspace', 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore('captures', { keyPath: 'id' }).createIndex('by-addedAt', 'addedAt');
        db.createObjectStore('capture-bytes', { keyPath: 'id' });
        const runs = db.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('by-startedAt', 'startedAt');
        db.createObjectStore('settings', { keyPath: 'key' });
        runs.put({ id: '1', input: {}, isPlan: false, startedAt: '2026-01-01T00:00:00.000Z', records: [], durationMs: 3 });
        request.transaction!.objectStore('settings').put({ key: 'theme', value: 'dark' });
      };
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    const workspace = await open(factory);
    expect(value(await workspace.listRuns()).map((run) => run.id)).toEqual(['1']);
    expect(value(await workspace.getSetting('theme'))).toBe('dark');
    value(await workspace.savePlannerRun(plannerRun('p1', '2026-04-03T08:00:00.000Z')));
    expect(value(await workspace.listPlannerRuns())).toHaveLength(1);
  });

  it('travels in the workspace file and is imported back', async () => {
    const source = await open();
    value(await source.savePlannerRun(plannerRun('p1', '2026-04-03T08:00:00.000Z')));
    const file = value(await source.exportWorkspace());
    const decoded = value(await decodeWorkspaceFile(file));
    expect(decoded.plannerRuns.map((run) => run.id)).toEqual(['p1']);
    const target = await open();
    expect(value(await target.importWorkspace(file))).toEqual({ captures: 0, runs: 1, settings: 0, skipped: 0 });
    expect(value(await target.listPlannerRuns())).toEqual([plannerRun('p1', '2026-04-03T08:00:00.000Z')]);
    expect(value(await target.importWorkspace(file, { onConflict: 'skip' }))).toMatchObject({ runs: 0, skipped: 1 });
  });

  it('a workspace file without planner runs reads as none', async () => {
    const source = await open();
    const file = value(await source.exportWorkspace());
    const header = await file.slice(16).text();
    expect(header).not.toContain('plannerRuns');
    expect(value(await decodeWorkspaceFile(file)).plannerRuns).toEqual([]);
  });
});
