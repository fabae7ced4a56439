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
