import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { builtinTools, type ToolManifest } from '../../../core/index.ts';
import { decidePendingEndpoint, loadSavedManifests, resolvePendingEndpoint, type SavedManifest } from './saved-manifests.ts';
import { getWorkspace } from './workspace-session.ts';

const base = builtinTools()[0].manifest;
const manifest = (name: string, version = '1.0.0'): ToolManifest => ({ ...base, name, version });
const savedAt = '2026-11-01T00:00:00.000Z';

describe('imported endpoints waiting for the analyst (issue 14, item 9)', () => {
  const entries: SavedManifest[] = [
    { manifest: manifest('mine'), savedAt, endpoint: 'http://127.0.0.1:9000/mine' },
    { manifest: manifest('foreign'), savedAt, pendingEndpoint: 'https://203.0.113.7/run' },
    { manifest: manifest('foreign', '2.0.0'), savedAt, endpoint: 'https://old.example/run', pendingEndpoint: 'https://203.0.113.7/v2' },
  ];

  it('enabling moves the pending URL to the endpoint binding of that version only', () => {
    const outcome = resolvePendingEndpoint(entries, 'foreign', '1.0.0', 'enable');
    expect(outcome.ok && outcome.entries.map((entry) => [entry.manifest.version, entry.endpoint ?? null, entry.pendingEndpoint ?? null])).toEqual([
      ['1.0.0', 'http://127.0.0.1:9000/mine', null],
      ['1.0.0', 'https://203.0.113.7/run', null],
      ['2.0.0', 'https://old.example/run', 'https://203.0.113.7/v2'],
    ]);
    expect(entries[1].pendingEndpoint).toBe('https://203.0.113.7/run');
  });

  it('enabling replaces an earlier endpoint; discarding keeps it and drops the pending URL', () => {
    const enabled = resolvePendingEndpoint(entries, 'foreign', '2.0.0', 'enable');
    expect(enabled.ok && enabled.entry).toEqual({ manifest: manifest('foreign', '2.0.0'), savedAt, endpoint: 'https://203.0.113.7/v2' });
    const discarded = resolvePendingEndpoint(entries, 'foreign', '2.0.0', 'discard');
    expect(discarded.ok && discarded.entry).toEqual({ manifest: manifest('foreign', '2.0.0'), savedAt, endpoint: 'https://old.example/run' });
  });

  it('refuses a version with nothing pending, and will not enable a URL that is not http(s)', () => {
    expect(resolvePendingEndpoint(entries, 'mine', '1.0.0', 'enable')).toMatchObject({ ok: false });
    expect(resolvePendingEndpoint(entries, 'absent', '1.0.0', 'discard')).toMatchObject({ ok: false });
    const odd: SavedManifest[] = [{ manifest: manifest('odd'), savedAt, pendingEndpoint: 'javascript:alert(1)' }];
    expect(resolvePendingEndpoint(odd, 'odd', '1.0.0', 'enable')).toMatchObject({ ok: false, message: expect.stringContaining('not an http(s) URL') });
    expect(resolvePendingEndpoint(odd, 'odd', '1.0.0', 'discard')).toMatchObject({ ok: true, entry: { manifest: manifest('odd'), savedAt } });
  });

  it('persists the decision in the workspace', async () => {
    const workspace = await getWorkspace();
    if (!workspace) throw new Error('no workspace');
    await workspace.saveSetting('manifests.v1', entries as never);
    expect(await decidePendingEndpoint('foreign', '1.0.0', 'enable')).toMatchObject({ ok: true });
    expect(await decidePendingEndpoint('foreign', '2.0.0', 'discard')).toMatchObject({ ok: true });
    expect((await loadSavedManifests()).map((entry) => [entry.manifest.version, entry.endpoint ?? null, entry.pendingEndpoint ?? null])).toEqual([
      ['1.0.0', 'http://127.0.0.1:9000/mine', null],
      ['1.0.0', 'https://203.0.113.7/run', null],
      ['2.0.0', 'https://old.example/run', null],
    ]);
    expect(await decidePendingEndpoint('foreign', '1.0.0', 'enable')).toMatchObject({ ok: false });
  });
});
