import type { AddressClassificationRow, AddressType, BleAnalyzerOutput, ProbabilisticLink, TravelledTogetherRow } from './ble-output.ts';
import { parseRfc3339, type TimeWindow } from './time-scale.ts';

/** Derived view data: which cluster an address is in, lanes, hand-offs, table order. No analysis. */

/** Colour-blind-friendly qualitative palette (Okabe–Ito order, then darker variants); cycles. */
const CLUSTER_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#d55e00', '#56b4e9', '#8c6d00', '#004d80', '#7a3d66', '#006b4f'];
export const UNCLUSTERED_COLOR = '#94a3b8';

export function clusterColor(clusterIndex: number | null): string {
  return clusterIndex === null ? UNCLUSTERED_COLOR : CLUSTER_COLORS[clusterIndex % CLUSTER_COLORS.length];
}

/** Address → index of its cluster in `probabilistic_links` (the first, should one appear twice). */
export function clusterIndexByAddress(links: ReadonlyArray<ProbabilisticLink>): Map<string, number> {
  const index = new Map<string, number>();
  links.forEach((link, clusterIndex) => {
    for (const address of link.addresses) if (!index.has(address)) index.set(address, clusterIndex);
  });
  return index;
}

/** One address's segments as epoch ms, in time order. */
export interface AddressActivity {
  address: string;
  segments: Array<{ startMs: number; endMs: number; activityScore: number; startTs: string; endTs: string }>;
  firstMs: number;
  lastMs: number;
}

/** Segments grouped per address; segments whose timestamps do not parse are counted, not drawn. */
export function activityByAddress(output: BleAnalyzerOutput): { activity: Map<string, AddressActivity>; unparsed: number; offsetMinutes: number; extent: TimeWindow | null } {
  const activity = new Map<string, AddressActivity>();
  let unparsed = 0;
  let offsetMinutes: number | null = null;
  let extent: TimeWindow | null = null;
  for (const segment of output.timeline_segments) {
    const start = parseRfc3339(segment.start_ts);
    const end = parseRfc3339(segment.end_ts);
    if (!start || !end || end.ms < start.ms) {
      unparsed++;
      continue;
    }
    // The axis shows the clock the analyzer wrote, which is the capture's wall clock.
    offsetMinutes ??= start.offsetMinutes;
    extent = extent ? { startMs: Math.min(extent.startMs, start.ms), endMs: Math.max(extent.endMs, end.ms) } : { startMs: start.ms, endMs: end.ms };
    let entry = activity.get(segment.address);
    if (!entry) {
      entry = { address: segment.address, segments: [], firstMs: start.ms, lastMs: end.ms };
      activity.set(segment.address, entry);
    }
    entry.segments.push({ startMs: start.ms, endMs: end.ms, activityScore: segment.activity_score, startTs: segment.start_ts, endTs: segment.end_ts });
    entry.firstMs = Math.min(entry.firstMs, start.ms);
    entry.lastMs = Math.max(entry.lastMs, end.ms);
  }
  for (const entry of activity.values()) entry.segments.sort((a, b) => a.startMs - b.startMs);
  return { activity, unparsed, offsetMinutes: offsetMinutes ?? 0, extent };
}

export interface HandOff {
  clusterIndex: number;
  from: string;
  to: string;
  /** End of `from`'s last segment before `to` starts (or its last segment, if they overlap). */
  fromEndMs: number;
  toStartMs: number;
}

/**
 * Consecutive addresses of each cluster in order of first activity: the end of one to the
 * start of the next. Addresses without segments are skipped.
 */
export function handOffs(links: ReadonlyArray<ProbabilisticLink>, activity: ReadonlyMap<string, AddressActivity>): HandOff[] {
  const result: HandOff[] = [];
  links.forEach((link, clusterIndex) => {
    // Hand-offs run along each chain; parallel chains of one device are joined by co-location, not by hand-off.
    const chains = link.parallel_chains && link.parallel_chains.length > 1 ? link.parallel_chains : [link.addresses];
    for (const chain of chains) {
      const ordered = chronological(chain, activity);
      for (let position = 1; position < ordered.length; position++) {
        const from = ordered[position - 1];
        const to = ordered[position];
        const before = from.segments.filter((segment) => segment.endMs <= to.firstMs);
        const fromEndMs = before.length > 0 ? before[before.length - 1].endMs : from.lastMs;
        result.push({ clusterIndex, from: from.address, to: to.address, fromEndMs, toStartMs: to.firstMs });
      }
    }
  });
  return result;
}

function chronological(addresses: ReadonlyArray<string>, activity: ReadonlyMap<string, AddressActivity>): AddressActivity[] {
  return [...new Set(addresses)]
    .map((address) => activity.get(address))
    .filter((entry): entry is AddressActivity => entry !== undefined)
    .sort((a, b) => a.firstMs - b.firstMs || a.lastMs - b.lastMs);
}

