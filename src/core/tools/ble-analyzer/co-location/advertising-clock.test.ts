import { describe, expect, it } from 'vitest';
import { BLE_SLOT_MS, chainTiming, chainTimingIsPrecise, lowerBoundFromGuess, timingIsPrecise } from './advertising-clock.ts';
import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';
import { lowerBound } from '../shared/sorted-search.ts';

const T0 = 1_712_131_200_000;

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** One event group per list of [time, receiver, channel] packets. */
function eventGroups(groups: Array<Array<[number, number, number]>>): BleEventGroups {
  const packets = groups.flat();
  const start = new Int32Array(groups.length + 1);
  groups.forEach((group, index) => (start[index + 1] = start[index] + group.length));
  return {
    start,
    time: Float64Array.from(packets, ([time]) => time),
    receiver: Int32Array.from(packets, ([, receiver]) => receiver),
    rssi: new Float64Array(packets.length).fill(-70),
    payload: new Int32Array(packets.length),
    channel: Uint8Array.from(packets, ([, , channel]) => channel),
  };
}

describe('chainTimingIsPrecise', () => {
  it('answers as timingIsPrecise(chainTiming(…)) on chains from slot-exact to jittered times', () => {
    const random = lcg(7);
    let precise = 0;
    let imprecise = 0;
    for (let trial = 0; trial < 120; trial++) {
      // Jitter from none to about half a slot: resultants from ~1 down to ~0, many near 0.6.
      const jitterMs = (trial / 120) * 0.5;
      const channels = [37, 38, 39, BLE_NO_CHANNEL];
      const groups: Array<Array<[number, number, number]>> = [];
      for (let member = 0; member < 1 + (trial % 3); member++) {
        const group: Array<[number, number, number]> = [];
        let t = T0 + member * 400_000 + 1_000 * random();
        for (let event = 0; event < 150 + Math.floor(200 * random()); event++) {
          t += Math.round((300 + 1_700 * random()) / BLE_SLOT_MS) * BLE_SLOT_MS;
          const channel = channels[Math.floor(random() * (trial % 5 === 0 ? 4 : 3))];
          group.push([t + jitterMs * (random() - 0.5), Math.floor(random() * 3), channel]);
        }
        groups.push(group);
      }
      const events = eventGroups(groups);
      const members = groups.map((_, index) => index);
      const expected = timingIsPrecise(chainTiming(members, events));
      expect(chainTimingIsPrecise(members, events)).toBe(expected);
      if (expected) precise++;
      else imprecise++;
    }
    // Both answers occur, so the comparison means something.
    expect(precise).toBeGreaterThan(10);
    expect(imprecise).toBeGreaterThan(10);
  });

  it('recomputes exactly a resultant at the threshold', () => {
    // Gaps of whole slots (phase 0) and of whole slots plus a half (phase π): 8 against 2 gives a
    // resultant of (8 − 2) / 10 = 0.6, the threshold itself; 7 against 3 gives 0.4.
    for (const [aligned, opposite, precise] of [
      [8, 2, true],
      [7, 3, false],
    ] as const) {
      const group: Array<[number, number, number]> = [[T0, 0, 37]];
      for (let gap = 0; gap < aligned + opposite; gap++) group.push([group[gap][0] + (gap < aligned ? 3_200 : 3_200.5) * BLE_SLOT_MS, 0, 37]);
      const events = eventGroups([group]);
      expect(chainTiming([0], events).pairs).toBe(aligned + opposite);
      expect(timingIsPrecise(chainTiming([0], events))).toBe(precise);
      expect(chainTimingIsPrecise([0], events)).toBe(precise);
    }
  });
});

describe('lowerBoundFromGuess', () => {
  it('finds what lowerBound finds, on even and bunched times with repeats', () => {
    const random = lcg(11);
    for (let trial = 0; trial < 300; trial++) {
      const length = Math.floor(random() * 60);
      // Some groups are bunched (a burst, then a long gap), so the guess lands far from the index.
      const bunched = trial % 3 === 0;
      const time = Float64Array.from({ length }, () => T0 + (bunched && random() < 0.8 ? 1_000 * random() : 100_000 * random())).sort();
      for (let index = 1; index < length; index++) if (random() < 0.2) time[index] = time[index - 1];
      const from = Math.floor(random() * (length + 1));
      const to = from + Math.floor(random() * (length - from + 1));
      for (let probe = 0; probe < 20; probe++) {
        const value = probe < 5 && to > from ? time[from + Math.floor(random() * (to - from))] : T0 - 1_000 + 102_000 * random();
        expect(lowerBoundFromGuess(time, value, from, to)).toBe(lowerBound(time, value, from, to));
      }
    }
  });
});
