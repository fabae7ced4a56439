import type { Remote } from 'comlink';
import { useEffect, useState } from 'react';
import type { DatasetAnalysisOverview, DeviceDetail, DeviceFilter, DeviceOrder, DevicePage, DeviceRow } from '../../../core/index.ts';
import type { AnalysisWorkerApi } from '../../../../workers/analysis-api.ts';
import { formatCount } from '../../components/format.ts';
import { TRACKER_NAMES, type TrackerKind } from '../ble-analysis/ble-output.ts';
import { DevicePacketsButton } from './DevicePacketsButton.tsx';
import { devicePacketsCommand } from './packets-command.ts';
import { utcSeconds } from './utc.ts';

const PAGE_SIZE = 50;

const FILTERS: Array<[DeviceFilter, string]> = [
  ['all', 'all devices'],
  ['several_addresses', 'with several addresses'],
  ['several_windows', 'seen in several windows'],
  ['trackers', 'trackers'],
  ['travelled_together', 'travelled with another device'],
  ['conflicts', 'with refused joins'],
];

const ORDERS: Array<[DeviceOrder, string]> = [
  ['first_seen', 'first seen'],
  ['windows', 'most windows'],
  ['addresses', 'most addresses'],
  ['confidence', 'least confident'],
];

interface Props {
  api: Remote<AnalysisWorkerApi>;
  counts: { devices: number; relations: number; conflicts: number; filters: Record<DeviceFilter, number> };
  windowCount: number;
  /** The dataset's directory as analyze-dataset was given it, for the command that lists a device's packets. */
  dataset: string;
  /** The captures the analysis read, for opening a device's packets from the picked dataset. */
  analysed: DatasetAnalysisOverview['captures'];
  onOpenWindow: (index: number) => void;
}

function trackerName(kind: string | null | undefined): string | null {
  return kind ? (TRACKER_NAMES[kind as TrackerKind] ?? kind) : null;
}