export interface Lane {
  address: string;
  clusterIndex: number | null;
  /** In a multi-set cluster: which parallel chain (advertising set) the address belongs to, from 0. */
  chainIndex?: number;
}

/** Swimlanes: each cluster's addresses together in time order (clusters in output order), then the rest by first activity. */
export function swimlanes(links: ReadonlyArray<ProbabilisticLink>, activity: ReadonlyMap<string, AddressActivity>): Lane[] {
  const lanes: Lane[] = [];
  const placed = new Set<string>();
  links.forEach((link, clusterIndex) => {
    // A multi-set cluster: its parallel chains one after the other, each in time order.
    const chains = link.parallel_chains && link.parallel_chains.length > 1 ? link.parallel_chains : [link.addresses];
    chains.forEach((chain, chainIndex) => {
      for (const entry of chronological(chain, activity)) {
        if (placed.has(entry.address)) continue;
        placed.add(entry.address);
        lanes.push(chains.length > 1 ? { address: entry.address, clusterIndex, chainIndex } : { address: entry.address, clusterIndex });
      }
    });
  });
  const rest = [...activity.values()].filter((entry) => !placed.has(entry.address)).sort((a, b) => a.firstMs - b.firstMs || (a.address < b.address ? -1 : 1));
  for (const entry of rest) lanes.push({ address: entry.address, clusterIndex: null });
  return lanes;
}

/** "moved with … for 40 minutes": one travelled-together relation as a sentence, both sides named by cluster or address. */
export function travelSentence(row: TravelledTogetherRow): string {
  const side = (cluster: string | undefined, addresses: string[]) => cluster ?? (addresses.length === 1 ? addresses[0] : `${addresses[0]} (+${addresses.length - 1})`);
  const minutes = Math.round(row.duration_s / 60);
  const span = row.duration_s >= 60 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(row.duration_s)} seconds`;
  return `${side(row.cluster_b, row.addresses_b)} moved with ${side(row.cluster_a, row.addresses_a)} for ${span}`;
}

export type SortKey = 'address' | 'type' | 'confidence' | 'cluster' | 'evidence';
export interface SortOrder {
  key: SortKey;
  direction: 'ascending' | 'descending';
}

const TYPE_ORDER: Record<AddressType, number> = { public: 0, random_static: 1, rpa: 2, nrpa: 3, unknown: 4 };

export interface ClassificationFilter {
  /** Matches the address (colons optional) or any evidence text, case-insensitively. */
  text: string;
  type: AddressType | 'all';
}

/** The table's rows: filtered, then sorted stably (ties keep the analyzer's order). */
export function classificationRows(
  rows: ReadonlyArray<AddressClassificationRow>,
  filter: ClassificationFilter,
  order: SortOrder,
  clusterOf: ReadonlyMap<string, number>,
): AddressClassificationRow[] {
  const needle = filter.text.trim().toLowerCase();
  const compactNeedle = needle.replace(/[:\s-]/g, '');
  const kept = rows.filter((row) => {
    if (filter.type !== 'all' && row.type !== filter.type) return false;
    if (needle === '') return true;
    const address = row.address.toLowerCase();
    return address.includes(needle) || (compactNeedle !== '' && address.replace(/:/g, '').includes(compactNeedle)) || row.evidence.some((line) => line.toLowerCase().includes(needle));
  });
  const sign = order.direction === 'ascending' ? 1 : -1;
  const compare = (a: AddressClassificationRow, b: AddressClassificationRow): number => {
    switch (order.key) {
      case 'address':
        return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
      case 'type':
        return TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
      case 'confidence':
        return a.confidence - b.confidence;
      case 'cluster':
        // Unclustered addresses sort after every cluster in ascending order.
        return (clusterOf.get(a.address) ?? Number.MAX_SAFE_INTEGER) - (clusterOf.get(b.address) ?? Number.MAX_SAFE_INTEGER);
      case 'evidence':
        return a.evidence.length - b.evidence.length;
    }
  };
  return kept
    .map((row, position) => ({ row, position }))
    .sort((a, b) => sign * compare(a.row, b.row) || a.position - b.position)
    .map((entry) => entry.row);
}

/** The smallest and largest off-diagonal probability of a cluster, or null for fewer than two addresses. */
export function probabilityRange(link: ProbabilisticLink): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  const matrix = link.pairwise_probability_matrix;
  for (let row = 0; row < matrix.length; row++) {
    for (let column = row + 1; column < (matrix[row]?.length ?? 0); column++) {
      const value = matrix[row][column];
      if (typeof value !== 'number' || Number.isNaN(value)) continue;
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
  }
  return min <= max ? { min, max } : null;
}
