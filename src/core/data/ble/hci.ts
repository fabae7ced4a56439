/**
 * HCI traffic (Core Vol 4 Part E) as phones and hosts log it: H4 packets (a type byte, then a
 * command, ACL, SCO, event or ISO packet), with or without a direction pseudo-header, btsnoop
 * H1 records (the type is in the record flags) and Linux-monitor records (an opcode says what
 * the record is). Only LE Advertising Report events become records, one per report:
 *
 * - LE Advertising Report (LE Meta subevent 0x02). Its event types are NOT the link-layer PDU
 *   types: 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP.
 *   Reports are read one after the other (event type, address type, address, data length,
 *   data, RSSI), as Linux, Android and Wireshark read them.
 * - LE Extended Advertising Report (0x0D): a bit field (connectable, scannable, directed, scan
 *   response, legacy, data status); legacy combinations map to the legacy names, others to
 *   AUX_ADV_IND or AUX_SCAN_RSP.
 * - LE Directed Advertising Report (0x0B): ADV_DIRECT_IND with the target address.
 *
 * Address types 2 and 3 are identities the controller resolved from an RPA with its resolving
 * list: `tx_add` is their low bit (public 0 / random 1) and `address_resolved` is true.
 *
 * Commands and ACL data also go to the identity-key collector (identity-keys.ts), which keeps
 * the IRKs of LE Add Device To Resolving List and of SMP Identity Information.
 */
import { ADV_TYPE } from './adv-types.ts';
import { int8, type DecodeContext } from './decode-context.ts';
import { DIRECTION } from './identity-keys.ts';

const H4 = { COMMAND: 0x01, ACL: 0x02, SCO: 0x03, EVENT: 0x04, ISO: 0x05 } as const;
const LE_META_EVENT = 0x3e;
const SUBEVENT = { ADVERTISING_REPORT: 0x02, DIRECTED_ADVERTISING_REPORT: 0x0b, EXTENDED_ADVERTISING_REPORT: 0x0d } as const;
/** Linux monitor opcodes (BlueZ `src/shared/btsnoop.h`). */
const MONITOR = { COMMAND: 2, EVENT: 3, ACL_TX: 4, ACL_RX: 5, SCO_TX: 6, SCO_RX: 7, ISO_TX: 18, ISO_RX: 19 } as const;
/** RSSI value meaning "not available". */
const RSSI_UNAVAILABLE = 127;

/** Legacy report event type → adv_type code. */
const LEGACY_EVENT_TYPES = [ADV_TYPE.ADV_IND, ADV_TYPE.ADV_DIRECT_IND, ADV_TYPE.ADV_SCAN_IND, ADV_TYPE.ADV_NONCONN_IND, ADV_TYPE.SCAN_RSP];

/** The adv_type code of a legacy LE Advertising Report event type. */
export function legacyReportAdvType(eventType: number): number {
  return eventType < LEGACY_EVENT_TYPES.length ? LEGACY_EVENT_TYPES[eventType] : ADV_TYPE.UNKNOWN;
}

/** The adv_type code of an LE Extended Advertising Report event type (a bit field). */
export function extendedReportAdvType(eventType: number): number {
  if (eventType & 0x10) {
    switch (eventType & 0x1f) {
      case 0x13:
        return ADV_TYPE.ADV_IND;
      case 0x15:
        return ADV_TYPE.ADV_DIRECT_IND;
      case 0x12:
        return ADV_TYPE.ADV_SCAN_IND;
      case 0x10:
        return ADV_TYPE.ADV_NONCONN_IND;
      case 0x1b:
      case 0x1a:
        return ADV_TYPE.SCAN_RSP;
      default:
        return ADV_TYPE.UNKNOWN;
    }
  }
  return eventType & 0x08 ? ADV_TYPE.AUX_SCAN_RSP : ADV_TYPE.AUX_ADV_IND;
}

/**
 * An H4 packet: type byte first. `direction` (DIRECTION: sent, received or unknown) comes from
 * the container when it records one; it only separates the two sides of a key exchange.
 */
