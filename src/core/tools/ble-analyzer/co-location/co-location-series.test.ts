import { describe, expect, it } from 'vitest';
import { buildAddressProfiles } from '../profile/address-profiles.ts';
import { ChannelSignatureBuilder } from './channel-signature.ts';
import type { BleChain } from './co-location-types.ts';
import { buildSeries, maskedBinsFor } from './co-location-series.ts';
import { BIN_MS } from './co-location-model.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import { BleScanner } from '../scan/observations.ts';
import { bleTestTable, selectAllRows, type BleTestRow } from '../shared/test-support.ts';

const T0 = 1_712_131_200_000;

describe('co-location series bins', () => {
  it('writes each chain’s bin means and "heard" flags at its own place of one array, 0 and 0 where not heard', () => {
    // Two chains on two receivers: the first (two members) heard on rx-a in its first and third
    // bin and on rx-b in its second; the second chain heard on rx-b only.
    const rows: BleTestRow[] = [
      { ts: T0 + 1_000, addr: '5A:00:00:00:00:01', receiver: 'rx-a', rssi: -61 },
      { ts: T0 + 2_000, addr: '5A:00:00:00:00:01', receiver: 'rx-a', rssi: -64 },
      { ts: T0 + 12_000, addr: '5A:00:00:00:00:01', receiver: 'rx-b', rssi: -70 },
      { ts: T0 + 21_000, addr: '5A:00:00:00:00:02', receiver: 'rx-a', rssi: -50 },
      { ts: T0 + 22_000, addr: '5A:00:00:00:00:02', receiver: 'rx-a', rssi: -51 },
      { ts: T0 + 23_000, addr: '5A:00:00:00:00:02', receiver: 'rx-a', rssi: -51 },
      { ts: T0 + 5_000, addr: '5A:00:00:00:00:03', receiver: 'rx-b', rssi: -80 },
      { ts: T0 + 15_000, addr: '5A:00:00:00:00:03', receiver: 'rx-b', rssi: -81 },
    ];
    const scanner = new BleScanner({ columns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' }, includeCrcBad: false });
    for (const batch of selectAllRows('test', bleTestTable(rows)).batches) scanner.add(batch);
    const store = scanner.finish();
    const { byAddress } = buildAddressProfiles(store);
    const addresses: BleLinkableAddress[] = ['5A:00:00:00:00:01', '5A:00:00:00:00:02', '5A:00:00:00:00:03'].map((address) => ({ profile: byAddress[store.addressIds.get(address)!]!, address, type: 'rpa', irk: -1 }));
    const chains: BleChain[] = [
      { members: [0, 1], firstMs: addresses[0].profile.firstMs, lastMs: addresses[1].profile.lastMs },
      { members: [2], firstMs: addresses[2].profile.firstMs, lastMs: addresses[2].profile.lastMs },
    ];
    const receivers = store.receiverNames.length;
    const a = store.receiverIds.get('rx-a')!;
    const b = store.receiverIds.get('rx-b')!;
    const masked = maskedBinsFor(chains, receivers);
    const builder = new ChannelSignatureBuilder(receivers);
    const series = chains.map((_, index) => buildSeries(chains, index, addresses, store.events, receivers, T0, T0 + 30_000, builder, masked));
    const bin0 = Math.floor(T0 / BIN_MS);
    expect(series.map((one) => [one.bin0 - bin0, one.bins])).toEqual([
      [0, 3],
      [0, 2],
    ]);
    expect(Array.from(masked.at)).toEqual([0, 2 * receivers * 3]);
    expect(masked.values).toHaveLength(2 * receivers * (3 + 2));
    /** Chain c's [mean, heard] of receiver r and bin i. */
    const bin = (c: number, r: number, i: number) => {
      const at = masked.at[c] + 2 * (r * series[c].bins + i);
      return [masked.values[at], masked.values[at + 1]];
    };
    expect([bin(0, a, 0), bin(0, a, 1), bin(0, a, 2)]).toEqual([[-62.5, 1], [0, 0], [Math.fround(-152 / 3), 1]]);
    expect([bin(0, b, 0), bin(0, b, 1), bin(0, b, 2)]).toEqual([[0, 0], [-70, 1], [0, 0]]);
    expect([bin(1, a, 0), bin(1, a, 1), bin(1, b, 0), bin(1, b, 1)]).toEqual([[0, 0], [0, 0], [-80, 1], [-81, 1]]);
    // The whole-life levels come from the same sums.
    expect(series[0].level[a]).toBeCloseTo((-61 - 64 - 50 - 51 - 51) / 5, 10);
    expect(series[1].level[a]).toBeNaN();
  });
});
