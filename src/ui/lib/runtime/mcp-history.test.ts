import { describe, expect, it } from 'vitest';
import type { JsonValue, McpCallRecord } from '../../../core/index.ts';
import { createMcpHistory, MAX_HISTORY_ENTRIES, MAX_KEPT_OUTPUT_CHARS, readStoredHistory, REDACTED, type HistoryBackend } from './mcp-history.ts';
import { MAX_KEPT_ARGUMENTS_CHARS, mergeHistories, rerunRefusal, type McpHistoryEntry } from './mcp-history-model.ts';

const URL_A = 'http://127.0.0.1:4365/mcp';

function memoryBackend(initial?: unknown): HistoryBackend & { stored: unknown; saves: number; fail: string | null } {
  const backend = {
    stored: initial,
    saves: 0,
    fail: null as string | null,
    async load() {
      return backend.stored;
    },
    async save(value: JsonValue) {
      backend.saves += 1;
      if (backend.fail) return backend.fail;
      backend.stored = JSON.parse(JSON.stringify(value));
      return null;
    },
  };
  return backend;
}

let ids = 0;
const options = (secrets: string[] = []) => ({ secrets: () => secrets, newId: () => `h${++ids}` });

function okRecord(summary: string, output: Record<string, JsonValue> = { text: summary }): McpCallRecord {
  return { toolName: 'echo', phase: 'execution', durationMs: 12.5, result: { status: 'ok', summary, structured_output: output, warnings: [], errors: [], confidence: 1 } };
}

