import { describe, expect, it } from 'vitest';
import { buildAddressProfiles, bleSegmentGapMs, EDGE_PACKETS, EDGE_SPAN_MS, MIN_EDGE_PACKETS, receiversOf, segmentsOf, type BleAddressProfile, type BleReceiverProfile, type BleSegment } from './address-profiles.ts';
import type { BleObservationStore } from '../scan/observation-store.ts';
import { BleScanner } from '../scan/observations.ts';
import { bleTestTable, selectAllRows, type BleTestRow } from '../shared/test-support.ts';

/** A small deterministic generator, so failures reproduce. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function storeOf(rows: BleTestRow[]): BleObservationStore {
  const scanner = new BleScanner({ columns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' }, includeCrcBad: false });
  for (const batch of selectAllRows('test', bleTestTable(rows)).batches) scanner.add(batch);
  return scanner.finish();
}

/** A profile with its receiver and segment rows as objects. */
type ProfileWithRows = BleAddressProfile & { receivers: BleReceiverProfile[]; segments: BleSegment[] };

/**
 * The profiles computed the plain way, one small loop per quantity (sorts instead of selection,
 * per-segment recounts): the reference the one-pass implementation must match exactly.
 */
function referenceProfile(store: BleObservationStore, a: number): ProfileWithRows | undefined {
  const { start, time, receiver: receiverOf, rssi: rssiOf, payload: payloadOf } = store.events;
  const from = start[a];
  const to = start[a + 1];
  if (to === from) return undefined;
  const indices = Array.from({ length: to - from }, (_, offset) => from + offset);
  const receivers = [...new Set(indices.map((index) => receiverOf[index]))].sort((x, y) => x - y);
  const mean = (values: number[]) => (values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : Number.NaN);
  const gaps: number[] = [];
  const receiverProfiles = receivers.map((receiver) => {
    const mine = indices.filter((index) => receiverOf[index] === receiver);
    const heard = mine.filter((index) => !Number.isNaN(rssiOf[index]));
    // An edge: the first (last) EDGE_PACKETS RSSI values within EDGE_SPAN_MS of the first (last), at least MIN_EDGE_PACKETS.
    const edge = (ordered: number[]) => ordered.filter((index, at) => at < EDGE_PACKETS && (at < MIN_EDGE_PACKETS || Math.abs(time[index] - time[ordered[0]]) <= EDGE_SPAN_MS));
    const head = edge(heard);
    const tail = edge([...heard].reverse());
    let last = Number.NaN;
    for (const index of mine) {
      if (Number.isNaN(last)) last = time[index];
      else if (time[index] - last >= 15) {
        if (time[index] - last <= 12_000) gaps.push(time[index] - last);
        last = time[index];
      }
    }
    return { receiver, count: mine.length, headRssi: mean(head.map((index) => rssiOf[index])), tailRssi: mean(tail.map((index) => rssiOf[index])), headCount: head.length, tailCount: tail.length };
  });
  // The gaps were listed receiver by receiver; only their multiset matters for the quantile.
  gaps.sort((x, y) => x - y);
  const advIntervalS = gaps.length >= 4 ? gaps[Math.min(gaps.length - 1, Math.floor(0.2 * (gaps.length - 1)))] / 1000 : Number.NaN;
  const mode = (list: number[]) => {
    let best = -1;
    let bestCount = 0;
    for (const value of new Set(list)) {
      const count = list.filter((other) => other === value).length;
      if (count > bestCount || (count === bestCount && value < best)) [best, bestCount] = [value, count];
    }
    return { best, bestCount };
  };
  const payloads = indices.map((index) => payloadOf[index]);
  const dominant = mode(payloads);
  const gapMs = bleSegmentGapMs(advIntervalS);
  const segments: BleSegment[] = [];
  let current: number[] = [];
  const close = () => segments.push({ startMs: current[0], endMs: current[current.length - 1], count: current.length, occupiedSeconds: new Set(current.map((ts) => Math.floor(ts / 1000))).size });
  for (const index of indices) {
    if (current.length > 0 && time[index] - current[current.length - 1] > gapMs) {
      close();
      current = [];
    }
    current.push(time[index]);
  }
  close();
  const edge = Math.min(12, to - from);
  return {
    id: a,
    count: to - from,
    firstMs: time[from],
    lastMs: time[to - 1],
    receivers: receiverProfiles,
    advIntervalS,
    dominantPayload: dominant.best,
    headPayload: mode(payloads.slice(0, edge)).best,
    tailPayload: mode(payloads.slice(-edge)).best,
    dominantShare: dominant.bestCount / (to - from),
    distinctPayloads: new Set(payloads).size,
    segments,
  };
}

/** The profile's values as a plain object (profiles are views on columns). */
function plainProfile(profile: BleAddressProfile): BleAddressProfile {
  const { id, count, firstMs, lastMs, advIntervalS, dominantPayload, headPayload, tailPayload, dominantShare, distinctPayloads } = profile;
  return { id, count, firstMs, lastMs, advIntervalS, dominantPayload, headPayload, tailPayload, dominantShare, distinctPayloads };
}

