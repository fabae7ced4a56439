import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTurns } from '../../components/ProgressiveMount.tsx';
import type { ProbabilisticLink } from './ble-output.ts';
import {
  axisLabels,
  backingSide,
  blockDiagonalMatrix,
  cellAt,
  heatmapLayout,
  clusterMatrix,
  cssColor,
  describeCell,
  fillHeatmapPixels,
  heatmapBands,
  NOT_REPORTED_RGB,
  placeTooltip,
  probabilityColor,
  type HeatmapMatrix,
} from './heatmap-model.ts';

/** The canvas keeps within this side (CSS pixels) unless its labelled cells need more (it then scrolls). */
const MAX_SIDE = 500;
/** Backing-store pixels along a side at most: a huge labelled matrix is drawn coarser, not out of memory. */
const MAX_BACKING = 4096;
/** Device pixel rows drawn per turn while the view mounts (a 1000-pixel canvas in four bands). */
const BAND_PIXEL_ROWS = 256;
/** Largest matrix also offered as an HTML table (the canvas's text alternative). */
const TABLE_LIMIT = 40;

interface Props {
  links: ReadonlyArray<ProbabilisticLink>;
  selectedCluster: number | null;
  onSelectCluster(clusterIndex: number | null): void;
  /** Capture edge notes per cluster index (captureEdgeNotes), shown with the tool's rationale. */
  edgeNotes?: ReadonlyMap<number, string[]>;
}

/**
 * Pairwise link probabilities as one canvas: drawn once per matrix, selection or pixel-ratio
 * change as ImageData at the screen's device pixels; hovering finds the cell by arithmetic and
 * only moves the tooltip.
 */
