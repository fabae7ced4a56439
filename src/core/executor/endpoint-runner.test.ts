import { describe, expect, it, vi } from 'vitest';
import { createExecutor } from './executor.ts';
import { createEndpointRunner } from './endpoint-runner.ts';
import { demoCatalog, testExecutor } from './test-support.ts';
import type { ToolImplementation } from '../tools/tool.ts';
import type { ToolRunner } from './runner.ts';

const remoteManifest = () => {
  const { registry } = testExecutor();
  return {
    ...structuredClone(registry.latest('test_echo')!.manifest),
    name: 'remote_echo',
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  };
};

function setup(fetch: typeof globalThis.fetch) {
  const remote: ToolImplementation = { manifest: remoteManifest(), run: () => ({ status: 'error', summary: 'never', errors: [{ code: 'EXECUTION_ERROR', field: '', message: 'never' }] }) };
  const { registry } = testExecutor([remote]);
  const fallback: ToolRunner = { run: vi.fn() };
  const runner = createEndpointRunner({ endpointFor: (name) => (name === 'remote_echo' ? 'http://127.0.0.1:9/tool' : null), fetch, fallback });
  return { executor: createExecutor({ registry, catalog: demoCatalog(), runner }), fallback };
}

const invocation = (timeout_ms = 5000) => ({
  tool_name: 'remote_echo',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: { text: 'hi' },
  request_id: 'req-remote',
  timeout_ms,
});

const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('endpoint-bound tools', () => {
  it('POSTs the invocation and returns a conforming reply', async () => {
    const fetch = vi.fn(async () => reply({ status: 'ok', summary: 'hi back', structured_output: { text: 'hi', payload: '', rows_selected: 0 }, warnings: [], errors: [], confidence: 1 }));
    const { executor } = setup(fetch);
    const record = await executor.execute(invocation());
    expect(record.result).toMatchObject({ status: 'ok', summary: 'hi back' });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual(invocation());
  });

  it('turns a reply that breaks the contract into OUTPUT_SCHEMA_VIOLATION', async () => {
    const { executor } = setup(async () => reply({ status: 'ok', summary: 'no output', warnings: [], errors: [], confidence: 3 }));
    const record = await executor.execute(invocation());
    expect(record.result.errors.map((error) => error.code)).toEqual(expect.arrayContaining(['OUTPUT_SCHEMA_VIOLATION']));
    expect(record.result.errors.map((error) => error.field)).toEqual(expect.arrayContaining(['confidence']));
  });

  it('explains network failures, HTTP errors and non-JSON replies', async () => {
    const network = await setup(async () => {
      throw new TypeError('Failed to fetch');
    }).executor.execute(invocation());
    expect(network.result.errors[0]).toMatchObject({ code: 'EXECUTION_ERROR' });
    expect(network.result.errors[0].message).toContain('Access-Control-Allow-Origin');
    const http = await setup(async () => new Response('boom', { status: 500, statusText: 'Internal Server Error' })).executor.execute(invocation());
    expect(http.result.errors[0].message).toContain('HTTP 500');
    const text = await setup(async () => new Response('<html>')).executor.execute(invocation());
    expect(text.result.errors[0].message).toContain('did not answer with JSON');
  });

  it('enforces the timeout by aborting the request', async () => {
    const slow: typeof globalThis.fetch = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    const record = await setup(slow).executor.execute(invocation(1000));
    expect(record.result.errors).toEqual([expect.objectContaining({ code: 'TIMEOUT', field: 'timeout_ms' })]);
  });

  it('leaves unbound tools to the fallback runner', async () => {
    const { executor, fallback } = setup(vi.fn());
    vi.mocked(fallback.run).mockResolvedValue({ kind: 'cancelled' });
    await executor.execute({ ...invocation(), tool_name: 'test_echo', arguments: {} });
    expect(fallback.run).toHaveBeenCalled();
  });
});
