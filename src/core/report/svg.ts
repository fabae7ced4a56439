/**
 * The report's images as SVG text, from plain data (no DOM). Every piece of text that reaches the
 * markup goes through `escapeMarkup`; numbers are formatted here, never interpolated raw.
 */
import { probabilityRgb, probabilityTextIsLight } from './probability-scale.ts';

/** Escapes text for HTML and SVG content and attribute values. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '0';
}

/** The shared probability scale (probability-scale.ts) as an SVG colour; a missing value draws as 0. */
export function probabilityColor(probability: number): string {
  const [r, g, b] = probabilityRgb(Number.isFinite(probability) ? probability : 0);
  return `rgb(${r},${g},${b})`;
}

/** A cluster's pairwise probability matrix as a labelled heatmap. */
export function heatmapSvg(addresses: readonly string[], matrix: readonly (readonly number[])[], title: string): string {
  const n = addresses.length;
  const cell = n <= 12 ? 40 : n <= 40 ? 14 : Math.max(2, Math.floor(560 / n));
  const showLabels = n <= 40;
  const label = showLabels ? 150 : 10;
  const size = label + n * cell + 10;
  // The rotated column labels lean right past the last column.
  const width = size + (showLabels ? 110 : 0);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="report-heatmap" role="img" width="${width}" height="${size}" viewBox="0 0 ${width} ${size}" font-family="ui-monospace, monospace" font-size="11"><title>${escapeMarkup(title)}</title>`,
  );
  for (let row = 0; row < n; row++) {
    if (showLabels) {
      parts.push(`<text x="${label - 6}" y="${label + row * cell + cell / 2 + 4}" text-anchor="end">${escapeMarkup(addresses[row])}</text>`);
      parts.push(
        `<text transform="translate(${label + row * cell + cell / 2 + 4},${label - 6}) rotate(-60)">${escapeMarkup(addresses[row])}</text>`,
      );
    }
    for (let column = 0; column < n; column++) {
      const value = matrix[row]?.[column] ?? 0;
      parts.push(`<rect x="${label + column * cell}" y="${label + row * cell}" width="${cell}" height="${cell}" fill="${probabilityColor(value)}" stroke="#fff" stroke-width="${cell > 6 ? 1 : 0}"/>`);
      if (cell >= 30) {
        parts.push(
          `<text x="${label + column * cell + cell / 2}" y="${label + row * cell + cell / 2 + 4}" text-anchor="middle" fill="${probabilityTextIsLight(value) ? '#fff' : '#000'}">${fixed(value, 3)}</text>`,
        );
      }
    }
  }
  parts.push('</svg>');
  return parts.join('');
}

export interface SvgSegment {
  address: string;
  startMs: number;
  endMs: number;
  activity: number;
  /** Index of the address's cluster, or null when it is in none. */
  cluster: number | null;
}

const CLUSTER_COLORS = ['#1b6ca8', '#d1495b', '#2a9d8f', '#8d6a9f', '#e09f3e', '#3d405b', '#6a994e', '#bc4749'];

/** One swimlane per address, segments as bars (opacity from activity), clustered addresses coloured by cluster. */
export function timelineSvg(lanes: readonly string[], segments: readonly SvgSegment[], title: string): string {
  const width = 900;
  const label = 150;
  const laneHeight = 14;
  const top = 24;
  const height = top + lanes.length * laneHeight + 10;
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const segment of segments) {
    start = Math.min(start, segment.startMs);
    end = Math.max(end, segment.endMs);
  }
  if (!(end > start)) {
    start = 0;
    end = 1;
  }
  const x = (ms: number) => label + ((ms - start) / (end - start)) * (width - label - 10);
  const laneOf = new Map(lanes.map((address, index) => [address, index]));
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="report-timeline" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, monospace" font-size="10"><title>${escapeMarkup(title)}</title>`,
  ];
  for (let tick = 0; tick <= 4; tick++) {
    const ms = start + ((end - start) * tick) / 4;
    const tx = x(ms);
    parts.push(`<line x1="${fixed(tx)}" y1="${top - 6}" x2="${fixed(tx)}" y2="${height - 10}" stroke="#ddd"/>`);
    parts.push(`<text x="${fixed(tx)}" y="${top - 10}" text-anchor="${tick === 0 ? 'start' : tick === 4 ? 'end' : 'middle'}">${escapeMarkup(new Date(ms).toISOString().slice(11, 19))}</text>`);
  }
  lanes.forEach((address, index) => {
    parts.push(`<text x="${label - 6}" y="${top + index * laneHeight + laneHeight - 4}" text-anchor="end">${escapeMarkup(address)}</text>`);
  });
  for (const segment of segments) {
    const lane = laneOf.get(segment.address);
    if (lane === undefined) continue;
    const color = segment.cluster === null ? '#777' : CLUSTER_COLORS[segment.cluster % CLUSTER_COLORS.length];
    const x0 = x(segment.startMs);
    const barWidth = Math.max(1.5, x(segment.endMs) - x0);
    const opacity = 0.35 + 0.65 * Math.min(1, Math.max(0, segment.activity));
    parts.push(`<rect x="${fixed(x0)}" y="${top + lane * laneHeight + 2}" width="${fixed(barWidth)}" height="${laneHeight - 4}" fill="${color}" fill-opacity="${fixed(opacity, 2)}"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** A scatter plot (fitted against actual, or residual against fitted), with a reference line. */
export function scatterSvg(points: ReadonlyArray<{ x: number; y: number }>, options: { title: string; xLabel: string; yLabel: string; reference: 'diagonal' | 'zero' }): string {
  const width = 420;
  const height = 320;
  const margin = { left: 56, right: 12, top: 12, bottom: 40 };
  const finite = points.filter((point) => Number.isFinite(point.x) && Number.isFinite(point.y));
  const extent = (values: number[]) => {
    let low = Math.min(...values);
    let high = Math.max(...values);
    if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
    if (high === low) {
      low -= 1;
      high += 1;
    }
    return [low, high];
  };
  const [xLow, xHigh] = extent(finite.map((point) => point.x));
  const [yLow, yHigh] = options.reference === 'diagonal' ? [xLow, xHigh].map((value, index) => (index === 0 ? Math.min(value, ...finite.map((p) => p.y)) : Math.max(value, ...finite.map((p) => p.y)))) : extent(finite.map((point) => point.y));
  const sx = (value: number) => margin.left + ((value - xLow) / (xHigh - xLow)) * (width - margin.left - margin.right);
  const sy = (value: number) => height - margin.bottom - ((value - yLow) / (yHigh - yLow)) * (height - margin.top - margin.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="report-plot" role="img" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11"><title>${escapeMarkup(options.title)}</title>`,
    `<rect x="${margin.left}" y="${margin.top}" width="${width - margin.left - margin.right}" height="${height - margin.top - margin.bottom}" fill="none" stroke="#999"/>`,
  ];
  if (options.reference === 'diagonal') {
    const low = Math.max(xLow, yLow);
    const high = Math.min(xHigh, yHigh);
    parts.push(`<line x1="${fixed(sx(low))}" y1="${fixed(sy(low))}" x2="${fixed(sx(high))}" y2="${fixed(sy(high))}" stroke="#d1495b"/>`);
  } else if (yLow < 0 && yHigh > 0) {
    parts.push(`<line x1="${margin.left}" y1="${fixed(sy(0))}" x2="${width - margin.right}" y2="${fixed(sy(0))}" stroke="#d1495b"/>`);
  }
  for (const point of finite) parts.push(`<circle cx="${fixed(sx(point.x))}" cy="${fixed(sy(point.y))}" r="1.6" fill="#1b6ca8" fill-opacity="0.5"/>`);
  parts.push(`<text x="${margin.left}" y="${height - 22}">${escapeMarkup(compact(xLow))}</text>`);
  parts.push(`<text x="${width - margin.right}" y="${height - 22}" text-anchor="end">${escapeMarkup(compact(xHigh))}</text>`);
  parts.push(`<text x="${margin.left - 4}" y="${height - margin.bottom}" text-anchor="end">${escapeMarkup(compact(yLow))}</text>`);
  parts.push(`<text x="${margin.left - 4}" y="${margin.top + 10}" text-anchor="end">${escapeMarkup(compact(yHigh))}</text>`);
  parts.push(`<text x="${(width + margin.left) / 2}" y="${height - 6}" text-anchor="middle">${escapeMarkup(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(14,${(height - margin.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeMarkup(options.yLabel)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

function compact(value: number): string {
  return Math.abs(value) >= 1000 || Math.abs(value) < 0.01 ? value.toPrecision(3) : value.toFixed(2);
}
