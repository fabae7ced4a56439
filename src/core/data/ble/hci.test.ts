import { describe, expect, it } from 'vitest';
import type { Table } from 'apache-arrow';
import { ad, ascii, btsnoopFile, hciAdvertisingReport, hciExtendedAdvertisingReport, pcapFile } from './__fixtures__/capture-builders.ts';
import { importBleCapture, type BleImport } from './ble-importer.ts';
import { extendedReportAdvType, legacyReportAdvType } from './hci.ts';
import { ADV_TYPE_NAMES } from './adv-types.ts';

const A = '7A:4C:21:9D:10:EF';
const B = '00:1B:DC:F4:00:01';

function importEvents(events: ReadonlyArray<Uint8Array>): BleImport {
  const file = btsnoopFile({ datalink: 1002, records: events.map((bytes, index) => ({ epochUs: 1_600_000_000_000_000n + BigInt(index), flags: 3, bytes })) });
  const result = importBleCapture(file, { captureId: 'cap', fileName: 'btsnoop_hci.log' });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

function column(table: Table, name: string): unknown[] {
  const vector = table.getChild(name)!;
  return Array.from({ length: vector.length }, (_, index) => vector.get(index));
}

describe('LE Advertising Report (legacy)', () => {
  it('trap: HCI event types are numbered differently from LL PDU types (2 = ADV_SCAN_IND, 3 = ADV_NONCONN_IND)', () => {
    expect([0, 1, 2, 3, 4, 5].map((type) => ADV_TYPE_NAMES[legacyReportAdvType(type)])).toEqual([
      'ADV_IND',
      'ADV_DIRECT_IND',
      'ADV_SCAN_IND',
      'ADV_NONCONN_IND',
      'SCAN_RSP',
      'UNKNOWN',
    ]);
    const { table } = importEvents([0, 1, 2, 3, 4].map((eventType) => hciAdvertisingReport([{ eventType, addressType: 0, address: A, rssi: -50 }])));
    expect(column(table, 'adv_type')).toEqual(['ADV_IND', 'ADV_DIRECT_IND', 'ADV_SCAN_IND', 'ADV_NONCONN_IND', 'SCAN_RSP']);
  });

  it('makes one record per report in an event', () => {
    const event = hciAdvertisingReport([
      { eventType: 0, addressType: 1, address: A, data: ad(0x09, ascii('one')), rssi: -40 },
      { eventType: 4, addressType: 0, address: B, data: ad(0x0a, [0xf4]), rssi: -90 },
    ]);
    const { table, report } = importEvents([event]);
    expect(report.packets).toBe(1);
    expect(report.rows).toBe(2);
    expect(column(table, 'advertiser_addr')).toEqual([A, B]);
    expect(column(table, 'local_name')).toEqual(['one', null]);
    expect(column(table, 'tx_power')).toEqual([null, -12]);
    expect(column(table, 'rssi')).toEqual([-40, -90]);
    expect(column(table, 'frame_number')).toEqual([1, 1]);
    expect(report.advertisers).toBe(2);
  });

  it('trap: address types 2/3 are controller-resolved identities: tx_add is the low bit, address_resolved is true', () => {
    const { table } = importEvents([0, 1, 2, 3].map((addressType) => hciAdvertisingReport([{ eventType: 0, addressType, address: A, rssi: -50 }])));
    expect(column(table, 'tx_add')).toEqual([0, 1, 0, 1]);
    expect(column(table, 'address_resolved')).toEqual([false, false, true, true]);
    expect(column(table, 'advertiser_addr_type')).toEqual(['public', 'random', 'public_identity', 'random_identity']);
    // HCI has no channel and no CRC verdict.
    expect(column(table, 'channel')).toEqual([null, null, null, null]);
    expect(column(table, 'crc_ok')).toEqual([null, null, null, null]);
  });

  it('reads RSSI 127 as "not available"', () => {
    expect(column(importEvents([hciAdvertisingReport([{ eventType: 0, addressType: 0, address: A, rssi: 127 }])]).table, 'rssi')).toEqual([null]);
  });

  it('counts a report that runs past its event as skipped and keeps the reports before it', () => {
    const event = hciAdvertisingReport([
      { eventType: 0, addressType: 0, address: A, rssi: -40 },
      { eventType: 0, addressType: 0, address: B, data: [1, 2, 3], rssi: -40 },
    ]);
    // Claim two reports but cut the second one short (and fix the parameter length).
    const cut = event.subarray(0, event.length - 3);
    cut[2] = cut.length - 3;
    const { report } = importEvents([cut]);
    expect(report.rows).toBe(1);
    expect(report.skipped).toEqual({ truncated_advertising_report: 1 });
  });
});

describe('LE Extended Advertising Report', () => {
  it('maps the event-type bit field onto PDU names', () => {
    const cases: Array<[number, string]> = [
      [0x13, 'ADV_IND'],
      [0x15, 'ADV_DIRECT_IND'],
      [0x12, 'ADV_SCAN_IND'],
      [0x10, 'ADV_NONCONN_IND'],
      [0x1b, 'SCAN_RSP'],
      [0x1a, 'SCAN_RSP'],
      [0x00, 'AUX_ADV_IND'],
      [0x01, 'AUX_ADV_IND'],
      [0x0a, 'AUX_SCAN_RSP'],
      [0x20, 'AUX_ADV_IND'],
      [0x11, 'UNKNOWN'],
    ];
    for (const [eventType, name] of cases) expect(ADV_TYPE_NAMES[extendedReportAdvType(eventType)]).toBe(name);
  });

  it('reads every report, the target of directed ones and the AD data', () => {
    const event = hciExtendedAdvertisingReport([
      { eventType: 0x13, addressType: 1, address: A, rssi: -60, data: [...ad(0x01, [0x1a]), ...ad(0x03, [0x0f, 0x18])] },
      { eventType: 0x15, addressType: 3, address: B, rssi: -70, directAddressType: 1, directAddress: A },
      { eventType: 0x10, addressType: 0xff, address: '00:00:00:00:00:00', rssi: 127 },
    ]);
    const { table, report } = importEvents([event]);
    expect(column(table, 'adv_type')).toEqual(['ADV_IND', 'ADV_DIRECT_IND', 'ADV_NONCONN_IND']);
    expect(column(table, 'advertiser_addr')).toEqual([A, B, null]);
    expect(column(table, 'initiator_addr')).toEqual([null, A, null]);
    expect(column(table, 'rx_add')).toEqual([null, 1, null]);
    expect(column(table, 'tx_add')).toEqual([1, 1, null]);
    expect(column(table, 'address_resolved')).toEqual([false, true, null]);
    expect(column(table, 'flags')).toEqual([0x1a, null, null]);
    expect([...(column(table, 'service_uuids')[0] as Iterable<string>)]).toEqual(['180F']);
    expect(column(table, 'rssi')).toEqual([-60, -70, null]);
    // Anonymous advertising has no address to count.
    expect(report.advertisers).toBe(2);
  });
});

describe('H4 pseudo-headers', () => {
  it('LINKTYPE 201 has a 4-byte direction header before the H4 packet; LINKTYPE 187 has none', () => {
    const event = hciAdvertisingReport([{ eventType: 0, addressType: 0, address: A, rssi: -50 }]);
    for (const [linkType, bytes] of [
      [201, Uint8Array.from([0, 0, 0, 1, ...event])],
      [187, event],
    ] as const) {
      const result = importBleCapture(pcapFile({ linkType, packets: [{ seconds: 1, fraction: 0, bytes }] }), { captureId: 'cap', fileName: 'h4.pcap' });
      expect(result.ok && result.value.report.rows).toBe(1);
    }
  });

  it('LINKTYPE 254 (Linux monitor) has adapter and opcode before the HCI packet', () => {
    const event = hciAdvertisingReport([{ eventType: 0, addressType: 0, address: A, rssi: -50 }]).subarray(1);
    const bytes = Uint8Array.from([0, 2, 0, 3, ...event]);
    const result = importBleCapture(pcapFile({ linkType: 254, packets: [{ seconds: 1, fraction: 0, bytes }] }), { captureId: 'cap', fileName: 'mon.pcap' });
    if (!result.ok) throw new Error(result.error.message);
    expect(column(result.value.table, 'receiver')).toEqual(['hci2']);
  });
});
