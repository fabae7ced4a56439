import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { ProbabilisticLink } from './ble-output.ts';
import { PacketsButton, type PacketsControl } from './PacketsButton.tsx';
import { formatClock, formatGap, formatOffset, panWindow, percentAt, timeTicks, zoomWindow, type TimeWindow } from './time-scale.ts';
import { clusterColor, type AddressActivity, type HandOff, type Lane } from './view-model.ts';

const LANE_HEIGHT = 24;
const BAR_HEIGHT = 12;
const AXIS_HEIGHT = 22;

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

/** Swimlanes of activity per address, coloured by cluster, with hand-offs drawn between lanes. */
export function SegmentTimeline({ lanes, activity, handOffs, links, extent, offsetMinutes, selectedCluster, onSelectCluster, packets }: Props) {
  const [view, setView] = useState<TimeWindow>(extent);
  const plotRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; width: number; from: TimeWindow } | null>(null);
  const laneIndex = new Map(lanes.map((lane, index) => [lane.address, index]));
  const maxScore = useMemo(() => {
    // Scores compare within one run only (§7.2): shade relative to this run's busiest segment.
    let max = Number.MIN_VALUE;
    for (const entry of activity.values()) for (const segment of entry.segments) max = Math.max(max, segment.activityScore);
    return max;
  }, [activity]);
  const { stepMs, ticks } = timeTicks(view, 8, offsetMinutes);
  const zoomed = view.startMs > extent.startMs || view.endMs < extent.endMs;

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
      <div className="ble-timeline" data-testid="ble.timeline">
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
          <ol className="ble-timeline__labels" aria-label="Swimlanes">
            {lanes.map((lane) => (
              <li
                key={lane.address}
                style={{ height: LANE_HEIGHT }}
                className={dimmed(lane.clusterIndex) ? 'is-dimmed' : undefined}
                data-testid="ble.timeline.lane"
                data-address={lane.address}
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
              {lanes.map((lane, index) => {
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
                if (fromLane === undefined || toLane === undefined) return null;
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
        <details className="ble-handoffs">
          <summary>Hand-offs ({handOffs.length})</summary>
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
        </details>
      )}
    </section>
  );
}
