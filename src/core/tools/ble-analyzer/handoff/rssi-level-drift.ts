import { EDGE_PACKETS } from '../profile/address-profiles.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { selectKth } from '../shared/quickselect.ts';

/**
 * How far one emitter's RSSI level moves in this capture between two blocks of EDGE_PACKETS
 * packets, the blocks a hand-off's rssi_continuity compares (A's last packets, B's first). In a
 * capture of devices that stay put it moves by the packets' scatter alone; where people walk
 * and a receiver hears each phone every 25 s, one block spans minutes and the level moves by
 * 5–7 dB between blocks of one address (the generated `trackers` family). A fixed model either
 * calls such a walker two devices or gives strangers at a parked receiver too little weight.
 *
 * Read from the addresses' own packets: per address and receiver, its last EDGE_PACKETS RSSI
 * values against the EDGE_PACKETS before them (one emitter for certain), the difference of their
 * means. The variance of those differences is robust (the median of d² over the median of a χ²₁,
 * 0.455), so addresses that really jumped do not set the scale. Returned as the level variance
 * (dB²) on top of the two means' packet scatter; NaN with fewer than MIN_DRIFT_SAMPLES blocks.
 */
export function rssiLevelDriftVariance(addresses: ReadonlyArray<{ profile: { id: number } }>, events: BleEventGroups, receivers: number, packetScatterDb2: number): number {
  const { start, receiver, rssi } = events;
  const tailSum = new Float64Array(receivers);
  const beforeSum = new Float64Array(receivers);
  const seen = new Int32Array(receivers);
  const squares = new Float64Array(addresses.length * receivers);
  let samples = 0;
  for (const address of addresses) {
    const id = address.profile.id;
    tailSum.fill(0);
    beforeSum.fill(0);
    seen.fill(0);
    let full = 0;
    // Backwards from the last packet until every receiver has two blocks (or the packets end).
    for (let index = start[id + 1] - 1; index >= start[id] && full < receivers; index--) {
      const value = rssi[index];
      if (value !== value) continue;
      const r = receiver[index];
      const n = seen[r];
      if (n >= 2 * EDGE_PACKETS) continue;
      if (n < EDGE_PACKETS) tailSum[r] += value;
      else beforeSum[r] += value;
      seen[r] = n + 1;
      if (n + 1 === 2 * EDGE_PACKETS) full++;
    }
    for (let r = 0; r < receivers; r++) {
      if (seen[r] < 2 * EDGE_PACKETS) continue;
      const d = (tailSum[r] - beforeSum[r]) / EDGE_PACKETS;
      squares[samples++] = d * d;
    }
  }
  if (samples < MIN_DRIFT_SAMPLES) return Number.NaN;
  const medianSquare = selectKth(squares, 0, samples, samples >> 1);
  return Math.max(0, medianSquare / CHI2_1_MEDIAN - packetScatterDb2);
}

/** Blocks needed before the capture's drift is read (else the model's own level variance holds). */
const MIN_DRIFT_SAMPLES = 30;
/** The median of a χ² variable with one degree of freedom. */
const CHI2_1_MEDIAN = 0.454936;
