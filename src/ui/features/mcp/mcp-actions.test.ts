import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readToolEntries, type McpConnection } from '../../../core/index.ts';
import type { McpServerState } from '../../lib/runtime/mcp-servers.ts';
import type { McpHistoryEntry } from '../../lib/runtime/mcp-history.ts';

const note = vi.fn();
const record = vi.fn(async () => ({}));
const request = vi.fn();
let connection: McpConnection;

vi.mock('../../lib/runtime/mcp-servers.ts', () => ({
  getMcpServers: () => ({ connection: async () => ({ ok: true, connection }), note, request, explain: () => '' }),
}));
vi.mock('../../lib/runtime/mcp-history.ts', () => ({ getMcpHistory: () => ({ record }) }));
vi.mock('../../lib/stores/saved-manifests.ts', () => ({ saveManifest: vi.fn() }));
vi.mock('../../lib/runtime/sextant-runtime.ts', () => ({ getRuntime: vi.fn() }));

const { rerunFromHistory, getPromptFromPage, readResourceFromPage, listResourcesFromPage } = await import('./mcp-actions.ts');

const URL_A = 'http://127.0.0.1:4365/mcp';
const { tools } = readToolEntries([{ name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } }]);
const server: McpServerState = { url: URL_A, name: 'everything', enabled: false, status: 'connected', error: null, tools, problems: [] };
const entry: McpHistoryEntry = {
  id: 'h1',
  serverUrl: URL_A,
  toolName: 'echo',
  argumentsText: '{"message":"again"}',
  startedAt: '2026-11-27T23:00:00.000Z',
  durationMs: 3,
  phase: 'execution',
  result: { status: 'ok', summary: 'Echo: again', warnings: [], errors: [], confidence: 1 },
};

beforeEach(() => {
  note.mockClear();
  record.mockClear();
  request.mockReset();
  connection = {
    listTools: async () => ({ ok: true, value: { tools: [] } }),
    callTool: async (_name, args, options) => {
      options.onProgress?.(1, 2);
      return { ok: true, value: { content: [{ type: 'text', text: `Echo: ${String(args.message)}` }] } };
    },
  };
});

describe('re-running a call from the history', () => {
  it('sends the same arguments again, records the new call and notes its progress', async () => {
    const outcome = await rerunFromHistory(entry, [server]);
    expect(outcome.ok && outcome.record.result.summary).toBe('Echo: again');
    expect(record).toHaveBeenCalledWith(URL_A, '{"message":"again"}', expect.objectContaining({ phase: 'execution' }), expect.any(Date));
    expect(note).toHaveBeenCalledWith(URL_A, { method: 'notifications/progress', level: null, text: 'echo: progress 1 of 2' });
  });

  it('says why it cannot start, records nothing and sends nothing', async () => {
    const call = vi.spyOn(connection, 'callTool');
    expect(await rerunFromHistory(entry, [])).toMatchObject({ ok: false, error: { code: 'EXECUTION_ERROR', message: expect.stringContaining('no longer among the servers') } });
    expect(await rerunFromHistory(entry, [{ ...server, status: 'error', error: 'HTTP 401' }])).toMatchObject({ ok: false, error: { message: expect.stringContaining('HTTP 401') } });
    expect(await rerunFromHistory({ ...entry, toolName: 'gone' }, [server])).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    expect(call).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
  });

  it('refuses an entry whose arguments the history cut, saying so; nothing is sent or recorded', async () => {
    const call = vi.spyOn(connection, 'callTool');
    const cut = { ...entry, argumentsText: '{"message":"aaaa', omittedArgumentsChars: 20_000 };
    expect(await rerunFromHistory(cut, [server])).toMatchObject({ ok: false, error: { code: 'INVALID_INVOCATION', field: 'arguments', message: expect.stringContaining('cannot be re-run') } });
    expect(call).not.toHaveBeenCalled();
    expect(record).not.toHaveBeenCalled();
  });
});

describe('resources and prompts from the page', () => {
  it('a prompt that errors on the server gets a coded message', async () => {
    request.mockResolvedValue({ ok: false, failure: { kind: 'rpc-error', code: -32603, message: 'the prompt failed' } });
    const got = await getPromptFromPage(URL_A, { name: 'p', arguments: [] }, {});
    expect(got).toMatchObject({ ok: false, sent: true, errors: [{ code: 'EXECUTION_ERROR', message: expect.stringContaining('the prompt failed') }] });
  });

  it('a URI that is not one is refused before sending', async () => {
    expect(await readResourceFromPage(URL_A, 'not a uri')).toMatchObject({ ok: false, error: { code: 'INVALID_VALUE', field: 'uri' } });
    expect(request).not.toHaveBeenCalled();
  });

  it('reads every page of a listing; a server without templates still lists its resources', async () => {
    request.mockImplementation(async (_url: string, method: string, params: { cursor?: string }) => {
      if (method === 'resources/templates/list') return { ok: false, failure: { kind: 'rpc-error', code: -32601, message: 'Method not found' } };
      return params.cursor === undefined ? { ok: true, value: { resources: [{ uri: 'a://1', name: '1' }], nextCursor: 'c2' } } : { ok: true, value: { resources: [{ uri: 'a://2', name: '2' }, { nope: true }] } };
    });
    const listed = await listResourcesFromPage(URL_A);
    expect(listed.ok && listed.value.resources.resources.map((resource) => resource.uri)).toEqual(['a://1', 'a://2']);
    expect(listed.ok && listed.value.resources.problems).toEqual([{ index: 2, message: 'has no "uri" string' }]);
    expect(listed.ok && listed.value.templates).toMatchObject({ ok: false, error: { message: expect.stringContaining('does not offer resources/templates/list') } });
  });
});
