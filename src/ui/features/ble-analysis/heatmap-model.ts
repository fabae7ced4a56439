import { NOT_REPORTED_RGB, probabilityRgb } from '../../../core/index.ts';
import type { ProbabilisticLink } from './ble-output.ts';

/**
 * A square matrix of link probabilities laid out for the heatmap: one cluster's matrix, or every
 * cluster's matrix on the diagonal of one big matrix. Cells outside a cluster's block are NaN:
 * the analyzer reports no probability for addresses in different clusters.
 */
export interface HeatmapMatrix {
  addresses: string[];
  /** Row-major, `size × size`. */
  values: Float64Array;
  /** Index into `probabilistic_links` of each row's cluster. */
  clusterOf: Int32Array;
  /** Each cluster's block: first row and size. */
  blocks: Array<{ clusterIndex: number; start: number; size: number }>;
  size: number;
}

/** One cluster's matrix. */
export function clusterMatrix(links: ReadonlyArray<ProbabilisticLink>, clusterIndex: number): HeatmapMatrix {
  return assemble(links, [clusterIndex]);
}

/** Every cluster's matrix along the diagonal ("all linked addresses"). */
export function blockDiagonalMatrix(links: ReadonlyArray<ProbabilisticLink>): HeatmapMatrix {
  return assemble(
    links,
    links.map((_, index) => index),
  );
}

function assemble(links: ReadonlyArray<ProbabilisticLink>, clusterIndexes: number[]): HeatmapMatrix {
  const size = clusterIndexes.reduce((total, index) => total + links[index].addresses.length, 0);
  const values = new Float64Array(size * size).fill(Number.NaN);
  const clusterOf = new Int32Array(size);
  const addresses: string[] = [];
  const blocks: HeatmapMatrix['blocks'] = [];
  let start = 0;
  for (const clusterIndex of clusterIndexes) {
    const link = links[clusterIndex];
    const count = link.addresses.length;
    blocks.push({ clusterIndex, start, size: count });
    for (let row = 0; row < count; row++) {
      addresses.push(link.addresses[row]);
      clusterOf[start + row] = clusterIndex;
      const source = link.pairwise_probability_matrix[row] ?? [];
      for (let column = 0; column < count; column++) {
        const value = source[column];
        // A ragged or missing cell stays NaN ("not reported") rather than breaking the drawing.
        values[(start + row) * size + start + column] = typeof value === 'number' ? value : Number.NaN;
      }
    }
    start += count;
  }
  return { addresses, values, clusterOf, blocks, size };
}

/** Smallest cell that carries an address label readably (11-px monospace text). */
export const LABEL_CELL = 14;
/** Largest matrix labelled address by address; beyond it, "all linked addresses" labels cluster blocks. */
export const MAX_ADDRESS_LABELS = 100;

/**
 * How the heatmap is laid out: the cell side and what its axes carry. A single cluster's matrix is
 * always labelled with its addresses, its cells at least LABEL_CELL (the canvas grows and scrolls);
 * so is a block matrix of up to MAX_ADDRESS_LABELS addresses. A bigger block matrix keeps to
 * `maxSide` and labels each cluster's block with the cluster id where the block is tall enough.
 */
export function heatmapLayout(size: number, maxSide: number, singleCluster: boolean): { cell: number; labels: 'addresses' | 'clusters' } {
  const fitted = cellSize(size, maxSide);
  if (singleCluster || size <= MAX_ADDRESS_LABELS) return { cell: Math.max(LABEL_CELL, fitted), labels: 'addresses' };
  return { cell: fitted, labels: 'clusters' };
}

/** The axis labels in CSS pixels along either axis (the matrix is square and symmetric). */
export function axisLabels(matrix: HeatmapMatrix, layout: { cell: number; labels: 'addresses' | 'clusters' }, cssSide: number, links: ReadonlyArray<ProbabilisticLink>): Array<{ text: string; start: number; length: number }> {
  if (matrix.size === 0) return [];
  const scale = cssSide / matrix.size;
  if (layout.labels === 'addresses') return matrix.addresses.map((text, index) => ({ text, start: index * scale, length: scale }));
  return matrix.blocks
    .filter((block) => block.size * scale >= LABEL_CELL - 2)
    .map((block) => ({ text: links[block.clusterIndex].cluster_id, start: block.start * scale, length: block.size * scale }));
}

/** Side of one cell in CSS pixels: as large as fits in `maxSide`, between 1 and `maxCell`. */
export function cellSize(size: number, maxSide: number, maxCell = 40): number {
  if (size <= 0) return maxCell;
  return Math.max(1, Math.min(maxCell, Math.floor(maxSide / size)));
}

/** The cell under a point given in the canvas's own pixels, or null outside the matrix. */
export function cellAt(x: number, y: number, cell: number, size: number): { row: number; column: number } | null {
  if (!(x >= 0 && y >= 0)) return null;
  const column = Math.floor(x / cell);
  const row = Math.floor(y / cell);
  return row < size && column < size ? { row, column } : null;
}

/** The colour scale shared with the case report (src/core/report/probability-scale.ts): one colour means one probability in both. */
export { NOT_REPORTED_RGB };
export const probabilityColor = probabilityRgb;

export function cssColor(rgb: readonly [number, number, number]): string {
  return `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`;
}