export function decodeH4(context: DecodeContext, bytes: Uint8Array, start: number, end: number, direction: number = DIRECTION.UNKNOWN): void {
  if (end - start < 1) {
    context.skipped.add('empty_hci_packet');
    return;
  }
  const type = bytes[start];
  switch (type) {
    case H4.EVENT:
      decodeHciEvent(context, bytes, start + 1, end);
      return;
    case H4.COMMAND:
      context.nonAdvertising.add('hci_command');
      context.identityKeys.command(bytes, start + 1, end, context.frame);
      return;
    case H4.ACL:
      context.nonAdvertising.add('hci_acl_data');
      context.identityKeys.acl(bytes, start + 1, end, context.frame, direction);
      return;
    case H4.SCO:
      context.nonAdvertising.add('hci_sco_data');
      return;
    case H4.ISO:
      context.nonAdvertising.add('hci_iso_data');
      return;
    default:
      context.skipped.add('unknown_h4_packet_type');
  }
}

/**
 * A btsnoop H1 record: no type byte; flags bit 1 set means command/event (bit 0 then tells
 * received = event from sent = command), clear means ACL data.
 */
export function decodeBtsnoopH1(context: DecodeContext, bytes: Uint8Array, start: number, end: number, flags: number): void {
  if (flags & 0x02) {
    if (flags & 0x01) decodeHciEvent(context, bytes, start, end);
    else {
      context.nonAdvertising.add('hci_command');
      context.identityKeys.command(bytes, start, end, context.frame);
    }
  } else {
    context.nonAdvertising.add('hci_acl_data');
    context.identityKeys.acl(bytes, start, end, context.frame, flags & 0x01 ? DIRECTION.RECEIVED : DIRECTION.SENT);
  }
}

/** A Linux-monitor record with its opcode; only events are decoded. */
export function decodeMonitor(context: DecodeContext, opcode: number, bytes: Uint8Array, start: number, end: number): void {
  switch (opcode) {
    case MONITOR.EVENT:
      decodeHciEvent(context, bytes, start, end);
      return;
    case MONITOR.COMMAND:
      context.nonAdvertising.add('hci_command');
      context.identityKeys.command(bytes, start, end, context.frame);
      return;
    case MONITOR.ACL_TX:
    case MONITOR.ACL_RX:
      context.nonAdvertising.add('hci_acl_data');
      context.identityKeys.acl(bytes, start, end, context.frame, opcode === MONITOR.ACL_TX ? DIRECTION.SENT : DIRECTION.RECEIVED);
      return;
    case MONITOR.SCO_TX:
    case MONITOR.SCO_RX:
      context.nonAdvertising.add('hci_sco_data');
      return;
    case MONITOR.ISO_TX:
    case MONITOR.ISO_RX:
      context.nonAdvertising.add('hci_iso_data');
      return;
    default:
      // New/delete index, open/close, system notes, user logging…
      context.nonAdvertising.add('monitor_other');
  }
}

/** An HCI event packet: `[event code][parameter length][parameters]`. */
export function decodeHciEvent(context: DecodeContext, bytes: Uint8Array, start: number, end: number): void {
  if (end - start < 2) {
    context.skipped.add('short_hci_event');
    return;
  }
  const code = bytes[start];
  const parametersEnd = start + 2 + bytes[start + 1];
  if (code !== LE_META_EVENT) {
    context.nonAdvertising.add('hci_event');
    return;
  }
  if (parametersEnd > end || parametersEnd < start + 3) {
    context.skipped.add('truncated_hci_event');
    return;
  }
  const subevent = bytes[start + 2];
  switch (subevent) {
    case SUBEVENT.ADVERTISING_REPORT:
      decodeAdvertisingReports(context, bytes, start + 3, parametersEnd);
      return;
    case SUBEVENT.EXTENDED_ADVERTISING_REPORT:
      decodeExtendedAdvertisingReports(context, bytes, start + 3, parametersEnd);
      return;
    case SUBEVENT.DIRECTED_ADVERTISING_REPORT:
      decodeDirectedAdvertisingReports(context, bytes, start + 3, parametersEnd);
      return;
    default:
      context.nonAdvertising.add('hci_event');
  }
}

