import { selectedCaptureIds, selectionOfInvocation, selectionRowFilter, type CaptureInfo, type CellValue, type NormalizedSelection } from '../../../core/index.ts';

/** Building the packet query for a cluster and turning the rows into per-receiver RSSI traces. */

/** A string literal of the filter language: single quotes, `''` inside. */
export function quoteFilterString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `advertiser_addr = '…'` for one address, `advertiser_addr IN ('…', '…')` for several. */
export function addressFilter(addresses: ReadonlyArray<string>, column = 'advertiser_addr'): string {
  if (addresses.length === 1) return `${column} = ${quoteFilterString(addresses[0])}`;
  return `${column} IN (${addresses.map(quoteFilterString).join(', ')})`;
}

/** What the analysis selected (from the invocation, in either selection shape) and the address column it read. */
export interface AnalysisSelection {
  captureIds: string[];
  selection: NormalizedSelection;
  /** The invocation's advertiser address column. */
  addressColumn: string;
}

/**
 * The packets of `addresses` the analysis saw: the address filter and the rows the invocation's
 * selection keeps (time window, channels, filters), as the core resolves them for execution.
 */
export function clusterPacketFilter(addresses: ReadonlyArray<string>, selection: AnalysisSelection, info: CaptureInfo): string {
  const rows = selectionRowFilter(selection.selection, info);
  const address = addressFilter(addresses, selection.addressColumn);
  return rows === '' ? address : `${address} AND ${rows}`;
}

export interface TracePoint {
  /** Epoch milliseconds (or the capture's own time base when it has no wall clock). */
  t: number;
  rssi: number;
}

/** One receiver's packets, per address. */
export interface ReceiverTraces {
  receiver: string;
  byAddress: Map<string, TracePoint[]>;
  packets: number;
}

export interface RowColumns {
  time: number;
  rssi: number;
  address: number;
  /** -1 when the capture has no receiver column: the capture id names the receiver. */
  receiver: number;
}

/** Column positions of the fields a trace needs, or null when the capture lacks one. */
export function traceColumns(info: CaptureInfo, addressColumn: string): RowColumns | null {
  const position = (name: string) => info.columns.findIndex((column) => column.name === name);
  const columns = { time: position(info.timeColumn), rssi: position('rssi'), address: position(addressColumn), receiver: position('receiver') };
  return columns.time < 0 || columns.rssi < 0 || columns.address < 0 ? null : columns;
}

/** Adds rows (as `readRows` returns them) to per-receiver traces. */
export function addTraceRows(traces: Map<string, ReceiverTraces>, rows: ReadonlyArray<ReadonlyArray<CellValue>>, columns: RowColumns, captureId: string): void {
  for (const row of rows) {
    const t = row[columns.time];
    const rssi = row[columns.rssi];
    const address = row[columns.address];
    if (typeof t !== 'number' || typeof rssi !== 'number' || typeof address !== 'string') continue;
    const receiverCell = columns.receiver >= 0 ? row[columns.receiver] : null;
    const receiver = receiverCell === null || receiverCell === '' ? captureId : String(receiverCell);
    let entry = traces.get(receiver);
    if (!entry) {
      entry = { receiver, byAddress: new Map(), packets: 0 };
      traces.set(receiver, entry);
    }
    let points = entry.byAddress.get(address);
    if (!points) {
      points = [];
      entry.byAddress.set(address, points);
    }
    points.push({ t, rssi });
    entry.packets++;
  }
}

/** At most `max` points, evenly strided, keeping the first and last (for a chart that stays quick). */
export function thinPoints(points: ReadonlyArray<TracePoint>, max: number): TracePoint[] {
  if (points.length <= max) return [...points];
  if (max <= 1) return points.slice(0, Math.max(0, max));
  const result: TracePoint[] = [];
  const stride = (points.length - 1) / (max - 1);
  for (let index = 0; index < max; index++) result.push(points[Math.round(index * stride)]);
  return result;
}

/** The selection an invocation made, or null when it selects no capture (or is no invocation). */
export function selectionOf(invocation: unknown): AnalysisSelection | null {
  const selection = selectionOfInvocation(invocation);
  if (!selection || selection.captures.length === 0) return null;
  const argumentsValue = isRecord(invocation) ? invocation.arguments : undefined;
  const columns = isRecord(argumentsValue) ? argumentsValue.address_columns : undefined;
  const addressColumn = isRecord(columns) && typeof columns.advertiser_addr === 'string' ? columns.advertiser_addr : 'advertiser_addr';
  return { captureIds: selectedCaptureIds(selection), selection, addressColumn };
}

/** The invocation (or the plan step) whose `request_id` is `requestId`. */
export function findInvocation(input: unknown, requestId: string): unknown {
  const steps = Array.isArray(input) ? input : [input];
  return steps.find((step) => isRecord(step) && step.request_id === requestId);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
