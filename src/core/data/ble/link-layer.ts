/**
 * BLE link-layer packets (Core Vol 6 Part B §2): `[access address 4][PDU header 2][payload]
 * [CRC 3]`, as captured by sniffers, and the pseudo-headers in front of them: LINKTYPE 256
 * (`BLUETOOTH_LE_LL_WITH_PHDR`: RF channel, signal power, flags), LINKTYPE 272 (`NORDIC_BLE`:
 * the nRF Sniffer's header with channel index, RSSI and CRC flag) and PPI (LINKTYPE 192)
 * wrapping LE link-layer bytes (Ubertooth, crackle). Only advertising physical channel PDUs
 * (access address 0x8E89BED6) become records; other access addresses are data-channel
 * packets, counted but not recorded (their plaintext SMP key PDUs go to the identity-key
 * collector).
 */
import { advertisingCrcMatches } from './crc24.ts';
import { ADV_TYPE, isAdvertiserSent } from './adv-types.ts';
import { int8, type DecodeContext } from './decode-context.ts';
import { channelIndexOfRfChannel, LINKTYPE } from './link-types.ts';

/** The access address of every advertising physical channel PDU. */
export const ADVERTISING_ACCESS_ADDRESS = 0x8e89bed6;

/** What the capture says about a link-layer packet besides its bytes. */
export interface LinkMeta {
  /** Channel index 0–39, or -1 when unknown. */
  channel: number;
  /** dBm, or NaN when unknown. */
  rssi: number;
  /** 1 the capture checked the CRC and it was good, 0 bad, -1 not checked (compute it). */
  crcStatus: number;
  /** LE Coded PHY: a coding-indicator byte follows the access address. */
  coded: boolean;
}

/** Fresh meta for a packet with nothing known. */
export function unknownLinkMeta(meta: LinkMeta): LinkMeta {
  meta.channel = -1;
  meta.rssi = Number.NaN;
  meta.crcStatus = -1;
  meta.coded = false;
  return meta;
}

/**
 * LINKTYPE_BLUETOOTH_LE_LL bytes in `bytes[start..end)`: one record for an advertising PDU.
 * The CRC is the last 3 bytes of the frame; without a verdict from the capture it is computed
 * (advertising PDUs always use CRCInit 0x555555).
 */
