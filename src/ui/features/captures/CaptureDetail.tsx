import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { isAddressColumn, type CaptureInfo, type CaptureView, type ColumnSchema } from '../../../core/index.ts';
import { invocationForCapture } from '../tools/capture-invocation.ts';
import { formatCount, formatNumber } from '../../components/format.ts';
import { Histogram } from '../../components/Histogram.tsx';
import { useCaptureView } from '../../lib/runtime/capture-queries.ts';
import { offerDraftInvocation } from '../../lib/stores/draft-invocation.ts';
import { FilterBox } from './FilterBox.tsx';
import { ImportReportView } from './ImportReportView.tsx';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';
import { RecordsTable } from './RecordsTable.tsx';
import { formatTime, wallClock, type TimeMode } from './wall-clock.ts';
import { ColumnChooser } from './ColumnChooser.tsx';
import { IoGraph } from './IoGraph.tsx';
import { Metric } from '../../components/Metric.tsx';

/** Address rows drawn at first; more on request, so a busy capture renders in one frame. */
const ADDRESS_PAGE = 50;

interface Props {
  info: CaptureInfo;
  onDelete?: () => void;
  /** The filter to open with (e.g. an address's packets). */
  initialFilter?: string;
}

/** Everything about one capture: what it is, its records under a filter, and where its values lie. */
export function CaptureDetail({ info, onDelete, initialFilter = '' }: Props) {
  const [filter, setFilter] = useState(initialFilter);
  const [addressRows, setAddressRows] = useState(ADDRESS_PAGE);
  const [timeMode, setTimeMode] = useState<TimeMode>('utc');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const ordered = useMemo(() => addressesFirst(info), [info]);
  const shownColumns = ordered.filter((column) => !hidden.has(column.name));
  const view = useCaptureView(info.id, filter);
  const answer = view.data;
  const problem = answer && 'error' in answer ? { message: answer.error, position: answer.position } : null;
  // While the filter being typed is invalid, the last valid view stays (marked by the error), as Wireshark keeps its packet list.
  const [lastValid, setLastValid] = useState<CaptureView | null>(null);
  useEffect(() => {
    if (answer && !('error' in answer)) setLastValid(answer);
  }, [answer]);
  const current = answer && !('error' in answer) ? answer : lastValid;
  const queryClient = useQueryClient();

  const useInTool = () => {
    // The tool that fits the capture's columns (the BLE analyzer for BLE records), the capture and its time bounds selected.
    offerDraftInvocation(invocationForCapture(info, problem ? '' : filter, `req-${crypto.randomUUID()}`));
    void queryClient.invalidateQueries({ queryKey: ['manifests'] });
    window.location.hash = '#/tools';
  };

  const start = wallClock(info.bounds.start_ms, info);
  const end = wallClock(info.bounds.end_ms, info);
  const histogram = current?.histogram;
  const binWidth = histogram ? (histogram.end_ms - histogram.start_ms) / histogram.counts.length : 0;
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
        <button type="button" onClick={() => void download(info.id, 'arrow')} data-testid="capture.download-arrow">
          Download Arrow
        </button>
        <button type="button" onClick={() => void download(info.id, 'parquet')} data-testid="capture.download-parquet">
          Download Parquet
        </button>
        {onDelete && (
          <button type="button" onClick={onDelete} data-testid="capture.delete">
            Delete
          </button>
        )}
      </header>
      {info.description && <p>{info.description}</p>}
      <dl className="metrics">
        <Metric label="Rows" value={formatCount(info.rowCount)} />
        <Metric label={`Time bounds (${info.boundsSource})`} value={`${formatTime(info.bounds.start_ms, timeMode, info)} – ${formatTime(info.bounds.end_ms, timeMode, info)}`} />
        <Metric label="Duration" value={formatDuration(info.bounds.end_ms - info.bounds.start_ms)} />
        <Metric label="Wall clock" value={start && end ? `${start} – ${end}` : 'unknown (relative capture with no recorded origin)'} />
        <Metric label={`Channels (${info.channelColumn ?? 'no channel column'})`} value={info.channels.join(', ') || '—'} />
        {receivers && receivers.kind !== 'number' && <Metric label="Receivers" value={receivers.top.map((entry) => entry.value).join(', ') || '—'} />}
      </dl>

      <ImportReportView report={getRuntime().importReports.get(info.id)} />

      <FilterBox value={filter} onCommit={setFilter} error={problem} matched={current?.rowCount ?? null} total={info.rowCount} />
      {problem && current && (
        <p className="capture-detail__stale" data-testid="capture.stale-view">
          Showing the last valid filter{current.filter ? <> (<code>{current.filter}</code>)</> : ' (none)'} until this one is fixed.
        </p>
      )}

      <div className="capture-detail__view-options">
        <fieldset className="capture-detail__time-mode">
          <legend>Times</legend>
          <label>
            <input type="radio" name={`time-mode-${info.id}`} checked={timeMode === 'utc'} onChange={() => setTimeMode('utc')} data-testid="capture.time-utc" /> UTC clock
          </label>
          <label>
            <input type="radio" name={`time-mode-${info.id}`} checked={timeMode === 'relative'} onChange={() => setTimeMode('relative')} data-testid="capture.time-relative" /> seconds from start
          </label>
        </fieldset>
        <ColumnChooser columns={ordered} hidden={hidden} onChange={setHidden} />
      </div>

      {histogram && (
        <figure className="plot" data-testid="capture.histogram">
          <figcaption>Records over time ({histogram.counts.length} bins of {formatNumber(binWidth / 1000, 3)} s)</figcaption>
          <Histogram
            counts={histogram.counts}
            startLabel={start ?? `${formatNumber(histogram.start_ms, 13)} ms`}
            endLabel={end ?? `${formatNumber(histogram.end_ms, 13)} ms`}
            describeBin={(index) => `${formatNumber(index * binWidth, 6)}–${formatNumber((index + 1) * binWidth, 6)} ms from start`}
          />
        </figure>
      )}

      <IoGraph info={info} />

      {current && <RecordsTable info={info} filter={current.filter} rowCount={current.rowCount} columns={shownColumns} timeMode={timeMode} />}

      {current && current.advertisers.length > 0 && (
        <table className="data-table" data-testid="capture.advertisers">
          <caption>{advertiserCaption(current)}</caption>
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
            {current.advertisers.slice(0, addressRows).map((entry) => (
              <tr key={entry.address}>
                <td>
                  <code>{entry.address}</code>
                </td>
                <td>{formatCount(entry.count)}</td>
                <td>{entry.tx_add.map((value) => (value === 1 ? 'random' : 'public')).join(', ')}</td>
                <td>{formatTime(entry.first_ms, timeMode, info)}</td>
                <td>{formatTime(entry.last_ms, timeMode, info)}</td>
              </tr>
            ))}
          </tbody>
          {current.advertisers.length > addressRows && (
            <tfoot>
              <tr>
                <td colSpan={5}>
                  <button type="button" onClick={() => setAddressRows((rows) => rows + ADDRESS_PAGE)}>
                    Show {Math.min(ADDRESS_PAGE, current.advertisers.length - addressRows)} more
                  </button>
                </td>
              </tr>
            </tfoot>
          )}
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
                <td>{formatCount(summary.count)}</td>
                <td>{formatCount(summary.missing)}</td>
                <td className="summary-cell">
                  {summary.kind === 'number' && summary.name === info.timeColumn && summary.min !== null && summary.max !== null
                    ? `first ${formatTime(summary.min, timeMode, info)} · last ${formatTime(summary.max, timeMode, info)}`
                    : summary.kind === 'number'
                    ? `min ${formatNumber(summary.min)} · mean ${formatNumber(summary.mean)} · max ${formatNumber(summary.max)}`
                    : `${formatCount(summary.distinct)} distinct; ${summary.top.map((entry) => `${entry.value} (${entry.count})`).join(', ')}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/**
 * Saves the capture's table as `<id>.arrow` (Arrow IPC file, as `sextant import --out` writes it)
 * or `<id>.parquet` (for DuckDB, pandas, Spark); both keep the capture's metadata.
 */
async function download(id: string, format: 'arrow' | 'parquet'): Promise<void> {
  const runtime = getRuntime();
  const bytes = format === 'arrow' ? await runtime.exportArrow(id) : await runtime.exportParquet(id);
  const type = format === 'arrow' ? 'application/vnd.apache.arrow.file' : 'application/vnd.apache.parquet';
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${id}.${format}`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Address columns first (what BLE analysts look for), then time, PDU type, signal and the rest in table order. */
function addressesFirst(info: CaptureInfo): ColumnSchema[] {
  const leading = ['adv_type', 'rssi', 'channel'];
  const rank = (column: ColumnSchema): number => (isAddressColumn(column.name) ? 0 : column.name === info.timeColumn ? 1 : leading.includes(column.name) ? 2 + leading.indexOf(column.name) : 10);
  return info.columns.map((column, index) => ({ column, index })).sort((a, b) => rank(a.column) - rank(b.column) || a.index - b.index).map(({ column }) => column);
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${formatNumber(ms, 4)} ms`;
  const seconds = ms / 1000;
  if (seconds < 120) return `${formatNumber(seconds, 4)} s`;
  const minutes = seconds / 60;
  return minutes < 120 ? `${formatNumber(minutes, 4)} min` : `${formatNumber(minutes / 60, 4)} h`;
}

function advertiserCaption(view: CaptureView): string {
  const column = view.summaries.find((summary) => summary.name === 'advertiser_addr');
  const distinct = column && column.kind !== 'number' ? column.distinct : view.advertisers.length;
  const shown = view.advertisers.length < distinct ? `, the ${formatCount(view.advertisers.length)} busiest listed` : '';
  // The column also holds the AdvA a SCAN_REQ or CONNECT_IND addresses, and CRC-bad packets'
  // bit-flipped addresses: more values than the import report's devices that advertised.
  return `Addresses in advertiser_addr under the filter (${formatCount(distinct)}, incl. ones only addressed by SCAN_REQ/CONNECT_IND or read from CRC-bad packets${shown})`;
}
