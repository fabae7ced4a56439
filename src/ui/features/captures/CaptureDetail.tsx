import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { CaptureInfo } from '../../../core/index.ts';
import { formatNumber } from '../../components/format.ts';
import { useCaptureView } from '../../lib/capture-queries.ts';
import { offerDraftInvocation } from '../../lib/draft-invocation.ts';
import { FilterBox } from './FilterBox.tsx';
import { RecordsTable } from './RecordsTable.tsx';
import { wallClock } from './wall-clock.ts';

interface Props {
  info: CaptureInfo;
  onDelete?: () => void;
}

/** Everything about one capture: what it is, its records under a filter, and where its values lie. */
export function CaptureDetail({ info, onDelete }: Props) {
  const [filter, setFilter] = useState('');
  const view = useCaptureView(info.id, filter);
  const answer = view.data;
  const problem = answer && 'error' in answer ? { message: answer.error, position: answer.position } : null;
  const current = answer && !('error' in answer) ? answer : null;
  const queryClient = useQueryClient();

  const useInTool = () => {
    offerDraftInvocation({
      tool_name: 'statistical_regression_tool',
      tool_version: '1.2.0',
      capture_selection: {
        capture_id: info.id,
        selectors: { time_range: { ...info.bounds }, ...(filter.trim() && !problem ? { filters: [filter.trim()] } : {}) },
      },
      arguments: { operation: 'summary_stats' },
      request_id: `req-${crypto.randomUUID()}`,
      timeout_ms: 30_000,
    });
    void queryClient.invalidateQueries({ queryKey: ['manifests'] });
    window.location.hash = '#/tools';
  };

  const start = wallClock(info.bounds.start_ms, info);
  const end = wallClock(info.bounds.end_ms, info);
  const histogram = current?.histogram;
  const binWidth = histogram ? (histogram.end_ms - histogram.start_ms) / histogram.counts.length : 0;
  const bars = histogram?.counts.map((count, index) => ({ at: histogram.start_ms + index * binWidth, count })) ?? [];
  const receivers = current?.summaries.find((summary) => summary.name === 'receiver');

  return (
    <section className="panel capture-detail" aria-label={`Capture ${info.id}`} data-testid="capture.detail">
      <header className="capture-detail__header">
        <h2>
          <code>{info.id}</code> <span className="muted small">{info.source}</span>
        </h2>
        <span className="spacer" />
        <button type="button" className="primary" onClick={useInTool} data-testid="capture.use-in-tool">
          Use in a tool
        </button>
        {onDelete && (
          <button type="button" onClick={onDelete} data-testid="capture.delete">
            Delete
          </button>
        )}
      </header>
      {info.description && <p>{info.description}</p>}
      <dl className="metrics">
        <Metric label="Rows" value={info.rowCount.toLocaleString('en-US')} />
        <Metric label={`Time bounds (${info.boundsSource})`} value={`${formatNumber(info.bounds.start_ms, 13)} – ${formatNumber(info.bounds.end_ms, 13)} ms`} />
        <Metric label="Wall clock" value={start && end ? `${start} – ${end}` : 'unknown (relative capture with no recorded origin)'} />
        <Metric label={`Channels (${info.channelColumn ?? 'no channel column'})`} value={info.channels.join(', ') || '—'} />
        {receivers && receivers.kind !== 'number' && <Metric label="Receivers" value={receivers.top.map((entry) => entry.value).join(', ') || '—'} />}
      </dl>

      <FilterBox value={filter} onCommit={setFilter} error={problem} matched={current?.rowCount ?? null} total={info.rowCount} />

      {bars.length > 0 && (
        <figure className="plot" data-testid="capture.histogram">
          <figcaption>Records over time</figcaption>
          <ResponsiveContainer width="100%" height={140}>
            <BarChart data={bars} margin={{ top: 4, right: 8, bottom: 4, left: 8 }}>
              <XAxis dataKey="at" tickFormatter={(value: number) => formatNumber(value - info.bounds.start_ms, 3)} />
              <YAxis width={48} />
              <Tooltip labelFormatter={(value) => `${formatNumber(Number(value) - info.bounds.start_ms, 6)} ms from start`} />
              <Bar dataKey="count" fill="#2563eb" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      )}

      {current && <RecordsTable info={info} filter={current.filter} rowCount={current.rowCount} />}

      {current && current.advertisers.length > 0 && (
        <table className="data-table" data-testid="capture.advertisers">
          <caption>Advertiser addresses ({current.advertisers.length.toLocaleString('en-US')})</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Records</th>
              <th scope="col">TxAdd</th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {current.advertisers.slice(0, 200).map((entry) => (
              <tr key={entry.address}>
                <td>
                  <code>{entry.address}</code>
                </td>
                <td>{entry.count.toLocaleString('en-US')}</td>
                <td>{entry.tx_add.map((value) => (value === 1 ? 'random' : 'public')).join(', ')}</td>
                <td>{wallClock(entry.first_ms, info) ?? formatNumber(entry.first_ms, 10)}</td>
                <td>{wallClock(entry.last_ms, info) ?? formatNumber(entry.last_ms, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {current && (
        <table className="data-table" data-testid="capture.summaries">
          <caption>Columns under the filter</caption>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Values</th>
              <th scope="col">Missing</th>
              <th scope="col">Summary</th>
            </tr>
          </thead>
          <tbody>
            {current.summaries.map((summary) => (
              <tr key={summary.name}>
                <td>
                  <code>{summary.name}</code>
                  {summary.name === info.timeColumn ? ' (time)' : summary.name === info.channelColumn ? ' (channel)' : ''}
                </td>
                <td>{summary.kind}</td>
                <td>{summary.count.toLocaleString('en-US')}</td>
                <td>{summary.missing.toLocaleString('en-US')}</td>
                <td className="summary-cell">
                  {summary.kind === 'number'
                    ? `min ${formatNumber(summary.min)} · mean ${formatNumber(summary.mean)} · max ${formatNumber(summary.max)}`
                    : `${summary.distinct.toLocaleString('en-US')} distinct; ${summary.top.map((entry) => `${entry.value} (${entry.count})`).join(', ')}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="metric">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
