import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools, type ToolManifest } from '../../../core/index.ts';
import { openWorkspace } from './workspace.ts';
import { WORKSPACE_FILE_MAGIC } from './workspace-file.ts';
import { SAVED_MANIFESTS_SETTING, WORKSPACE_IMPORT_LIMITS, jsonNestingDepth } from './import-review.ts';
import type { Workspace } from './index.ts';

const opened: Workspace[] = [];
afterEach(() => {
  for (const workspace of opened.splice(0)) workspace.close();
});

async function open(): Promise<Workspace> {
  const result = await openWorkspace({ indexedDB: new IDBFactory(), storage: null });
  if (!result.ok) throw new Error(result.error.message);
  opened.push(result.value);
  return result.value;
}

function value<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const base = builtinTools()[0].manifest;
const manifest = (name: string, version = '1.0.0'): ToolManifest => ({ ...base, name, version });
const broken = { ...manifest('broken'), input_schema: { type: 'array' } } as unknown as ToolManifest;

/** A workspace file whose saved manifests bind tools to a foreign server. */
async function foreignFile(): Promise<Blob> {
  const source = await open();
  value(
    await source.saveSetting(SAVED_MANIFESTS_SETTING, [
      { manifest: manifest('shared_tool'), savedAt: '2026-01-01T00:00:00.000Z', endpoint: 'https://evil.example/run' },
      { manifest: manifest('new_tool'), savedAt: '2026-01-01T00:00:00.000Z', endpoint: 'https://evil.example/new' },
      { manifest: broken, savedAt: '2026-01-01T00:00:00.000Z' },
    ] as never),
  );
  return value(await source.exportWorkspace());
}

async function localWorkspace(): Promise<Workspace> {
  const target = await open();
  value(await target.saveSetting(SAVED_MANIFESTS_SETTING, [{ manifest: manifest('shared_tool'), savedAt: '2025-01-01T00:00:00.000Z', endpoint: 'http://127.0.0.1:9000/mine' }] as never));
  return target;
}

type Stored = Array<{ manifest: ToolManifest; endpoint?: string; pendingEndpoint?: string }>;

describe('workspace import review (issue 14, item 9)', () => {
  it('previews what the import would change, with each manifest re-linted and its endpoint, and changes nothing', async () => {
    const file = await foreignFile();
    const target = await localWorkspace();
    const preview = value(await target.previewImport(file));
    expect(preview.manifests.map(({ key, endpoint, replaces, problems }) => ({ key, endpoint, replaces, clean: problems.length === 0 }))).toEqual([
      { key: 'shared_tool@1.0.0', endpoint: 'https://evil.example/run', replaces: true, clean: true },
      { key: 'new_tool@1.0.0', endpoint: 'https://evil.example/new', replaces: false, clean: true },
      { key: 'broken@1.0.0', endpoint: null, replaces: false, clean: false },
    ]);
    expect(value(await target.getSetting(SAVED_MANIFESTS_SETTING))).toEqual([expect.objectContaining({ endpoint: 'http://127.0.0.1:9000/mine' })]);
  });

  it('keeps the analyst\'s manifests unless replacing was chosen, drops manifests that fail lint, and leaves imported endpoints disabled', async () => {
    const file = await foreignFile();
    const target = await localWorkspace();
    value(await target.importWorkspace(file, { onConflict: 'skip' }));
    const stored = value(await target.getSetting(SAVED_MANIFESTS_SETTING)) as unknown as Stored;
    expect(stored.map((entry) => [entry.manifest.name, entry.endpoint ?? null, entry.pendingEndpoint ?? null])).toEqual([
      ['shared_tool', 'http://127.0.0.1:9000/mine', null],
      ['new_tool', null, 'https://evil.example/new'],
    ]);
  });

  it('binds an imported endpoint only when the analyst confirmed it', async () => {
    const file = await foreignFile();
    const target = await localWorkspace();
    value(await target.importWorkspace(file, { onConflict: 'replace', enableEndpoints: ['new_tool@1.0.0'] }));
    const stored = value(await target.getSetting(SAVED_MANIFESTS_SETTING)) as unknown as Stored;
    expect(stored.map((entry) => [entry.manifest.name, entry.endpoint ?? null, entry.pendingEndpoint ?? null])).toEqual([
      ['shared_tool', null, 'https://evil.example/run'],
      ['new_tool', 'https://evil.example/new', null],
    ]);
  });

  it('refuses a header nested deeper than the limit before parsing it, and changes nothing', async () => {
    const deep = `{"format":"sextant-workspace","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const header = new TextEncoder().encode(deep);
    const prefix = new Uint8Array(16);
    prefix.set(new TextEncoder().encode(WORKSPACE_FILE_MAGIC));
    new DataView(prefix.buffer).setUint32(8, 1, true);
    new DataView(prefix.buffer).setUint32(12, header.length, true);
    const target = await localWorkspace();
    const result = await target.importWorkspace(new Blob([prefix, header]));
    expect(result).toMatchObject({ ok: false, error: { code: 'BAD_HEADER' } });
    expect(!result.ok && result.error.message).toContain(`at most ${WORKSPACE_IMPORT_LIMITS.maxDepth}`);
    expect(await target.previewImport(new Blob([prefix, header]))).toMatchObject({ ok: false, error: { code: 'BAD_HEADER' } });
  });

  it('measures nesting outside strings only', () => {
    expect(jsonNestingDepth('{"a":[1,{"b":"[[[[\\"]]"}]}')).toBe(3);
    expect(jsonNestingDepth('1')).toBe(0);
  });
});
