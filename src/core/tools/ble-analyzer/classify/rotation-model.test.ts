import { describe, expect, it } from 'vitest';
import { formatDuration } from './rotation-model.ts';

/** The wording formatDuration had with toFixed, as the reference. */
function byToFixed(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(seconds < 600 ? 1 : 0)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

describe('formatDuration', () => {
  it('words durations as toFixed did, on both sides of every unit edge, at halves and at random', () => {
    const values = [0, 0.4, 0.5, 59.5, 119.49, 119.5, 120, 123, 150, 153, 599.9, 599.99, 600, 627, 630, 659.99, 690, 7199, 7199.99, 7200, 7380, 9000, 86_399, 1e7, Number.NaN, Infinity];
    let state = 7;
    for (let index = 0; index < 20_000; index++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      values.push((state / 2 ** 32) * 20_000);
      // Exact tenths and halves of minutes and hours: the ties of the rounding.
      values.push(((state % 1200) + 0.5) * 6, (state % 2000) * 30 + 30, (state % 500) * 360 + 180);
    }
    for (const seconds of values) expect(formatDuration(seconds)).toBe(byToFixed(seconds));
  });

  it('uses the unit of the magnitude', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(810)).toBe('14 min');
    expect(formatDuration(150)).toBe('2.5 min');
    expect(formatDuration(9000)).toBe('2.5 h');
  });
});