describe('buildAddressProfiles', () => {
  it('matches the plain per-quantity computation on random multi-receiver streams with pauses, jitter and missing RSSI', () => {
    const random = generator(11);
    const rows: BleTestRow[] = [];
    for (let device = 0; device < 40; device++) {
      const addr = `5A:00:00:00:00:${device.toString(16).toUpperCase().padStart(2, '0')}`;
      const intervalMs = [100, 1000, 2500][device % 3];
      let ts = 1_700_000_000_000 + random() * 10_000;
      const packets = 5 + Math.floor(random() * 300);
      for (let packet = 0; packet < packets; packet++) {
        // Pauses of 20–100 s: some split a segment, some fall under this address's segment gap.
        ts += random() < 0.03 ? 20_000 + random() * 80_000 : intervalMs + random() * 10;
        const receivers = 1 + Math.floor(random() * 3);
        for (let receiver = 0; receiver < receivers; receiver++) {
          const payload = random() < 0.1 ? undefined : `p${Math.floor(random() * (device % 4 === 0 ? 1 : 4))}`;
          // Receivers out of step by up to 300 ms, so one address's events are not in time order.
          rows.push({ ts: ts + (receiver === 2 ? -300 * random() : 5 * receiver), addr, receiver: `rx-${receiver}`, rssi: -40 - Math.round(random() * 50), payload });
        }
      }
    }
    const store = storeOf(rows);
    // Some packets without RSSI (the test table always has one).
    for (let index = 0; index < store.events.rssi.length; index++) if (random() < 0.05) store.events.rssi[index] = Number.NaN;
    const profiles = buildAddressProfiles(store);
    expect(profiles.byAddress).toHaveLength(store.addressCount);
    expect(profiles.receivers.from).toHaveLength(store.addressCount + 1);
    expect(profiles.segments.from).toHaveLength(store.addressCount + 1);
    let split = 0;
    for (let a = 0; a < store.addressCount; a++) {
      const expected = referenceProfile(store, a);
      const profile = profiles.byAddress[a];
      expect(profile && { ...plainProfile(profile), receivers: receiversOf(profiles.receivers, a), segments: segmentsOf(profiles.segments, a) }).toEqual(expected);
      if ((expected?.segments.length ?? 0) > 1) split++;
    }
    // The scenario must exercise the segment cutting.
    expect(split).toBeGreaterThan(5);
    // Each receiver's floor: its weakest RSSI over all events (packets without RSSI never count).
    const floors = new Array<number>(store.receiverNames.length).fill(Infinity);
    store.events.rssi.forEach((rssi, index) => {
      const receiver = store.events.receiver[index];
      if (!Number.isNaN(rssi)) floors[receiver] = Math.min(floors[receiver], rssi);
    });
    expect([...profiles.receiverFloors]).toEqual(floors);
    expect(floors.every((floor) => floor < -60)).toBe(true);
  });

  it('leaves the floor of a receiver without RSSI at +Infinity', () => {
    const store = storeOf([
      { ts: 1000, addr: '5A:00:00:00:00:01', receiver: 'rx-a', rssi: -70 },
      { ts: 1100, addr: '5A:00:00:00:00:02', receiver: 'rx-b', rssi: -50 },
      { ts: 1200, addr: '5A:00:00:00:00:01', receiver: 'rx-a', rssi: -80 },
      { ts: 1300, addr: '5A:00:00:00:00:03', receiver: 'rx-c', rssi: -60 },
    ]);
    const silent = store.receiverIds.get('rx-c')!;
    for (let index = 0; index < store.events.rssi.length; index++) if (store.events.receiver[index] === silent) store.events.rssi[index] = Number.NaN;
    const floors = buildAddressProfiles(store).receiverFloors;
    expect(floors[store.receiverIds.get('rx-a')!]).toBe(-80);
    expect(floors[store.receiverIds.get('rx-b')!]).toBe(-50);
    expect(floors[silent]).toBe(Infinity);
  });

  it('leaves addresses without transmitted packets undefined', () => {
    const store = storeOf([
      // Only the target of a scan request: no packet of its own.
      { ts: 1000, addr: '5A:00:00:00:00:01', scanner: '5A:00:00:00:00:02', advType: 'SCAN_REQ' },
      { ts: 2000, addr: '5A:00:00:00:00:03' },
    ]);
    const profiles = buildAddressProfiles(store);
    const target = store.addressIds.get('5A:00:00:00:00:01')!;
    expect(profiles.byAddress[target]).toBeUndefined();
    // No receiver or segment rows either.
    expect(receiversOf(profiles.receivers, target)).toEqual([]);
    expect(segmentsOf(profiles.segments, target)).toEqual([]);
    expect(profiles.byAddress[store.addressIds.get('5A:00:00:00:00:02')!]?.count).toBe(1);
    const single = store.addressIds.get('5A:00:00:00:00:03')!;
    expect(segmentsOf(profiles.segments, single)).toEqual([{ startMs: 2000, endMs: 2000, count: 1, occupiedSeconds: 1 }]);
    expect(receiversOf(profiles.receivers, single)).toEqual([{ receiver: 0, count: 1, headRssi: expect.any(Number), tailRssi: expect.any(Number), headCount: 1, tailCount: 1 }]);
  });
});
