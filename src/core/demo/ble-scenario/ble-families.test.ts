// The issue-22 families of the generator: each family's truth, and the radio features each can
// switch off (docs/ble-scenarios.md, "Families" and "Radio features").
import type { Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { stringColumn } from '../../data/columns.ts';
import { planBleScenario } from './ble-scenario-plan.ts';
import { BLE_RADIO_FEATURES_OFF, bleScenarioConfig, type BleScenarioConfig } from './ble-scenarios.ts';
import { generateBleScenario, type BleScenario } from './generate-ble-scenario.ts';

function generate(seed: number, scenario: string, overrides?: Partial<BleScenarioConfig>): BleScenario {
  const result = generateBleScenario({ seed, scenario, ...(overrides ? { overrides } : {}) });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** Every row's (address, receiver-time) of a table. */
function timesOf(table: Table): Array<{ address: string; ts: number; crcOk: boolean }> {
  const rows: Array<{ address: string; ts: number; crcOk: boolean }> = [];
  for (const batch of table.batches) {
    const addresses = stringColumn(batch, 'advertiser_addr');
    const ts = batch.getChild('ts_ms')!.toArray() as Float64Array;
    const crc = batch.getChild('crc_ok')!;
    for (let row = 0; row < batch.numRows; row++) rows.push({ address: addresses[row]!, ts: ts[row], crcOk: crc.get(row) === true });
  }
  return rows;
}

describe('radio features switched off', () => {
  it('stamps whole milliseconds without the advertising clock, and µs with it', () => {
    const off = timesOf(generate(4, 'companions', { ...BLE_RADIO_FEATURES_OFF }).captures[0].table);
    expect(off.length).toBeGreaterThan(1000);
    expect(off.every((row) => Number.isInteger(row.ts))).toBe(true);
    const on = timesOf(generate(4, 'companions').captures[0].table);
    expect(on.filter((row) => !Number.isInteger(row.ts)).length).toBeGreaterThan(on.length / 2);
  });

  it('lets a carried device share its carrier\'s body shadowing, and plans no multipath or clock', () => {
    const config = { ...bleScenarioConfig('companions'), ...BLE_RADIO_FEATURES_OFF };
    const plan = planBleScenario(config, 4, 1_712_131_200_000);
    expect(plan.radio.multipathDb).toBe(0);
    expect(plan.radio.advertisingClock).toBe(false);
    expect(plan.radio.timestampResolutionMs).toBe(1);
    expect(plan.travelGroups.length).toBeGreaterThan(0);
    for (const group of plan.travelGroups) {
      const [carrier, ...carried] = group.devices;
      expect(plan.devices[carrier].shadowingOf).toBeUndefined();
      for (const device of carried) expect(plan.devices[device].shadowingOf).toBe(carrier);
    }
    const on = planBleScenario(bleScenarioConfig('companions'), 4, 1_712_131_200_000);
    expect(on.devices.every((device) => device.shadowingOf === undefined)).toBe(true);
  });
});

describe('multi_set_crowd', () => {
  it('is 150 multi-set phones on the stack timers sharing two payload templates', () => {
    const { truth } = generate(2, 'multi_set_crowd');
    const phones = truth.devices.filter((device) => device.profile === 'android');
    expect(phones).toHaveLength(150);
    expect(phones.every((phone) => phone.sets.length >= 2 && phone.sets.length <= 3)).toBe(true);
    const templates = new Map<string, number>();
    for (const phone of phones) templates.set(phone.template_id, (templates.get(phone.template_id) ?? 0) + 1);
    expect(templates.size).toBe(2);
    expect(Math.min(...templates.values())).toBeGreaterThan(40);
    expect(truth.travelled_together).toEqual([]);
  });
});

describe('group_walk', () => {
  it('walks 20 people 1–3 m apart on one path, and records carried and group travel', () => {
    const config = bleScenarioConfig('group_walk');
    const plan = planBleScenario(config, 3, 1_712_131_200_000);
    const group = plan.travelGroups.find((entry) => entry.kind === 'group')!;
    const phones = group.devices.filter((index) => plan.devices[index].deviceClass === 'phone');
    expect(phones).toHaveLength(20);
    // Nearest neighbour of every person at the start (the path's first point).
    for (const phone of phones) {
      const me = plan.devices[phone].motion;
      const nearest = Math.min(...phones.filter((other) => other !== phone).map((other) => Math.hypot(plan.devices[other].motion.x[0] - me.x[0], plan.devices[other].motion.y[0] - me.y[0])));
      expect(nearest).toBeGreaterThan(0.5);
      expect(nearest).toBeLessThan(3.5);
      // Everyone shares the group's waypoint times.
      expect(me.t).toEqual(plan.devices[phones[0]].motion.t);
    }
    const carried = plan.travelGroups.filter((entry) => entry.kind === 'carried');
    expect(carried.length).toBeGreaterThan(5);
    for (const entry of carried) {
      expect(plan.devices[entry.devices[0]].deviceClass).toBe('phone');
      expect(entry.devices.length).toBeLessThanOrEqual(3);
      for (const companion of entry.devices.slice(1)) expect(['watch', 'earbuds', 'tag']).toContain(plan.devices[companion].deviceClass);
    }

    const { truth } = generate(3, 'group_walk');
    const walkers = group.devices.length;
    expect(truth.travelled_together).toHaveLength((walkers * (walkers - 1)) / 2);
    const carriedPairs = truth.travelled_together.filter((pair) => pair.kind === 'carried');
    expect(carriedPairs.length).toBe(carried.reduce((sum, entry) => sum + (entry.devices.length * (entry.devices.length - 1)) / 2, 0));
    // Strangers (the 13 other devices) travel with nobody.
    const inGroup = new Set(group.devices.map((index) => plan.devices[index].deviceId));
    expect(truth.travelled_together.every((pair) => inGroup.has(pair.device_a) && inGroup.has(pair.device_b))).toBe(true);
  });
});

describe('handover', () => {
  it('hears a device on one receiver at a time, with receiver clocks seconds apart', () => {
    const { captures, truth } = generate(5, 'handover');
    expect(truth.receivers).toHaveLength(3);
    // Receivers whose clocks differ by more than a second (seed 5), drifting.
    const offsets = truth.receivers.map((receiver) => receiver.clock_offset_ms);
    expect(Math.max(...offsets) - Math.min(...offsets)).toBeGreaterThan(1000);
    expect(truth.receivers.some((receiver) => Math.abs(receiver.drift_ppm) > 20)).toBe(true);
    // (address, 10 s bucket) heard by more than one receiver: the coverages barely touch.
    const heardBy = new Map<string, Set<number>>();
    captures.forEach((capture, receiver) => {
      for (const row of timesOf(capture.table)) {
        const key = `${row.address}|${Math.floor(row.ts / 10_000)}`;
        const set = heardBy.get(key) ?? new Set<number>();
        set.add(receiver);
        heardBy.set(key, set);
      }
    });
    const shared = [...heardBy.values()].filter((set) => set.size > 1).length;
    expect(shared / heardBy.size).toBeLessThan(0.02);
    // Walkers are heard by more than one receiver over the hour: they hand over.
    const receiversOf = new Map<string, Set<number>>();
    captures.forEach((capture, receiver) => {
      for (const row of timesOf(capture.table)) {
        const device = truth.address_to_device[row.address];
        if (device === undefined) continue;
        const set = receiversOf.get(device) ?? new Set<number>();
        set.add(receiver);
        receiversOf.set(device, set);
      }
    });
    expect([...receiversOf.values()].filter((set) => set.size > 1).length).toBeGreaterThan(10);
  });
});

describe('trackers', () => {
  const config = bleScenarioConfig('trackers');
  const plan = planBleScenario(config, 6, 1_712_131_200_000);
  const tags = (profile: string) => plan.devices.filter((device) => device.profile === profile);
  /** The service data or manufacturer data bytes after the UUID or company id. */
  const adField = (bytes: Uint8Array, type: number): number[] | null => {
    for (let at = 0; at < bytes.length; at += bytes[at] + 1) if (bytes[at + 1] === type) return Array.from(bytes.subarray(at + 2, at + 1 + bytes[at]));
    return null;
  };

  it('swaps a Find My-style key once a day after a ~2 s silence, keeping template and status byte', () => {
    const findMy = tags('find_my_tag');
    expect(findMy).toHaveLength(4);
    for (const tag of findMy) {
      const [set] = tag.sets;
      const inSpan = set.epochs.filter((epoch) => epoch.endMs > plan.startMs && epoch.startMs < plan.endMs);
      expect(inSpan).toHaveLength(2);
      const [before, after] = inSpan;
      expect(after.startMs - before.endMs).toBeGreaterThanOrEqual(1500);
      expect(after.startMs - before.endMs).toBeLessThanOrEqual(2500);
      expect(before.endMs - before.startMs).toBeCloseTo(86_400_000, -1);
      // The swap falls at 04:00–04:05 UTC.
      const hour = ((before.endMs / 3_600_000) % 24 + 24) % 24;
      expect(hour).toBeGreaterThanOrEqual(4);
      expect(hour).toBeLessThan(4 + 5 / 60);
      for (const epoch of inSpan) expect(epoch.address.text[0]).toMatch(/[C-F]/); // top two bits 11
      const [first, second] = set.payloads.map((change) => adField(plan.payloads[change.payload], 0xff)!);
      expect(first.slice(0, 4)).toEqual([0x4c, 0x00, 0x12, 0x19]);
      expect(first).toHaveLength(29);
      expect(second.slice(0, 5)).toEqual(first.slice(0, 5)); // company, type, length, status byte
      expect(second.slice(5, 27)).not.toEqual(first.slice(5, 27)); // a new key
      expect(set.payloads[1].fromMs).toBe(after.startMs);
    }
    const { truth } = generate(6, 'trackers');
    const findMyIds = new Set(truth.devices.filter((device) => device.profile === 'find_my_tag').map((device) => device.device_id));
    const swaps = truth.rotations.filter((rotation) => findMyIds.has(rotation.device_id));
    expect(swaps).toHaveLength(4);
    for (const swap of swaps) expect(truth.addresses.find((address) => address.address === swap.to)!.type).toBe('random_static');
  });

  it('rotates an FMDN-style identifier and address together every 1024 s, frame 0x40 (0x41 in protection mode)', () => {
    const fmdn = tags('fmdn_tag');
    expect(fmdn).toHaveLength(3);
    const frames = new Set<number>();
    for (const tag of fmdn) {
      const [set] = tag.sets;
      for (let index = 1; index < set.epochs.length; index++) {
        expect(set.epochs[index].startMs - set.epochs[index - 1].startMs).toBeCloseTo(1_024_000, 3);
        expect(set.payloads[index].fromMs).toBe(set.epochs[index].startMs);
      }
      const data = set.payloads.map((change) => adField(plan.payloads[change.payload], 0x16)!);
      for (const field of data) {
        expect(field.slice(0, 2)).toEqual([0xaa, 0xfe]);
        expect(field).toHaveLength(2 + 1 + 20 + 1);
        frames.add(field[2]);
      }
      expect(new Set(data.map((field) => field.slice(3, 23).join(','))).size).toBe(data.length);
    }
    expect([...frames].sort()).toEqual([0x40, 0x41]);
  });

  it('steps a SmartTag-style aging counter by one per ~15 min rotation, keeping state and flags', () => {
    const smart = tags('smarttag');
    expect(smart).toHaveLength(3);
    for (const tag of smart) {
      const [set] = tag.sets;
      const data = set.payloads.map((change) => adField(plan.payloads[change.payload], 0x16)!);
      const counter = (field: number[]) => field[3] | (field[4] << 8) | (field[5] << 16);
      for (let index = 1; index < data.length; index++) {
        expect(data[index].slice(0, 2)).toEqual([0x5a, 0xfd]);
        expect(counter(data[index]) - counter(data[index - 1])).toBe(1);
        expect(data[index][2]).toBe(data[0][2]); // state byte
        expect(data[index][14]).toBe(data[0][14]); // flags byte
        expect(data[index].slice(6, 14)).not.toEqual(data[index - 1].slice(6, 14)); // privacy id
        const period = set.epochs[index].startMs - set.epochs[index - 1].startMs;
        expect(period).toBeGreaterThanOrEqual(898_000);
        expect(period).toBeLessThanOrEqual(902_000);
      }
    }
  });

  it('lets a phone carry some tags and leaves the others alone', () => {
    const carried = plan.travelGroups.filter((group) => group.kind === 'carried');
    expect(carried).toHaveLength(4);
    for (const group of carried) {
      expect(plan.devices[group.devices[0]].deviceClass).toBe('phone');
      expect(plan.devices[group.devices[1]].deviceClass).toBe('tag');
    }
    const alone = plan.devices.filter((device, index) => device.deviceClass === 'tag' && !carried.some((group) => group.devices.includes(index)));
    expect(alone).toHaveLength(6);
    expect(alone.every((device) => device.motion.t.length === 1)).toBe(true);
  });
});

describe('sparse_scan', () => {
  it('hears only during 20–30 s scans about every 15 min', () => {
    const { captures, truth } = generate(7, 'sparse_scan');
    expect(captures).toHaveLength(1);
    const times = timesOf(captures[0].table).map((row) => row.ts);
    // Bursts: split where nothing was heard for a minute.
    const bursts: Array<[number, number]> = [];
    for (const t of times) {
      const last = bursts[bursts.length - 1];
      if (last && t - last[1] < 60_000) last[1] = t;
      else bursts.push([t, t]);
    }
    expect(bursts.length).toBeGreaterThanOrEqual(15);
    expect(bursts.length).toBeLessThanOrEqual(17);
    for (const [start, end] of bursts) expect(end - start).toBeLessThanOrEqual(30_000);
    for (let index = 1; index < bursts.length; index++) {
      expect(bursts[index][0] - bursts[index - 1][0]).toBeGreaterThan(840_000);
      expect(bursts[index][0] - bursts[index - 1][0]).toBeLessThan(960_000);
    }
    // The truth's gaps are the complement of the scans: the receiver listens 2–4 % of the time.
    const span = truth.end_ms - truth.start_ms;
    const deaf = truth.receivers[0].gaps.reduce((sum, gap) => sum + Math.min(gap.end_ms, truth.end_ms) - Math.max(gap.start_ms, truth.start_ms), 0);
    expect(1 - deaf / span).toBeGreaterThan(0.02);
    expect(1 - deaf / span).toBeLessThan(0.04);
  });
});

describe('family knobs', () => {
  it('refuses knobs a family cannot run with, as a coded problem', () => {
    const refused = (scenario: string, overrides: Partial<BleScenarioConfig>) => expect(generateBleScenario({ seed: 1, scenario, overrides })).toMatchObject({ ok: false, error: { code: 'INVALID_SCENARIO_OPTIONS' } });
    refused('handover', { receivers: 1 });
    refused('group_walk', { groupWalk: { people: 40, perRow: 2, spacingM: 2, companions: [0, 2] } });
    refused('sparse_scan', { scanDuty: { periodS: 20, periodJitterS: 0, windowS: [20, 30] } });
    refused('trackers', { trackers: { ...bleScenarioConfig('trackers').trackers!, tagRatePerS: 0 } });
  });
});
