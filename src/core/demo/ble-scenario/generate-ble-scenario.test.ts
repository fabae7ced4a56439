import { tableToIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS } from '../../data/ble/record-writer.ts';
import { CAPTURE_METADATA } from '../../data/capture.ts';
import { stringColumn } from '../../data/columns.ts';
import { bleParseAddress, truthRandomSubtype } from './ble-address.ts';
import { generateBleBenchmarkInput } from './ble-benchmark-input.ts';
import { BLE_SCENARIO_NAMES } from './ble-scenarios.ts';
import { generateBleScenario, type BleScenario } from './generate-ble-scenario.ts';

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
    within('android:main', 299, 901);
    within('android:extra', 44, 101);
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
