import { describe, expect, it } from 'vitest';
import { BleKeyedTexts } from './keyed-texts.ts';

describe('BleKeyedTexts', () => {
  it('keeps one text per kind and pair of counts', () => {
    const texts = new BleKeyedTexts();
    expect(texts.get(0, 6, 6)).toBeUndefined();
    texts.set(0, 6, 6, 'six of six');
    texts.set(1, 6, 6, 'kind one');
    texts.set(0, 6, 7, 'six of seven');
    texts.set(0, 7, 6, 'seven of six');
    expect(texts.get(0, 6, 6)).toBe('six of six');
    expect(texts.get(1, 6, 6)).toBe('kind one');
    expect(texts.get(0, 6, 7)).toBe('six of seven');
    expect(texts.get(0, 7, 6)).toBe('seven of six');
    // The largest keyed counts and kind do not run into each other.
    texts.set(1023, 2 ** 21 - 1, 2 ** 21 - 1, 'largest');
    texts.set(1023, 2 ** 21 - 1, 0, 'largest a');
    expect(texts.get(1023, 2 ** 21 - 1, 2 ** 21 - 1)).toBe('largest');
    expect(texts.get(1023, 2 ** 21 - 1, 0)).toBe('largest a');
  });

  it('does not key counts out of range or not integers (the caller builds those texts itself)', () => {
    const texts = new BleKeyedTexts();
    for (const [kind, a, b] of [[0, 2 ** 21, 1], [0, 1, 2 ** 21], [1024, 1, 1], [-1, 1, 1], [0, -1, 1], [0, 1.5, 1], [0, Number.NaN, 1]]) {
      texts.set(kind, a, b, 'not kept');
      expect(texts.get(kind, a, b)).toBeUndefined();
    }
  });

  it('keeps texts keyed by text apart per owner, within one table per owner', () => {
    const texts = new BleKeyedTexts();
    const first = {};
    const second = {};
    texts.keyedByText(first).set('14 min', 'line of the first');
    expect(texts.keyedByText(first).get('14 min')).toBe('line of the first');
    expect(texts.keyedByText(second).get('14 min')).toBeUndefined();
    expect(texts.keyedByText(first)).toBe(texts.keyedByText(first));
    expect(new BleKeyedTexts().keyedByText(first).size).toBe(0);
  });
});
