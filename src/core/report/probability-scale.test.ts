import { describe, expect, it } from 'vitest';
import { probabilityRgb, probabilityTextIsLight } from './probability-scale.ts';
import { heatmapSvg } from './svg.ts';

describe('the probability colour scale', () => {
  it('runs light to dark and is the one the report draws with (the app draws with it too)', () => {
    expect(probabilityRgb(0)).toEqual([255, 247, 236]);
    expect(probabilityRgb(1)).toEqual([127, 0, 0]);
    const svg = heatmapSvg(['A', 'B'], [[1, 0.5], [0.5, 1]], 'pair');
    expect(svg).toContain(`fill="rgb(${probabilityRgb(1).join(',')})"`);
    expect(svg).toContain(`fill="rgb(${probabilityRgb(0.5).join(',')})"`);
  });

  it('puts white text on dark cells only', () => {
    expect(probabilityTextIsLight(1)).toBe(true);
    expect(probabilityTextIsLight(0.2)).toBe(false);
  });
});
