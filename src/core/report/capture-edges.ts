/**
 * Capture edge effects of a bluetooth_address_analyzer result, said in words (issue 23). A
 * cluster's first address heard in the analysed capture's first second may have rotated from an
 * address heard before the capture started, and its last address heard in the last second may
 * rotate on after it ended: the chain is cut by the capture, not by the device. Derived from the
 * result alone (its timeline segments give the analysed extent), so the app and the case report
 * say the same thing for any stored result.
 */

/** How close to the capture's first or last packet counts as "at the edge". */
export const CAPTURE_EDGE_MS = 1000;

export interface CaptureEdgeNote {
  /** Index into `probabilistic_links`. */
  clusterIndex: number;
  address: string;
  edge: 'start' | 'end';
  text: string;
}

interface EdgeInput {
  probabilistic_links: ReadonlyArray<{ addresses: readonly string[] }>;
  timeline_segments: ReadonlyArray<{ address: string; start_ts: string; end_ts: string }>;
}

/** The edge notes of every cluster, in cluster order (start before end within a cluster). */
export function captureEdgeNotes(output: EdgeInput): CaptureEdgeNote[] {
  const heard = new Map<string, { first: number; last: number }>();
  let captureStart = Infinity;
  let captureEnd = -Infinity;
  for (const segment of output.timeline_segments) {
    const start = Date.parse(segment.start_ts);
    const end = Date.parse(segment.end_ts);
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    captureStart = Math.min(captureStart, start);
    captureEnd = Math.max(captureEnd, end);
    const known = heard.get(segment.address);
    heard.set(segment.address, known ? { first: Math.min(known.first, start), last: Math.max(known.last, end) } : { first: start, last: end });
  }
  const notes: CaptureEdgeNote[] = [];
  if (!Number.isFinite(captureStart)) return notes;
  output.probabilistic_links.forEach((link, clusterIndex) => {
    const members = link.addresses.flatMap((address) => {
      const times = heard.get(address);
      return times ? [{ address, ...times }] : [];
    });
    if (members.length === 0) return;
    const earliest = members.reduce((best, member) => (member.first < best.first ? member : best));
    const latest = members.reduce((best, member) => (member.last > best.last ? member : best));
    if (earliest.first - captureStart < CAPTURE_EDGE_MS) {
      notes.push({ clusterIndex, address: earliest.address, edge: 'start', text: `${earliest.address} first heard in the capture's first second: its predecessor may be outside the capture` });
    }
    if (captureEnd - latest.last < CAPTURE_EDGE_MS && captureEnd - captureStart >= CAPTURE_EDGE_MS) {
      notes.push({ clusterIndex, address: latest.address, edge: 'end', text: `${latest.address} last heard in the capture's last second: its successor may be outside the capture` });
    }
  });
  return notes;
}