/**
 * Writes the matrix as RGBA pixels into `pixels`, a square image `side` pixels wide. Cell `i`
 * spans pixels floor(i·side/size) to floor((i+1)·side/size), so the image matches the canvas's
 * device pixels exactly whatever the ratio: cells differ by at most one pixel, and with more cells
 * than pixels a cell may get none. One pass of 32-bit writes from a 257-entry colour table (256
 * probability steps and "not reported"), so a 500 × 500 matrix costs a few milliseconds.
 * `rows` limits the work to matrix rows [from, to), so a large image can be drawn in bands.
 */
export function fillHeatmapPixels(matrix: HeatmapMatrix, side: number, pixels: Uint8ClampedArray, rows: { from: number; to: number } = { from: 0, to: matrix.size }): void {
  if (pixels.length < side * side * 4) throw new Error(`pixel buffer too small: ${pixels.length} < ${side * side * 4}`);
  const size = matrix.size;
  if (size === 0 || side === 0) return;
  // Colours packed the way this platform lays out bytes: written as bytes, read back as words.
  const tableBytes = new Uint8ClampedArray(257 * 4);
  for (let step = 0; step <= 256; step++) tableBytes.set([...(step === 256 ? NOT_REPORTED_RGB : probabilityColor(step / 255)), 255], step * 4);
  const table = new Uint32Array(tableBytes.buffer);
  const words = new Uint32Array(pixels.buffer, pixels.byteOffset, side * side);
  const edges = cellEdges(size, side);
  for (let row = Math.max(0, rows.from); row < Math.min(size, rows.to); row++) {
    const top = edges[row];
    const bottom = edges[row + 1];
    if (bottom === top) continue;
    const rowStart = top * side;
    for (let column = 0; column < size; column++) {
      const value = matrix.values[row * size + column];
      const color = table[Number.isNaN(value) ? 256 : Math.round(Math.min(1, Math.max(0, value)) * 255)];
      for (let x = rowStart + edges[column], end = rowStart + edges[column + 1]; x < end; x++) words[x] = color;
    }
    // A matrix row is `bottom - top` identical pixel rows.
    for (let y = top + 1; y < bottom; y++) words.copyWithin(y * side, rowStart, rowStart + side);
  }
}

/**
 * Bands of matrix rows for drawing a `size`-row matrix into a `side`-pixel image a band at a
 * time: each band spans at most `maxPixelRows` pixel rows (but at least one matrix row), and the
 * bands cover every row once, in order. `top`/`bottom`: the band's pixel rows.
 */
export function heatmapBands(size: number, side: number, maxPixelRows: number): Array<{ from: number; to: number; top: number; bottom: number }> {
  const edges = cellEdges(size, side);
  const bands: Array<{ from: number; to: number; top: number; bottom: number }> = [];
  let from = 0;
  while (from < size) {
    let to = from + 1;
    while (to < size && edges[to + 1] - edges[from] <= maxPixelRows) to++;
    bands.push({ from, to, top: edges[from], bottom: edges[to] });
    from = to;
  }
  return bands;
}

/** Pixel edges of `size` cells across `side` pixels: `size + 1` entries from 0 to `side`. */
export function cellEdges(size: number, side: number): Int32Array {
  const edges = new Int32Array(size + 1);
  for (let index = 0; index <= size; index++) edges[index] = Math.floor((index * side) / size);
  return edges;
}

/**
 * Pixels of the canvas's backing store for a CSS side and a device pixel ratio: one per device
 * pixel (so the image is not resampled on HiDPI screens), with the ratio capped to bound memory.
 */
export function backingSide(cssSide: number, devicePixelRatio: number, maxRatio = 3): number {
  const ratio = Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? Math.min(maxRatio, devicePixelRatio) : 1;
  return Math.max(1, Math.round(cssSide * ratio));
}

/** What the tooltip says about one cell. */
export interface CellDescription {
  rowAddress: string;
  columnAddress: string;
  /** Null when the analyzer reports no probability (addresses in different clusters). */
  probability: number | null;
  /** The cluster both addresses are in, or null when they are in different clusters. */
  clusterIndex: number | null;
}

export function describeCell(matrix: HeatmapMatrix, row: number, column: number): CellDescription {
  const value = matrix.values[row * matrix.size + column];
  const sameCluster = matrix.clusterOf[row] === matrix.clusterOf[column];
  return {
    rowAddress: matrix.addresses[row],
    columnAddress: matrix.addresses[column],
    probability: Number.isNaN(value) ? null : value,
    clusterIndex: sameCluster ? matrix.clusterOf[row] : null,
  };
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Where the tooltip goes, in viewport pixels: below and right of the cell, flipped to the other
 * side on an axis where it would leave the viewport, and kept `gap` inside the viewport.
 */
export function placeTooltip(cell: Box, tooltip: { width: number; height: number }, viewport: { width: number; height: number }, gap = 8): { left: number; top: number } {
  const along = (start: number, length: number, size: number, limit: number): number => {
    let position = start + length + gap;
    if (position + size > limit - gap) position = start - gap - size;
    return Math.max(gap, Math.min(position, limit - gap - size));
  };
  return { left: along(cell.left, cell.width, tooltip.width, viewport.width), top: along(cell.top, cell.height, tooltip.height, viewport.height) };
}
