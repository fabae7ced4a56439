/**
 * Hand-built capture files for the importer's tests: containers (pcap, pcapng, btsnoop) and
 * link-layer payloads (LE link layer with its pseudo-headers, HCI events). Written from the
 * format specifications independently of the importer (the CRC here is the bitwise LFSR of
 * the Core specification, the importer's is table-driven and reflected).
 */

/** Bytes of an address given as `AA:BB:CC:DD:EE:FF`, in over-the-air order (LSB first). */
export function address(text: string): number[] {
  return text
    .split(':')
    .map((part) => parseInt(part, 16))
    .reverse();
}

function concat(parts: ReadonlyArray<ArrayLike<number>>): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(Array.from(part), at);
    at += part.length;
  }
  return out;
}

function u16(value: number, littleEndian = true): number[] {
  return littleEndian ? [value & 0xff, (value >> 8) & 0xff] : [(value >> 8) & 0xff, value & 0xff];
}

function u32(value: number, littleEndian = true): number[] {
  const bytes = [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
  return littleEndian ? bytes : bytes.reverse();
}

function u64(value: bigint, littleEndian = true): number[] {
  const high = Number((value >> 32n) & 0xffffffffn);
  const low = Number(value & 0xffffffffn);
  return littleEndian ? [...u32(low, true), ...u32(high, true)] : [...u32(high, false), ...u32(low, false)];
}

function pad4(bytes: ArrayLike<number>): number[] {
  const out = Array.from(bytes);
  while (out.length % 4 !== 0) out.push(0);
  return out;
}

// ---------------------------------------------------------------------------------------
// Link layer

/** Core Vol 6 Part B §3.1.1 CRC-24, bit by bit, LSB of each byte first; init 0x555555. */
export function bleCrc(pdu: ArrayLike<number>, init = 0x555555): number[] {
  let state = init;
  for (let index = 0; index < pdu.length; index++) {
    for (let bit = 0; bit < 8; bit++) {
      const feedback = ((state >> 23) & 1) ^ ((pdu[index] >> bit) & 1);
      state = (state << 1) & 0xffffff;
      if (feedback) state ^= 0x00065b;
    }
  }
  // Transmitted most significant bit first, so each octet appears bit-reversed.
  const reverse = (value: number) => {
    let out = 0;
    for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) out |= 1 << (7 - bit);
    return out;
  };
  return [reverse((state >> 16) & 0xff), reverse((state >> 8) & 0xff), reverse(state & 0xff)];
}

export interface AdvPduOptions {
  pduType: number;
  txAdd?: 0 | 1;
  rxAdd?: 0 | 1;
  payload: ArrayLike<number>;
  /** Break the CRC. */
  badCrc?: boolean;
  /** Access address (default the advertising one). */
  accessAddress?: number;
}

/** `[AA][header][payload][CRC]`, LINKTYPE_BLUETOOTH_LE_LL. */
export function llPacket(options: AdvPduOptions): Uint8Array {
  const header = [options.pduType | ((options.txAdd ?? 0) << 6) | ((options.rxAdd ?? 0) << 7), options.payload.length];
  const pdu = [...header, ...Array.from(options.payload)];
  const crc = bleCrc(pdu);
  if (options.badCrc) crc[0] ^= 0x01;
  return concat([u32(options.accessAddress ?? 0x8e89bed6), pdu, crc]);
}

/** AD structure `[length][type][data]`. */
export function ad(type: number, data: ArrayLike<number>): number[] {
  return [data.length + 1, type, ...Array.from(data)];
}

export function ascii(text: string): number[] {
  return Array.from(text, (char) => char.charCodeAt(0));
}

/** LINKTYPE 256 pseudo-header + packet. */
export function withPhdr(packet: Uint8Array, options: { rfChannel: number; signalDbm?: number; flags?: number }): Uint8Array {
  const signalValid = options.signalDbm !== undefined ? 0x0002 : 0;
  const flags = (options.flags ?? 0x0001) | signalValid;
  return concat([[options.rfChannel, (options.signalDbm ?? 0) & 0xff, 0x80, 0], u32(0), u16(flags), packet]);
}

