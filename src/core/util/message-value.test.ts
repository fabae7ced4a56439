import { describe, expect, it } from 'vitest';
import { capMessage, textForMessage, valueForMessage } from './message-value.ts';

describe('valueForMessage (issue 24, D6)', () => {
  it('writes short values as JSON', () => {
    expect(valueForMessage('abc')).toBe('"abc"');
    expect(valueForMessage({ a: [1, true, null], b: 'x' })).toBe('{"a":[1,true,null],"b":"x"}');
    expect(valueForMessage(undefined)).toBe('undefined');
  });

  it('cuts a 100 MB string, a million-item array and a 100,000-deep value at 200 characters, without writing them whole', () => {
    const huge = 'x'.repeat(100 * 1024 * 1024);
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = { a: deep };
    const shown = [valueForMessage(huge), valueForMessage(Array.from({ length: 1_000_000 }, (_, index) => index)), valueForMessage(deep), valueForMessage({ [huge]: 1 })];
    for (const text of shown) expect(text.length).toBe(201);
    expect(shown[0]).toBe(`"${'x'.repeat(199)}…`);
    expect(shown[2].startsWith('{"a":{"a":')).toBe(true);
  });

  it('cuts names and whole messages', () => {
    expect(textForMessage('y'.repeat(300))).toBe(`${'y'.repeat(200)}… (300 characters)`);
    expect(capMessage('m'.repeat(5_000))).toMatch(/^m{2000}… \(message cut; 5000 characters\)$/);
    expect(capMessage('short')).toBe('short');
  });
});
