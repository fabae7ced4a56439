import { describe, expect, it } from 'vitest';
import type { Table } from 'apache-arrow';
import {
  ad,
  address,
  btsnoopFile,
  hciAcl,
  hciAdvertisingReport,
  hciCommand,
  joinFiles,
  llPacket,
  pcapFile,
  pcapngSection,
  withNordicHeader,
  withPhdr,
} from './__fixtures__/capture-builders.ts';
import { detectBleContainer, importBleCapture, type BleImport } from './ble-importer.ts';
import { btsnoopTimestampToEpochMs } from './btsnoop-reader.ts';

const ADV_A = '7A:4C:21:9D:10:EF';
const advInd = (badCrc = false) => llPacket({ pduType: 0, txAdd: 1, payload: [...address(ADV_A), ...ad(0x01, [0x06])], badCrc });

function imported(bytes: Uint8Array, receiver?: string): BleImport {
  const result = importBleCapture(bytes, { captureId: 'cap', fileName: 'test.bin', receiver });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

function column(table: Table, name: string): unknown[] {
  return Array.from(table.getChild(name)!.toArray() as ArrayLike<unknown>);
}

function values(table: Table, name: string): unknown[] {
  const vector = table.getChild(name)!;
  return Array.from({ length: vector.length }, (_, index) => vector.get(index));
}

describe('detectBleContainer', () => {
  it('knows the three containers by their first bytes', () => {
    expect(detectBleContainer(Uint8Array.from([0xd4, 0xc3, 0xb2, 0xa1]))).toBe('pcap');
    expect(detectBleContainer(Uint8Array.from([0xa1, 0xb2, 0xc3, 0xd4]))).toBe('pcap');
    expect(detectBleContainer(Uint8Array.from([0x4d, 0x3c, 0xb2, 0xa1]))).toBe('pcap');
    expect(detectBleContainer(Uint8Array.from([0xa1, 0xb2, 0x3c, 0x4d]))).toBe('pcap');
    expect(detectBleContainer(Uint8Array.from([0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0]))).toBe('pcapng');
    expect(detectBleContainer(new TextEncoder().encode('btsnoop\0'))).toBe('btsnoop');
    expect(detectBleContainer(new TextEncoder().encode('ts_ms,channel\n'))).toBeNull();
    expect(detectBleContainer(new Uint8Array(0))).toBeNull();
  });
});

describe('pcap', () => {
  const packets = [
    { seconds: 1_700_000_000, fraction: 123_456, bytes: withPhdr(advInd(), { rfChannel: 0, signalDbm: -60 }) },
    { seconds: 1_700_000_001, fraction: 999_999, bytes: withPhdr(advInd(), { rfChannel: 12, signalDbm: -70 }) },
  ];

  it('reads little- and big-endian files alike', () => {
    for (const littleEndian of [true, false]) {
      const { table, report } = imported(pcapFile({ linkType: 256, packets, littleEndian }));
      expect(report.container).toBe('pcap');
      expect(report.link_types).toEqual([256]);
      expect(report.packets).toBe(2);
      expect(column(table, 'ts_ms')).toEqual([1_700_000_000_123.456, 1_700_000_001_999.999]);
      expect(values(table, 'advertiser_addr')).toEqual([ADV_A, ADV_A]);
      expect(column(table, 'channel')).toEqual([37, 38]);
    }
  });

  it('reads nanosecond timestamps', () => {
    const file = pcapFile({ linkType: 251, nanoseconds: true, packets: [{ seconds: 1_700_000_000, fraction: 123_456_789, bytes: advInd() }] });
    const { table } = imported(file);
    expect(column(table, 'ts_ms')[0]).toBeCloseTo(1_700_000_000_123.457, 2);
    // LINKTYPE 251 carries no channel or RSSI.
    expect(values(table, 'channel')).toEqual([null]);
    expect(values(table, 'rssi')).toEqual([null]);
  });

  it('names the receiver after the option when given', () => {
    expect(values(imported(pcapFile({ linkType: 251, packets: [{ seconds: 1, fraction: 0, bytes: advInd() }] }), 'sensor-7').table, 'receiver')).toEqual(['sensor-7']);
  });
});

describe('pcapng', () => {
  it('reads several interfaces with their own link types and timestamp resolutions', () => {
    const file = pcapngSection({
      interfaces: [
        { linkType: 256, name: 'hackrf0' }, // default resolution: µs
        { linkType: 272, name: 'nrf0', tsresol: 9 }, // 10^-9 s
        { linkType: 251, tsresol: 0x80 | 10 }, // 2^-10 s
      ],
      blocks: [
        { kind: 'epb', interfaceId: 0, timestamp: 1_700_000_000_123_456n, bytes: withPhdr(advInd(), { rfChannel: 39 }) },
        { kind: 'raw', type: 0x00000bad, body: [1, 2, 3, 4, 5] }, // unknown block: skipped
        { kind: 'raw', type: 0x00000005, body: new Array(20).fill(0) }, // interface statistics: skipped
        { kind: 'epb', interfaceId: 1, timestamp: 1_700_000_000_500_000_001n, bytes: withNordicHeader(advInd(), { channel: 38, rssi: -55, crcOk: true }) },
        { kind: 'epb', interfaceId: 2, timestamp: 1024n * 1_700_000_002n + 512n, bytes: advInd() },
      ],
    });
    const { table, report } = imported(file);
    expect(report.link_types).toEqual([251, 256, 272]);
    expect(report.packets).toBe(3);
    expect(values(table, 'receiver')).toEqual(['hackrf0', 'nrf0', 'if2']);
    const ts = column(table, 'ts_ms') as number[];
    expect(ts[0]).toBe(1_700_000_000_123.456);
    expect(ts[1]).toBeCloseTo(1_700_000_000_500, 3);
    expect(ts[2]).toBe(1_700_000_002_500);
    expect(values(table, 'channel')).toEqual([39, 38, null]);
    expect(values(table, 'rssi')).toEqual([null, -55, null]);
  });

  it('applies if_tsoffset', () => {
    const file = pcapngSection({ interfaces: [{ linkType: 251, tsoffset: 1_000n }], blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 5_000_000n, bytes: advInd() }] });
    expect(column(imported(file).table, 'ts_ms')).toEqual([1_005_000]);
  });

  it('reads sections in either byte order, each with its own interfaces', () => {
    const first = pcapngSection({ littleEndian: true, interfaces: [{ linkType: 251, name: 'a' }], blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 1_000_000n, bytes: advInd() }] });
    const second = pcapngSection({
      littleEndian: false,
      interfaces: [{ linkType: 256, name: 'b' }],
      blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 2_000_000n, bytes: withPhdr(advInd(), { rfChannel: 12 }) }],
    });
    const { table, report } = imported(joinFiles(first, second));
    expect(report.packets).toBe(2);
    expect(values(table, 'receiver')).toEqual(['a', 'b']);
    expect(column(table, 'ts_ms')).toEqual([1000, 2000]);
    expect(values(table, 'channel')).toEqual([null, 38]);
  });

  it('reads simple packet blocks (no timestamp: ts_ms is null)', () => {
    const file = pcapngSection({ interfaces: [{ linkType: 251 }], blocks: [{ kind: 'spb', bytes: advInd() }] });
    const { table, report } = imported(file);
    expect(report.rows).toBe(1);
    expect(values(table, 'ts_ms')).toEqual([null]);
    expect(report.bounds).toBeNull();
  });

  it('counts packets on interfaces with unsupported link types and decodes the rest', () => {
    const file = pcapngSection({
      interfaces: [{ linkType: 1 }, { linkType: 251 }],
      blocks: [
        { kind: 'epb', interfaceId: 0, timestamp: 1n, bytes: [1, 2, 3] },
        { kind: 'epb', interfaceId: 1, timestamp: 2n, bytes: advInd() },
        { kind: 'epb', interfaceId: 7, timestamp: 3n, bytes: advInd() },
      ],
    });
    const { report } = imported(file);
    expect(report.packets).toBe(3);
    expect(report.rows).toBe(1);
    expect(report.link_types).toEqual([1, 251]);
    expect(report.skipped).toEqual({ unsupported_link_type_1: 1, unknown_interface: 1 });
    expect(report.partial).toBe(true);
  });
});

