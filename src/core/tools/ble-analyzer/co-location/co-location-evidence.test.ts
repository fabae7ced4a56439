import { describe, expect, it } from 'vitest';
import { advertisingClockEvidence, BLE_SLOT_MS, chainTiming, timingIsPrecise } from './advertising-clock.ts';
import { ChannelSignatureBuilder, channelSignatureEvidence, type ChannelSignatures } from './channel-signature.ts';
import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';
import { seededRandom } from '../../../demo/seeded-random.ts';

const T0 = 1_712_131_200_000;
const MINUTES = 20;

/** Per receiver and channel (37, 38, 39): the RSSI pattern of a spot, dB. */
type Pattern = number[][];

/** One chain's signatures: a packet every ~2 s per receiver on a random channel, RSSI = level + pattern + fading. */
function signatures(seed: number, level: number, pattern: Pattern, channelKnown = true): ChannelSignatures | undefined {
  const random = seededRandom(seed);
  const builder = new ChannelSignatureBuilder(pattern.length);
  const end = T0 + MINUTES * 60_000;
  builder.start(T0, end);
  for (let t = T0; t < end; t += 2_000 + 10 * random.uniform()) {
    pattern.forEach((offsets, receiver) => {
      const slot = Math.min(2, Math.floor(3 * random.uniform()));
      builder.add(receiver, channelKnown ? 37 + slot : BLE_NO_CHANNEL, t, Math.round(level + offsets[slot] + 3 * random.normal()));
    });
  }
  return builder.finish();
}

describe('channel signature (frequency-selective multipath per spot)', () => {
  const spot: Pattern = [
    [4, -3, -1],
    [-5, 2, 3],
  ];
  const elsewhere: Pattern = [
    [-2, 3, -1],
    [1, -4, 3],
  ];

  it('finds two sets of one antenna alike even with different TX power, and two spots different', () => {
    const a = signatures(1, -70, spot)!;
    const sameSpot = signatures(2, -78, spot)!; // a weaker set of the same device
    const otherSpot = signatures(3, -70, elsewhere)!;
    const same = channelSignatureEvidence(a, sameSpot, 2, T0, T0 + MINUTES * 60_000)!;
    const different = channelSignatureEvidence(a, otherSpot, 2, T0, T0 + MINUTES * 60_000)!;
    expect(same.llrSame).toBeGreaterThan(3);
    expect(same.mismatchDb).toBeLessThan(1.5);
    expect(different.llrSame).toBeLessThan(-5);
    expect(different.receivers).toEqual([0, 1]);
  });

  it('says nothing without channels, or when neither chain has a pattern (a walker averages it away)', () => {
    expect(signatures(4, -70, spot, false)).toBeUndefined();
    const flat: Pattern = [
      [0, 0, 0],
      [0, 0, 0],
    ];
    expect(channelSignatureEvidence(signatures(5, -70, flat)!, signatures(6, -74, flat)!, 2, T0, T0 + MINUTES * 60_000)).toBeUndefined();
  });
});

/** Event groups of chains (one address each): packets at the given times, one receiver, channel 37. */
function groupsOf(chains: number[][], channel = 37): BleEventGroups {
  const start = new Int32Array(chains.length + 1);
  chains.forEach((times, index) => (start[index + 1] = start[index] + times.length));
  const count = start[chains.length];
  const time = Float64Array.from(chains.flat());
  return { start, time, receiver: new Int32Array(count), rssi: new Float64Array(count).fill(-70), payload: new Int32Array(count), channel: new Uint8Array(count).fill(channel) };
}

/** Packet times of one advertising set on a device clock: events every ~2 s snapped to its slot grid. */
function onGrid(seed: number, slotMs: number, phaseMs: number, round: (t: number) => number = (t) => Math.round(t * 1000) / 1000): number[] {
  const random = seededRandom(seed);
  const times: number[] = [];
  for (let t = T0 + 1_000 * random.uniform(); t < T0 + MINUTES * 60_000; t += 2_000 + 10 * random.uniform()) {
    times.push(round(phaseMs + Math.round((t - phaseMs) / slotMs) * slotMs));
  }
  return times;
}

