import { describe, expect, it } from 'vitest';
import {
  describeNotification,
  MAX_ANSWER_BYTES,
  MAX_SHOWN_CHARS,
  passesLevel,
  promptArguments,
  readPromptList,
  readPromptMessages,
  readResourceContents,
  readResourceList,
  requestError,
} from './mcp-inspector-results.ts';

describe('reading a server\'s resources and prompts', () => {
  it('lists resources, naming the entries that are not resources', () => {
    const read = readResourceList({ resources: [{ uri: 'demo://a', name: 'A', mimeType: 'text/plain' }, { name: 'no uri' }, 7], nextCursor: 'p2' });
    expect(read).toEqual({
      ok: true,
      value: { resources: [{ uri: 'demo://a', name: 'A', mimeType: 'text/plain' }], problems: [{ index: 1, message: 'has no "uri" string' }, { index: 2, message: 'has no "uri" string' }], nextCursor: 'p2' },
    });
  });

  it('answers garbage with a coded error, not a crash', () => {
    expect(readResourceList('<html>oops</html>')).toMatchObject({ ok: false, error: { code: 'OUTPUT_SCHEMA_VIOLATION' } });
    expect(readResourceList({ resources: 'none' })).toMatchObject({ ok: false, error: { code: 'OUTPUT_SCHEMA_VIOLATION', field: 'resources' } });
    expect(readPromptMessages({ messages: [{ content: { type: 'text', text: 'x' } }] })).toMatchObject({ ok: false, error: { field: 'messages[0]' } });
    let deep: unknown = 'leaf';
    for (let level = 0; level < 200; level++) deep = { inner: deep };
    expect(readResourceContents({ contents: [deep] })).toMatchObject({ ok: false, error: { code: 'OUTPUT_SCHEMA_VIOLATION' } });
  });

  it('refuses a huge resource with PAYLOAD_TOO_LARGE and clips a long one for display', () => {
    const huge = readResourceContents({ contents: [{ uri: 'demo://big', text: 'x'.repeat(MAX_ANSWER_BYTES + 1) }] });
    expect(huge).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    const long = readResourceContents({ contents: [{ uri: 'demo://long', mimeType: 'text/plain', text: 'y'.repeat(MAX_SHOWN_CHARS + 5) }] });
    expect(long.ok && long.value[0]).toMatchObject({ kind: 'text', size: MAX_SHOWN_CHARS + 5, clipped: true });
    expect(long.ok && long.value[0].shown.endsWith('(5 more characters not shown)')).toBe(true);
    const blob = readResourceContents({ contents: [{ uri: 'demo://b', mimeType: 'image/png', blob: 'aGVsbG8=' }] });
    expect(blob.ok && blob.value[0]).toMatchObject({ kind: 'blob', size: 5, shown: 'Binary data, 5 bytes of image/png (not shown)' });
    expect(readResourceContents({ contents: [{ uri: 'demo://c' }] })).toMatchObject({ ok: false, error: { field: 'contents[0]' } });
  });

  it('lists prompts with their arguments and checks the required ones before sending', () => {
    const read = readPromptList({ prompts: [{ name: 'args-prompt', arguments: [{ name: 'city', required: true }, { name: 'state' }] }, { name: 'bad', arguments: 'x' }] });
    expect(read.ok && read.value.prompts[0].arguments).toEqual([{ name: 'city', required: true }, { name: 'state', required: false }]);
    expect(read.ok && read.value.problems[0].index).toBe(1);
    const prompt = read.ok ? read.value.prompts[0] : null;
    expect(promptArguments(prompt!, {})).toEqual({ ok: false, errors: [{ code: 'MISSING_REQUIRED_ARGUMENT', field: 'arguments.city', message: 'args-prompt needs city' }] });
    expect(promptArguments(prompt!, { city: 'Lisbon', state: '' })).toEqual({ ok: true, value: { city: 'Lisbon' } });
  });

  it('shows prompt messages as text, describing what is not text', () => {
    const read = readPromptMessages({
      description: 'd',
      messages: [
        { role: 'user', content: { type: 'text', text: '<b>hi</b>' } },
        { role: 'assistant', content: { type: 'image', mimeType: 'image/png', data: 'aGVsbG8=' } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'demo://r', text: 'body' } } },
      ],
    });
    expect(read.ok && read.value.messages.map((message) => message.text)).toEqual(['<b>hi</b>', '(image, image/png, 5 bytes)', '(resource demo://r)\nbody']);
  });

  it('codes a failed request by what happened', () => {
    expect(requestError('prompts/get', { kind: 'rpc-error', code: -32601, message: 'Method not found' })).toMatchObject({ code: 'EXECUTION_ERROR', message: expect.stringContaining('does not offer prompts/get') });
    expect(requestError('prompts/get', { kind: 'rpc-error', code: -32602, message: 'bad' })).toMatchObject({ code: 'INVALID_VALUE' });
    expect(requestError('resources/read', { kind: 'timeout', timeoutMs: 30000 })).toMatchObject({ code: 'TIMEOUT' });
    expect(requestError('resources/read', { kind: 'rpc-error', code: -32603, message: 'prompt blew up' })).toMatchObject({ code: 'EXECUTION_ERROR', message: expect.stringContaining('prompt blew up') });
  });
});

describe('notifications', () => {
  it('describes logging messages, list changes and anything else as text with a level', () => {
    expect(describeNotification('notifications/message', { level: 'warning', logger: 'db', data: 'slow query' })).toEqual({ method: 'notifications/message', level: 'warning', text: '[db] slow query' });
    expect(describeNotification('notifications/message', { level: 'loud', data: { n: 1 } })).toEqual({ method: 'notifications/message', level: null, text: '{"n":1}' });
    expect(describeNotification('notifications/tools/list_changed', undefined).text).toContain('tool list changed');
    expect(describeNotification('notifications/custom', { x: '<script>' }).text).toBe('{"x":"<script>"}');
    expect(describeNotification('notifications/message', { level: 'info', data: 'z'.repeat(10_000) }).text.length).toBeLessThan(4100);
  });

  it('filters by level; entries without one always pass', () => {
    expect(passesLevel({ level: 'info' }, 'warning')).toBe(false);
    expect(passesLevel({ level: 'error' }, 'warning')).toBe(true);
    expect(passesLevel({ level: null }, 'emergency')).toBe(true);
  });
});