describe('btsnoop', () => {
  it('converts timestamps from µs since year 0 to epoch ms exactly', () => {
    // 2024-06-18T11:12:36.325123Z
    const epochUs = 1_718_709_156_325_123n;
    const total = epochUs + 0x00dcddb30f2f8000n;
    expect(btsnoopTimestampToEpochMs(Number(total >> 32n), Number(total & 0xffffffffn))).toBe(1_718_709_156_325.123);
  });

  it('reads H4 (datalink 1002): events decoded, commands and ACL data counted', () => {
    const report1 = hciAdvertisingReport([{ eventType: 0, addressType: 1, address: ADV_A, data: ad(0x09, [0x41]), rssi: -70 }]);
    const file = btsnoopFile({
      datalink: 1002,
      records: [
        { epochUs: 1_600_000_000_000_000n, flags: 2, bytes: hciCommand() },
        { epochUs: 1_600_000_000_000_500n, flags: 3, bytes: report1 },
        { epochUs: 1_600_000_000_001_000n, flags: 0, bytes: hciAcl() },
      ],
    });
    const { table, report } = imported(file);
    expect(report.container).toBe('btsnoop');
    expect(report.btsnoop_datalink).toBe(1002);
    expect(report.link_types).toEqual([201]);
    expect(report.packets).toBe(3);
    expect(report.rows).toBe(1);
    expect(report.non_advertising).toEqual({ hci_acl_data: 1, hci_command: 1 });
    expect(column(table, 'ts_ms')).toEqual([1_600_000_000_000.5]);
    expect(values(table, 'receiver')).toEqual(['hci0']);
    expect(values(table, 'local_name')).toEqual(['A']);
  });

  it('reads H1 (datalink 1001): the packet type is in the record flags', () => {
    const event = hciAdvertisingReport([{ eventType: 3, addressType: 0, address: ADV_A, rssi: -40 }]).subarray(1);
    const file = btsnoopFile({
      datalink: 1001,
      records: [
        { epochUs: 1n, flags: 3, bytes: event },
        { epochUs: 2n, flags: 2, bytes: hciCommand().subarray(1) },
        { epochUs: 3n, flags: 1, bytes: hciAcl().subarray(1) },
      ],
    });
    const { table, report } = imported(file);
    expect(values(table, 'adv_type')).toEqual(['ADV_NONCONN_IND']);
    expect(report.non_advertising).toEqual({ hci_acl_data: 1, hci_command: 1 });
  });

  it('reads Linux monitor logs (datalink 2001): opcode and adapter from the flags', () => {
    const event = hciAdvertisingReport([{ eventType: 0, addressType: 1, address: ADV_A, rssi: -40 }]).subarray(1);
    const file = btsnoopFile({
      datalink: 2001,
      records: [
        { epochUs: 1n, flags: (1 << 16) | 3, bytes: event },
        { epochUs: 2n, flags: 12, bytes: [0x41, 0x42] }, // system note
      ],
    });
    const { table, report } = imported(file);
    expect(report.link_types).toEqual([254]);
    expect(values(table, 'receiver')).toEqual(['hci1']);
    expect(report.non_advertising).toEqual({ monitor_other: 1 });
  });
});
