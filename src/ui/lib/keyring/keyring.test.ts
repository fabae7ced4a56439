import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import type { CaptureInfo } from '../../../core/index.ts';
import { openWorkspace } from '../workspace/workspace.ts';
import { decodeWorkspaceFile } from '../workspace/workspace-file.ts';
import { Keyring } from './keyring.ts';
import { addToIrks, entriesFromReport, KEYRING_SETTING, normalizeIrk, parseKeyring, REDACTED_IRK } from './keyring-model.ts';

const IRK = '267483cba09b720412251bd6638d40b7';
const IRK_WIRESHARK = 'b7408d63d61b251204729ba0cb837426';
const REPORT = {
  capture_id: 'ec521',
  identity_keys: [
    { irk: IRK, source: 'smp_identity_information', frame_number: 14174, identity_address: '8C:1A:BF:39:FB:FD', identity_address_type: 'public' },
    { irk: IRK, source: 'resolving_list_local', frame_number: 14186 },
    { irk: 'not a key', source: 'resolving_list_local', frame_number: 1 },
  ],
};
const NOW = () => new Date('2026-11-24T10:00:00Z');

async function workspace() {
  const opened = await openWorkspace({ dbName: `keyring-${Math.random()}`, indexedDB: new IDBFactory(), storage: null, now: NOW });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

function info(id: string): CaptureInfo {
  return {
    id,
    description: `capture ${id}`,
    source: `${id}.log`,
    rowCount: 1,
    columns: [{ name: 'ts_ms', kind: 'number' }],
    timeColumn: 'ts_ms',
    channelColumn: null,
    channels: [],
    bounds: { start_ms: 0, end_ms: 10 },
    boundsSource: 'observed',
    timeOrigin: null,
  };
}

describe('keyring model', () => {
  it('labels found keys by capture, frame and source, and drops malformed report entries', () => {
    const entries = entriesFromReport('ec521', REPORT, '2026-11-24T10:00:00.000Z');
    expect(entries.map((entry) => [entry.id, entry.label, entry.irk])).toEqual([
      ['capture:ec521:14174:smp_identity_information', 'ec521 frame 14174 (SMP identity, 8C:1A:BF:39:FB:FD)', IRK],
      ['capture:ec521:14186:resolving_list_local', 'ec521 frame 14186 (resolving list, local)', IRK],
    ]);
    expect(entriesFromReport('x', { rows: 3 }, '')).toEqual([]);
  });

  it('normalizes typed keys: separators, case, Wireshark order; refuses bad and zero keys', () => {
    expect(normalizeIrk(` ${IRK.toUpperCase()} `)).toEqual({ ok: true, irk: IRK });
    expect(normalizeIrk((IRK_WIRESHARK.match(/../g) ?? []).join(':'), true)).toEqual({ ok: true, irk: IRK });
    expect(normalizeIrk(IRK.slice(2)).ok).toBe(false);
    expect(normalizeIrk('0'.repeat(32)).ok).toBe(false);
    expect(normalizeIrk(`${IRK.slice(1)}x`).ok).toBe(false);
  });

  it('adds keys to irks once each, with unique labels', () => {
    const entries = [
      ...entriesFromReport('ec521', REPORT, ''),
      { id: 'manual:aa', label: 'phone', irk: 'a'.repeat(32), origin: 'manual' as const, addedAt: '' },
      { id: 'manual:bb', label: 'phone', irk: 'b'.repeat(32), origin: 'manual' as const, addedAt: '' },
    ];
    expect(addToIrks([{ label: 'phone', irk: 'C'.repeat(32) }], entries)).toEqual([
      { label: 'phone', irk: 'C'.repeat(32) },
      { label: 'ec521 frame 14174 (SMP identity, 8C:1A:BF:39:FB:FD)', irk: IRK },
      { label: 'phone (2)', irk: 'a'.repeat(32) },
      { label: 'phone (3)', irk: 'b'.repeat(32) },
    ]);
  });
});

describe('keyring in the workspace', () => {
  it('keeps found and typed keys across a reopen, replaces a key found again, removes keys', async () => {
    const ws = await workspace();
    const keyring = new Keyring(async () => ws, NOW);
    expect((await keyring.addFromReport('ec521', REPORT)).ok).toBe(true);
    expect((await keyring.addFromReport('ec521', REPORT)).ok).toBe(true);
    const typed = await keyring.addManual('suspect phone', IRK_WIRESHARK, true);
    expect(typed.ok && typed.value.irk).toBe(IRK);
    expect((await keyring.addManual('', IRK)).ok).toBe(false);
    expect((await keyring.addManual('bad', '1234')).ok).toBe(false);

    const again = new Keyring(async () => ws, NOW);
    await again.load();
    expect(again.snapshot().map((entry) => entry.label)).toEqual([
      'ec521 frame 14174 (SMP identity, 8C:1A:BF:39:FB:FD)',
      'ec521 frame 14186 (resolving list, local)',
      'suspect phone',
    ]);
    await again.remove('capture:ec521:14186:resolving_list_local');
    const stored = await ws.getSetting(KEYRING_SETTING);
    expect(stored.ok && parseKeyring(stored.value).map((entry) => entry.id)).toEqual(['capture:ec521:14174:smp_identity_information', `manual:${IRK}`]);
  });

  it('concurrent additions all land', async () => {
    const ws = await workspace();
    const keyring = new Keyring(async () => ws, NOW);
    await Promise.all([keyring.addFromReport('a', REPORT), keyring.addFromReport('b', REPORT), keyring.addManual('typed', 'c'.repeat(32))]);
    expect(keyring.snapshot()).toHaveLength(5);
  });

  it('never logs a key', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) => vi.spyOn(console, method));
    const ws = await workspace();
    const keyring = new Keyring(async () => ws, NOW);
    await keyring.addFromReport('ec521', REPORT);
    await keyring.addManual('typed', IRK);
    await keyring.addManual('bad', 'zz');
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });
});

