/**
 * The one colour scale for link probabilities, shared by the app's heatmap (canvas pixels) and
 * the case report's SVG heatmap, so a colour means the same probability in both: sequential,
 * light (0) to dark red (1), readable in print and for colour-blind readers (ColorBrewer OrRd).
 */
export const PROBABILITY_STOPS: ReadonlyArray<readonly [number, number, number]> = [
  [255, 247, 236],
  [253, 212, 158],
  [252, 141, 89],
  [215, 48, 31],
  [127, 0, 0],
];

/** Cells with no reported probability (addresses in different clusters). */
export const NOT_REPORTED_RGB: readonly [number, number, number] = [241, 245, 249];

/** The scale's colour for a probability (clamped to [0, 1]); NaN is "not reported". */
export function probabilityRgb(probability: number): [number, number, number] {
  if (Number.isNaN(probability)) return [...NOT_REPORTED_RGB];
  const position = Math.min(1, Math.max(0, probability)) * (PROBABILITY_STOPS.length - 1);
  const low = Math.min(PROBABILITY_STOPS.length - 2, Math.floor(position));
  const fraction = position - low;
  const a = PROBABILITY_STOPS[low];
  const b = PROBABILITY_STOPS[low + 1];
  return [0, 1, 2].map((channel) => Math.round(a[channel] + (b[channel] - a[channel]) * fraction)) as [number, number, number];
}

/** Whether text drawn on the probability's colour should be white (dark cells) rather than black. */
export function probabilityTextIsLight(probability: number): boolean {
  const [r, g, b] = probabilityRgb(probability);
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
}
