import type { ActivitySegment } from '../shared/analysis-types.ts';
import type { BleObservationStore } from '../scan/observation-store.ts';
import { compareAscending } from '../shared/number-order.ts';
import { selectKth } from '../shared/quickselect.ts';
import type { BleProfileSegments } from './address-profiles.ts';

/**
 * Activity segments: each address's packets split where they pause for longer than
 * max(30 s, 20 advertising intervals). activity_score = ½·duty + ½·min(1, rate / reference):
 * duty = share of the segment's whole seconds with a packet, rate = packets per second
 * (duration at least 1 s), reference = the 95th percentile of segment rates in this run.
 * Comparable within one run only, as §7.2 says.
 */
export function activitySegments(store: BleObservationStore, columns: BleProfileSegments, isFolded: Uint8Array): ActivitySegment[] {
  const { from, startMs, endMs, count, occupiedSeconds } = columns;
  const addresses = from.length - 1;
  // Two passes over the profiles' segments: the rates (for the reference), then the results.
  let total = 0;
  for (let id = 0; id < addresses; id++) if (!isFolded[id]) total += from[id + 1] - from[id];
  const rates = new Float64Array(total);
  let at = 0;
  for (let id = 0; id < addresses; id++) {
    if (isFolded[id]) continue;
    for (let row = from[id]; row < from[id + 1]; row++) rates[at++] = segmentRate(startMs[row], endMs[row], count[row]);
  }
  const reference = total > 0 ? selectKth(rates, 0, total, Math.min(total - 1, Math.floor(0.95 * (total - 1)))) : 1;
  const segments = new Array<ActivitySegment>(total);
  at = 0;
  for (let id = 0; id < addresses; id++) {
    if (isFolded[id] || from[id + 1] === from[id]) continue;
    const address = store.addressTexts[id];
    for (let row = from[id]; row < from[id + 1]; row++) {
      const slots = Math.floor(endMs[row] / 1000) - Math.floor(startMs[row] / 1000) + 1;
      const duty = occupiedSeconds[row] / slots;
      segments[at++] = {
        address,
        startMs: startMs[row],
        endMs: endMs[row],
        activityScore: Math.round((0.5 * duty + 0.5 * Math.min(1, segmentRate(startMs[row], endMs[row], count[row]) / reference)) * 1000) / 1000,
      };
    }
  }
  segments.sort((x, y) => compareAscending(x.startMs, y.startMs) || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
  return segments;
}

/** Packets per second of a segment (its duration counted as at least 1 s). */
function segmentRate(startMs: number, endMs: number, count: number): number {
  return count / Math.max(1, (endMs - startMs) / 1000);
}