describe('workspace import keeps this browser\'s keys', () => {
  it('a file with its own keyring adds its keys and loses none of ours', async () => {
    const source = await workspace();
    await new Keyring(async () => source, NOW).addManual('from the file', 'd'.repeat(32));
    const file = await source.exportWorkspace({ includeIdentityKeys: true });
    if (!file.ok) throw new Error(file.error.message);

    const ws = await workspace();
    const keyring = new Keyring(async () => ws, NOW);
    await keyring.addManual('ours', 'e'.repeat(32));
    const imported = await keyring.keepThrough(() => ws.importWorkspace(file.value, { onConflict: 'replace' }));
    expect(imported.ok).toBe(true);
    expect(keyring.snapshot().map((entry) => entry.label).sort()).toEqual(['from the file', 'ours']);
    const reopened = new Keyring(async () => ws, NOW);
    await reopened.load();
    expect(reopened.snapshot()).toHaveLength(2);
  });
});

describe('workspace export and identity keys', () => {
  async function exported(includeIdentityKeys: boolean | undefined) {
    const ws = await workspace();
    await ws.saveCapture({ info: info('ec521'), arrow: Uint8Array.from([1, 2, 3]), report: REPORT });
    await ws.saveRun({
      id: 'run-1',
      input: { tool_name: 'bluetooth_address_analyzer', arguments: { irks: [{ label: 'phone', irk: IRK }] } },
      isPlan: false,
      startedAt: '2026-11-24T10:00:00.000Z',
      records: [],
      durationMs: 1,
    });
    await new Keyring(async () => ws, NOW).addManual('typed', 'c'.repeat(32));
    const file = await ws.exportWorkspace(includeIdentityKeys === undefined ? undefined : { includeIdentityKeys });
    if (!file.ok) throw new Error(file.error.message);
    const text = new TextDecoder().decode(await file.value.arrayBuffer());
    const decoded = await decodeWorkspaceFile(file.value);
    if (!decoded.ok) throw new Error(decoded.error.message);
    return { text, content: decoded.value };
  }

  it('by default holds no key: no keyring, report keys without irk, run irks replaced', async () => {
    const { text, content } = await exported(undefined);
    expect(text).not.toContain(IRK);
    expect(text).not.toContain('c'.repeat(32));
    expect(content.settings.find((setting) => setting.key === KEYRING_SETTING)).toBeUndefined();
    expect((content.captures[0].summary.report as typeof REPORT).identity_keys[0]).toEqual({
      source: 'smp_identity_information',
      frame_number: 14174,
      identity_address: '8C:1A:BF:39:FB:FD',
      identity_address_type: 'public',
    });
    expect(content.runs[0].input).toEqual({ tool_name: 'bluetooth_address_analyzer', arguments: { irks: [{ label: 'phone', irk: REDACTED_IRK }] } });
    expect((await exported(false)).text).not.toContain(IRK);
  });

  it('holds every key when the analyst ticks it', async () => {
    const { content } = await exported(true);
    expect(parseKeyring(content.settings.find((setting) => setting.key === KEYRING_SETTING)?.value)).toHaveLength(1);
    expect((content.captures[0].summary.report as typeof REPORT).identity_keys[0].irk).toBe(IRK);
    expect(content.runs[0].input).toEqual({ tool_name: 'bluetooth_address_analyzer', arguments: { irks: [{ label: 'phone', irk: IRK }] } });
  });
});
