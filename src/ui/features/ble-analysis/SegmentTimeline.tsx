import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { SegmentsTable } from './SegmentsTable.tsx';
import type { ProbabilisticLink } from './ble-output.ts';
import { laneViewport, renderedLanes, scrollToShow, spansRange, type LaneViewport } from './lane-window.ts';
import { PacketsButton, type PacketsControl } from './PacketsButton.tsx';
import { formatClock, formatGap, formatOffset, panWindow, percentAt, timeTicks, zoomWindow, type TimeWindow } from './time-scale.ts';
import { clusterColor, type AddressActivity, type HandOff, type Lane } from './view-model.ts';

const LANE_HEIGHT = 24;
const BAR_HEIGHT = 12;
const AXIS_HEIGHT = 22;
const GEOMETRY = { laneHeight: LANE_HEIGHT, headerHeight: AXIS_HEIGHT };
/** Lanes rendered beyond each edge of the viewport, so a short scroll shows no blank lanes. */
const OVERSCAN = 8;
/** The scroll box's CSS max-height: the viewport assumed until it is measured (or where nothing is laid out). */
const DEFAULT_VIEWPORT_HEIGHT = 440;

interface Props {
  lanes: ReadonlyArray<Lane>;
  activity: ReadonlyMap<string, AddressActivity>;
  handOffs: ReadonlyArray<HandOff>;
  links: ReadonlyArray<ProbabilisticLink>;
  extent: TimeWindow;
  offsetMinutes: number;
  selectedCluster: number | null;
  onSelectCluster(clusterIndex: number | null): void;
  packets: PacketsControl;
}

/**
 * Swimlanes of activity per address, coloured by cluster, with hand-offs drawn between lanes.
 * Only the lanes in the scroll box's view (and a few either side) are in the DOM, so thousands of
 * addresses cost no more than a screenful; the lanes' full height is kept, so scrolling is native.
 */