describe('the MCP call history', () => {
  it('records calls newest first with arguments, result, time and duration, and reads them back after a reload', async () => {
    const backend = memoryBackend();
    const history = createMcpHistory(backend, options());
    await history.record(URL_A, '{"message":"one"}', okRecord('Echo: one'), new Date('2026-11-27T23:00:00Z'));
    await history.record(URL_A, '{"message":"two"}', okRecord('Echo: two'), new Date('2026-11-27T23:00:01Z'));
    const reloaded = createMcpHistory(backend, options());
    await reloaded.load();
    const entries = reloaded.state.get().entries;
    expect(entries.map((entry) => entry.argumentsText)).toEqual(['{"message":"two"}', '{"message":"one"}']);
    expect(entries[1]).toMatchObject({ serverUrl: URL_A, toolName: 'echo', startedAt: '2026-11-27T23:00:00.000Z', durationMs: 12.5, phase: 'execution', result: { status: 'ok', summary: 'Echo: one' } });
  });

  it('keeps at most its limit, dropping the oldest', async () => {
    const history = createMcpHistory(memoryBackend(), options());
    for (let index = 0; index < MAX_HISTORY_ENTRIES + 3; index++) await history.record(URL_A, String(index), okRecord(`n${index}`), new Date());
    const entries = history.state.get().entries;
    expect(entries).toHaveLength(MAX_HISTORY_ENTRIES);
    expect(entries[0].argumentsText).toBe(String(MAX_HISTORY_ENTRIES + 2));
  });

  it('redacts a server credential echoed back in a result', async () => {
    const backend = memoryBackend();
    const history = createMcpHistory(backend, options(['tok-secret-42']));
    await history.record(URL_A, '{}', okRecord('env: AUTH=Bearer tok-secret-42'), new Date());
    expect(JSON.stringify(backend.stored)).not.toContain('tok-secret-42');
    expect(history.state.get().entries[0].result.summary).toBe(`env: AUTH=Bearer ${REDACTED}`);
  });

  it('leaves a huge structured output out and says how large it was', async () => {
    const history = createMcpHistory(memoryBackend(), options());
    const entry = await history.record(URL_A, '{}', okRecord('big', { blob: 'x'.repeat(MAX_KEPT_OUTPUT_CHARS + 10) }), new Date());
    expect(entry.result.structured_output).toBeUndefined();
    expect(entry.omittedOutputChars).toBeGreaterThan(MAX_KEPT_OUTPUT_CHARS);
    expect(entry.result.summary).toBe('big');
  });

  it('a failed save keeps the entries in the tab and says why', async () => {
    const backend = memoryBackend();
    backend.fail = 'QUOTA_EXCEEDED: full';
    const history = createMcpHistory(backend, options());
    await history.record(URL_A, '{}', okRecord('kept'), new Date());
    expect(history.state.get().entries).toHaveLength(1);
    expect(history.state.get().problem).toContain('QUOTA_EXCEEDED');
    backend.fail = null;
    await history.record(URL_A, '{}', okRecord('saved'), new Date());
    expect(history.state.get().problem).toBeNull();
    expect(readStoredHistory(backend.stored)).toHaveLength(2);
  });

  it('skips malformed stored entries and clears one server\'s entries', async () => {
    const good = { id: 'a', serverUrl: URL_A, toolName: 'echo', argumentsText: '{}', startedAt: '2026-11-27T23:00:00.000Z', durationMs: 1, phase: 'execution', result: { status: 'ok', summary: 's', warnings: [], errors: [], confidence: 1 } };
    const other = { ...good, id: 'b', serverUrl: 'http://other/mcp' };
    const backend = memoryBackend({ version: 1, entries: [good, { id: 'broken' }, 'text', other] });
    const history = createMcpHistory(backend, options());
    await history.load();
    expect(history.state.get().entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    await history.clear(URL_A);
    expect(readStoredHistory(backend.stored).map((entry) => entry.id)).toEqual(['b']);
    expect(readStoredHistory('garbage')).toEqual([]);
  });

  it('keeps at most MAX_KEPT_ARGUMENTS_CHARS of the arguments, says how many were left out, and refuses to re-run such an entry', async () => {
    const backend = memoryBackend();
    const history = createMcpHistory(backend, options());
    const long = JSON.stringify({ message: 'y'.repeat(MAX_KEPT_ARGUMENTS_CHARS + 500) });
    const entry = await history.record(URL_A, long, okRecord('long'), new Date());
    expect(entry.argumentsText).toBe(long.slice(0, MAX_KEPT_ARGUMENTS_CHARS));
    expect(entry.omittedArgumentsChars).toBe(long.length - MAX_KEPT_ARGUMENTS_CHARS);
    expect(rerunRefusal(entry)).toContain(`Its arguments (${long.length.toLocaleString('en')} characters) were longer than the history keeps (16,384)`);
    expect(rerunRefusal(entry)).toContain('cannot be re-run');
    // What is stored is what the tab shows: cut, and marked as cut.
    expect(readStoredHistory(backend.stored)[0]).toEqual(entry);
    // Arguments within the bound are kept whole and re-run.
    const short = await history.record(URL_A, '{"message":"short"}', okRecord('short'), new Date());
    expect(short.omittedArgumentsChars).toBeUndefined();
    expect(rerunRefusal(short)).toBeNull();
  });

  it('redacts before cutting, so a secret across the cut leaves no part of itself', async () => {
    const secret = 'tok-secret-across-the-cut';
    const backend = memoryBackend();
    const history = createMcpHistory(backend, options([secret]));
    const text = `${'a'.repeat(MAX_KEPT_ARGUMENTS_CHARS - 8)}${secret}${'b'.repeat(100)}`;
    const entry = await history.record(URL_A, text, okRecord('s'), new Date());
    expect(entry.argumentsText).not.toContain('tok-secr');
    expect(JSON.stringify(backend.stored)).not.toContain('tok-secr');
    expect(entry.argumentsText.endsWith(REDACTED.slice(0, 8))).toBe(true);
  });

  it('never cuts a character in half (a surrogate pair at the bound)', async () => {
    const history = createMcpHistory(memoryBackend(), options());
    const entry = await history.record(URL_A, `${'a'.repeat(MAX_KEPT_ARGUMENTS_CHARS - 1)}😀tail`, okRecord('emoji'), new Date());
    expect(entry.argumentsText).toBe('a'.repeat(MAX_KEPT_ARGUMENTS_CHARS - 1));
    expect(entry.omittedArgumentsChars).toBe(6);
  });

  it('cuts over-long arguments of a stored or imported history as it reads it', () => {
    const stored = { id: 's', serverUrl: URL_A, toolName: 'echo', argumentsText: 'z'.repeat(MAX_KEPT_ARGUMENTS_CHARS * 2), startedAt: '2026-11-27T23:00:00.000Z', durationMs: 1, phase: 'execution', result: { status: 'ok', summary: 's', warnings: [], errors: [], confidence: 1 } };
    const [read] = readStoredHistory({ version: 1, entries: [stored, { ...stored, id: 'bad', omittedArgumentsChars: -1 }] });
    expect(read.argumentsText).toHaveLength(MAX_KEPT_ARGUMENTS_CHARS);
    expect(read.omittedArgumentsChars).toBe(MAX_KEPT_ARGUMENTS_CHARS);
    expect(readStoredHistory({ version: 1, entries: [{ ...stored, id: 'bad', omittedArgumentsChars: -1 }] })).toEqual([]);
  });

  it('reload merges what was stored meanwhile (a workspace import) with the calls of this tab', async () => {
    const backend = memoryBackend();
    const history = createMcpHistory(backend, options());
    await history.record(URL_A, '{"n":2}', okRecord('mine'), new Date('2026-11-27T23:00:02Z'));
    const imported: McpHistoryEntry = { ...readStoredHistory(backend.stored)[0], id: 'imported', argumentsText: '{"n":1}', startedAt: '2026-11-27T23:00:01.000Z' };
    backend.stored = { version: 1, entries: [...readStoredHistory(backend.stored), imported] };
    await history.reload();
    expect(history.state.get().entries.map((entry) => entry.argumentsText)).toEqual(['{"n":2}', '{"n":1}']);
  });
});

describe('merging two histories', () => {
  const entry = (id: string, second: number, summary = id): McpHistoryEntry => ({
    id,
    serverUrl: URL_A,
    toolName: 'echo',
    argumentsText: '{}',
    startedAt: new Date(Date.UTC(2026, 10, 27, 23, 0, second)).toISOString(),
    durationMs: 1,
    phase: 'execution',
    result: { status: 'ok', summary, warnings: [], errors: [], confidence: 1 },
  });

  it('joins call by call, newest first; a call in both keeps ours unless replacing', () => {
    const mine = [entry('b', 3), entry('a', 1)];
    const theirs = [entry('c', 4), entry('b', 3, 'theirs'), entry('d', 2)];
    const kept = mergeHistories(mine, theirs);
    expect(kept.entries.map((item) => `${item.id}:${item.result.summary}`)).toEqual(['c:c', 'b:b', 'd:d', 'a:a']);
    expect([kept.added, kept.skipped]).toEqual([2, 1]);
    const replaced = mergeHistories(mine, theirs, { replace: true });
    expect(replaced.entries.map((item) => item.result.summary)).toEqual(['c', 'theirs', 'd', 'a']);
    expect([replaced.added, replaced.skipped]).toEqual([3, 0]);
  });

  it('keeps the newest MAX_HISTORY_ENTRIES and counts the older ones left out', () => {
    const mine = Array.from({ length: MAX_HISTORY_ENTRIES }, (_, index) => entry(`m${index}`, 100 + index));
    const merged = mergeHistories(mine, [entry('old', 0), entry('new', 1000)]);
    expect(merged.entries).toHaveLength(MAX_HISTORY_ENTRIES);
    expect(merged.entries[0].id).toBe('new');
    expect(merged.entries.some((item) => item.id === 'old')).toBe(false);
    expect([merged.added, merged.skipped]).toEqual([1, 1]);
  });
});
