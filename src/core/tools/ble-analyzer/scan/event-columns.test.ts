import { describe, expect, it } from 'vitest';
import { Float64, vectorFromArray, type Table } from 'apache-arrow';
import { fitsFloat32, receiverIds } from './event-columns.ts';
import { BleScanner } from './observations.ts';
import { bleTestStream, bleTestTable, selectAllRows } from '../shared/test-support.ts';

function scan(table: Table) {
  const scanner = new BleScanner({ columns: { advertiser: 'advertiser_addr', initiator: 'initiator_addr', scanner: 'scanner_addr' }, includeCrcBad: false });
  for (const batch of selectAllRows('test', table).batches) scanner.add(batch);
  return scanner.finish();
}

describe('narrow event columns', () => {
  it('says which values read back unchanged from 32-bit floats', () => {
    expect(fitsFloat32(Int8Array.of(-128, 0, 127), 3)).toBe(true);
    expect(fitsFloat32(Float64Array.of(-67, Number.NaN, -120.5, 2 ** 24), 4)).toBe(true);
    expect(fitsFloat32(Float64Array.of(-60, -67.3), 2)).toBe(false);
    expect(fitsFloat32(Float64Array.of(-60, -67.3), 1)).toBe(true);
    expect(fitsFloat32(Int32Array.of(2 ** 24 + 1), 1)).toBe(false);
    expect(fitsFloat32(Float64Array.of(Number.POSITIVE_INFINITY), 1)).toBe(true);
  });

  it('picks the narrowest array for the largest receiver id', () => {
    expect(receiverIds(3, 0xff)).toBeInstanceOf(Uint8Array);
    expect(receiverIds(3, 0x100)).toBeInstanceOf(Uint16Array);
    expect(receiverIds(3, 0xffff)).toBeInstanceOf(Uint16Array);
    expect(receiverIds(3, 0x10000)).toBeInstanceOf(Int32Array);
  });

  it('keeps whole-dBm RSSI in 32 bits and fractional RSSI exactly in 64', () => {
    const rows = bleTestStream('c0:00:00:00:00:01', 0, 9_000, 1_000, { rssi: -71 });
    const whole = scan(bleTestTable(rows));
    expect(whole.events.rssi).toBeInstanceOf(Float32Array);
    expect(Array.from(whole.events.rssi)).toEqual(rows.map(() => -71));

    const fractional = rows.map((_, index) => -70 - index / 10);
    const table = bleTestTable(rows).setChild('rssi', vectorFromArray(fractional, new Float64()));
    const store = scan(table);
    expect(store.events.rssi).toBeInstanceOf(Float64Array);
    expect(Array.from(store.events.rssi)).toEqual(fractional);
  });

  it('gives every one of 300 receivers its own id in 16 bits', () => {
    const rows = Array.from({ length: 300 }, (_, index) => ({ ts: index * 10, addr: 'c0:00:00:00:00:02', receiver: `rx-${index}` }));
    const store = scan(bleTestTable(rows));
    expect(store.events.receiver).toBeInstanceOf(Uint16Array);
    expect(Array.from(store.events.receiver, (id) => store.receiverNames[id])).toEqual(rows.map((row) => row.receiver));
  });
});
