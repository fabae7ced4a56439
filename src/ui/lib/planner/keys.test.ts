import { describe, expect, it, vi } from 'vitest';
import { REMEMBERED_KEYS_STORAGE_KEY, createKeyStore, keySlotOf, type KeyStorage } from './keys.ts';
import { REDACTED, containsNoSecret, redactSecrets } from './redact.ts';

function memoryStorage(initial: Record<string, string> = {}): KeyStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe('key store', () => {
  it('keeps a key in memory only unless asked to remember it', () => {
    const storage = memoryStorage();
    const store = createKeyStore(storage);
    store.set('openai', 'sk-memory-only', false);
    expect(store.get('openai')).toBe('sk-memory-only');
    expect(storage.data.size).toBe(0);
    expect(createKeyStore(storage).get('openai')).toBeUndefined();
  });

  it('a remembered key survives a new store (a reload), and Forget erases it from the device', () => {
    const storage = memoryStorage();
    const store = createKeyStore(storage);
    store.set('anthropic', '  sk-ant-remembered  ', true);
    store.set('openai', 'sk-not-remembered', false);
    expect(JSON.parse(storage.data.get(REMEMBERED_KEYS_STORAGE_KEY)!)).toEqual({ anthropic: 'sk-ant-remembered' });
    const reloaded = createKeyStore(storage);
    expect(reloaded.get('anthropic')).toBe('sk-ant-remembered');
    expect(reloaded.isRemembered('anthropic')).toBe(true);
    reloaded.forget('anthropic');
    expect(reloaded.get('anthropic')).toBeUndefined();
    expect(storage.data.has(REMEMBERED_KEYS_STORAGE_KEY)).toBe(false);
  });

  it('unticking "remember" removes the key from the device but keeps it for this tab', () => {
    const storage = memoryStorage();
    const store = createKeyStore(storage);
    store.set('openai', 'sk-1234', true);
    store.set('openai', 'sk-1234', false);
    expect(store.get('openai')).toBe('sk-1234');
    expect(storage.data.size).toBe(0);
  });

  it('notifies subscribers, lists keys for redaction, and survives refusing or corrupt storage', () => {
    const store = createKeyStore(memoryStorage({ [REMEMBERED_KEYS_STORAGE_KEY]: '{not json' }));
    const listener = vi.fn();
    store.subscribe(listener);
    store.set('openai', 'sk-a', false);
    store.set('openai-compatible@http://127.0.0.1:4177/v1', 'sk-b', false);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(store.allKeys().sort()).toEqual(['sk-a', 'sk-b']);
    const refusing: KeyStorage = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => {} };
    const fragile = createKeyStore(refusing);
    fragile.set('openai', 'sk-c', true);
    expect(fragile.get('openai')).toBe('sk-c');
  });

  it('gives one slot per hosted provider and one per OpenAI-compatible base URL', () => {
    expect(keySlotOf({ provider: 'openai' })).toBe('openai');
    expect(keySlotOf({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:4177/v1/' })).toBe('openai-compatible@http://127.0.0.1:4177/v1');
    expect(keySlotOf({ provider: 'scripted' })).toBeNull();
  });
});

describe('redactSecrets', () => {
  it('drops credential properties and scrubs keys echoed inside text', () => {
    const run = {
      targets: [{ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-live-abcdef' }],
      headers: { Authorization: 'Bearer sk-live-abcdef', 'x-api-key': 'sk-live-abcdef' },
      events: [{ type: 'llm-response', text: 'my key is sk-live-abcdef, right?' }],
      n: 3,
      ok: true,
      none: null,
    };
    const clean = redactSecrets(run, ['sk-live-abcdef']);
    expect(clean).toEqual({
      targets: [{ provider: 'openai', model: 'gpt-4.1-mini' }],
      headers: {},
      events: [{ type: 'llm-response', text: `my key is ${REDACTED}, right?` }],
      n: 3,
      ok: true,
      none: null,
    });
    expect(containsNoSecret(JSON.stringify(clean), ['sk-live-abcdef'])).toBe(true);
    expect(containsNoSecret(JSON.stringify(run), ['sk-live-abcdef'])).toBe(false);
  });
});