describe('advertising clock (one controller, one 625 µs slot grid)', () => {
  const span = (times: number[]) => Float64Array.of(times[0], times[times.length - 1]);

  it('lines up two sets of one controller and not two controllers', () => {
    const slot = BLE_SLOT_MS * (1 + 12e-6);
    const setA = onGrid(1, slot, 0.1);
    const setB = onGrid(2, slot, 0.1);
    const stranger = onGrid(3, BLE_SLOT_MS * (1 - 17e-6), 0.4);
    const events = groupsOf([setA, setB, stranger]);
    for (const chain of [0, 1, 2]) expect(timingIsPrecise(chainTiming([chain], events))).toBe(true);
    const same = advertisingClockEvidence([0], span(setA), [1], span(setB), events, T0, T0 + MINUTES * 60_000)!;
    const apart = advertisingClockEvidence([0], span(setA), [2], span(stranger), events, T0, T0 + MINUTES * 60_000)!;
    expect(same.resultant).toBeGreaterThan(0.9);
    expect(same.llrSame).toBeGreaterThan(3);
    expect(apart.llrSame).toBeLessThan(-5);
  });

  it('caps the evidence by the chance that two clocks run at one rate over the span', () => {
    const slot = BLE_SLOT_MS * (1 + 5e-6);
    const long = advertisingClockEvidence([0], new Float64Array([T0, T0 + 1_200_000]), [1], new Float64Array([T0, T0 + 1_200_000]), groupsOf([onGrid(1, slot, 0.2), onGrid(2, slot, 0.2)]), T0, T0 + 1_200_000)!;
    const short = advertisingClockEvidence([0], new Float64Array([T0, T0 + 1_200_000]), [1], new Float64Array([T0, T0 + 1_200_000]), groupsOf([onGrid(1, slot, 0.2), onGrid(2, slot, 0.2)]), T0, T0 + 90_000)!;
    expect(short.llrSame).toBeGreaterThan(0);
    expect(short.llrSame).toBeLessThan(long.llrSame);
  });

  it('counts a scan burst as one look: separate clocks that line up within each burst are not one controller', () => {
    // A receiver that scans 25 s every 15 min; within a burst two separate clocks keep one phase.
    const inBursts = (times: number[]) => times.filter((t) => (t - T0) % 900_000 < 25_000);
    const slotA = BLE_SLOT_MS * (1 + 3e-6);
    const slotB = BLE_SLOT_MS * (1 - 2e-6);
    const a = inBursts(onGrid(1, slotA, 0.1));
    const sibling = inBursts(onGrid(2, slotA, 0.1));
    const stranger = inBursts(onGrid(3, slotB, 0.3));
    const events = groupsOf([a, sibling, stranger]);
    const same = advertisingClockEvidence([0], span(a), [1], span(sibling), events, T0, T0 + MINUTES * 60_000)!;
    const apart = advertisingClockEvidence([0], span(a), [2], span(stranger), events, T0, T0 + MINUTES * 60_000);
    expect(same.looks).toBe(2);
    expect(same.pairs).toBeGreaterThan(8);
    // The stranger lines up within each burst and, by chance, nearly across the gap (5 ppm over
    // 900 s is 7.2 slots): counted pair by pair that read as one controller (+5.4); two
    // looks say little.
    expect(apart!.resultant).toBeGreaterThan(0.75);
    expect(apart!.llrSame).toBeLessThan(2);
    // One burst alone is one look: no evidence either way.
    expect(advertisingClockEvidence([0], span(a), [2], span(stranger), events, T0, T0 + 25_000)).toBeUndefined();
  });

  it('does not trust whole-millisecond or host-stamped times', () => {
    const wholeMs = onGrid(1, BLE_SLOT_MS, 0.1, Math.round);
    expect(timingIsPrecise(chainTiming([0], groupsOf([wholeMs])))).toBe(false);
    const random = seededRandom(9);
    const jittered = onGrid(2, BLE_SLOT_MS, 0.1, (t) => t + 3 * random.uniform());
    expect(timingIsPrecise(chainTiming([0], groupsOf([jittered])))).toBe(false);
    expect(timingIsPrecise(chainTiming([0], groupsOf([onGrid(3, BLE_SLOT_MS, 0.1)], BLE_NO_CHANNEL)))).toBe(false);
  });
});