/** The stitched devices, a page at a time from the worker: search by address or id, filter, sort, and one device's detail. */
export function StitchedDevicesBrowser({ api, counts, windowCount, dataset, analysed, onOpenWindow }: Props) {
  const [text, setText] = useState('');
  const [filter, setFilter] = useState<DeviceFilter>('all');
  const [order, setOrder] = useState<DeviceOrder>('first_seen');
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<DevicePage | null>(null);
  const [selected, setSelected] = useState<DeviceDetail | null>(null);

  useEffect(() => {
    let current = true;
    void api.devices({ text, filter, order, offset, limit: PAGE_SIZE }).then((next) => {
      if (current) setPage(next);
    });
    return () => {
      current = false;
    };
  }, [api, text, filter, order, offset]);

  const select = async (id: string) => setSelected(await api.device(id));
  const total = page?.total ?? 0;
  return (
    <section className="stitched-devices" aria-labelledby="stitched-devices-heading">
      <h3 id="stitched-devices-heading">Devices across the windows</h3>
      <p className="muted small">
        A device is a window&apos;s cluster joined to the clusters of other windows that share its addresses. Confidence is its weakest join. Travelled together
        means distinct devices on one path, never one device.
      </p>
      <div className="runs-toolbar">
        <label className="field">
          <span className="field__label">Find</span>
          <input
            type="search"
            value={text}
            placeholder="address, device id or tracker kind"
            data-testid="analysis.device-search"
            onChange={(event) => {
              setText(event.target.value);
              setOffset(0);
            }}
          />
        </label>
        <label className="field">
          <span className="field__label">Show</span>
          <select
            value={filter}
            data-testid="analysis.device-filter"
            onChange={(event) => {
              setFilter(event.target.value as DeviceFilter);
              setOffset(0);
            }}
          >
            {FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label} ({formatCount(counts.filters[value])})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Order</span>
          <select value={order} data-testid="analysis.device-order" onChange={(event) => setOrder(event.target.value as DeviceOrder)}>
            {ORDERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted small" role="status" data-testid="analysis.device-count">
        {page === null ? 'Reading…' : total === 0 ? 'No device matches.' : `${formatCount(offset + 1)}–${formatCount(Math.min(offset + PAGE_SIZE, total))} of ${formatCount(total)} devices`}
      </p>
      {page && page.rows.length > 0 && (
        <div className="table-scroll">
          <table className="data-table stitched-devices__table" data-testid="analysis.devices">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col" className="stitched-devices__addresses">Addresses</th>
                <th scope="col">First seen (UTC)</th>
                <th scope="col">Last seen</th>
                <th scope="col">Windows</th>
                <th scope="col">Confidence</th>
                <th scope="col">Tracker</th>
                <th scope="col">Travelled with</th>
                <th scope="col">Refused joins</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((row) => (
                <tr key={row.id} className={selected?.device.id === row.id ? 'is-selected' : undefined} data-testid="analysis.device-row">
                  <th scope="row">
                    <button type="button" className="link-button" onClick={() => void select(row.id)} aria-pressed={selected?.device.id === row.id}>
                      {row.id}
                    </button>
                  </th>
                  <td className="stitched-devices__addresses">
                    <code>{row.addresses.join(' ')}</code>
                    {row.address_count > row.addresses.length && <span className="muted"> +{formatCount(row.address_count - row.addresses.length)}</span>}
                  </td>
                  <td>{utcSeconds(row.first_seen)}</td>
                  <td>{utcSeconds(row.last_seen)}</td>
                  <td>
                    <Presence row={row} windowCount={windowCount} />
                  </td>
                  <td>{row.confidence.toFixed(3)}</td>
                  <td>{trackerName(row.tracker_kind) ?? '—'}</td>
                  <td>{row.relations > 0 ? formatCount(row.relations) : '—'}</td>
                  <td>{row.conflicts > 0 ? formatCount(row.conflicts) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE_SIZE && (
        <div className="pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))} data-testid="analysis.page-previous">
            Previous
          </button>
          <button type="button" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)} data-testid="analysis.page-next">
            Next
          </button>
        </div>
      )}
      {selected && <DeviceDetailView detail={selected} dataset={dataset} analysed={analysed} onSelect={(id) => void select(id)} onOpenWindow={onOpenWindow} />}
    </section>
  );
}

/** Where in the run a device was seen: a tick per window, on a strip as long as the run. */
function Presence({ row, windowCount }: { row: DeviceRow; windowCount: number }) {
  const width = 120;
  const step = width / Math.max(1, windowCount);
  return (
    <span className="stitched-devices__presence">
      <svg width={width} height={10} role="img" aria-label={`seen in ${row.windows.length} of ${windowCount} windows`}>
        <rect x={0} y={4} width={width} height={2} className="stitched-devices__track" />
        {row.windows.map((index) => (
          <rect key={index} x={index * step} y={0} width={Math.max(2, step)} height={10} className="stitched-devices__tick" />
        ))}
      </svg>{' '}
      {row.windows.length}
    </span>
  );
}

/** A device's clusters window by window: a window can hold several of its nodes (a cluster and lone addresses the stitching joined). */
function byWindow(entries: ReadonlyArray<{ window: number; cluster_id: string | null }>): Array<{ window: number; clusters: string[]; singles: number }> {
  const windows = new Map<number, { window: number; clusters: string[]; singles: number }>();
  for (const entry of entries) {
    const slot = windows.get(entry.window) ?? { window: entry.window, clusters: [], singles: 0 };
    if (entry.cluster_id === null) slot.singles++;
    else slot.clusters.push(entry.cluster_id);
    windows.set(entry.window, slot);
  }
  return [...windows.values()];
}

interface DetailProps {
  detail: DeviceDetail;
  dataset: string;
  analysed: DatasetAnalysisOverview['captures'];
  onSelect: (id: string) => void;
  onOpenWindow: (index: number) => void;
}

function DeviceDetailView({ detail, dataset, analysed, onSelect, onOpenWindow }: DetailProps) {
  const { device, relations, conflicts } = detail;
  const tracker = trackerName(device.tracker_kind);
  const command = devicePacketsCommand(dataset, device.addresses);
  return (
    <section className="stitched-device" aria-label={`Device ${device.id}`} data-testid="analysis.device-detail">
      <h4>
        {device.id}
        {tracker && <span className="muted"> · {tracker}</span>}
      </h4>
      <p className="small">
        {formatCount(device.addresses.length)} address{device.addresses.length === 1 ? '' : 'es'}, seen {utcSeconds(device.first_seen)} – {utcSeconds(device.last_seen)} in{' '}
        {formatCount(device.windows.length)} window{device.windows.length === 1 ? '' : 's'}; confidence {device.confidence.toFixed(3)} (its weakest join).
      </p>
      <p className="stitched-device__addresses">
        <code data-testid="analysis.device-addresses">{device.addresses.join(' ')}</code>
      </p>
      {command && (
        <div className="stitched-device__command">
          <span className="small muted">Its packets, from the dataset:</span>
          <pre data-testid="analysis.device-command">{command}</pre>
          <button type="button" onClick={() => void navigator.clipboard.writeText(command)}>
            Copy command
          </button>
        </div>
      )}
      <DevicePacketsButton device={device} analysed={analysed} />
      <h5>In each window</h5>
      <ul className="small">
        {byWindow(device.window_clusters).map(({ window, clusters, singles }) => (
          <li key={window}>
            <button type="button" className="link-button" onClick={() => onOpenWindow(window)}>
              Window {window}
            </button>
            : {clusters.map((id) => <code key={id}>{id} </code>)}
            {singles > 0 && `${clusters.length > 0 ? 'and ' : ''}${singles === 1 ? 'a single address' : `${singles} single addresses`}, not clustered`}
          </li>
        ))}
      </ul>
      {relations.length > 0 && (
        <>
          <h5>Travelled together</h5>
          <ul className="small" data-testid="analysis.device-relations">
            {relations.map((relation, index) => {
              const other = relation.device_a === device.id ? relation.device_b : relation.device_a;
              const otherTracker = trackerName(relation.tracker_kind);
              return (
                <li key={index}>
                  moved with{' '}
                  <button type="button" className="link-button" onClick={() => onSelect(other)}>
                    {other}
                  </button>{' '}
                  for {formatCount(Math.round(relation.duration_s / 60))} min in window {relation.window} ({utcSeconds(relation.start_ts)} – {utcSeconds(relation.end_ts)}),
                  probability {relation.probability.toFixed(3)}
                  {otherTracker && ` — a ${otherTracker} near its carrier`}
                </li>
              );
            })}
          </ul>
        </>
      )}
      {conflicts.length > 0 && (
        <>
          <h5>Joins refused</h5>
          <p className="muted small">A window kept the two sides apart, so they were not joined across the windows.</p>
          <ul className="small" data-testid="analysis.device-conflicts">
            {conflicts.map((conflict, index) => (
              <li key={index}>
                window {conflict.window} <code>{conflict.cluster_id ?? 'a single address'}</code> and window {conflict.other_window}{' '}
                <code>{conflict.other_cluster_id ?? 'a single address'}</code> share {conflict.shared_addresses.join(', ')}; window {conflict.kept_apart_in_window} keeps them
                apart ({conflict.devices.join(' / ')})
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