/** Starts a report record with its advertiser address and type (-1 when absent). */
function beginReport(context: DecodeContext, adv: number, bytes: Uint8Array, addressAt: number, addressType: number): void {
  const writer = context.writer;
  writer.begin(context.tsMs, context.receiver, context.frame);
  writer.setAdvType(adv, true);
  if (addressType <= 3) {
    writer.setTxAdd(addressType & 1);
    writer.setAddressResolved(addressType >= 2);
    writer.setAdvertiser(bytes, addressAt, addressType);
  }
  // 0xFF: anonymous advertising (extended); other values are reserved. No address either way.
}

function setRssi(context: DecodeContext, value: number): void {
  if (value !== RSSI_UNAVAILABLE) context.writer.setRssi(int8(value));
}

function decodeAdvertisingReports(context: DecodeContext, bytes: Uint8Array, start: number, end: number): void {
  if (start >= end) return context.skipped.add('truncated_hci_event');
  const count = bytes[start];
  if (count === 0) return context.nonAdvertising.add('empty_advertising_report');
  let at = start + 1;
  for (let report = 0; report < count; report++) {
    // [event type][address type][address 6][data length][data][RSSI]
    if (at + 9 > end || at + 9 + bytes[at + 8] + 1 > end) {
      context.skipped.add('truncated_advertising_report');
      return;
    }
    const dataLength = bytes[at + 8];
    beginReport(context, legacyReportAdvType(bytes[at]), bytes, at + 2, bytes[at + 1]);
    context.writer.setAdData(bytes, at + 9, at + 9 + dataLength);
    setRssi(context, bytes[at + 9 + dataLength]);
    context.writer.end();
    at += 10 + dataLength;
  }
}

function decodeExtendedAdvertisingReports(context: DecodeContext, bytes: Uint8Array, start: number, end: number): void {
  if (start >= end) return context.skipped.add('truncated_hci_event');
  const count = bytes[start];
  if (count === 0) return context.nonAdvertising.add('empty_advertising_report');
  let at = start + 1;
  for (let report = 0; report < count; report++) {
    // [event type 2][address type][address 6][primary PHY][secondary PHY][SID][TX power][RSSI]
    // [periodic interval 2][direct address type][direct address 6][data length][data]
    if (at + 24 > end || at + 24 + bytes[at + 23] > end) {
      context.skipped.add('truncated_advertising_report');
      return;
    }
    const eventType = bytes[at] | (bytes[at + 1] << 8);
    const dataLength = bytes[at + 23];
    const writer = context.writer;
    beginReport(context, extendedReportAdvType(eventType), bytes, at + 3, bytes[at + 2]);
    setRssi(context, bytes[at + 13]);
    if (eventType & 0x04) {
      // Directed: the target address; 0xFE = an RPA the controller could not resolve.
      const directType = bytes[at + 16];
      if (directType <= 3 || directType === 0xfe) writer.setRxAdd(directType === 0xfe ? 1 : directType & 1);
      writer.setInitiator(bytes, at + 17);
    }
    writer.setAdData(bytes, at + 24, at + 24 + dataLength);
    writer.end();
    at += 24 + dataLength;
  }
}

function decodeDirectedAdvertisingReports(context: DecodeContext, bytes: Uint8Array, start: number, end: number): void {
  if (start >= end) return context.skipped.add('truncated_hci_event');
  const count = bytes[start];
  if (count === 0) return context.nonAdvertising.add('empty_advertising_report');
  let at = start + 1;
  for (let report = 0; report < count; report++) {
    // [event type][address type][address 6][direct address type][direct address 6][RSSI]
    if (at + 16 > end) {
      context.skipped.add('truncated_advertising_report');
      return;
    }
    const writer = context.writer;
    beginReport(context, ADV_TYPE.ADV_DIRECT_IND, bytes, at + 2, bytes[at + 1]);
    const directType = bytes[at + 8];
    if (directType <= 3 || directType === 0xfe) writer.setRxAdd(directType === 0xfe ? 1 : directType & 1);
    writer.setInitiator(bytes, at + 9);
    setRssi(context, bytes[at + 15]);
    writer.end();
    at += 16;
  }
}