/** LINKTYPE 272 nRF Sniffer header (protocol version 3) + packet. */
export function withNordicHeader(packet: Uint8Array, options: { channel: number; rssi: number; crcOk: boolean; phy?: number }): Uint8Array {
  const flags = (options.crcOk ? 1 : 0) | ((options.phy ?? 0) << 4);
  const payloadLength = 10 + packet.length;
  return concat([[0x00], u16(payloadLength), [0x03], u16(1234), [0x02], [10, flags, options.channel, -options.rssi & 0xff], u16(0), u32(5000), packet]);
}

/** LINKTYPE 192 PPI header with an optional Ubertooth BTLE field (channel as MHz) + inner packet. */
export function withPpi(packet: Uint8Array, options: { linkType: number; megahertz?: number }): Uint8Array {
  const fields = options.megahertz === undefined ? [] : [...u16(30006), ...u16(12), 0, ...u16(options.megahertz), 0, ...u32(0), 0xe8, 0xdc, 0xee, 0x3c];
  return concat([[0, 0], u16(8 + fields.length), u32(options.linkType), fields, packet]);
}

// ---------------------------------------------------------------------------------------
// HCI

export interface LegacyReport {
  eventType: number;
  addressType: number;
  address: string;
  data?: ArrayLike<number>;
  rssi: number;
}

/** H4 event packet: LE Advertising Report with the given reports (one after the other). */
export function hciAdvertisingReport(reports: ReadonlyArray<LegacyReport>): Uint8Array {
  const body = reports.flatMap((report) => [report.eventType, report.addressType, ...address(report.address), report.data?.length ?? 0, ...Array.from(report.data ?? []), report.rssi & 0xff]);
  const parameters = [0x02, reports.length, ...body];
  return Uint8Array.from([0x04, 0x3e, parameters.length, ...parameters]);
}

export interface ExtendedReport {
  eventType: number;
  addressType: number;
  address: string;
  rssi: number;
  directAddressType?: number;
  directAddress?: string;
  data?: ArrayLike<number>;
}

/** H4 event packet: LE Extended Advertising Report. */
export function hciExtendedAdvertisingReport(reports: ReadonlyArray<ExtendedReport>): Uint8Array {
  const body = reports.flatMap((report) => [
    ...u16(report.eventType),
    report.addressType,
    ...address(report.address),
    1,
    0,
    0xff,
    0x7f,
    report.rssi & 0xff,
    ...u16(0),
    report.directAddressType ?? 0,
    ...address(report.directAddress ?? '00:00:00:00:00:00'),
    report.data?.length ?? 0,
    ...Array.from(report.data ?? []),
  ]);
  const parameters = [0x0d, reports.length, ...body];
  return Uint8Array.from([0x04, 0x3e, parameters.length, ...parameters]);
}

/** H4 command packet (LE Set Scan Enable), for "other HCI traffic". */
export function hciCommand(): Uint8Array {
  return Uint8Array.from([0x01, 0x0c, 0x20, 0x02, 0x01, 0x00]);
}

/** H4 ACL data packet. */
export function hciAcl(): Uint8Array {
  return Uint8Array.from([0x02, 0x40, 0x00, 0x05, 0x00, 0x01, 0x00, 0x04, 0x00, 0x0a]);
}

// ---------------------------------------------------------------------------------------
// Containers

export interface PcapPacket {
  seconds: number;
  /** Microseconds, or nanoseconds for a nanosecond file. */
  fraction: number;
  bytes: ArrayLike<number>;
}

/** Classic pcap. */
export function pcapFile(options: { linkType: number; packets: ReadonlyArray<PcapPacket>; littleEndian?: boolean; nanoseconds?: boolean }): Uint8Array {
  const le = options.littleEndian ?? true;
  const magic = options.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4;
  const header = [...u32(magic, le), ...u16(2, le), ...u16(4, le), ...u32(0, le), ...u32(0, le), ...u32(65535, le), ...u32(options.linkType, le)];
  const records = options.packets.map((packet) => [...u32(packet.seconds, le), ...u32(packet.fraction, le), ...u32(packet.bytes.length, le), ...u32(packet.bytes.length, le), ...Array.from(packet.bytes)]);
  return concat([header, ...records]);
}

