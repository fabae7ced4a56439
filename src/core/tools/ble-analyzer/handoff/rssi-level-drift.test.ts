import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../demo/seeded-random.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { RSSI_EDGE_SCATTER, RSSI_LEVEL_VARIANCE, rssiContinuityLlr, rssiLevelVarianceFor } from './handoff-model.ts';
import { measureRssiLevelDrift, pairLevelVariance } from './rssi-level-drift.ts';

/** `addresses` addresses of `packets` packets each, `everyMs` apart, on one receiver: level plus a random walk of `stepDb` per packet plus 5 dB scatter. */
function events(addresses: number, packets: number, stepDb: number, seed = 7, everyMs = 1000): BleEventGroups {
  const random = seededRandom(seed);
  const gaussian = () => random.normal();
  const start = new Int32Array(addresses + 1);
  const rssi = new Float64Array(addresses * packets);
  for (let a = 0; a < addresses; a++) {
    start[a + 1] = (a + 1) * packets;
    let level = -60;
    for (let p = 0; p < packets; p++) {
      level += stepDb * gaussian();
      rssi[a * packets + p] = level + 5 * gaussian();
    }
  }
  const count = addresses * packets;
  return { start, time: Float64Array.from({ length: count }, (_, index) => index * everyMs), receiver: new Int32Array(count), rssi, payload: new Int32Array(count), channel: new Uint8Array(count).fill(37) };
}

const all = (count: number) => Array.from({ length: count }, (_, id) => ({ profile: { id } }));

/** The level variance of hand-off 0 → 1 where every address drifts as `events` made it. */
function firstPairVariance(addresses: number, packets: number, stepDb: number): number {
  return pairLevelVariance(measureRssiLevelDrift(all(addresses), events(addresses, packets, stepDb), 1), 0, 1, RSSI_EDGE_SCATTER);
}

describe("the capture's own RSSI level drift", () => {
  it('reads about nothing beyond the scatter where emitters stay put, and the model keeps its own variance', () => {
    const variance = firstPairVariance(400, 40, 0);
    expect(variance).toBeLessThan(2);
    expect(rssiLevelVarianceFor(variance)).toBe(RSSI_LEVEL_VARIANCE);
  });

  it('reads the level moving between blocks of packets where emitters walk, and a jump then weighs less', () => {
    // A random walk of 0.7 dB per packet: block means 12 packets apart differ by about 10 · 0.49 dB² beyond the scatter.
    const drift = measureRssiLevelDrift(all(400), events(400, 40, 0.7), 1);
    expect(drift.capture - RSSI_EDGE_SCATTER).toBeGreaterThan(3.5);
    expect(drift.capture - RSSI_EDGE_SCATTER).toBeLessThan(8);
    // A pair's own two blocks are noisy (one χ²₁ each): over many pairs they read about the capture's.
    let sum = 0;
    for (let a = 0; a < 400; a += 2) sum += pairLevelVariance(drift, a, a + 1, RSSI_EDGE_SCATTER);
    const variance = rssiLevelVarianceFor(sum / 200);
    expect(variance).toBeGreaterThan(3.5);
    expect(rssiContinuityLlr(7, 12, 12, variance)).toBeGreaterThan(rssiContinuityLlr(7, 12, 12));
  });

  it("weighs a pair's own blocks beside the capture's: a walker among parked devices", () => {
    const parked = events(400, 40, 0);
    const walking = events(2, 40, 1.5, 11);
    // Addresses 0 and 1 walk; the 400 others do not.
    const start = Int32Array.from({ length: 403 }, (_, index) => index * 40);
    const joined = {
      start,
      time: Float64Array.from({ length: 402 * 40 }, (_, index) => index * 1000),
      receiver: new Int32Array(402 * 40),
      rssi: Float64Array.from([...walking.rssi, ...parked.rssi]),
      payload: new Int32Array(402 * 40),
      channel: new Uint8Array(402 * 40).fill(37),
    };
    const drift = measureRssiLevelDrift(all(402), joined, 1);
    expect(pairLevelVariance(drift, 0, 1, RSSI_EDGE_SCATTER)).toBeGreaterThan(pairLevelVariance(drift, 2, 3, RSSI_EDGE_SCATTER) + 5);
  });

  it('is not read from too few blocks', () => {
    expect(firstPairVariance(10, 40, 0.5)).toBeNaN();
    // Addresses with fewer than a full block and a short one (12 + 4 packets) give none.
    expect(firstPairVariance(400, 15, 0.5)).toBeNaN();
  });

  it('reads blocks as the edges are: an address heard every 25 s gives blocks of its 4–5 packets within two minutes', () => {
    const drift = measureRssiLevelDrift(all(400), events(400, 20, 1.5, 7, 25_000), 1);
    // Blocks of 5 packets, 5 packets apart: a walk of 1.5 dB per packet moves the means by about 5 · 2.25 dB² beyond their scatter.
    expect(drift.capture - RSSI_EDGE_SCATTER).toBeGreaterThan(6);
    expect(drift.capture - RSSI_EDGE_SCATTER).toBeLessThan(20);
    const parked = measureRssiLevelDrift(all(400), events(400, 20, 0, 7, 25_000), 1);
    // Parked: the scatter of 5-packet means is taken out, as if they were full edges.
    expect(parked.capture - RSSI_EDGE_SCATTER).toBeLessThan(2);
  });
});
