import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../demo/seeded-random.ts';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { RSSI_EDGE_SCATTER, RSSI_LEVEL_VARIANCE, rssiContinuityLlr, rssiLevelVarianceFor } from './handoff-model.ts';
import { rssiLevelDriftVariance } from './rssi-level-drift.ts';

/** `addresses` addresses of `packets` packets each on one receiver: level plus a random walk of `stepDb` per packet plus 5 dB scatter. */
function events(addresses: number, packets: number, stepDb: number, seed = 7): BleEventGroups {
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
  return { start, time: Float64Array.from({ length: count }, (_, index) => index * 1000), receiver: new Int32Array(count), rssi, payload: new Int32Array(count), channel: new Uint8Array(count).fill(37) };
}

const all = (count: number) => Array.from({ length: count }, (_, id) => ({ profile: { id } }));

describe("the capture's own RSSI level drift", () => {
  it('reads about nothing beyond the scatter where emitters stay put, and the model keeps its own variance', () => {
    const drift = rssiLevelDriftVariance(all(400), events(400, 40, 0), 1, RSSI_EDGE_SCATTER);
    expect(drift).toBeLessThan(1.5);
    expect(rssiLevelVarianceFor(drift)).toBe(RSSI_LEVEL_VARIANCE);
  });

  it('reads the level moving between blocks of packets where emitters walk, and a jump then weighs less', () => {
    // A random walk of 0.5 dB per packet: block centres 12 packets apart, level variance ≈ 12 · 0.25 + the walk inside the blocks.
    const drift = rssiLevelDriftVariance(all(400), events(400, 40, 0.5), 1, RSSI_EDGE_SCATTER);
    expect(drift).toBeGreaterThan(2.5);
    expect(drift).toBeLessThan(8);
    const variance = rssiLevelVarianceFor(drift);
    expect(variance).toBe(drift);
    expect(rssiContinuityLlr(7, 12, 12, variance)).toBeGreaterThan(rssiContinuityLlr(7, 12, 12));
  });

  it('is not read from too few blocks', () => {
    expect(rssiLevelDriftVariance(all(10), events(10, 40, 0.5), 1, RSSI_EDGE_SCATTER)).toBeNaN();
    // Addresses with fewer than two blocks of packets give none.
    expect(rssiLevelDriftVariance(all(400), events(400, 20, 0.5), 1, RSSI_EDGE_SCATTER)).toBeNaN();
  });
});
