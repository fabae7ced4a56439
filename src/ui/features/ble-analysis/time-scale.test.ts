import { describe, expect, it } from 'vitest';
import { formatClock, formatGap, formatOffset, MIN_SPAN_MS, panWindow, parseRfc3339, percentAt, timeTicks, zoomWindow } from './time-scale.ts';

const extent = { startMs: 0, endMs: 1_800_000 };

describe('parseRfc3339', () => {
  it('keeps the offset the timestamp was written in', () => {
    expect(parseRfc3339('2024-04-03T08:16:05Z')).toEqual({ ms: Date.UTC(2024, 3, 3, 8, 16, 5), offsetMinutes: 0 });
    expect(parseRfc3339('2024-04-03T10:16:05.250+02:00')).toEqual({ ms: Date.UTC(2024, 3, 3, 8, 16, 5, 250), offsetMinutes: 120 });
    expect(parseRfc3339('2024-04-03T03:16:05-05:30')?.offsetMinutes).toBe(-330);
  });

  it('rejects what is not RFC3339', () => {
    expect(parseRfc3339('2024-04-03 08:16')).toBeNull();
    expect(parseRfc3339('1712131200000')).toBeNull();
    expect(parseRfc3339('2024-13-45T99:00:00Z')).toBeNull();
  });
});

describe('zoom and pan', () => {
  it('zooming keeps the anchored instant in place', () => {
    const view = zoomWindow(extent, 0.5, 0.25, extent);
    expect(view).toEqual({ startMs: 225_000, endMs: 1_125_000 });
    // The instant under the anchor before (450 000) is under it after.
    expect(view.startMs + 0.25 * (view.endMs - view.startMs)).toBe(450_000);
  });

  it('never zooms out past the extent nor in past one second', () => {
    expect(zoomWindow({ startMs: 100_000, endMs: 200_000 }, 100, 0.5, extent)).toEqual(extent);
    const tiny = zoomWindow({ startMs: 1000, endMs: 3000 }, 0.01, 0.5, extent);
    expect(tiny.endMs - tiny.startMs).toBe(MIN_SPAN_MS);
  });

  it('panning stops at the ends', () => {
    const view = { startMs: 0, endMs: 600_000 };
    expect(panWindow(view, 0.5, extent)).toEqual({ startMs: 300_000, endMs: 900_000 });
    expect(panWindow(view, -1, extent)).toEqual(view);
    expect(panWindow(view, 10, extent)).toEqual({ startMs: 1_200_000, endMs: 1_800_000 });
  });

  it('places instants as percentages of the window', () => {
    expect(percentAt(900_000, extent)).toBe(50);
    expect(percentAt(-180_000, extent)).toBe(-10);
  });
});

describe('ticks and clock text', () => {
  it('chooses a round step and aligns ticks to the wall clock of the offset', () => {
    const start = Date.UTC(2024, 3, 3, 8, 0, 7);
    const { stepMs, ticks } = timeTicks({ startMs: start, endMs: start + 1_800_000 }, 8, 0);
    expect(stepMs).toBe(5 * 60_000);
    expect(ticks.map((tick) => formatClock(tick, 0, stepMs))).toEqual(['08:05', '08:10', '08:15', '08:20', '08:25', '08:30']);
    // In a +05:30 zone, 5-minute ticks fall on local round minutes too.
    const local = timeTicks({ startMs: start, endMs: start + 1_800_000 }, 8, 330);
    expect(formatClock(local.ticks[0], 330, local.stepMs)).toBe('13:35');
  });

  it('writes offsets and gaps as people read them', () => {
    expect(formatOffset(0)).toBe('UTC');
    expect(formatOffset(-330)).toBe('UTC-05:30');
    expect(formatClock(Date.UTC(2024, 3, 3, 8, 16, 5), 120)).toBe('10:16:05');
    expect(formatGap(3_400)).toBe('3 s');
    expect(formatGap(119_999)).toBe('1 min 59 s');
    expect(formatGap(-4000)).toBe('−4 s');
    expect(formatGap(882_000)).toBe('14.7 min');
  });
});
