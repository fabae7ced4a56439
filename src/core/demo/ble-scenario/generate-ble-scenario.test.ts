import { tableToIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS } from '../../data/ble/record-writer.ts';
import { CAPTURE_METADATA } from '../../data/capture.ts';
import { stringColumn } from '../../data/columns.ts';
import { bleParseAddress, truthRandomSubtype } from './ble-address.ts';
import { generateBleBenchmarkInput } from './ble-benchmark-input.ts';
import { parseIrk, resolvesUnder } from '../../tools/ble-analyzer/shared/ah.ts';
import { BLE_SLOT_MS, bleDeviceClock, blePacketTime } from './ble-advertising-clock.ts';
import { BLE_MULTIPATH_CELL_M, bleMultipathGainDb } from './ble-multipath.ts';
import { BLE_SCENARIO_NAMES } from './ble-scenarios.ts';
import { generateBleScenario, type BleScenario } from './generate-ble-scenario.ts';

const T_SAMPLE = 1_712_131_234_567.891;

function generate(seed: number, scenario: string, layout: 'per_receiver' | 'combined' = 'per_receiver'): BleScenario {
  const result = generateBleScenario({ seed, scenario, layout });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

interface Row {
  address: string;
  ts: number;
  crcOk: boolean;
  txAdd: number;
  receiver: string;
}

function rowsOf(table: Table): Row[] {
  const rows: Row[] = [];
  for (const batch of table.batches) {
    const addresses = stringColumn(batch, 'advertiser_addr');
    const receivers = stringColumn(batch, 'receiver');
    const ts = batch.getChild('ts_ms')!.toArray() as Float64Array;
    const txAdd = batch.getChild('tx_add')!.toArray() as Uint8Array;
    const crc = batch.getChild('crc_ok')!;
    for (let row = 0; row < batch.numRows; row++) rows.push({ address: addresses[row]!, ts: ts[row], crcOk: crc.get(row) === true, txAdd: txAdd[row], receiver: receivers[row]! });
  }
  return rows;
}

describe('generateBleScenario', () => {
  it.each(BLE_SCENARIO_NAMES)('%s: normalized BLE tables with the declared span, every row explained by the truth', (name) => {
    const { captures, truth, config } = generate(11, name);
    expect(captures).toHaveLength(config.receivers);
    let total = 0;
    let bad = 0;
    for (const capture of captures) {
      const { table, info } = capture;
      expect(table.schema.fields.map((field) => [field.name, String(field.type)])).toEqual(BLE_RECORD_COLUMNS.map((column) => [column.name, String(column.type())]));
      expect(table.schema.metadata.get(CAPTURE_METADATA.captureId)).toBe(info.id);
      expect(info.bounds).toEqual({ start_ms: truth.start_ms, end_ms: truth.end_ms });
      expect(info.boundsSource).toBe('declared');
      const rows = rowsOf(table);
      // Counted, not asserted per row: tens of thousands of expect calls are slow.
      let previous = -Infinity;
      let outOfOrder = 0;
      const unexplained: string[] = [];
      for (const row of rows) {
        if (row.ts < previous) outOfOrder++;
        previous = row.ts;
        const known = row.crcOk ? truth.address_to_device[row.address] : (truth.address_to_device[row.address] ?? truth.phantom_addresses[row.address]);
        if (known === undefined) unexplained.push(row.address);
        if (!row.crcOk) bad++;
      }
      expect(outOfOrder).toBe(0);
      expect(unexplained).toEqual([]);
      expect(previous).toBeLessThanOrEqual(truth.end_ms);
      total += rows.length;
    }
    expect(total).toBe(truth.counts.observations);
    expect(bad).toBe(truth.counts.crc_bad);
    expect(bad / total).toBeGreaterThan(config.crcBadRate - 0.015);
    expect(bad / total).toBeLessThan(config.crcBadRate + 0.015);
  });

  it('gives addresses the subtype bits of their truth type, and TxAdd 0 only to public ones', () => {
    const { captures, truth } = generate(5, 'dense', 'combined');
    for (const address of truth.addresses) {
      const octets = bleParseAddress(address.address)!;
      if (address.type !== 'public') expect(truthRandomSubtype(octets)).toBe(address.type);
    }
    const types = new Map(truth.addresses.map((address) => [address.address, address.type]));
    const wrong = rowsOf(captures[0].table).filter((row) => row.crcOk && row.txAdd !== (types.get(row.address) === 'public' ? 0 : 1));
    expect(wrong).toEqual([]);
    expect(new Set(truth.addresses.map((address) => address.type))).toEqual(new Set(['public', 'random_static', 'rpa', 'nrpa']));
  });

  it('puts every receiver in the receiver column of a combined capture', () => {
    const { captures, truth } = generate(2, 'drift', 'combined');
    expect(captures).toHaveLength(1);
    expect(new Set(rowsOf(captures[0].table).map((row) => row.receiver))).toEqual(new Set(truth.receivers.map((receiver) => receiver.name)));
  });

  it('is deterministic in the seed', () => {
    const bytes = (seed: number) => tableToIPC(generate(seed, 'default', 'combined').captures[0].table);
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((value, index) => value === b[index]);
    const first = bytes(42);
    expect(same(bytes(42), first)).toBe(true);
    expect(same(bytes(43), first)).toBe(false);
  });

  it('rotates like the profiles say', () => {
    const { truth } = generate(9, 'android_multi_set');
    const profileOf = new Map(truth.devices.map((device) => [device.device_id, device.profile]));
    const lifetimes = new Map<string, number[]>();
    for (const address of truth.addresses) {
      if (address.planned_start_ms < truth.start_ms || address.planned_end_ms > truth.end_ms) continue;
      const key = `${profileOf.get(address.device_id)}:${address.set === 0 ? 'main' : 'extra'}`;
      lifetimes.set(key, [...(lifetimes.get(key) ?? []), (address.planned_end_ms - address.planned_start_ms) / 1000]);
    }
    const within = (key: string, low: number, high: number) => {
      const values = lifetimes.get(key) ?? [];
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) {
        expect(value).toBeGreaterThanOrEqual(low);
        expect(value).toBeLessThanOrEqual(high);
      }
    };
    within('ios:main', 859, 941);
    within('android:main', 419, 901);
    within('android:extra', 419, 902);
    // The 1.0 model of extra sets (45–100 s restarts) is still what the default scenario uses.
    const legacyRun = generateBleScenario({ seed: 9, scenario: 'android_multi_set', overrides: { androidTimers: false } });
    if (!legacyRun.ok) throw new Error(legacyRun.error.message);
    const legacy = legacyRun.value.truth;
    const legacyExtra = legacy.addresses.filter((address) => address.set > 0 && address.planned_start_ms >= legacy.start_ms && address.planned_end_ms <= legacy.end_ms);
    expect(legacyExtra.length).toBeGreaterThan(0);
    for (const address of legacyExtra) expect((address.planned_end_ms - address.planned_start_ms) / 1000).toBeLessThanOrEqual(101);
    within('tracker:main', 899, 901);
    const fast = generate(9, 'fast_rotation').truth;
    for (const address of fast.addresses) {
      if (address.type !== 'rpa' || address.planned_start_ms < fast.start_ms || address.planned_end_ms > fast.end_ms) continue;
      const lifetime = (address.planned_end_ms - address.planned_start_ms) / 1000;
      expect(lifetime).toBeGreaterThanOrEqual(44);
      expect(lifetime).toBeLessThanOrEqual(301);
    }
  });

  it('makes the crowd rotate within a second of each other with one payload template', () => {
    const { truth } = generate(4, 'same_template_crowd');
    const crowd = new Set(truth.devices.filter((device) => device.template_id === 'tracker-crowd').map((device) => device.device_id));
    expect(crowd.size).toBe(10);
    const rotations = truth.rotations.filter((rotation) => crowd.has(rotation.device_id));
    expect(rotations.length).toBeGreaterThanOrEqual(10);
    const moments = rotations.map((rotation) => rotation.at_ms).sort((a, b) => a - b);
    // Rotations come in groups of ten, each group spread over less than one second.
    for (let group = 0; group + 9 < moments.length; group += 10) expect(moments[group + 9] - moments[group]).toBeLessThan(1000);
  });

  it('gives multi-set phones synchronized or independent sets with their own payloads and TX offsets', () => {
    const { truth } = generate(5, 'android_multi_set');
    const phones = truth.devices.filter((device) => device.profile === 'android');
    expect(phones.every((phone) => phone.sets.length >= 2 && phone.sets.length <= 3)).toBe(true);
    expect(phones.some((phone) => phone.synchronized_sets === true)).toBe(true);
    expect(phones.some((phone) => phone.synchronized_sets === false)).toBe(true);
    for (const phone of phones) {
      expect(phone.sets[0].tx_offset_db).toBe(0);
      for (const extra of phone.sets.slice(1)) expect(extra.tx_offset_db).toBeLessThan(-2);
      const rotations = truth.rotations.filter((rotation) => rotation.device_id === phone.device_id);
      const bySet = (set: number) => rotations.filter((rotation) => rotation.set === set).map((rotation) => rotation.at_ms);
      if (phone.synchronized_sets) {
        // Every rotation of set 1 has one of set 0 within a second.
        for (const at of bySet(1)) expect(bySet(0).some((other) => Math.abs(other - at) <= 1000)).toBe(true);
      }
    }
  });

  it("schedules all of a device's sets on its controller's 625 µs slot grid, stamped to the microsecond", () => {
    const { captures, truth } = generate(1, 'android_multi_set');
    // Channel-37 packets per (device, set) at the first receiver.
    const packets = new Map<string, number[]>();
    for (const batch of captures[0].table.batches) {
      const addresses = stringColumn(batch, 'advertiser_addr');
      const ts = batch.getChild('ts_ms')!.toArray() as Float64Array;
      const channel = batch.getChild('channel')!;
      const crc = batch.getChild('crc_ok')!;
      for (let row = 0; row < batch.numRows; row++) {
        const address = truth.addresses.find((entry) => entry.address === addresses[row]);
        if (!address || crc.get(row) !== true || channel.get(row) !== 37) continue;
        expect(Math.abs(ts[row] * 1000 - Math.round(ts[row] * 1000))).toBeLessThan(1e-3);
        const key = `${address.device_id}/${address.set}`;
        packets.set(key, [...(packets.get(key) ?? []), ts[row]]);
      }
    }
    // Mean resultant length of the phases (mod 625 µs) of packet pairs within 2 s.
    const alignment = (x: number[], y: number[]): number => {
      let cos = 0;
      let sin = 0;
      for (const t of x) {
        const u = y.find((other) => Math.abs(other - t) <= 2_000 && other !== t);
        if (u === undefined) continue;
        const angle = (2 * Math.PI * (t - u)) / BLE_SLOT_MS;
        cos += Math.cos(angle);
        sin += Math.sin(angle);
      }
      return Math.hypot(cos, sin) / x.length;
    };
    const phone = truth.devices.find((device) => device.profile === 'android' && packets.has(`${device.device_id}/0`) && packets.has(`${device.device_id}/1`))!;
    const other = truth.devices.find((device) => device.profile === 'android' && device !== phone && packets.has(`${device.device_id}/0`))!;
    const siblings = alignment(packets.get(`${phone.device_id}/0`)!, packets.get(`${phone.device_id}/1`)!);
    const strangers = alignment(packets.get(`${phone.device_id}/0`)!, packets.get(`${other.device_id}/0`)!);
    expect(siblings).toBeGreaterThan(0.2);
    expect(strangers).toBeLessThan(siblings / 2);
    // The grid itself: an event asked for at any time starts on a slot; channel 38 follows 37 by the PDU's air time and the gap.
    const clock = bleDeviceClock(7, 3);
    const start = blePacketTime(clock, T_SAMPLE, 0, 20);
    expect(Math.abs(((start - clock.phaseMs) / clock.slotMs) % 1)).toBeLessThan(1e-3);
    expect(Math.abs(start - T_SAMPLE)).toBeLessThanOrEqual(clock.slotMs / 2);
    expect(blePacketTime(clock, T_SAMPLE, 1, 20) - start).toBeCloseTo(36 * 0.008 + clock.channelGapMs, 3);
  });

  it('gives every 6 cm spot its own multipath per receiver and channel', () => {
    expect(bleMultipathGainDb(3, 1, 0, 0, 10.01, 5.01)).toBe(bleMultipathGainDb(3, 1, 0, 0, 10.02, 5.02));
    expect(bleMultipathGainDb(3, 1, 0, 0, 10.01, 5.01)).not.toBe(bleMultipathGainDb(3, 1, 0, 1, 10.01, 5.01));
    expect(bleMultipathGainDb(3, 1, 0, 0, 10.01, 5.01)).not.toBe(bleMultipathGainDb(3, 1, 0, 0, 10.01 + BLE_MULTIPATH_CELL_M, 5.01));
    expect(bleMultipathGainDb(0, 1, 0, 0, 10, 5)).toBe(0);
    let squares = 0;
    for (let cell = 0; cell < 4000; cell++) squares += bleMultipathGainDb(3, 1, cell % 3, cell % 2, cell * 0.1, 3) ** 2;
    expect(Math.sqrt(squares / 4000)).toBeGreaterThan(2.7);
    expect(Math.sqrt(squares / 4000)).toBeLessThan(3.3);
  });

  it('lets companions travel with their phone and records both relations', () => {
    const { truth } = generate(2, 'companions');
    expect(truth.travelled_together.length).toBeGreaterThanOrEqual(6);
    const devices = new Map(truth.devices.map((device) => [device.device_id, device]));
    for (const pair of truth.travelled_together) {
      expect(pair.device_a).not.toBe(pair.device_b);
      const a = devices.get(pair.device_a)!;
      const b = devices.get(pair.device_b)!;
      expect(a.mobile && b.mobile).toBe(true);
      expect(pair.to_ms).toBeGreaterThan(pair.from_ms);
    }
    const classes = new Set(truth.travelled_together.map((pair) => devices.get(pair.device_b)!.class));
    expect([...classes].some((kind) => kind === 'watch' || kind === 'earbuds' || kind === 'tag')).toBe(true);
  });

  it('emits real ah() RPAs for the devices with an IRK, and the key resolves nothing else', () => {
    const { truth } = generate(3, 'irk');
    const keyed = truth.devices.filter((device) => device.irk !== undefined);
    expect(keyed).toHaveLength(4);
    for (const device of keyed) {
      const key = parseIrk(device.irk!)!;
      for (const address of truth.addresses) {
        if (address.type !== 'rpa') continue;
        expect(resolvesUnder(address.address, key)).toBe(address.device_id === device.device_id);
      }
    }
  });

  it('refuses unknown scenarios and bad options with a coded problem', () => {
    expect(generateBleScenario({ seed: 1, scenario: 'nope' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_SCENARIO' } });
    expect(generateBleScenario({ seed: 1.5 })).toMatchObject({ ok: false, error: { code: 'INVALID_SCENARIO_OPTIONS' } });
    expect(generateBleScenario({ seed: 1, overrides: { receivers: 0 } })).toMatchObject({ ok: false, error: { code: 'INVALID_SCENARIO_OPTIONS' } });
  });
});

describe('generateBleBenchmarkInput', () => {
  it('gives exactly the requested rows from about the requested addresses', () => {
    const input = generateBleBenchmarkInput({ seed: 3, observations: 30_000, addresses: 300, durationS: 900 });
    expect(input.captures).toHaveLength(1);
    expect(input.captures[0].table.numRows).toBe(30_000);
    expect(input.addressesHeard).toBeGreaterThan(240);
    expect(input.addressesHeard).toBeLessThan(360);
  });
});
