import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import type { CaptureInfo } from '../../../core/index.ts';
import { formatCount, formatNumber } from '../../components/format.ts';
import { getRuntime, type CaptureViewAnswer } from '../../lib/runtime/sextant-runtime.ts';

const WIDTH = 600;
const HEIGHT = 160;
const MAX_SERIES = 4;
/** Colour and dash per series, so the lines differ without colour too. */
const STYLES = [
  { stroke: '#2563eb', dash: '' },
  { stroke: '#dc2626', dash: '6 3' },
  { stroke: '#059669', dash: '2 3' },
  { stroke: '#7c3aed', dash: '10 3 2 3' },
];

/**
 * Wireshark's I/O graph: records per time bin for several filters on one time axis. Each series
 * is the capture view of its filter, computed in a tools worker (60 bins over the capture's bounds).
 */
export function IoGraph({ info }: { info: CaptureInfo }) {
  const hasCrc = info.columns.some((column) => column.name === 'crc_ok');
  // Each series keeps an id, so removing one leaves the others' inputs in place.
  const [entries, setEntries] = useState<Array<{ id: number; filter: string }>>(() => (hasCrc ? [{ id: 0, filter: '' }, { id: 1, filter: 'crc_ok = FALSE' }] : [{ id: 0, filter: '' }]));
  const filters = entries.map((entry) => entry.filter);
  const answers = useQueries({
    queries: filters.map((filter) => ({
      queryKey: ['capture-view', info.id, filter.trim()],
      queryFn: (): Promise<CaptureViewAnswer> => getRuntime().selectRows(info.id, filter.trim()),
      staleTime: Infinity,
    })),
  });
  const series = answers.map((answer) => (answer.data && !('error' in answer.data) ? answer.data : null));
  const peak = Math.max(1, ...series.flatMap((view) => view?.histogram.counts ?? []));
  const bins = series.find((view) => view)?.histogram.counts.length ?? 60;
  const binSeconds = (info.bounds.end_ms - info.bounds.start_ms) / bins / 1000;
  // A filter is applied on Enter or when the field is left (each one is a pass over the capture in a worker).
  const setFilter = (id: number, value: string) => setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, filter: value } : entry)));

  return (
    <details className="io-graph" data-testid="capture.io-graph">
      <summary>Statistics: I/O graph (records per {formatNumber(binSeconds, 3)} s, one line per filter)</summary>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="io-graph__plot" role="img" aria-label={`Records per bin for ${filters.length} filters; the peak is ${formatCount(peak)}`}>
        <line x1={0} y1={HEIGHT - 1} x2={WIDTH} y2={HEIGHT - 1} stroke="#cbd5e1" />
        {series.map((view, index) =>
          view ? (
            <polyline
              key={index}
              fill="none"
              stroke={STYLES[index].stroke}
              strokeDasharray={STYLES[index].dash}
              strokeWidth={2}
              points={view.histogram.counts.map((count, bin) => `${((bin + 0.5) * WIDTH) / bins},${HEIGHT - 2 - (count / peak) * (HEIGHT - 8)}`).join(' ')}
            />
          ) : null,
        )}
      </svg>
      <p className="muted small">Peak: {formatCount(peak)} records in one bin.</p>
      <ul className="io-graph__series">
        {entries.map((entry, index) => {
          const answer = answers[index].data;
          return (
            <li key={entry.id}>
              <svg width="28" height="10" aria-hidden="true">
                <line x1="0" y1="5" x2="28" y2="5" stroke={STYLES[index].stroke} strokeDasharray={STYLES[index].dash} strokeWidth="2" />
              </svg>
              <input
                className="mono"
                aria-label={`Filter of series ${index + 1}`}
                defaultValue={entry.filter}
                placeholder="all records"
                onBlur={(event) => setFilter(entry.id, event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') setFilter(entry.id, event.currentTarget.value);
                }}
                spellCheck={false}
                data-testid="capture.io-filter"
              />
              <span className={answer && 'error' in answer ? 'field__error' : 'muted'} data-testid="capture.io-count">
                {answer ? ('error' in answer ? answer.error : `${formatCount(answer.rowCount)} records`) : '…'}
              </span>
              {filters.length > 1 && (
                <button type="button" onClick={() => setEntries((current) => current.filter((other) => other.id !== entry.id))} aria-label={`Remove series ${index + 1}`}>
                  ×
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {filters.length < MAX_SERIES && (
        <button type="button" onClick={() => setEntries((current) => [...current, { id: Math.max(...current.map((other) => other.id)) + 1, filter: '' }])}>
          Add a series
        </button>
      )}
    </details>
  );
}