export interface PcapngInterface {
  linkType: number;
  name?: string;
  /** Raw if_tsresol byte (default absent: µs). */
  tsresol?: number;
  /** if_tsoffset in seconds. */
  tsoffset?: bigint;
  snapLength?: number;
}

export type PcapngBlock =
  | { kind: 'epb'; interfaceId: number; timestamp: bigint; bytes: ArrayLike<number> }
  | { kind: 'spb'; bytes: ArrayLike<number> }
  | { kind: 'raw'; type: number; body: ArrayLike<number> };

function block(type: number, body: ArrayLike<number>, le: boolean): number[] {
  const padded = pad4(body);
  const length = padded.length + 12;
  return [...u32(type, le), ...u32(length, le), ...padded, ...u32(length, le)];
}

function option(code: number, value: ArrayLike<number>, le: boolean): number[] {
  return [...u16(code, le), ...u16(value.length, le), ...pad4(value)];
}

/** One pcapng section (SHB, IDBs, then the blocks). */
export function pcapngSection(options: { littleEndian?: boolean; interfaces: ReadonlyArray<PcapngInterface>; blocks: ReadonlyArray<PcapngBlock> }): Uint8Array {
  const le = options.littleEndian ?? true;
  const shb = block(0x0a0d0d0a, [...u32(0x1a2b3c4d, le), ...u16(1, le), ...u16(0, le), ...u64(-1n & 0xffffffffffffffffn, le)], le);
  const idbs = options.interfaces.map((iface) => {
    const options_: number[] = [];
    if (iface.name !== undefined) options_.push(...option(2, ascii(iface.name), le));
    if (iface.tsresol !== undefined) options_.push(...option(9, [iface.tsresol], le));
    if (iface.tsoffset !== undefined) options_.push(...option(14, u64(iface.tsoffset, le), le));
    if (options_.length > 0) options_.push(...u16(0, le), ...u16(0, le));
    return block(1, [...u16(iface.linkType, le), ...u16(0, le), ...u32(iface.snapLength ?? 0, le), ...options_], le);
  });
  const blocks = options.blocks.map((entry) => {
    switch (entry.kind) {
      case 'epb':
        // The timestamp is two 32-bit words, high word first, each in the section's byte order.
        return block(6, [...u32(entry.interfaceId, le), ...u32(Number(entry.timestamp >> 32n), le), ...u32(Number(entry.timestamp & 0xffffffffn), le), ...u32(entry.bytes.length, le), ...u32(entry.bytes.length, le), ...Array.from(entry.bytes)], le);
      case 'spb':
        return block(3, [...u32(entry.bytes.length, le), ...Array.from(entry.bytes)], le);
      case 'raw':
        return block(entry.type, entry.body, le);
    }
  });
  return concat([shb, ...idbs, ...blocks]);
}

export function joinFiles(...parts: Uint8Array[]): Uint8Array {
  return concat(parts);
}

/** µs between 0000-01-01 and 1970-01-01 as btsnoop counts them. */
export const BTSNOOP_EPOCH_OFFSET_US = 0x00dcddb30f2f8000n;

export interface BtsnoopRecord {
  /** Unix epoch microseconds. */
  epochUs: bigint;
  flags: number;
  bytes: ArrayLike<number>;
}

/** btsnoop version 1. */
export function btsnoopFile(options: { datalink: number; records: ReadonlyArray<BtsnoopRecord> }): Uint8Array {
  const header = [...ascii('btsnoop'), 0, ...u32(1, false), ...u32(options.datalink, false)];
  const records = options.records.map((record) => [
    ...u32(record.bytes.length, false),
    ...u32(record.bytes.length, false),
    ...u32(record.flags, false),
    ...u32(0, false),
    ...u64(record.epochUs + BTSNOOP_EPOCH_OFFSET_US, false),
    ...Array.from(record.bytes),
  ]);
  return concat([header, ...records]);
}
