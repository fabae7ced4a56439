import { MIN_EDGE_PACKETS, withinEdge } from '../profile/address-profiles.ts';
import { RSSI_EDGE_SCATTER, RSSI_PACKET_SD_DB } from './handoff-model.ts';
import type { BleRssiLevelDrift } from './handoff-types.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { selectKth } from '../shared/quickselect.ts';

export type { BleRssiLevelDrift } from './handoff-types.ts';

/**
 * How far one emitter's RSSI level moves between two blocks of its packets shaped like the edges a
 * hand-off's rssi_continuity compares (A's last packets, B's first). Devices that stay put move by
 * the packets' scatter alone; a walker heard every 25 s spans minutes with one block and moves
 * 5–15 dB between blocks (the generated `trackers` and `group_walk` families). A fixed scale
 * either calls such a walker two devices or gives strangers at a parked receiver too little weight.
 *
 * Read from the addresses' own packets: per address and receiver, its last block of RSSI values
 * against the block before it (one emitter for certain; each block taken as the edges are: up to
 * EDGE_PACKETS within EDGE_SPAN_MS, but at least MIN_EDGE_PACKETS, so an address heard every
 * 25 s gives blocks of 4–5 packets), the squared difference of their means, its packet scatter
 * brought to that of two full edges. Kept per address (a walker and a parked tag share a
 * capture) and for the capture, robustly (the median of the squares over the median of a χ²₁,
 * 0.455), which a pair's own few blocks are shrunk toward (`pairLevelVariance`).
 */
export function measureRssiLevelDrift(addresses: ReadonlyArray<{ profile: { id: number } }>, events: BleEventGroups, receivers: number): BleRssiLevelDrift {
  const { start, time, receiver, rssi } = events;
  // Per receiver, backwards from the address's last packet: the tail block, then the block before it.
  const stage = new Uint8Array(receivers);
  const blockFrom = new Float64Array(receivers);
  const tailSum = new Float64Array(receivers);
  const tailN = new Int32Array(receivers);
  const beforeSum = new Float64Array(receivers);
  const beforeN = new Int32Array(receivers);
  const squares = new Float64Array(addresses.length * receivers);
  const scatters = new Float64Array(addresses.length * receivers);
  const profiles = start.length - 1;
  const sum = new Float64Array(profiles);
  const count = new Uint8Array(profiles);
  let samples = 0;
  for (const address of addresses) {
    const id = address.profile.id;
    stage.fill(FILLING_TAIL);
    tailSum.fill(0);
    tailN.fill(0);
    beforeSum.fill(0);
    beforeN.fill(0);
    let done = 0;
    for (let index = start[id + 1] - 1; index >= start[id] && done < receivers; index--) {
      const value = rssi[index];
      if (value !== value) continue;
      const r = receiver[index];
      const ts = time[index];
      if (stage[r] === FILLING_TAIL) {
        if (tailN[r] === 0) blockFrom[r] = ts;
        if (withinEdge(tailN[r], blockFrom[r] - ts)) {
          tailSum[r] += value;
          tailN[r]++;
          continue;
        }
        stage[r] = FILLING_BEFORE;
      }
      if (stage[r] === FILLING_BEFORE) {
        if (beforeN[r] === 0) blockFrom[r] = ts;
        if (withinEdge(beforeN[r], blockFrom[r] - ts)) {
          beforeSum[r] += value;
          beforeN[r]++;
        } else {
          stage[r] = DONE;
          done++;
        }
      }
    }
    for (let r = 0; r < receivers; r++) {
      if (beforeN[r] < MIN_EDGE_PACKETS) continue;
      const d = tailSum[r] / tailN[r] - beforeSum[r] / beforeN[r];
      // As if both blocks were full edges: the scatter of these blocks' means out, a full pair's in (pairLevelVariance takes that off).
      const scatter = RSSI_PACKET_SD_DB * RSSI_PACKET_SD_DB * (1 / tailN[r] + 1 / beforeN[r]);
      squares[samples] = d * d;
      scatters[samples++] = scatter;
      sum[id] += d * d - scatter + RSSI_EDGE_SCATTER;
      count[id]++;
    }
  }
  // Robustly: a difference's square is its variance times a χ²₁, so the median over its median; blocks of other sizes than full edges shift it by their typical scatter.
  const capture = samples >= MIN_DRIFT_SAMPLES ? selectKth(squares, 0, samples, samples >> 1) / CHI2_1_MEDIAN - selectKth(scatters, 0, samples, samples >> 1) + RSSI_EDGE_SCATTER : Number.NaN;
  return { capture, sum, count };
}

const FILLING_TAIL = 0;
const FILLING_BEFORE = 1;
const DONE = 2;

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
