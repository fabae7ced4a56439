import { formatCount, formatNumber } from './format.ts';

interface Props {
  counts: number[];
  /** Label of the first and last bin edges. */
  startLabel: string;
  endLabel: string;
  /** Describes bin `index` for its tooltip. */
  describeBin(index: number): string;
  height?: number;
}

/**
 * Counts per bin as plain SVG bars. Drawn by hand rather than with the chart library because it
 * must render instantly next to a million-row table: no text measurement, no layout reads.
 */
export function Histogram({ counts, startLabel, endLabel, describeBin, height = 120 }: Props) {
  const max = Math.max(1, ...counts);
  const width = counts.length;
  return (
    <div className="histogram">
      <div className="histogram__axis-y">
        <span>{formatNumber(max)}</span>
        <span>0</span>
      </div>
      <div className="histogram__plot">
        <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" width="100%" height={height} role="img" aria-label="Histogram">
          {counts.map((count, index) => {
            const barHeight = (count / max) * height;
            return (
              <rect key={index} x={index + 0.08} width={0.84} y={height - barHeight} height={barHeight} className="histogram__bar">
                <title>{`${describeBin(index)}: ${formatCount(count)}`}</title>
              </rect>
            );
          })}
        </svg>
        <div className="histogram__axis-x">
          <span>{startLabel}</span>
          <span>{endLabel}</span>
        </div>
      </div>
    </div>
  );
}
