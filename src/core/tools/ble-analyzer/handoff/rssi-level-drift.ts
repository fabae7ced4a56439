import { EDGE_PACKETS, EDGE_SPAN_MS } from '../profile/address-profiles.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { selectKth } from '../shared/quickselect.ts';

/**
 * How far one emitter's RSSI level moves between two blocks of EDGE_PACKETS packets, the blocks a
 * hand-off's rssi_continuity compares (A's last packets, B's first). Devices that stay put move by
 * the packets' scatter alone; a walker heard every 25 s spans minutes with one block and moves
 * 5–15 dB between blocks (the generated `trackers` and `group_walk` families). A fixed scale
 * either calls such a walker two devices or gives strangers at a parked receiver too little weight.
 *
 * Read from the addresses' own packets: per address and receiver, its last EDGE_PACKETS RSSI
 * values against the EDGE_PACKETS before them (one emitter for certain; each block within
 * EDGE_SPAN_MS, as the edges are), the squared difference of their means. Kept per address (a walker and a parked tag share a capture) and for the
 * capture, robustly (the median of the squares over the median of a χ²₁, 0.455), which a pair's
 * own few blocks are shrunk toward (`pairLevelVariance`).
 */
export interface BleRssiLevelDrift {
  /** The capture's variance of a block difference (dB², the means' scatter included); NaN with fewer than MIN_DRIFT_SAMPLES blocks. */
  capture: number;
  /** Per profile id: the summed squared block differences over its receivers, and how many. */
  sum: Float64Array;
  count: Uint8Array;
}

export function measureRssiLevelDrift(addresses: ReadonlyArray<{ profile: { id: number } }>, events: BleEventGroups, receivers: number): BleRssiLevelDrift {
  const { start, time, receiver, rssi } = events;
  const blockFrom = new Float64Array(receivers);
  const tailSum = new Float64Array(receivers);
  const beforeSum = new Float64Array(receivers);
  const seen = new Int32Array(receivers);
  const squares = new Float64Array(addresses.length * receivers);
  const profiles = start.length - 1;
  const sum = new Float64Array(profiles);
  const count = new Uint8Array(profiles);
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
      // Blocks as the edges a hand-off compares: EDGE_PACKETS packets within EDGE_SPAN_MS; a block that takes longer gives none.
      if (n === 0 || n === EDGE_PACKETS) blockFrom[r] = time[index];
      if (blockFrom[r] - time[index] > EDGE_SPAN_MS) {
        seen[r] = 2 * EDGE_PACKETS + 1;
        full++;
        continue;
      }
      if (n < EDGE_PACKETS) tailSum[r] += value;
      else beforeSum[r] += value;
      seen[r] = n + 1;
      if (n + 1 === 2 * EDGE_PACKETS) full++;
    }
    for (let r = 0; r < receivers; r++) {
      if (seen[r] !== 2 * EDGE_PACKETS) continue;
      const d = (tailSum[r] - beforeSum[r]) / EDGE_PACKETS;
      squares[samples++] = d * d;
      sum[id] += d * d;
      count[id]++;
    }
  }
  const capture = samples >= MIN_DRIFT_SAMPLES ? selectKth(squares, 0, samples, samples >> 1) / CHI2_1_MEDIAN : Number.NaN;
  return { capture, sum, count };
}

/**
 * The level variance (dB², beyond the means' scatter `packetScatterDb2`) of hand-off A → B
 * (profile ids): both addresses' own block differences and PRIOR_BLOCKS of the capture's, or
 * NaN when the capture's was not read.
 */
export function pairLevelVariance(drift: BleRssiLevelDrift, a: number, b: number, packetScatterDb2: number): number {
  if (Number.isNaN(drift.capture)) return Number.NaN;
  const blocks = drift.count[a] + drift.count[b] + PRIOR_BLOCKS;
  return (drift.sum[a] + drift.sum[b] + PRIOR_BLOCKS * drift.capture) / blocks - packetScatterDb2;
}

/** Blocks needed before the capture's drift is read (else the model's own level variance holds). */
const MIN_DRIFT_SAMPLES = 30;
/** The capture's weight in a pair's estimate, in blocks. */
const PRIOR_BLOCKS = 4;
/** The median of a χ² variable with one degree of freedom. */
const CHI2_1_MEDIAN = 0.454936;
