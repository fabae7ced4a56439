import { describe, expect, it } from 'vitest';
import type { Table } from 'apache-arrow';
import { ad, address, ascii, llPacket, pcapFile, withNordicHeader, withPhdr, withPpi } from './__fixtures__/capture-builders.ts';
import { importBleCapture, type BleImport } from './ble-importer.ts';
import { advertisingCrcMatches } from './crc24.ts';
import { channelIndexOfRfChannel } from './link-types.ts';

const ADV_A = '7A:4C:21:9D:10:EF';
const SCAN_A = '5C:8D:D8:29:C8:D7';
const INIT_A = 'C5:8B:7D:3C:5F:00';

function importPackets(linkType: number, frames: ReadonlyArray<Uint8Array>): BleImport {
  const file = pcapFile({ linkType, packets: frames.map((bytes, index) => ({ seconds: 1_700_000_000 + index, fraction: 0, bytes })) });
  const result = importBleCapture(file, { captureId: 'cap', fileName: 'test.pcap' });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

function row(table: Table, index = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of table.schema.fields) {
    const value: unknown = table.getChild(field.name)!.get(index);
    out[field.name] = value !== null && typeof value === 'object' && Symbol.iterator in value ? [...(value as Iterable<unknown>)] : value;
  }
  return out;
}

