import { describe, expect, it } from 'vitest';
import { laneViewport, renderedLanes, scrollToShow, spansRange } from './lane-window.ts';

const geometry = { laneHeight: 24, headerHeight: 22 };

describe('lane window', () => {
  it('counts whole lanes below the axis, changing only at lane boundaries', () => {
    expect(laneViewport(0, 440, geometry)).toEqual({ top: 0, count: 19 });
    expect(laneViewport(23, 440, geometry)).toEqual({ top: 0, count: 19 });
    expect(laneViewport(24, 440, geometry)).toEqual({ top: 1, count: 19 });
    expect(laneViewport(-30, 0, geometry)).toEqual({ top: 0, count: 1 });
  });

  it('renders the viewport and the overscan, within the lanes there are', () => {
    expect(renderedLanes({ top: 0, count: 19 }, 41, 8)).toEqual({ first: 0, end: 27 });
    expect(renderedLanes({ top: 30, count: 19 }, 41, 8)).toEqual({ first: 22, end: 41 });
    expect(renderedLanes({ top: 500, count: 19 }, 2000, 8)).toEqual({ first: 492, end: 527 });
    expect(renderedLanes({ top: 0, count: 19 }, 0, 8)).toEqual({ first: 0, end: 0 });
    // Scrolled past the end (lanes removed while scrolled): an empty range, never a negative one.
    expect(renderedLanes({ top: 90, count: 19 }, 41, 8)).toEqual({ first: 41, end: 41 });
  });

  it('keeps a hand-off whose line crosses the rendered range, even with both ends outside it', () => {
    const range = { first: 10, end: 20 };
    expect(spansRange(12, 13, range)).toBe(true);
    expect(spansRange(25, 5, range)).toBe(true);
    expect(spansRange(8, 10, range)).toBe(true);
    expect(spansRange(20, 21, range)).toBe(false);
    expect(spansRange(3, 9, range)).toBe(false);
  });

  it('scrolls to a span of lanes only when none of it is in view', () => {
    // 440 px box: lanes 0–17 fully in view below the axis at scrollTop 0.
    expect(scrollToShow(2, 4, 0, 440, geometry)).toBeNull();
    expect(scrollToShow(17, 18, 0, 440, geometry)).toBeNull();
    expect(scrollToShow(30, 32, 0, 440, geometry)).toBe(720);
    expect(scrollToShow(0, 2, 720, 440, geometry)).toBe(0);
  });
});
