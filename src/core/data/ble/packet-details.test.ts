import { describe, expect, it } from 'vitest';
import { describeBleRecord, describeFlags, spacedHex } from './packet-details.ts';

describe('describeBleRecord', () => {
  it('decodes the header and the AD structures, and shows the kept AD bytes in hex', () => {
    const details = describeBleRecord({
      frame_number: 12,
      adv_type: 'ADV_IND',
      advertiser_addr: '1E:BF:2D:60:14:65',
      advertiser_addr_type: 'random',
      tx_add: 1,
      channel: 37,
      rssi: -61,
      crc_ok: false,
      flags: 0x06,
      local_name: 'Pixel 8',
      tx_power: 8,
      company_id: 0x004c,
      manufacturer_data: '1005',
      service_uuids: '["180F","FD6F"]',
      service_data_uuid: 'FD6F',
      service_data: 'a1b2c3',
    });
    expect(details.summary).toBe('Frame 12: ADV_IND from 1E:BF:2D:60:14:65, channel 37, -61 dBm, CRC failed');
    const fields = Object.fromEntries(details.sections.flatMap((section) => section.fields.map((field) => [field.name, field.value])));
    expect(fields).toMatchObject({
      'Advertiser address (AdvA)': '1E:BF:2D:60:14:65 (random)',
      TxAdd: '1 (random)',
      CRC: 'failed: the fields below may be bit-flipped',
      Flags: '0x06: LE General Discoverable Mode, BR/EDR Not Supported',
      'TX power level': '8 dBm',
      'Company id': '0x004C (76)',
      'Service UUIDs': '180F, FD6F',
    });
    expect(details.bytes).toEqual([
      { name: 'Manufacturer Specific Data (0xFF): company id (little-endian), then data', hex: '4c 00 10 05' },
      { name: 'Service Data for FD6F', hex: 'a1 b2 c3' },
    ]);
  });

  it('leaves out what the row does not have', () => {
    const details = describeBleRecord({ adv_type: 'SCAN_REQ', scanner_addr: 'AA:BB:CC:DD:EE:FF', crc_ok: null });
    expect(details.sections.map((section) => section.title)).toEqual(['Link layer']);
    expect(details.bytes).toEqual([]);
    expect(details.summary).toBe('SCAN_REQ');
  });

  it('names flag bits, reserved ones too', () => {
    expect(describeFlags(0x1a)).toBe('0x1a: LE General Discoverable Mode, Simultaneous LE and BR/EDR (Controller), Simultaneous LE and BR/EDR (Host)');
    expect(describeFlags(0x80)).toBe('0x80: reserved bits set');
    expect(spacedHex('0a0b')).toBe('0a 0b');
  });
});
