import { describe, expect, it } from 'vitest';
import { binRunEnd } from './bin-runs.ts';
import { ChannelSignatureBuilder } from './channel-signature.ts';
import { BLE_NO_CHANNEL, type BleEventGroups } from '../scan/observation-store.ts';

describe('ChannelSignatureBuilder.blockAt and addAt', () => {
  it('collects exactly what `add` collects per event (NaN RSSI, unknown channels and out-of-span times skipped)', () => {
    let state = 99;
    const random = (): number => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const t0 = 1_712_131_200_000;
    const length = 3000;
    const time = Float64Array.from({ length }, () => t0 - 90_000 + random() * 900_000).sort();
    // A few out-of-order events too (a chain's members can overlap in time).
    time[1000] = t0 + 5_000;
    time[2000] = t0 + 100_000.5;
    const receiver = Int32Array.from({ length }, () => Math.floor(random() * 3));
    const channels = [37, 38, 39, BLE_NO_CHANNEL, 12];
    const channel = Uint8Array.from({ length }, () => channels[Math.floor(random() * channels.length)]);
    const rssi = Float64Array.from({ length }, () => (random() < 0.05 ? Number.NaN : Math.round(-60 - 30 * random()) + (random() < 0.3 ? 0.25 : 0)));
    const firstMs = t0;
    const lastMs = t0 + 600_000;

    const perEvent = new ChannelSignatureBuilder(3);
    perEvent.start(firstMs, lastMs);
    for (let index = 0; index < length; index++) if (!Number.isNaN(rssi[index])) perEvent.add(receiver[index], channel[index], time[index], rssi[index]);
    const expected = perEvent.finish();

    // Runs of one 10 s bin (each inside one block), as the co-location series walk them.
    const byRuns = new ChannelSignatureBuilder(3);
    byRuns.start(firstMs, lastMs);
    for (let from = 0; from < length; ) {
      const to = binRunEnd(time, from, length, 10_000);
      const blockAt = byRuns.blockAt(time[from]);
      for (let index = from; index < to; index++) if (blockAt >= 0 && !Number.isNaN(rssi[index])) byRuns.addAt(blockAt, receiver[index], channel[index], rssi[index]);
      from = to;
    }
    const actual = byRuns.finish();
    expect(expected).toBeDefined();
    expect(actual).toEqual(expected);
  });

  it('gives no signature when no event has an advertising channel', () => {
    const length = 20;
    const events: BleEventGroups = {
      start: Int32Array.from([0, length]),
      time: Float64Array.from({ length }, (_, index) => 1_000_000 + index * 1_000),
      receiver: new Int32Array(length),
      rssi: new Float64Array(length).fill(-70),
      payload: new Int32Array(length),
      channel: new Uint8Array(length).fill(BLE_NO_CHANNEL),
    };
    const builder = new ChannelSignatureBuilder(1);
    builder.start(1_000_000, 1_019_000);
    const blockAt = builder.blockAt(events.time[0]);
    for (let index = 0; index < length; index++) builder.addAt(blockAt, events.receiver[index], events.channel[index], events.rssi[index]);
    expect(builder.finish()).toBeUndefined();
  });
});

describe('ChannelSignatureBuilder.finish', () => {
  it('gives at each block the count, sum and sum of squares of the blocks before it, block-major', () => {
    let state = 5;
    const random = (): number => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const receivers = 2;
    const t0 = 1_712_131_200_000;
    const builder = new ChannelSignatureBuilder(receivers);
    builder.start(t0, t0 + 299_999);
    // Per block, receiver and channel: the packets added there.
    const added = new Map<string, number[]>();
    for (let event = 0; event < 400; event++) {
      const time = t0 + Math.floor(random() * 300_000);
      const receiver = Math.floor(random() * receivers);
      const channel = 37 + Math.floor(random() * 3);
      const rssi = -50 - Math.floor(random() * 40);
      builder.add(receiver, channel, time, rssi);
      const key = `${Math.floor((time - t0) / 60_000)} ${receiver} ${channel - 37}`;
      added.set(key, [...(added.get(key) ?? []), rssi]);
    }
    const signatures = builder.finish()!;
    expect(signatures.blocks).toBe(5);
    expect(signatures.receivers).toBe(receivers);
    for (let block = 0; block <= signatures.blocks; block++) {
      for (let receiver = 0; receiver < receivers; receiver++) {
        for (let channel = 0; channel < 3; channel++) {
          const before = Array.from({ length: block }, (_, earlier) => added.get(`${earlier} ${receiver} ${channel}`) ?? []).flat();
          const at = (block * receivers * 3 + receiver * 3 + channel) * 3;
          expect(signatures.stats[at]).toBe(before.length);
          expect(signatures.stats[at + 1]).toBe(before.reduce((total, rssi) => total + rssi, 0));
          expect(signatures.stats[at + 2]).toBe(before.reduce((total, rssi) => total + rssi * rssi, 0));
        }
      }
    }
  });
});
