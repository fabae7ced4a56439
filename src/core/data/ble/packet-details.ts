/**
 * A packet details pane for one normalized BLE record (Wireshark's middle pane): the link-layer
 * header, the decoded advertising (AD) structures and the AD bytes the table keeps, in hex.
 * Reads the row as the Captures page has it (column name → value); pure, no DOM.
 */

type Cell = string | number | boolean | null | undefined;

export interface PacketDetailField {
  name: string;
  value: string;
}

export interface PacketDetailSection {
  title: string;
  fields: PacketDetailField[];
}

export interface PacketDetails {
  /** "Frame 1234: ADV_IND from 1E:BF:2D:60:14:65, channel 37, −61 dBm, CRC failed". */
  summary: string;
  sections: PacketDetailSection[];
  /** AD data kept by the import, as bytes in hex (`4c 00 10 05 …`). */
  bytes: Array<{ name: string; hex: string }>;
}

/** The Flags AD structure's bits (Core Supplement, part A, 1.3). */
const FLAG_BITS = ['LE Limited Discoverable Mode', 'LE General Discoverable Mode', 'BR/EDR Not Supported', 'Simultaneous LE and BR/EDR (Controller)', 'Simultaneous LE and BR/EDR (Host)'];

const present = (value: Cell): value is string | number | boolean => value !== null && value !== undefined && value !== '';
const hex16 = (value: number): string => `0x${value.toString(16).toUpperCase().padStart(4, '0')}`;

/** `4c0010` → `4c 00 10`; the table stores AD bytes as lower-case hex. */
export function spacedHex(hex: string): string {
  return (hex.match(/../g) ?? []).join(' ');
}

/** Flags byte → its set bits in words (`0x06: LE General Discoverable Mode, BR/EDR Not Supported`). */
export function describeFlags(flags: number): string {
  const names = FLAG_BITS.filter((_, bit) => (flags & (1 << bit)) !== 0);
  if (flags >> FLAG_BITS.length !== 0) names.push('reserved bits set');
  return `0x${flags.toString(16).padStart(2, '0')}: ${names.join(', ') || 'no bits set'}`;
}

/** The details of one record; missing columns are left out, so any capture's row can be shown. */
export function describeBleRecord(row: Readonly<Record<string, Cell>>): PacketDetails {
  const header: PacketDetailField[] = [];
  const add = (fields: PacketDetailField[], name: string, value: Cell, format: (value: string | number | boolean) => string = String) => {
    if (present(value)) fields.push({ name, value: format(value) });
  };
  add(header, 'PDU type', row.adv_type);
  add(header, 'Advertiser address (AdvA)', row.advertiser_addr, (value) => `${String(value)}${present(row.advertiser_addr_type) ? ` (${String(row.advertiser_addr_type)})` : ''}`);
  add(header, 'Initiator / target address', row.initiator_addr);
  add(header, 'Scanner address (ScanA)', row.scanner_addr);
  add(header, 'TxAdd', row.tx_add, (value) => (value === 1 ? '1 (random)' : '0 (public)'));
  add(header, 'RxAdd', row.rx_add, (value) => (value === 1 ? '1 (random)' : '0 (public)'));
  add(header, 'Channel', row.channel);
  add(header, 'RSSI', row.rssi, (value) => `${String(value)} dBm`);
  add(header, 'CRC', row.crc_ok, (value) => (value === true ? 'ok' : 'failed: the fields below may be bit-flipped'));
  if (row.crc_ok === null) header.push({ name: 'CRC', value: 'not known (HCI controllers deliver only CRC-good packets)' });
  add(header, 'Receiver', row.receiver);
  add(header, 'Address resolved by the controller', row.address_resolved, (value) => (value === true ? 'yes (identity address)' : 'no'));

  const advertising: PacketDetailField[] = [];
  add(advertising, 'Flags', row.flags, (value) => describeFlags(Number(value)));
  add(advertising, 'Local name', row.local_name);
  add(advertising, 'TX power level', row.tx_power, (value) => `${String(value)} dBm`);
  add(advertising, 'Appearance', row.appearance, (value) => `${hex16(Number(value))} (${String(value)})`);
  add(advertising, 'Company id', row.company_id, (value) => `${hex16(Number(value))} (${String(value)})`);
  add(advertising, 'Manufacturer data', row.manufacturer_data, (value) => `${String(value).length / 2} bytes`);
  add(advertising, 'Service UUIDs', row.service_uuids, (value) => listText(value));
  add(advertising, 'Service data UUID', row.service_data_uuid);
  add(advertising, 'Service data', row.service_data, (value) => `${String(value).length / 2} bytes`);
  add(advertising, 'Payload signature (FNV-1a 64 of the AD structures)', row.payload_signature);

  const bytes: PacketDetails['bytes'] = [];
  if (typeof row.manufacturer_data === 'string' && row.manufacturer_data !== '') {
    const company = typeof row.company_id === 'number' ? `${spacedHex(row.company_id.toString(16).padStart(4, '0').replace(/(..)(..)/, '$2$1'))} ` : '';
    bytes.push({ name: 'Manufacturer Specific Data (0xFF): company id (little-endian), then data', hex: `${company}${spacedHex(row.manufacturer_data)}` });
  }
  if (typeof row.service_data === 'string' && row.service_data !== '') bytes.push({ name: `Service Data${present(row.service_data_uuid) ? ` for ${String(row.service_data_uuid)}` : ''}`, hex: spacedHex(row.service_data) });

  const frame = present(row.frame_number) ? `Frame ${String(row.frame_number)}: ` : '';
  const from = present(row.advertiser_addr) ? ` from ${String(row.advertiser_addr)}` : '';
  const where = [present(row.channel) ? `channel ${String(row.channel)}` : '', present(row.rssi) ? `${String(row.rssi)} dBm` : '', row.crc_ok === false ? 'CRC failed' : ''].filter(Boolean);
  return {
    summary: `${frame}${present(row.adv_type) ? String(row.adv_type) : 'record'}${from}${where.length > 0 ? `, ${where.join(', ')}` : ''}`,
    sections: [
      { title: 'Link layer', fields: header },
      { title: 'Advertising data', fields: advertising },
    ].filter((section) => section.fields.length > 0),
    bytes,
  };
}

/** A list cell as the Captures page receives it (JSON text or plain text). */
function listText(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return parsed.map(String).join(', ');
  } catch {
    // Not JSON: shown as it is.
  }
  return value;
}
