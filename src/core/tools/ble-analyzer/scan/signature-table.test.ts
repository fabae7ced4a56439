import { describe, expect, it } from 'vitest';
import { BleSignatureTable } from './signature-table.ts';

/** `texts` laid out as one byte array with offsets, as in an Arrow UTF-8 dictionary (ASCII texts only). */
function asBytes(texts: readonly string[]): { bytes: Uint8Array; offsets: Int32Array } {
  const offsets = new Int32Array(texts.length + 1);
  for (let index = 0; index < texts.length; index++) offsets[index + 1] = offsets[index] + texts[index].length;
  const bytes = new Uint8Array(offsets[texts.length]);
  texts.forEach((text, index) => {
    for (let char = 0; char < text.length; char++) bytes[offsets[index] + char] = text.charCodeAt(char);
  });
  return { bytes, offsets };
}

describe('BleSignatureTable', () => {
  it('numbers texts in order of first sight, equal texts once, whether given as bytes or as strings', () => {
    const table = new BleSignatureTable();
    const { bytes, offsets } = asBytes(['aa01', 'bb02', 'aa01', '', 'cc']);
    expect(table.idOfAscii(bytes, offsets[0], offsets[1])).toBe(0);
    expect(table.idOfText('zz')).toBe(1);
    expect(table.idOfAscii(bytes, offsets[1], offsets[2])).toBe(2);
    expect(table.idOfAscii(bytes, offsets[2], offsets[3])).toBe(0);
    expect(table.idOfText('bb02')).toBe(2);
    expect(table.idOfAscii(bytes, offsets[3], offsets[4])).toBe(3);
    expect(table.idOfText('')).toBe(3);
    // A prefix of a known text is another text.
    expect(table.idOfAscii(bytes, offsets[4], offsets[5])).toBe(4);
    expect(table.idOfText('c')).toBe(5);
    const zz = asBytes(['zz']);
    expect(table.idOfAscii(zz.bytes, 0, 2)).toBe(1);
    expect(table.size).toBe(6);
    expect([0, 1, 2, 3, 4, 5].map((id) => table.text(id))).toEqual(['aa01', 'zz', 'bb02', '', 'cc', 'c']);
    // Still found by bytes once its text has been made.
    expect(table.idOfAscii(bytes, offsets[0], offsets[1])).toBe(0);
  });

  it('makes nothing for bytes that are not ASCII (their text is not the bytes)', () => {
    const table = new BleSignatureTable();
    const bytes = Uint8Array.from([0x61, 0xc3, 0xa9]);
    expect(table.idOfAscii(bytes, 0, 3)).toBe(-1);
    expect(table.size).toBe(0);
    expect(table.idOfText('aé')).toBe(0);
    expect(table.text(0)).toBe('aé');
  });

  it('agrees with a Map over thousands of texts, long ones included', () => {
    let state = 7;
    const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const texts = Array.from({ length: 6000 }, () => Math.floor(random() * 2500).toString(16).padStart(4, '0').repeat(random() < 0.01 ? 90 : 4));
    const { bytes, offsets } = asBytes(texts);
    const table = new BleSignatureTable();
    const reference = new Map<string, number>();
    texts.forEach((text, index) => {
      if (!reference.has(text)) reference.set(text, reference.size);
      const id = index % 3 === 0 ? table.idOfText(text) : table.idOfAscii(bytes, offsets[index], offsets[index + 1]);
      expect(id).toBe(reference.get(text));
    });
    expect(table.size).toBe(reference.size);
    for (const [text, id] of reference) expect(table.text(id)).toBe(text);
  });
});
