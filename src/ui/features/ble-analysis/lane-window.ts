/** Which swimlanes the timeline puts in the DOM: those in its scrolled viewport and a few either side. */

export interface LaneGeometry {
  /** Height of one lane, CSS pixels. */
  laneHeight: number;
  /** Height of the sticky axis above the lanes, CSS pixels. */
  headerHeight: number;
}

/** The lanes a viewport shows, as whole lanes: changes only when a lane boundary scrolls past. */
export interface LaneViewport {
  /** Index of the lane at the top of the viewport (partly under the axis, perhaps). */
  top: number;
  /** How many lanes fit below the axis, counting a partly visible one. */
  count: number;
}

export function laneViewport(scrollTop: number, viewportHeight: number, geometry: LaneGeometry): LaneViewport {
  const top = Math.floor(Math.max(0, scrollTop) / geometry.laneHeight);
  const count = Math.ceil(Math.max(0, viewportHeight - geometry.headerHeight) / geometry.laneHeight) + 1;
  return { top, count };
}

/** Lanes `first` (inclusive) to `end` (exclusive). */
export interface LaneRange {
  first: number;
  end: number;
}

/** The lanes to render: the viewport's and `overscan` more either side, within `laneCount`. */
export function renderedLanes(viewport: LaneViewport, laneCount: number, overscan: number): LaneRange {
  const first = Math.min(laneCount, Math.max(0, viewport.top - overscan));
  const end = Math.min(laneCount, Math.max(first, viewport.top + viewport.count + overscan));
  return { first, end };
}

/** Whether anything drawn from lane `a` to lane `b` (a hand-off's line) crosses the rendered range. */
export function spansRange(a: number, b: number, range: LaneRange): boolean {
  return Math.min(a, b) < range.end && Math.max(a, b) >= range.first;
}

/**
 * Where to scroll so lanes `first`..`last` (inclusive) come into view: null when some of them are
 * already in view, else the scroll offset putting `first` at the top, just below the axis.
 */
export function scrollToShow(first: number, last: number, scrollTop: number, viewportHeight: number, geometry: LaneGeometry): number | null {
  const visibleTop = scrollTop;
  const visibleBottom = scrollTop + viewportHeight - geometry.headerHeight;
  const spanTop = first * geometry.laneHeight;
  const spanBottom = (last + 1) * geometry.laneHeight;
  return spanBottom > visibleTop && spanTop < visibleBottom ? null : spanTop;
}
