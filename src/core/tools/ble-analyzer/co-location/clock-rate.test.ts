import { describe, expect, it } from 'vitest';
import type { BleEventGroups } from '../scan/observation-store.ts';
import { addressClockRates, clockRateEvidence, clockRateText, type ClockRates } from './clock-rate.ts';
import { clockRates } from './clock-rate-read.ts';

const SLOT_MS = 0.625;

/** A small deterministic generator (the tests stay reproducible). */
function uniforms(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

interface Advertiser {
  /** Clock error against true time, ppm. */
  ppm: number;
  phaseMs: number;
  /** Receivers that hear it and their own clock errors, ppm. */
  receivers: Array<{ id: number; ppm: number }>;
  fromMs: number;
  toMs: number;
  /** Heard at exactly this period (ms) instead of every ~1 s plus advDelay. */
  periodMs?: number;
}

/**
 * Packets of advertisers on their slot grids: events every ~1 s (plus advDelay), channels
 * 37–39 in turn, each packet heard with probability 0.5, stamped by each receiver's clock with a
 * few µs of jitter; `resolutionMs` rounds the stamps (1: whole milliseconds).
 */
function eventsOf(advertisers: Advertiser[], seed: number, resolutionMs = 0): BleEventGroups {
  const random = uniforms(seed);
  const start = [0];
  const time: number[] = [];
  const receiver: number[] = [];
  const channel: number[] = [];
  for (const advertiser of advertisers) {
    const slot = SLOT_MS * (1 + advertiser.ppm * 1e-6);
    const rows: Array<[number, number, number]> = [];
    for (let t = advertiser.fromMs; t < advertiser.toMs; t += advertiser.periodMs ?? 1000 + 10 * random()) {
      const eventStart = advertiser.phaseMs + Math.round((t - advertiser.phaseMs) / slot) * slot;
      for (let c = 0; c < 3; c++) {
        const sent = eventStart + c * 0.4;
        for (const heard of advertiser.receivers) {
          if (random() < 0.5) continue;
          let stamp = sent * (1 + heard.ppm * 1e-6) + (random() - 0.5) * 0.004;
          if (resolutionMs > 0) stamp = Math.round(stamp / resolutionMs) * resolutionMs;
          rows.push([stamp, heard.id, 37 + c]);
        }
      }
    }
    rows.sort((x, y) => x[0] - y[0]);
    for (const [stamp, id, ch] of rows) {
      time.push(stamp);
      receiver.push(id);
      channel.push(ch);
    }
    start.push(time.length);
  }
  return {
    start: Int32Array.from(start),
    time: Float64Array.from(time),
    receiver: Int32Array.from(receiver),
    rssi: new Float64Array(time.length),
    payload: new Int32Array(time.length),
    channel: Uint8Array.from(channel),
  };
}

const ONE_RECEIVER = [{ id: 0, ppm: 40 }];

describe('clock rate', () => {
  it("reads an advertiser's rate against the receiver to a fraction of a ppm", () => {
    const events = eventsOf([{ ppm: 12, phaseMs: 0.3, receivers: ONE_RECEIVER, fromMs: 0, toMs: 300_000 }], 1);
    const rates = clockRates([0], events, 1);
    expect(rates).toBeDefined();
    // The device's slots are 12 ppm long, and the receiver's clock runs 40 ppm fast: gaps read 52 ppm long.
    expect(rates!.rate[0]).toBeCloseTo(12 + 40, 0);
    expect(rates!.se[0]).toBeLessThan(0.2);
  });

  it('reads no rate from whole-millisecond timestamps', () => {
    const events = eventsOf([{ ppm: 12, phaseMs: 0.3, receivers: ONE_RECEIVER, fromMs: 0, toMs: 300_000 }], 1, 1);
    expect(clockRates([0], events, 1)).toBeUndefined();
  });

  it('tells one controller from two against the capture background, and across receivers after their offset', () => {
    const receivers = [
      { id: 0, ppm: 40 },
      { id: 1, ppm: -35 },
    ];
    // Two addresses of one controller (0 and 1, one after the other, on different receivers),
    // a stranger 4 ppm apart, and a spread of other clocks heard on both receivers.
    const advertisers: Advertiser[] = [
      { ppm: 7, phaseMs: 0.1, receivers: [receivers[0]], fromMs: 0, toMs: 200_000 },
      { ppm: 7, phaseMs: 0.1, receivers: [receivers[1]], fromMs: 200_000, toMs: 400_000 },
      { ppm: 11, phaseMs: 0.2, receivers: [receivers[1]], fromMs: 200_000, toMs: 400_000 },
    ];
    for (let k = 0; k < 12; k++) advertisers.push({ ppm: -28 + 5 * k, phaseMs: 0.05 * k, receivers, fromMs: 0, toMs: 200_000 });
    const events = eventsOf(advertisers, 2);
    const rates = addressClockRates(
      advertisers.map((_, id) => ({ profile: { id } })),
      events,
      2,
    );
    expect(rates.group[1]).toBe(rates.group[0]);
    // Receiver 1 runs 75 ppm slower than receiver 0: rates read there are 75 ppm lower.
    expect(rates.offset[1] - rates.offset[0]).toBeCloseTo(-75, 0);
    const [same, , stranger] = [0, 1, 2].map((id) => rates.byProfile[id] as ClockRates);
    const sameDevice = clockRateEvidence(same, rates.byProfile[1]!, rates);
    expect(sameDevice!.llrSame).toBeGreaterThan(2);
    const strangers = clockRateEvidence(same, stranger, rates);
    expect(strangers!.llrSame).toBeLessThan(-4);
  });

  it('gives a match no weight where every clock of the capture runs at one rate', () => {
    const advertisers: Advertiser[] = Array.from({ length: 40 }, (_, k) => ({ ppm: 5, phaseMs: 0.01 * k, receivers: ONE_RECEIVER, fromMs: 0, toMs: 200_000 }));
    const rates = addressClockRates(
      advertisers.map((_, id) => ({ profile: { id } })),
      eventsOf(advertisers, 3),
      1,
    );
    const evidence = clockRateEvidence(rates.byProfile[0]!, rates.byProfile[1]!, rates);
    // Below the one-radio evidence a co-location join needs (ONE_RADIO_MIN_LLR, 1 nat).
    expect(evidence!.llrSame).toBeLessThan(1);
  });

  it('keeps the alias of a rate read from packets at one exact period, and compares rates modulo it', () => {
    // Heard every 2.345 s exactly: rates 625 µs / 2.345 s ≈ 267 ppm apart line the packets up alike.
    const events = eventsOf([{ ppm: 12, phaseMs: 0.3, receivers: ONE_RECEIVER, fromMs: 0, toMs: 600_000, periodMs: 2345 }], 4);
    const read = clockRates([0], events, 1)!;
    expect(read.rate[0]).toBeCloseTo(52, 0);
    expect(read.alias![0]).toBeCloseTo((SLOT_MS / 2345) * 1e6, 0);
    const jittered = clockRates([0], eventsOf([{ ppm: 12, phaseMs: 0.3, receivers: ONE_RECEIVER, fromMs: 0, toMs: 300_000 }], 1), 1)!;
    expect(jittered.alias![0]).toBeNaN();

    const period = read.alias![0];
    const at = (ppm: number): ClockRates => ({ rate: Float64Array.of(ppm), se: Float64Array.of(0.05), alias: Float64Array.of(period) });
    const background = { background: [Float64Array.of(-20, -5, 3, 10, 26, 10 + period - 3, 10 + period, 10 + period + 2)], offset: Float64Array.of(0), offsetSe: Float64Array.of(0), group: Int32Array.of(0) };
    const oneAliasApart = clockRateEvidence(at(10), at(10 + period), background)!;
    expect(oneAliasApart.llrSame).toBeGreaterThan(0);
    expect(clockRateText(oneAliasApart, ['rx-1'])).toMatch(/one rate within the error \(packets heard at one period cannot tell a rate from its aliases 266\.\d and 266\.\d ppm away; compared 266\.\d ppm apart\)/);
    expect(clockRateEvidence(at(10), at(10 - period), background)!.llrSame).toBeGreaterThan(0);
    // Two sets heard at slightly different periods: either one may be read an alias off.
    const withAlias = (ppm: number, alias: number): ClockRates => ({ rate: Float64Array.of(ppm), se: Float64Array.of(0.05), alias: Float64Array.of(alias) });
    expect(clockRateEvidence(withAlias(10, 89.3), withAlias(10 + 92.5, 92.5), background)!.llrSame).toBeGreaterThan(0);
    expect(clockRateEvidence(withAlias(10, 89.3), withAlias(10 + 91, 92.5), background)!.llrSame).toBeLessThan(-4);
    // Modulo the alias the background is denser (two advertisers near 10 + period): a match is likelier by chance.
    const plain = (ppm: number): ClockRates => ({ rate: Float64Array.of(ppm), se: Float64Array.of(0.05) });
    expect(clockRateEvidence(at(10), at(10), background)!.chance).toBeGreaterThan(clockRateEvidence(plain(10), plain(10), background)!.chance);
    expect(clockRateEvidence(at(10), at(50), background)!.llrSame).toBeLessThan(-4);
  });
});