export function ProbabilityHeatmap({ links, selectedCluster, onSelectCluster, edgeNotes }: Props) {
  const [wantAll, setWantAll] = useState(false);
  const clusterShown = wantAll ? null : selectedCluster;
  const showAll = clusterShown === null;
  const matrix = useMemo(() => (clusterShown === null ? blockDiagonalMatrix(links) : clusterMatrix(links, clusterShown)), [links, clusterShown]);
  const layout = heatmapLayout(matrix.size, MAX_SIDE, clusterShown !== null);
  const cell = layout.cell;
  // `side`: the matrix laid out at `cell` pixels a cell, the units of hit-testing and the tooltip;
  // `cssSide`: the canvas's CSS size (the whole side when labelled, so each label meets its row);
  // `pixels`: its backing store, one per device pixel up to MAX_BACKING.
  const side = matrix.size * cell;
  const cssSide = layout.labels === 'addresses' ? side : Math.min(side, MAX_SIDE);
  const ratio = useDevicePixelRatio();
  const pixels = side === 0 ? 0 : backingSide(cssSide, ratio, Math.min(3, MAX_BACKING / cssSide));
  const labels = useMemo(() => axisLabels(matrix, layout, cssSide, links), [matrix, layout.labels, layout.cell, cssSide, links]); // eslint-disable-line react-hooks/exhaustive-deps
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  // The cell under the pointer or keyboard focus, tied to the matrix it was found in.
  const [hovered, setActive] = useState<{ row: number; column: number; in: HeatmapMatrix } | null>(null);
  const active = hovered?.in === matrix ? hovered : null;
  const tooltipId = useId();

  const inTurns = useTurns();
  // The first drawing, while the view mounts, goes band by band (one turn each); later ones
  // (another cluster, another pixel ratio) answer a click and are drawn at once.
  const drawn = useRef(false);
  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!context || pixels === 0) return;
    const image = context.createImageData(pixels, pixels);
    const block = showAll && selectedCluster !== null ? matrix.blocks.find((entry) => entry.clusterIndex === selectedCluster) : undefined;
    const steps = heatmapBands(matrix.size, pixels, drawn.current ? pixels : BAND_PIXEL_ROWS).map((band) => () => {
      fillHeatmapPixels(matrix, pixels, image.data, band);
      context.putImageData(image, 0, 0, 0, band.top, pixels, band.bottom - band.top);
    });
    drawn.current = true;
    const outline = () => {
      if (!block) return;
      // The outline is laid out in cell units like everything else; the transform maps them to device pixels.
      const width = Math.max(2, Math.min(4, cell));
      context.setTransform(pixels / side, 0, 0, pixels / side, 0, 0);
      context.strokeStyle = '#111827';
      context.lineWidth = width;
      context.strokeRect(block.start * cell + width / 2, block.start * cell + width / 2, block.size * cell - width, block.size * cell - width);
      context.setTransform(1, 0, 0, 1, 0, 0);
    };
    if (steps.length === 1) {
      steps[0]();
      outline();
      return;
    }
    return inTurns([...steps, outline]);
  }, [matrix, cell, side, pixels, showAll, selectedCluster, inTurns]);

  // The tooltip lives in document.body at fixed viewport coordinates, so no scroll box around the
  // canvas clips it; it is placed after layout (its size depends on the rationale) and before paint.
  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    const tooltip = tooltipRef.current;
    if (!canvas || !tooltip || !active) return;
    const rect = canvas.getBoundingClientRect();
    const scale = canvas.clientWidth > 0 ? canvas.clientWidth / side : cssSide / side;
    const cellBox = {
      left: rect.left + canvas.clientLeft + active.column * cell * scale,
      top: rect.top + canvas.clientTop + active.row * cell * scale,
      width: cell * scale,
      height: cell * scale,
    };
    const size = tooltip.getBoundingClientRect();
    const viewport = { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
    const { left, top } = placeTooltip(cellBox, size, viewport);
    tooltip.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
  }, [active, cell, side, cssSide]);

  // A fixed tooltip would drift from its cell when anything scrolls: hide it until the next move.
  const showing = active !== null;
  useEffect(() => {
    if (!showing) return;
    const hide = () => setActive(null);
    window.addEventListener('scroll', hide, { capture: true, passive: true });
    return () => window.removeEventListener('scroll', hide, { capture: true });
  }, [showing]);

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const canvas = event.currentTarget;
    const rect = canvas.getBoundingClientRect();
    // From the client point to cell units: skip the border, undo the CSS scaling. The backing
    // store's size plays no part, so hit-testing is the same at every pixel ratio.
    const scale = canvas.clientWidth > 0 ? side / canvas.clientWidth : 1;
    const x = (event.clientX - rect.left - canvas.clientLeft) * scale;
    const y = (event.clientY - rect.top - canvas.clientTop) * scale;
    const hit = cellAt(x, y, cell, matrix.size);
    setActive((current) => (hit === null ? null : current?.in === matrix && current.row === hit.row && current.column === hit.column ? current : { ...hit, in: matrix }));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key === 'Escape') {
      setActive(null);
      return;
    }
    const move = moves[event.key];
    if (!move || matrix.size === 0) return;
    event.preventDefault();
    setActive((current) => {
      if (current?.in !== matrix) return { row: 0, column: Math.min(1, matrix.size - 1), in: matrix };
      return { row: clampIndex(current.row + move[0], matrix.size), column: clampIndex(current.column + move[1], matrix.size), in: matrix };
    });
  };

  const description = active ? describeCell(matrix, active.row, active.column) : null;
  const tooltip = description && active && (
    <div
      ref={tooltipRef}
      role="tooltip"
      id={tooltipId}
      className="ble-tooltip"
      data-testid="ble.heatmap.tooltip"
      // The layout effect above places it with a transform, on its own compositing layer; React never sets the transform.
      style={{ position: 'fixed', left: 0, top: 0, willChange: 'transform' }}
    >
      <div>
        <code>{description.rowAddress}</code> × <code>{description.columnAddress}</code>
      </div>
      {description.probability === null ? (
        <div data-testid="ble.heatmap.probability">Different clusters: no probability reported</div>
      ) : (
        <div>
          p = <strong data-testid="ble.heatmap.probability">{description.probability.toFixed(2)}</strong>
          {active.row === active.column && <span className="muted"> (same address)</span>}
        </div>
      )}
      {description.clusterIndex !== null && (
        <>
          <div className="muted">{links[description.clusterIndex].cluster_id}</div>
          <ul>
            {links[description.clusterIndex].rationale.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
            {edgeNotes?.get(description.clusterIndex)?.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
  const title = clusterShown === null ? `all linked addresses (${matrix.size})` : `${links[clusterShown].cluster_id} (${matrix.size} addresses)`;

  return (
    <section className="ble-section" aria-labelledby="ble-heatmap-heading">
      <h3 id="ble-heatmap-heading">Pairwise link probabilities</h3>
      <div className="ble-toolbar" role="group" aria-label="Matrix shown">
        <button type="button" aria-pressed={!showAll} disabled={selectedCluster === null} onClick={() => setWantAll(false)}>
          Selected cluster
        </button>
        <button type="button" aria-pressed={showAll} onClick={() => setWantAll(true)}>
          All linked addresses
        </button>
        <HeatmapLegend />
      </div>
      {matrix.size === 0 ? (
        <p className="muted">No linked addresses to show.</p>
      ) : (
        <div
          className={`ble-heatmap ble-heatmap--${layout.labels}`}
          data-testid="ble.heatmap.frame"
          style={{ gridTemplateColumns: `${LABEL_GUTTER}px ${cssSide + 2}px`, gridTemplateRows: `${LABEL_GUTTER}px ${cssSide + 2}px` }}
        >
          {/* The axes' labels: rows left, columns above (the matrix is symmetric), in the canvas's CSS pixels; the canvas's text alternative is its aria-label, tooltip and table. */}
          <div className="ble-heatmap__corner" aria-hidden="true" />
          <AxisLabels axis="columns" labels={labels} />
          <AxisLabels axis="rows" labels={labels} />
          <canvas
            ref={canvasRef}
            width={pixels}
            height={pixels}
            // Content-box, so the border does not eat into the CSS size the backing store is made for.
            style={{ width: cssSide, height: cssSide, boxSizing: 'content-box' }}
            role="img"
            tabIndex={0}
            aria-label={`Pairwise link probability heatmap, ${title}. Hover a cell or use the arrow keys to read it.`}
            aria-describedby={description ? tooltipId : undefined}
            data-testid="ble.heatmap"
            data-size={matrix.size}
            data-cell={cell}
            onPointerMove={onPointerMove}
            onPointerLeave={() => setActive(null)}
            onKeyDown={onKeyDown}
            onBlur={() => setActive(null)}
            onClick={() => {
              if (description?.clusterIndex !== null && description?.clusterIndex !== undefined) onSelectCluster(description.clusterIndex);
            }}
          />
          {tooltip && createPortal(tooltip, document.body)}
        </div>
      )}
      {clusterShown !== null && matrix.size <= TABLE_LIMIT && <MatrixTable link={links[clusterShown]} />}
    </section>
  );
}

/**
 * The screen's device pixel ratio, updated when it changes (browser zoom, a move to another
 * screen): a media query on the current ratio fires once when the ratio stops matching it.
 */
function useDevicePixelRatio(): number {
  const [ratio, setRatio] = useState(currentPixelRatio);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(`(resolution: ${ratio}dppx)`);
    const onChange = () => setRatio(currentPixelRatio());
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [ratio]);
  return ratio;
}

function currentPixelRatio(): number {
  const ratio = window.devicePixelRatio;
  return Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
}

/** Width of the row labels and height of the column labels (a 17-character address at 11 px monospace, plus room). */
const LABEL_GUTTER = 128;

function AxisLabels({ axis, labels }: { axis: 'rows' | 'columns'; labels: ReturnType<typeof axisLabels> }) {
  return (
    <div className={`ble-heatmap__${axis}`} aria-hidden="true" data-testid={`ble.heatmap.${axis}`}>
      {labels.map((label) => (
        <span key={`${label.text}-${label.start}`} style={axis === 'rows' ? { top: label.start + 1, height: label.length } : { left: label.start + 1, width: label.length }} title={label.text}>
          {label.text}
        </span>
      ))}
    </div>
  );
}

function clampIndex(value: number, size: number): number {
  return Math.min(size - 1, Math.max(0, value));
}

function HeatmapLegend() {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((p) => `${cssColor(probabilityColor(p))} ${p * 100}%`).join(', ');
  return (
    <span className="ble-legend small" role="img" aria-label="Colour scale: probability 0 light to 1 dark; grey: not reported">
      <span aria-hidden="true">0</span>
      <span className="ble-legend__ramp" style={{ background: `linear-gradient(to right, ${stops})` }} aria-hidden="true" />
      <span aria-hidden="true">1</span>
      <span className="ble-swatch" style={{ background: cssColor(NOT_REPORTED_RGB), border: '1px solid #cbd5e1' }} aria-hidden="true" />
      <span aria-hidden="true">not reported</span>
    </span>
  );
}

/** The selected cluster's matrix as a table: the heatmap's text alternative. */
function MatrixTable({ link }: { link: ProbabilisticLink }) {
  return (
    <details className="ble-matrix-table">
      <summary>Matrix of {link.cluster_id} as a table</summary>
      <div className="ble-scroll">
        {/* One scroller, not two: see ClassificationTable. */}
        <table className="data-table" aria-label={`Pairwise probabilities of ${link.cluster_id}`}>
          <thead>
            <tr>
              <td />
              {link.addresses.map((address) => (
                <th key={address} scope="col">
                  <code>{address}</code>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {link.addresses.map((address, row) => (
              <tr key={address}>
                <th scope="row">
                  <code>{address}</code>
                </th>
                {link.addresses.map((other, column) => {
                  const value = link.pairwise_probability_matrix[row]?.[column];
                  return <td key={other}>{typeof value === 'number' ? value.toFixed(2) : '—'}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