export function SegmentTimeline({ lanes, activity, handOffs, links, extent, offsetMinutes, selectedCluster, onSelectCluster, packets }: Props) {
  const [view, setView] = useState<TimeWindow>(extent);
  const [handOffsOpen, setHandOffsOpen] = useState(false);
  const plotRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; width: number; from: TimeWindow } | null>(null);
  const laneIndex = useMemo(() => new Map(lanes.map((lane, index) => [lane.address, index])), [lanes]);
  const [viewport, setViewport] = useState<LaneViewport>(() => laneViewport(0, DEFAULT_VIEWPORT_HEIGHT, GEOMETRY));
  const range = renderedLanes(viewport, lanes.length, OVERSCAN);
  const maxScore = useMemo(() => {
    // Scores compare within one run only (§7.2): shade relative to this run's busiest segment.
    let max = Number.MIN_VALUE;
    for (const entry of activity.values()) for (const segment of entry.segments) max = Math.max(max, segment.activityScore);
    return max;
  }, [activity]);
  const { stepMs, ticks } = timeTicks(view, 8, offsetMinutes);
  const zoomed = view.startMs > extent.startMs || view.endMs < extent.endMs;

  // Follow the scroll box: re-render only when a lane boundary scrolls past or the box resizes.
  useEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const measure = () => {
      const next = laneViewport(box.scrollTop, viewportHeight(box), GEOMETRY);
      setViewport((current) => (current.top === next.top && current.count === next.count ? current : next));
    };
    measure();
    box.addEventListener('scroll', measure, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    resize?.observe(box);
    return () => {
      box.removeEventListener('scroll', measure);
      resize?.disconnect();
    };
  }, []);

  // A cluster selected elsewhere (table, list, matrix) brings its lanes into the box's view,
  // scrolling the box only, never the page.
  useEffect(() => {
    const box = scrollRef.current;
    if (!box || selectedCluster === null) return;
    const first = lanes.findIndex((lane) => lane.clusterIndex === selectedCluster);
    if (first < 0) return;
    let last = first;
    while (last + 1 < lanes.length && lanes[last + 1].clusterIndex === selectedCluster) last++;
    const target = scrollToShow(first, last, box.scrollTop, viewportHeight(box), GEOMETRY);
    if (target !== null) box.scrollTop = target;
  }, [selectedCluster, lanes]);

  // Ctrl/⌘ + wheel zooms around the pointer; plain wheel keeps scrolling the lanes. React's wheel
  // listener is passive, so preventing the page zoom needs a native one.
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const rect = plot.getBoundingClientRect();
      const anchor = rect.width > 0 ? (event.clientX - rect.left) / rect.width : 0.5;
      setView((current) => zoomWindow(current, event.deltaY > 0 ? 1.25 : 0.8, anchor, extent));
    };
    plot.addEventListener('wheel', onWheel, { passive: false });
    return () => plot.removeEventListener('wheel', onWheel);
  }, [extent]);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, width: event.currentTarget.getBoundingClientRect().width, from: view };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start || start.width <= 0) return;
    setView(panWindow(start.from, -(event.clientX - start.x) / start.width, extent));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const height = lanes.length * LANE_HEIGHT;
  const dimmed = (clusterIndex: number | null) => selectedCluster !== null && clusterIndex !== selectedCluster;

  return (
    <section className="ble-section" aria-labelledby="ble-timeline-heading">
      <h3 id="ble-timeline-heading">Timeline</h3>
      <div className="ble-toolbar" role="group" aria-label="Timeline zoom and pan">
        <button type="button" onClick={() => setView((current) => zoomWindow(current, 0.5, 0.5, extent))} data-testid="ble.timeline.zoom-in">
          Zoom in
        </button>
        <button type="button" onClick={() => setView((current) => zoomWindow(current, 2, 0.5, extent))} disabled={!zoomed} data-testid="ble.timeline.zoom-out">
          Zoom out
        </button>
        <button type="button" onClick={() => setView((current) => panWindow(current, -0.25, extent))} disabled={view.startMs <= extent.startMs} aria-label="Pan earlier">
          ◀ Earlier
        </button>
        <button type="button" onClick={() => setView((current) => panWindow(current, 0.25, extent))} disabled={view.endMs >= extent.endMs} aria-label="Pan later">
          Later ▶
        </button>
        <button type="button" onClick={() => setView(extent)} disabled={!zoomed}>
          Reset
        </button>
        <span className="muted small" data-testid="ble.timeline.window">
          {formatClock(view.startMs, offsetMinutes)} – {formatClock(view.endMs, offsetMinutes)} {formatOffset(offsetMinutes)}
        </span>
      </div>
      <p className="muted small">Ctrl + wheel zooms around the pointer; drag the lanes sideways to pan.</p>
      <div className="ble-timeline" ref={scrollRef} data-testid="ble.timeline" data-lane-count={lanes.length}>
        <div className="ble-timeline__grid">
          <div className="ble-timeline__corner" style={{ height: AXIS_HEIGHT }}>
            <span className="muted small">Address</span>
          </div>
          <svg className="ble-timeline__axis" width="100%" height={AXIS_HEIGHT} aria-label={`Time axis, ${formatOffset(offsetMinutes)}`} role="img">
            {ticks.map((tick) => (
              <g key={tick}>
                <line x1={`${percentAt(tick, view)}%`} x2={`${percentAt(tick, view)}%`} y1={AXIS_HEIGHT - 5} y2={AXIS_HEIGHT} stroke="#94a3b8" />
                <text x={`${percentAt(tick, view)}%`} y={AXIS_HEIGHT - 8} textAnchor="middle" className="ble-timeline__tick">
                  {formatClock(tick, offsetMinutes, stepMs)}
                </text>
              </g>
            ))}
          </svg>
          <ol
            className="ble-timeline__labels"
            aria-label="Swimlanes"
            // The lanes not rendered keep their height, so the scroll box's height and position stay true.
            style={{ paddingTop: range.first * LANE_HEIGHT, paddingBottom: (lanes.length - range.end) * LANE_HEIGHT }}
          >
            {lanes.slice(range.first, range.end).map((lane, offset) => (
              <li
                key={lane.address}
                style={{ height: LANE_HEIGHT }}
                aria-setsize={lanes.length}
                aria-posinset={range.first + offset + 1}
                className={dimmed(lane.clusterIndex) ? 'is-dimmed' : undefined}
                data-testid="ble.timeline.lane"
                data-address={lane.address}
                data-chain={lane.chainIndex}
              >
                <span className="ble-swatch" style={{ background: clusterColor(lane.clusterIndex) }} aria-hidden="true" />
                {lane.clusterIndex === null ? (
                  <code>{lane.address}</code>
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onSelectCluster(lane.clusterIndex === selectedCluster ? null : lane.clusterIndex)}
                    title={`Select ${links[lane.clusterIndex].cluster_id}`}
                  >
                    <code>{lane.address}</code>
                  </button>
                )}
                {lane.chainIndex !== undefined && (
                  <span className="muted small" data-testid="ble.timeline.chain" title="Parallel chain: one advertising set followed through its hand-offs; the sets are joined by co-location">
                    set {lane.chainIndex + 1}
                  </span>
                )}
                <PacketsButton address={lane.address} control={packets} />
              </li>
            ))}
          </ol>
          <div
            ref={plotRef}
            className="ble-timeline__plot"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
          >
            <svg width="100%" height={height} role="img" aria-label={`Activity of ${lanes.length} addresses and ${handOffs.length} hand-offs between ${formatClock(view.startMs, offsetMinutes)} and ${formatClock(view.endMs, offsetMinutes)}`}>
              {ticks.map((tick) => (
                <line key={tick} x1={`${percentAt(tick, view)}%`} x2={`${percentAt(tick, view)}%`} y1={0} y2={height} className="ble-timeline__gridline" />
              ))}
              {lanes.slice(range.first, range.end).map((lane, offset) => {
                const index = range.first + offset;
                const entry = activity.get(lane.address);
                if (!entry) return null;
                const color = clusterColor(lane.clusterIndex);
                return (
                  <g key={lane.address} opacity={dimmed(lane.clusterIndex) ? 0.25 : 1}>
                    {entry.segments.map((segment, position) => {
                      if (segment.endMs < view.startMs || segment.startMs > view.endMs) return null;
                      const left = Math.max(-1, percentAt(segment.startMs, view));
                      const right = Math.min(101, percentAt(segment.endMs, view));
                      return (
                        <rect
                          key={position}
                          x={`${left}%`}
                          width={`${Math.max(0.2, right - left)}%`}
                          y={index * LANE_HEIGHT + (LANE_HEIGHT - BAR_HEIGHT) / 2}
                          height={BAR_HEIGHT}
                          rx={2}
                          fill={color}
                          fillOpacity={0.35 + 0.65 * Math.min(1, segment.activityScore / maxScore)}
                          data-testid="ble.timeline.segment"
                        >
                          <title>{`${lane.address} ${segment.startTs} – ${segment.endTs}, activity ${segment.activityScore.toFixed(2)}`}</title>
                        </rect>
                      );
                    })}
                  </g>
                );
              })}
              {handOffs.map((handOff) => {
                const fromLane = laneIndex.get(handOff.from);
                const toLane = laneIndex.get(handOff.to);
                if (fromLane === undefined || toLane === undefined || !spansRange(fromLane, toLane, range)) return null;
                if (Math.max(handOff.fromEndMs, handOff.toStartMs) < view.startMs || Math.min(handOff.fromEndMs, handOff.toStartMs) > view.endMs) return null;
                const color = clusterColor(handOff.clusterIndex);
                const x1 = `${percentAt(handOff.fromEndMs, view)}%`;
                const x2 = `${percentAt(handOff.toStartMs, view)}%`;
                const y1 = fromLane * LANE_HEIGHT + LANE_HEIGHT / 2;
                const y2 = toLane * LANE_HEIGHT + LANE_HEIGHT / 2;
                const label = `Hand-off ${handOff.from} → ${handOff.to} (${links[handOff.clusterIndex].cluster_id}), gap ${formatGap(handOff.toStartMs - handOff.fromEndMs)}`;
                return (
                  <g key={`${handOff.from}-${handOff.to}`} className="ble-handoff" opacity={dimmed(handOff.clusterIndex) ? 0.25 : 1} role="img" aria-label={label} data-testid="ble.timeline.handoff">
                    <title>{label}</title>
                    <line x1={x1} x2={x2} y1={y1} y2={y2} stroke={color} strokeWidth={2} strokeDasharray="3 2" />
                    <circle cx={x1} cy={y1} r={3} fill="#fff" stroke={color} strokeWidth={2} />
                    <circle cx={x2} cy={y2} r={4} fill={color} />
                  </g>
                );
              })}
            </svg>
          </div>
        </div>
      </div>
      {handOffs.length > 0 && (
        // The table is built only while open: an analysis of thousands of addresses has thousands of hand-offs.
        <details className="ble-handoffs" onToggle={(event) => setHandOffsOpen(event.currentTarget.open)}>
          <summary>Hand-offs ({handOffs.length})</summary>
          {handOffsOpen && (
            <table className="data-table" aria-label="Hand-offs">
              <thead>
                <tr>
                  <th scope="col">Cluster</th>
                  <th scope="col">From</th>
                  <th scope="col">Ends</th>
                  <th scope="col">To</th>
                  <th scope="col">Starts</th>
                  <th scope="col">Gap</th>
                </tr>
              </thead>
              <tbody>
                {handOffs.map((handOff) => (
                  <tr key={`${handOff.from}-${handOff.to}`}>
                    <td>{links[handOff.clusterIndex].cluster_id}</td>
                    <td>
                      <code>{handOff.from}</code>
                    </td>
                    <td>{formatClock(handOff.fromEndMs, offsetMinutes)}</td>
                    <td>
                      <code>{handOff.to}</code>
                    </td>
                    <td>{formatClock(handOff.toStartMs, offsetMinutes)}</td>
                    <td>{formatGap(handOff.toStartMs - handOff.fromEndMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </details>
      )}
      <SegmentsTable activity={activity} clusterOf={(address) => links.find((link) => link.addresses.includes(address))?.cluster_id ?? null} />
    </section>
  );
}

/** The scroll box's height, or the assumed one where nothing is laid out (tests without layout). */
function viewportHeight(box: HTMLElement): number {
  return box.clientHeight > 0 ? box.clientHeight : DEFAULT_VIEWPORT_HEIGHT;
}
