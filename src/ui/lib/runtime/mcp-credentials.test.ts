import { describe, expect, it } from 'vitest';
import { createCredentialStore, credentialProblems, REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY, requestHeaders, type CredentialStorage } from './mcp-credentials.ts';

function memoryStorage(): CredentialStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

const URL_A = 'http://127.0.0.1:4365/mcp';
const URL_B = 'http://127.0.0.1:4366/mcp';

describe('MCP server credentials', () => {
  it('keeps a server\'s token and headers in memory only unless remembered', () => {
    const storage = memoryStorage();
    const store = createCredentialStore(storage);
    store.set(URL_A, { token: 'tok-123456', headers: [{ name: 'X-Trace', value: 'abc' }] }, false);
    expect(storage.data.size).toBe(0);
    expect(requestHeaders(store.get(URL_A))).toEqual({ 'X-Trace': 'abc', Authorization: 'Bearer tok-123456' });
    // Sent only to that server: another URL gets nothing.
    expect(requestHeaders(store.get(URL_B))).toEqual({});
    expect(createCredentialStore(storage).get(URL_A)).toBeUndefined();
  });

  it('remembers on this device when asked, and forgets there too', () => {
    const storage = memoryStorage();
    const store = createCredentialStore(storage);
    store.set(URL_A, { token: 'tok-123456', headers: [] }, true);
    expect(JSON.parse(storage.data.get(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY) ?? '{}')).toEqual({ [URL_A]: { token: 'tok-123456', headers: [] } });
    const reopened = createCredentialStore(storage);
    expect(reopened.get(URL_A)?.token).toBe('tok-123456');
    expect(reopened.isRemembered(URL_A)).toBe(true);
    reopened.forget(URL_A);
    expect(storage.data.has(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY)).toBe(false);
    expect(reopened.allSecrets()).toEqual([]);
  });

  it('ignores remembered entries that are malformed, and survives unreadable storage', () => {
    const storage = memoryStorage();
    storage.data.set(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY, JSON.stringify({ [URL_A]: { token: 5 }, [URL_B]: { token: 'ok-token', headers: [{ name: 'Bad Name', value: 'x' }] } }));
    expect(createCredentialStore(storage).get(URL_A)).toBeUndefined();
    expect(createCredentialStore(storage).get(URL_B)).toBeUndefined();
    storage.data.set(REMEMBERED_MCP_CREDENTIALS_STORAGE_KEY, '{not json');
    expect(createCredentialStore(storage).allSecrets()).toEqual([]);
  });

  it('names each bad header or token at its field', () => {
    const problems = credentialProblems({
      token: 'has space',
      headers: [
        { name: 'Bad Name', value: 'x' },
        { name: 'authorization', value: 'Bearer x' },
        { name: 'Mcp-Session-Id', value: 'x' },
        { name: 'Cookie', value: 'x' },
        { name: 'X-Ok', value: 'line\nbreak' },
        { name: 'x-ok', value: 'twice' },
      ],
    });
    expect(problems.map((problem) => problem.field)).toEqual(['token', 'headers[0].name', 'headers[1].name', 'headers[2].name', 'headers[3].name', 'headers[4].value', 'headers[5].name']);
    expect(problems.every((problem) => problem.code === 'INVALID_VALUE')).toBe(true);
    expect(credentialProblems({ token: 'abc.DEF-123_~+/=', headers: [{ name: 'X-Api-Key', value: 'v' }] })).toEqual([]);
  });

  it('clearing both token and headers forgets the server', () => {
    const store = createCredentialStore(null);
    store.set(URL_A, { token: 'tok-123456', headers: [] }, false);
    const before = store.version();
    store.set(URL_A, { token: '  ', headers: [{ name: ' ', value: '' }] }, false);
    expect(store.get(URL_A)).toBeUndefined();
    expect(store.version()).toBeGreaterThan(before);
  });
});
