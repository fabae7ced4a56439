import { describe, expect, it } from 'vitest';
import { flatText } from './flat-text.ts';

describe('flatText', () => {
  it('prints the same text as a template literal, numbers included', () => {
    const share = 12;
    const llr = -0.5;
    expect(flatText('same payload signature (', share, ' other addresses carry it) (', llr, ')')).toBe(`same payload signature (${share} other addresses carry it) (${llr})`);
    expect(flatText('Δ', 1e21, ' ', Number.NaN, ' ', -0)).toBe(`Δ${1e21} ${Number.NaN} ${-0}`);
    expect(flatText()).toBe('');
  });
});
