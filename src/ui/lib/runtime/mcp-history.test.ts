import { describe, expect, it } from 'vitest';
import type { JsonValue, McpCallRecord } from '../../../core/index.ts';
import { createMcpHistory, MAX_HISTORY_ENTRIES, MAX_KEPT_OUTPUT_CHARS, readStoredHistory, REDACTED, type HistoryBackend } from './mcp-history.ts';

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
});