export function decodeLinkLayer(context: DecodeContext, bytes: Uint8Array, start: number, end: number, meta: LinkMeta): void {
  if (end - start < 4) {
    context.skipped.add('short_link_layer_packet');
    return;
  }
  const accessAddress = (bytes[start] | (bytes[start + 1] << 8) | (bytes[start + 2] << 16) | (bytes[start + 3] << 24)) >>> 0;
  if (accessAddress !== ADVERTISING_ACCESS_ADDRESS) {
    context.nonAdvertising.add('data_channel');
    // Identity keys in plaintext SMP (captures the sniffer decrypted); see identity-keys.ts.
    context.identityKeys.linkLayerData(bytes, start + 4 + (meta.coded ? 1 : 0), end, context.frame, accessAddress, meta.crcStatus);
    return;
  }
  const pdu = start + 4 + (meta.coded ? 1 : 0);
  if (end - pdu < 2) {
    context.skipped.add('short_advertising_pdu');
    return;
  }
  const hasCrc = end - pdu >= 5;
  const payloadStart = pdu + 2;
  const payloadEnd = hasCrc ? end - 3 : end;
  // Fixed-position fields (addresses) are read wherever the frame holds them, as Wireshark
  // does: a PDU whose length field is too short for them then reads into the CRC octets. That
  // only happens when the length field is corrupt, so those records always fail their CRC.
  const fieldBytes = end - payloadStart;
  const header = bytes[pdu];
  const pduType = header & 0x0f;
  const txAdd = (header >> 6) & 1;
  const rxAdd = header >> 7;
  const channel = meta.channel;
  const secondary = channel >= 0 && channel < 37;

  const writer = context.writer;
  writer.begin(context.tsMs, context.receiver, context.frame);
  if (channel >= 0) writer.setChannel(channel);
  if (meta.rssi === meta.rssi) writer.setRssi(meta.rssi);
  if (meta.crcStatus >= 0) writer.setCrcOk(meta.crcStatus === 1);
  else if (hasCrc) writer.setCrcOk(advertisingCrcMatches(bytes, pdu, end - 3));

  switch (pduType) {
    case 0: // ADV_IND
    case 2: // ADV_NONCONN_IND
    case 4: // SCAN_RSP
    case 6: // ADV_SCAN_IND
      writer.setAdvType(pduType, true);
      writer.setTxAdd(txAdd);
      if (fieldBytes >= 6) {
        writer.setAdvertiser(bytes, payloadStart, txAdd);
        writer.setAdData(bytes, payloadStart + 6, payloadEnd);
      }
      break;
    case 1: // ADV_DIRECT_IND: AdvA (TxAdd), TargetA (RxAdd)
      writer.setAdvType(ADV_TYPE.ADV_DIRECT_IND, true);
      writer.setTxAdd(txAdd);
      writer.setRxAdd(rxAdd);
      if (fieldBytes >= 6) writer.setAdvertiser(bytes, payloadStart, txAdd);
      if (fieldBytes >= 12) writer.setInitiator(bytes, payloadStart + 6);
      break;
    case 3: {
      // SCAN_REQ / AUX_SCAN_REQ: ScanA then AdvA. TxAdd describes ScanA, RxAdd describes AdvA.
      const code = secondary ? ADV_TYPE.AUX_SCAN_REQ : ADV_TYPE.SCAN_REQ;
      writer.setAdvType(code, false);
      writer.setTxAdd(txAdd);
      writer.setRxAdd(rxAdd);
      if (fieldBytes >= 6) writer.setScanner(bytes, payloadStart);
      if (fieldBytes >= 12) writer.setAdvertiser(bytes, payloadStart + 6, rxAdd);
      break;
    }
    case 5: {
      // CONNECT_IND / AUX_CONNECT_REQ: InitA then AdvA. TxAdd describes InitA, RxAdd AdvA.
      const code = secondary ? ADV_TYPE.AUX_CONNECT_REQ : ADV_TYPE.CONNECT_IND;
      writer.setAdvType(code, false);
      writer.setTxAdd(txAdd);
      writer.setRxAdd(rxAdd);
      if (fieldBytes >= 6) writer.setInitiator(bytes, payloadStart);
      if (fieldBytes >= 12) writer.setAdvertiser(bytes, payloadStart + 6, rxAdd);
      break;
    }
    case 7: // ADV_EXT_IND on a primary channel, AUX_ADV_IND (or chain/sync/scan response) on a secondary one
    case 8: {
      // AUX_CONNECT_RSP
      const code = pduType === 8 ? ADV_TYPE.AUX_CONNECT_RSP : secondary ? ADV_TYPE.AUX_ADV_IND : ADV_TYPE.ADV_EXT_IND;
      writer.setAdvType(code, isAdvertiserSent(code));
      decodeExtendedPayload(context, bytes, payloadStart, payloadEnd, end, txAdd, rxAdd);
      break;
    }
    default:
      // 9–15: reserved for future use; nothing in the payload can be trusted.
      writer.setAdvType(pduType, false);
      break;
  }
  writer.end();
}

/**
 * The Common Extended Advertising Payload (Core Vol 6 Part B §2.3.4): `[ext header length 6
 * bits | AdvMode 2 bits][flags][AdvA][TargetA][CTEInfo][ADI][AuxPtr][SyncInfo][TxPower]
 * [ACAD]` then AdvData. TxAdd describes AdvA and RxAdd TargetA, each only when present.
 */
function decodeExtendedPayload(context: DecodeContext, bytes: Uint8Array, start: number, end: number, frameEnd: number, txAdd: number, rxAdd: number): void {
  if (frameEnd - start < 1) return;
  const writer = context.writer;
  const headerLength = bytes[start] & 0x3f;
  // Like Wireshark, the fields the flags announce are read even past the extended header
  // length (as far as the frame goes); a header that disagrees with its flags is corrupt anyway.
  const headerEnd = frameEnd;
  let at = start + 1;
  if (headerLength > 0 && at < headerEnd) {
    const flags = bytes[at++];
    if (flags & 0x01) {
      if (at + 6 <= headerEnd) {
        writer.setTxAdd(txAdd);
        writer.setAdvertiser(bytes, at, txAdd);
      }
      at += 6;
    }
    if (flags & 0x02) {
      if (at + 6 <= headerEnd) {
        writer.setRxAdd(rxAdd);
        writer.setInitiator(bytes, at);
      }
    }
  }
  const dataStart = start + 1 + headerLength;
  if (dataStart < end) writer.setAdData(bytes, dataStart, end);
}

/**
 * LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR: a 10-byte header `[RF channel][signal dBm][noise dBm]
 * [AA offenses][reference AA 4][flags 2]` before the LE packet. The RF channel becomes a
 * channel index; the signal power is the RSSI when its valid flag is set; CRC checked/valid
 * flags give the CRC verdict when the sniffer made one.
 */
