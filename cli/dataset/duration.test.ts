import { describe, expect, it } from 'vitest';
import { formatDurationMs, parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it('reads a number and a unit, or several', () => {
    expect(parseDuration('90s', '--window')).toEqual({ ok: true, value: 90_000 });
    expect(parseDuration('10m', '--window')).toEqual({ ok: true, value: 600_000 });
    expect(parseDuration('1h30m', '--window')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseDuration('1.5h', '--window')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseDuration('2d', '--window')).toEqual({ ok: true, value: 172_800_000 });
    expect(parseDuration('250ms', '--window')).toEqual({ ok: true, value: 250 });
  });

  it('refuses a bare number, an unknown unit, a negative or empty duration with BAD_DURATION', () => {
    for (const text of ['10', '', '1x', '-5m', '1h 30m', 'h', '0s', '0.1ms']) {
      const parsed = parseDuration(text, '--overlap');
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error.code).toBe('BAD_DURATION');
        expect(parsed.error.message).toContain('--overlap');
      }
    }
  });

  it('formats what it reads', () => {
    expect(['1h', '10m', '1h30m', '90s', '250ms', '1d'].map((text) => formatDurationMs((parseDuration(text, 'x') as { value: number }).value))).toEqual(['1h', '10m', '1h30m', '1m30s', '250ms', '1d']);
  });
});