describe('advertising PDUs (LINKTYPE_BLUETOOTH_LE_LL)', () => {
  it('reads ADV_IND with its AD structures', () => {
    const payload = [...address(ADV_A), ...ad(0x01, [0x06]), ...ad(0x09, ascii('Thermo')), ...ad(0xff, [0x4c, 0x00, 0x10, 0x05, 0x01])];
    const { table, report } = importPackets(251, [llPacket({ pduType: 0, txAdd: 1, payload })]);
    expect(row(table)).toMatchObject({
      adv_type: 'ADV_IND',
      tx_add: 1,
      rx_add: null,
      advertiser_addr: ADV_A,
      advertiser_addr_type: 'random',
      initiator_addr: null,
      scanner_addr: null,
      flags: 6,
      local_name: 'Thermo',
      company_id: 0x004c,
      manufacturer_data: '100501',
      crc_ok: true,
      address_resolved: null,
      frame_number: 1,
    });
    expect(report.advertisers).toBe(1);
  });

  it('trap: in SCAN_REQ, TxAdd describes ScanA and RxAdd describes AdvA', () => {
    const scanReq = llPacket({ pduType: 3, txAdd: 1, rxAdd: 0, payload: [...address(SCAN_A), ...address(ADV_A)] });
    const { table, report } = importPackets(251, [scanReq]);
    expect(row(table)).toMatchObject({
      adv_type: 'SCAN_REQ',
      tx_add: 1,
      rx_add: 0,
      scanner_addr: SCAN_A,
      advertiser_addr: ADV_A,
      // The advertiser's address type comes from RxAdd, not TxAdd.
      advertiser_addr_type: 'public',
    });
    // A SCAN_REQ names an advertiser but is not sent by one.
    expect(report.advertisers).toBe(0);
  });

  it('trap: in CONNECT_IND, TxAdd describes InitA and RxAdd describes AdvA', () => {
    const lldata = new Array(22).fill(0x11);
    const connectInd = llPacket({ pduType: 5, txAdd: 0, rxAdd: 1, payload: [...address(INIT_A), ...address(ADV_A), ...lldata] });
    const { table, report } = importPackets(251, [connectInd]);
    expect(row(table)).toMatchObject({
      adv_type: 'CONNECT_IND',
      tx_add: 0,
      rx_add: 1,
      initiator_addr: INIT_A,
      advertiser_addr: ADV_A,
      advertiser_addr_type: 'random',
    });
    expect(report.advertisers).toBe(0);
  });

  it('ADV_DIRECT_IND puts TargetA in initiator_addr, described by RxAdd', () => {
    const { table, report } = importPackets(251, [llPacket({ pduType: 1, txAdd: 1, rxAdd: 0, payload: [...address(ADV_A), ...address(INIT_A)] })]);
    expect(row(table)).toMatchObject({ adv_type: 'ADV_DIRECT_IND', tx_add: 1, rx_add: 0, advertiser_addr: ADV_A, initiator_addr: INIT_A });
    expect(report.advertisers).toBe(1);
  });

  it('names every primary-channel PDU type', () => {
    const frames = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((pduType) => llPacket({ pduType, payload: [...address(ADV_A), ...address(SCAN_A), ...new Array(22).fill(0)] }));
    const { table } = importPackets(251, frames);
    const names = Array.from({ length: table.numRows }, (_, index) => table.getChild('adv_type')!.get(index));
    expect(names).toEqual(['ADV_IND', 'ADV_DIRECT_IND', 'ADV_NONCONN_IND', 'SCAN_REQ', 'SCAN_RSP', 'CONNECT_IND', 'ADV_SCAN_IND', 'ADV_EXT_IND', 'AUX_CONNECT_RSP', 'RESERVED_9']);
  });

  it('counts data-channel packets without recording them', () => {
    const data = llPacket({ pduType: 1, accessAddress: 0x50654321, payload: [0x01, 0x02] });
    const { report } = importPackets(251, [data, llPacket({ pduType: 2, payload: address(ADV_A) })]);
    expect(report.packets).toBe(2);
    expect(report.rows).toBe(1);
    expect(report.non_advertising).toEqual({ data_channel: 1 });
  });

  it('trap: CRC-failed packets are kept, flagged crc_ok = false, and left out of the crc_ok counts', () => {
    const good = llPacket({ pduType: 0, txAdd: 1, payload: address(ADV_A) });
    const bad = llPacket({ pduType: 0, txAdd: 1, payload: address('7A:4C:21:9D:10:EE'), badCrc: true });
    const { table, report } = importPackets(251, [good, bad]);
    expect(row(table, 1)).toMatchObject({ crc_ok: false, advertiser_addr: '7A:4C:21:9D:10:EE' });
    expect(report).toMatchObject({ advertising_packets: 2, advertising_packets_crc_ok: 1, advertisers: 2, advertisers_crc_ok: 1 });
  });

  it('reads extended advertising: ADV_EXT_IND on a primary channel, AUX_ADV_IND with AdvA, TargetA and AdvData on a secondary one', () => {
    // Extended header: flags AdvA|TargetA|ADI, then AdvData.
    const extended = [15, 0x0b, ...address(ADV_A), ...address(INIT_A), 0x24, 0xa4];
    const aux = withNordicHeader(llPacket({ pduType: 7, txAdd: 1, rxAdd: 0, payload: [...extended, ...ad(0x09, ascii('Aura'))] }), { channel: 10, rssi: -50, crcOk: true });
    const primary = withNordicHeader(llPacket({ pduType: 7, payload: [3, 0x18, 0x24, 0xa4] }), { channel: 37, rssi: -50, crcOk: true });
    const { table, report } = importPackets(272, [primary, aux]);
    expect(row(table, 0)).toMatchObject({ adv_type: 'ADV_EXT_IND', advertiser_addr: null, tx_add: null, channel: 37 });
    expect(row(table, 1)).toMatchObject({ adv_type: 'AUX_ADV_IND', advertiser_addr: ADV_A, tx_add: 1, initiator_addr: INIT_A, rx_add: 0, local_name: 'Aura', channel: 10 });
    expect(report.adv_type_counts).toEqual({ ADV_EXT_IND: 1, AUX_ADV_IND: 1 });
  });

  it('names SCAN_REQ and CONNECT_IND on secondary channels AUX_SCAN_REQ and AUX_CONNECT_REQ', () => {
    const scan = withNordicHeader(llPacket({ pduType: 3, payload: [...address(SCAN_A), ...address(ADV_A)] }), { channel: 5, rssi: -50, crcOk: true });
    const connect = withNordicHeader(llPacket({ pduType: 5, payload: [...address(INIT_A), ...address(ADV_A), ...new Array(22).fill(0)] }), { channel: 5, rssi: -50, crcOk: true });
    const { table } = importPackets(272, [scan, connect]);
    expect([row(table, 0).adv_type, row(table, 1).adv_type]).toEqual(['AUX_SCAN_REQ', 'AUX_CONNECT_REQ']);
  });
});