export function decodeLinkLayerWithPhdr(context: DecodeContext, bytes: Uint8Array, start: number, end: number, meta: LinkMeta): void {
  if (end - start < 10) {
    context.skipped.add('short_pseudo_header');
    return;
  }
  const flags = bytes[start + 8] | (bytes[start + 9] << 8);
  unknownLinkMeta(meta);
  meta.channel = channelIndexOfRfChannel(bytes[start]);
  if (flags & 0x0002) meta.rssi = int8(bytes[start + 1]);
  if (flags & 0x0400) meta.crcStatus = flags & 0x0800 ? 1 : 0;
  meta.coded = ((flags >> 14) & 3) === 2;
  decodeLinkLayer(context, bytes, start + 10, end, meta);
}

/**
 * LINKTYPE_NORDIC_BLE (nRF Sniffer, protocol versions 1–3): `[board][lengths and protocol
 * version 3][packet counter 2][packet id][header length][flags][channel index][RSSI, negated]
 * [event counter 2][timestamp 4]` before the LE packet. Flags: bit 0 CRC ok, bits 4–6 PHY.
 */
export function decodeNordicBle(context: DecodeContext, bytes: Uint8Array, start: number, end: number, meta: LinkMeta): void {
  if (end - start < 17) {
    context.skipped.add('short_pseudo_header');
    return;
  }
  if (bytes[start + 1] === 0xbe && bytes[start + 2] === 0xef) {
    // nRF Sniffer 1.x ("0.9.7") framing, long out of use.
    context.skipped.add('unsupported_nordic_header');
    return;
  }
  const headerLength = bytes[start + 7];
  if (headerLength < 10 || start + 7 + headerLength > end) {
    context.skipped.add('corrupt_nordic_header');
    return;
  }
  const flags = bytes[start + 8];
  unknownLinkMeta(meta);
  const channel = bytes[start + 9];
  meta.channel = channel <= 39 ? channel : -1;
  meta.rssi = -bytes[start + 10];
  meta.crcStatus = flags & 0x01;
  meta.coded = ((flags >> 4) & 7) === 2;
  decodeLinkLayer(context, bytes, start + 7 + headerLength, end, meta);
}

/** PPI field type of Ubertooth's BTLE field (channel as MHz, clock, RSSI statistics). */
const PPI_BTLE_FIELD = 30006;

/**
 * PPI (LINKTYPE_PPI): `[version][flags][header length 2][inner link type 4][fields…]` then the
 * inner packet. LE link-layer bytes under DLT 251 or DLT_USER0 (147, as Ubertooth and crackle
 * write them) are decoded, as are the 256 and 272 pseudo-header forms. Ubertooth's BTLE field
 * gives the channel (from its frequency in MHz); its RSSI statistics are not used.
 */
export function decodePpi(context: DecodeContext, bytes: Uint8Array, start: number, end: number, meta: LinkMeta): void {
  if (end - start < 8) {
    context.skipped.add('short_pseudo_header');
    return;
  }
  const headerLength = bytes[start + 2] | (bytes[start + 3] << 8);
  const linkType = (bytes[start + 4] | (bytes[start + 5] << 8) | (bytes[start + 6] << 16) | (bytes[start + 7] << 24)) >>> 0;
  if (headerLength < 8 || start + headerLength > end) {
    context.skipped.add('corrupt_ppi_header');
    return;
  }
  unknownLinkMeta(meta);
  const fieldsEnd = start + headerLength;
  let field = start + 8;
  while (field + 4 <= fieldsEnd) {
    const type = bytes[field] | (bytes[field + 1] << 8);
    const size = bytes[field + 2] | (bytes[field + 3] << 8);
    const value = field + 4;
    if (value + size > fieldsEnd) break;
    if (type === PPI_BTLE_FIELD && size >= 3) {
      const megahertz = bytes[value + 1] | (bytes[value + 2] << 8);
      const rf = (megahertz - 2402) / 2;
      if (Number.isInteger(rf)) meta.channel = channelIndexOfRfChannel(rf);
    }
    field = value + size;
  }
  const inner = start + headerLength;
  switch (linkType) {
    case LINKTYPE.USER0:
    case LINKTYPE.BLUETOOTH_LE_LL:
      decodeLinkLayer(context, bytes, inner, end, meta);
      return;
    case LINKTYPE.BLUETOOTH_LE_LL_WITH_PHDR:
      decodeLinkLayerWithPhdr(context, bytes, inner, end, meta);
      return;
    case LINKTYPE.NORDIC_BLE:
      decodeNordicBle(context, bytes, inner, end, meta);
      return;
    default:
      context.skipped.add(`unsupported_ppi_link_type_${linkType}`);
  }
}
