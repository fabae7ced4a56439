import type { BleTrackerKind } from '../shared/tracker-kind.ts';

/**
 * What a tracker's advertising payload says, read from the AD features of one payload (the
 * layouts and their sources: docs/ble-trackers.md).
 *
 * - Find My-style (Apple offline finding): manufacturer data of company 0x004C whose first
 *   message is type 0x12. Length 0x19 is the separated ("wild") form: status byte, 22 bytes of
 *   the public key, the key's top two bits, a hint byte. Length 0x02 is the short form near the
 *   owner: status byte, key bits.
 * - FMDN-style (Google Find My Device Network): service data of UUID 0xFEAA whose frame type is
 *   0x40 (0x41 with unwanted-tracking protection on), a 20- or 32-byte ephemeral identifier and
 *   a hashed flags byte.
 * - SmartTag-style (Samsung offline finding): service data of UUID 0xFD5A: a state byte, a
 *   24-bit little-endian aging counter that steps by one per rotation, an 8-byte privacy id, and
 *   (when present) a flags byte.
 *
 * A payload that claims one of these formats (the company and message type, or the service UUID
 * and frame type) but does not hold it — truncated, a length the format does not have, text that
 * is not hex — is `malformed`: the analysis reads it as an unknown payload and counts it.
 */
export type BleTrackerReading =
  | { kind: 'none' }
  | { kind: 'malformed'; claimed: BleTrackerKind; reason: string }
  | { kind: 'find_my'; mode: 'separated' | 'near_owner'; status: number }
  | { kind: 'fmdn'; frameType: number; eidBytes: 20 | 32 }
  | { kind: 'smarttag'; state: number; agingCounter: number };

/** The AD features a reading needs (BlePayloadFeatures has them). */
export interface BleTrackerPayloadFields {
  companyId: number;
  manufacturerData: string;
  serviceDataUuid: string;
  serviceData?: string;
}

/** Bluetooth SIG company identifier of Apple. */
export const APPLE_COMPANY_ID = 0x004c;
/** Apple Continuity message type of offline finding. */
export const FIND_MY_TYPE = 0x12;
/** Its two lengths: separated (0x19 = 25 bytes) and near the owner (2 bytes). */
export const FIND_MY_SEPARATED_LENGTH = 0x19;
export const FIND_MY_NEAR_OWNER_LENGTH = 0x02;
/** Service data UUIDs, as the `service_data_uuid` column prints 16-bit UUIDs. */
export const FMDN_SERVICE_UUID = 'FEAA';
export const SMARTTAG_SERVICE_UUID = 'FD5A';
/** FMDN frame types: unwanted-tracking protection off / on. */
export const FMDN_FRAME = 0x40;
export const FMDN_FRAME_UTP = 0x41;
/** SmartTag service data: state, 3 counter bytes, 8 privacy-id bytes (a flags byte may follow). */
export const SMARTTAG_MIN_BYTES = 12;

const NONE: BleTrackerReading = { kind: 'none' };

/** The reading of one payload's AD features. Never throws: anything unexpected is `none` or `malformed`. */
export function readTrackerPayload(fields: BleTrackerPayloadFields): BleTrackerReading {
  if (fields.companyId === APPLE_COMPANY_ID) {
    const apple = readFindMy(fields.manufacturerData);
    if (apple.kind !== 'none') return apple;
  }
  const uuid = fields.serviceDataUuid;
  if (uuid.length === 4) {
    const upper = uuid.toUpperCase();
    if (upper === FMDN_SERVICE_UUID) return readFmdn(fields.serviceData ?? '');
    if (upper === SMARTTAG_SERVICE_UUID) return readSmartTag(fields.serviceData ?? '');
  }
  return NONE;
}

/** Apple manufacturer data (after the company id). */
function readFindMy(hex: string): BleTrackerReading {
  if (hex.length < 2 || hexByte(hex, 0) !== FIND_MY_TYPE) return NONE;
  const bytes = hexBytes(hex);
  if (!bytes) return malformed('find_my', 'manufacturer data is not whole hex bytes');
  if (bytes.length < 2) return malformed('find_my', 'offline finding message without its length byte');
  const length = bytes[1];
  if (length !== FIND_MY_SEPARATED_LENGTH && length !== FIND_MY_NEAR_OWNER_LENGTH) return malformed('find_my', `offline finding message of length ${length} (0x19 or 0x02 expected)`);
  if (bytes.length < 2 + length) return malformed('find_my', `offline finding message truncated: ${bytes.length - 2} of ${length} bytes`);
  // The key-bits byte carries two bits of the key; the other six are reserved (zero).
  const keyBits = length === FIND_MY_SEPARATED_LENGTH ? bytes[2 + 23] : bytes[3];
  if (keyBits > 3) return malformed('find_my', `reserved key bits set (0x${keyBits.toString(16).padStart(2, '0')})`);
  return { kind: 'find_my', mode: length === FIND_MY_SEPARATED_LENGTH ? 'separated' : 'near_owner', status: bytes[2] };
}

/** Service data of UUID 0xFEAA (Eddystone): only frames 0x40/0x41 are FMDN. */
function readFmdn(hex: string): BleTrackerReading {
  if (hex.length < 2) return NONE;
  const frameType = hexByte(hex, 0);
  if (frameType !== FMDN_FRAME && frameType !== FMDN_FRAME_UTP) return NONE;
  const bytes = hexBytes(hex);
  if (!bytes) return malformed('fmdn', 'service data is not whole hex bytes');
  // Frame type, the ephemeral identifier, the hashed flags byte.
  const eidBytes = bytes.length - 2;
  if (eidBytes !== 20 && eidBytes !== 32) return malformed('fmdn', `FMDN frame with a ${Math.max(0, eidBytes)}-byte ephemeral identifier (20 or 32 expected)`);
  return { kind: 'fmdn', frameType, eidBytes };
}

/** Service data of UUID 0xFD5A. */
function readSmartTag(hex: string): BleTrackerReading {
  const bytes = hexBytes(hex);
  if (!bytes) return malformed('smarttag', 'service data is not whole hex bytes');
  if (bytes.length < SMARTTAG_MIN_BYTES) return malformed('smarttag', `SmartTag service data truncated: ${bytes.length} of at least ${SMARTTAG_MIN_BYTES} bytes`);
  return { kind: 'smarttag', state: bytes[0], agingCounter: bytes[1] | (bytes[2] << 8) | (bytes[3] << 16) };
}

function malformed(claimed: BleTrackerKind, reason: string): BleTrackerReading {
  return { kind: 'malformed', claimed, reason };
}

/** The value of one hex digit, or -1. */
function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}

/** Byte `index` of a hex text, or -1 when its two characters are not hex digits (or missing). */
function hexByte(hex: string, index: number): number {
  if (2 * index + 1 >= hex.length) return -1;
  const high = hexDigit(hex.charCodeAt(2 * index));
  const low = hexDigit(hex.charCodeAt(2 * index + 1));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/** All bytes of a hex text, or undefined when it is not whole hex bytes. */
function hexBytes(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) {
    const value = hexByte(hex, index);
    if (value < 0) return undefined;
    bytes[index] = value;
  }
  return bytes;
}