describe('pseudo-headers', () => {
  it('trap: LINKTYPE 256 gives the RF channel; channel is always the channel index', () => {
    expect([0, 12, 39, 1, 11, 13, 38].map(channelIndexOfRfChannel)).toEqual([37, 38, 39, 0, 10, 11, 36]);
    expect(channelIndexOfRfChannel(40)).toBe(-1);
    const frames = [0, 12, 39, 5].map((rfChannel) => withPhdr(llPacket({ pduType: 2, payload: address(ADV_A) }), { rfChannel, signalDbm: -61 }));
    const { table, report } = importPackets(256, frames);
    expect(Array.from(table.getChild('channel')!.toArray() as Uint8Array)).toEqual([37, 38, 39, 4]);
    expect(row(table)).toMatchObject({ rssi: -61 });
    expect(report.channels).toEqual([4, 37, 38, 39]);
  });

  it('LINKTYPE 256: RSSI only when the signal-power flag is set; CRC verdict from the flags when checked', () => {
    const packet = llPacket({ pduType: 2, payload: address(ADV_A) });
    const unchecked = withPhdr(packet, { rfChannel: 0 });
    const checkedBad = withPhdr(packet, { rfChannel: 0, flags: 0x0001 | 0x0400 });
    const checkedGood = withPhdr(packet, { rfChannel: 0, flags: 0x0001 | 0x0400 | 0x0800 });
    const { table } = importPackets(256, [unchecked, checkedBad, checkedGood]);
    expect([row(table, 0).rssi, row(table, 0).crc_ok]).toEqual([null, true]);
    expect(row(table, 1).crc_ok).toBe(false);
    expect(row(table, 2).crc_ok).toBe(true);
  });

  it('LINKTYPE 256 with LE Coded PHY skips the coding indicator', () => {
    const packet = llPacket({ pduType: 2, payload: address(ADV_A) });
    const coded = Uint8Array.from([...packet.subarray(0, 4), 0x00, ...packet.subarray(4)]);
    const { table } = importPackets(256, [withPhdr(coded, { rfChannel: 0, flags: 0x0001 | (2 << 14) })]);
    expect(row(table)).toMatchObject({ advertiser_addr: ADV_A, crc_ok: true });
  });

  it('trap: the nRF Sniffer (272) gives the channel index itself, RSSI negated, CRC flag', () => {
    const packet = llPacket({ pduType: 0, payload: address(ADV_A), badCrc: true });
    // The sniffer's flag wins over the bytes: it checked the CRC on air.
    const { table } = importPackets(272, [withNordicHeader(packet, { channel: 38, rssi: -83, crcOk: true }), withNordicHeader(packet, { channel: 12, rssi: -20, crcOk: false })]);
    expect(row(table, 0)).toMatchObject({ channel: 38, rssi: -83, crc_ok: true });
    expect(row(table, 1)).toMatchObject({ channel: 12, rssi: -20, crc_ok: false });
  });

  it('PPI wrapping DLT_USER0 (Ubertooth/crackle) decodes the LE packet and the channel from the BTLE field', () => {
    const packet = llPacket({ pduType: 0, payload: address(ADV_A) });
    const { table, report } = importPackets(192, [withPpi(packet, { linkType: 147, megahertz: 2426 }), withPpi(packet, { linkType: 251 }), withPpi(packet, { linkType: 1 })]);
    expect(row(table, 0)).toMatchObject({ channel: 38, advertiser_addr: ADV_A, crc_ok: true });
    expect(row(table, 1)).toMatchObject({ channel: null });
    expect(report.skipped).toEqual({ unsupported_ppi_link_type_1: 1 });
  });

  it('counts short and corrupt pseudo-headers as skipped', () => {
    const { report } = importPackets(272, [Uint8Array.from([0, 1, 2]), Uint8Array.from([0, 0xbe, 0xef, ...new Array(30).fill(0)])]);
    expect(report.skipped).toEqual({ short_pseudo_header: 1, unsupported_nordic_header: 1 });
    expect(report.packets).toBe(2);
  });
});

describe('CRC-24', () => {
  it('accepts a real nRF Sniffer packet (tesi capture, frame 1) and rejects it with one bit flipped', () => {
    const hex = 'd6be898e42256514602dbf1e1eff060001092022fb1b6c29d3bd5907073ecc192ec4acd2a6715bfac4e17691c5d8';
    const bytes = Uint8Array.from(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
    expect(advertisingCrcMatches(bytes, 4, bytes.length - 3)).toBe(true);
    bytes[10] ^= 0x10;
    expect(advertisingCrcMatches(bytes, 4, bytes.length - 3)).toBe(false);
  });
});
