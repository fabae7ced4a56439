import { describe, expect, it } from 'vitest';
import { BlePayloadTemplates, templateText } from './payload-templates.ts';

type Parts = Parameters<typeof templateText>;

describe('BlePayloadTemplates', () => {
  it('gives the template text: company, manufacturer data length and first octet, service UUIDs and data, TX power, appearance, name', () => {
    const templates = new BlePayloadTemplates();
    const apple: Parts = [76, '1005aabbccdd', '', '', 12, Number.NaN, ''];
    const first = templates.template(...apple);
    expect(first).toBe('76|6|10|||12||');
    expect(first).toBe(templateText(...apple));
    // Other rotating content, same length and first octet: the same template (made once, found again).
    expect(templates.template(76, '1005eeff0011', '', '', 12, Number.NaN, '')).toBe(first);
    expect(templates.template(76, '1105eeff0011', '', '', 12, Number.NaN, '')).toBe('76|6|11|||12||');
    expect(templates.template(Number.NaN, '', 'fd6f', '', Number.NaN, Number.NaN, 'Tag')).toBe('|0||fd6f||||Tag');
  });

  it('agrees with the text on random parts met again and again, absent numbers and parts holding the separator included', () => {
    let state = 3;
    const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
    const templates = new BlePayloadTemplates();
    const texts = new Set<string>();
    for (let index = 0; index < 6000; index++) {
      const parts: Parts = [
        pick([Number.NaN, 76]),
        pick(['', '1', '10', '1005', '10aa', '2005', 'ab|c']),
        pick(['', '180f,fe9f']),
        pick(['', 'a|b', 'abc']),
        pick([Number.NaN, 0, 1]),
        pick([Number.NaN, 961]),
        pick(['', 'Pixel', 'Watch', 'x|y']),
      ];
      const text = templateText(...parts);
      expect(templates.template(...parts)).toBe(text);
      texts.add(text);
    }
    // 2,016 sets of parts (a few print alike), most met more than once.
    expect(texts.size).toBeGreaterThan(1000);
    expect(texts.size).toBeLessThanOrEqual(2016);
  });
});
