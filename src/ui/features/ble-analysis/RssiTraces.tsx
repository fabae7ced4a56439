import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '../../components/format.ts';
import type { ProbabilisticLink } from './ble-output.ts';
import { availableCaptures, type PacketAccess } from './packet-access.ts';
import { addTraceRows, clusterPacketFilter, thinPoints, traceColumns, type AnalysisSelection, type ReceiverTraces } from './rssi-traces.ts';
import { formatClock } from './time-scale.ts';

/** Rows read per capture for one cluster; beyond this the traces say they are cut. */
const MAX_ROWS_PER_CAPTURE = 50_000;
/** Points drawn per address and receiver (the chart stays responsive; the shape survives). */
const MAX_POINTS = 600;
const ADDRESS_COLORS = ['#2563eb', '#db2777', '#16a34a', '#ea580c', '#7c3aed', '#0891b2', '#a16207', '#475569'];
const EPOCH_THRESHOLD_MS = 1e11;

interface Props {
  link: ProbabilisticLink | null;
  selection: AnalysisSelection | null;
  access: PacketAccess;
  offsetMinutes: number;
}

interface TraceAnswer {
  receivers: ReceiverTraces[];
  /** Captures whose rows were cut at MAX_ROWS_PER_CAPTURE. */
  truncated: string[];
  /** Captures without a time, rssi or address column. */
  unusable: string[];
}

/** RSSI over time per receiver for the selected cluster's addresses, read from the capture(s). */
export function RssiTraces({ link, selection, access, offsetMinutes }: Props) {
  const captures = selection && access.captures ? availableCaptures(selection.captureIds, access.captures) : null;
  const addresses = link?.addresses ?? [];
  const enabled = link !== null && captures !== null && captures.available.length > 0;
  const traces = useQuery({
    queryKey: ['ble-rssi-traces', selection, addresses, captures?.available.map((info) => info.id)],
    enabled,
    staleTime: Infinity,
    queryFn: async (): Promise<TraceAnswer> => {
      const byReceiver = new Map<string, ReceiverTraces>();
      const truncated: string[] = [];
      const unusable: string[] = [];
      for (const info of captures?.available ?? []) {
        const columns = traceColumns(info, selection!.addressColumn);
        if (!columns) {
          unusable.push(info.id);
          continue;
        }
        const rows = await access.readRows(info.id, clusterPacketFilter(addresses, selection!, info), MAX_ROWS_PER_CAPTURE);
        if (rows.length >= MAX_ROWS_PER_CAPTURE) truncated.push(info.id);
        addTraceRows(byReceiver, rows, columns, info.id);
      }
      return { receivers: [...byReceiver.values()].sort((a, b) => (a.receiver < b.receiver ? -1 : 1)), truncated, unusable };
    },
  });

  const formatTime = (value: number) => (value >= EPOCH_THRESHOLD_MS ? formatClock(value, offsetMinutes) : `${formatCount(Math.round(value / 1000))} s`);

  return (
    <section className="ble-section" aria-labelledby="ble-rssi-heading" data-testid="ble.rssi">
      <h3 id="ble-rssi-heading">RSSI per receiver{link ? ` · ${link.cluster_id}` : ''}</h3>
      {link === null ? (
        <p className="muted">Select a cluster to see its addresses' signal strength at each receiver.</p>
      ) : selection === null ? (
        <p className="notice" role="status">
          The invocation behind this result is not available here, so its captures are unknown and no packets can be read.
        </p>
      ) : access.captures === null ? (
        <p className="muted">Loading captures…</p>
      ) : (
        <>
          {captures && captures.missing.length > 0 && (
            <p className="notice" role="status" data-testid="ble.rssi.missing">
              {captures.missing.length === 1 ? 'Capture' : 'Captures'} {captures.missing.join(', ')} {captures.missing.length === 1 ? 'is' : 'are'} no longer
              available in this workspace: {captures.available.length === 0 ? 'no traces can be drawn.' : 'the traces show the other captures only.'}
            </p>
          )}
          {traces.isPending && enabled && <p className="muted">Reading packets…</p>}
          {traces.isError && <p className="field__error">Could not read the packets: {String(traces.error)}</p>}
          {traces.data && (
            <>
              {traces.data.unusable.length > 0 && <p className="muted small">Without time, rssi or address columns: {traces.data.unusable.join(', ')}.</p>}
              {traces.data.truncated.length > 0 && (
                <p className="muted small">
                  Only the first {formatCount(MAX_ROWS_PER_CAPTURE)} packets of {traces.data.truncated.join(', ')} are shown.
                </p>
              )}
              {traces.data.receivers.length === 0 && <p className="muted">No packets of these addresses in the selected window.</p>}
              <ul className="ble-legend-list" aria-label="Addresses">
                {addresses.map((address, index) => (
                  <li key={address}>
                    <span className="ble-swatch" style={{ background: ADDRESS_COLORS[index % ADDRESS_COLORS.length] }} aria-hidden="true" />
                    <code>{address}</code>
                  </li>
                ))}
              </ul>
              <div className="plots">
                {traces.data.receivers.map((receiver) => (
                  <figure className="plot" key={receiver.receiver} data-testid="ble.rssi.receiver">
                    <figcaption>
                      Receiver <strong>{receiver.receiver}</strong>: {formatCount(receiver.packets)} packets
                    </figcaption>
                    <ResponsiveContainer width="100%" height={220}>
                      <ScatterChart margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                        <CartesianGrid strokeDasharray="3 3" />
                        <XAxis type="number" dataKey="t" name="time" domain={['dataMin', 'dataMax']} tickFormatter={formatTime} />
                        <YAxis type="number" dataKey="rssi" name="RSSI" unit=" dBm" width={70} domain={['auto', 'auto']} />
                        <Tooltip formatter={(value, name) => (name === 'time' && typeof value === 'number' ? formatTime(value) : String(value))} />
                        {addresses.map((address, index) => {
                          const points = receiver.byAddress.get(address);
                          return points ? (
                            <Scatter key={address} name={address} data={thinPoints(points, MAX_POINTS)} fill={ADDRESS_COLORS[index % ADDRESS_COLORS.length]} fillOpacity={0.5} isAnimationActive={false} />
                          ) : null;
                        })}
                      </ScatterChart>
                    </ResponsiveContainer>
                  </figure>
                ))}
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
