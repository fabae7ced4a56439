/**
 * Advertising Data (AD) structures, as carried by ADV_IND, SCAN_RSP, AUX_ADV_IND and HCI
 * advertising reports: a sequence of `[length][type][length−1 bytes of data]`, ended by the
 * end of the data or a zero length (padding). Parsing fills a reusable summary with byte
 * offsets, so nothing is allocated per packet.
 */

/** AD types the importer reads (Bluetooth Assigned Numbers, "Common Data Types"). */
export const AD_TYPE = {
  FLAGS: 0x01,
  INCOMPLETE_UUID16: 0x02,
  COMPLETE_UUID16: 0x03,
  INCOMPLETE_UUID32: 0x04,
  COMPLETE_UUID32: 0x05,
  INCOMPLETE_UUID128: 0x06,
  COMPLETE_UUID128: 0x07,
  SHORTENED_LOCAL_NAME: 0x08,
  COMPLETE_LOCAL_NAME: 0x09,
  TX_POWER_LEVEL: 0x0a,
  SERVICE_DATA_UUID16: 0x16,
  APPEARANCE: 0x19,
  SERVICE_DATA_UUID32: 0x20,
  SERVICE_DATA_UUID128: 0x21,
  MANUFACTURER_SPECIFIC: 0xff,
} as const;

/** Most service UUIDs kept per record; a 31-byte legacy payload holds at most 14. */
export const MAX_UUIDS = 128;

/** What one AD payload holds, as offsets into the packet bytes; -1 means absent. */
export interface AdSummary {
  /** Count of well-formed AD structures. */
  structures: number;
  flags: number;
  nameStart: number;
  nameEnd: number;
  /** True when the name came from a Complete Local Name structure. */
  nameComplete: boolean;
  txPower: number;
  appearance: number;
  companyId: number;
  manufacturerStart: number;
  manufacturerEnd: number;
  /** Service UUIDs: `uuidOffsets[i]` is where UUID i starts, `uuidSizes[i]` its size (2, 4, 16). */
  uuidCount: number;
  uuidOffsets: Int32Array;
  uuidSizes: Uint8Array;
  serviceDataUuidStart: number;
  serviceDataUuidSize: number;
  serviceDataStart: number;
  serviceDataEnd: number;
  /** End of the last well-formed structure: the signature covers `[start, signatureEnd)`. */
  signatureEnd: number;
  /** True when a structure ran past the end of the data (it is ignored). */
  truncated: boolean;
}

/** A summary to reuse across packets (`parseAdStructures` resets it). */
export function createAdSummary(): AdSummary {
  return {
    structures: 0,
    flags: -1,
    nameStart: -1,
    nameEnd: -1,
    nameComplete: false,
    txPower: -1,
    appearance: -1,
    companyId: -1,
    manufacturerStart: -1,
    manufacturerEnd: -1,
    uuidCount: 0,
    uuidOffsets: new Int32Array(MAX_UUIDS),
    uuidSizes: new Uint8Array(MAX_UUIDS),
    serviceDataUuidStart: -1,
    serviceDataUuidSize: 0,
    serviceDataStart: -1,
    serviceDataEnd: -1,
    signatureEnd: -1,
    truncated: false,
  };
}

/**
 * Parses `bytes[start..end)` into `summary` (which is reset first). The first structure of a
 * kind wins (manufacturer data, service data, TX power, appearance, flags); a Complete Local
 * Name wins over a Shortened one; every service UUID of the UUID-list types is kept in order.
 */
export function parseAdStructures(bytes: Uint8Array, start: number, end: number, summary: AdSummary): void {
  summary.structures = 0;
  summary.flags = -1;
  summary.nameStart = -1;
  summary.nameEnd = -1;
  summary.nameComplete = false;
  summary.txPower = -1;
  summary.appearance = -1;
  summary.companyId = -1;
  summary.manufacturerStart = -1;
  summary.manufacturerEnd = -1;
  summary.uuidCount = 0;
  summary.serviceDataUuidStart = -1;
  summary.serviceDataUuidSize = 0;
  summary.serviceDataStart = -1;
  summary.serviceDataEnd = -1;
  summary.signatureEnd = -1;
  summary.truncated = false;

  let at = start;
  while (at < end) {
    const length = bytes[at];
    if (length === 0) break; // padding: the rest is not significant
    const next = at + 1 + length;
    if (next > end) {
      summary.truncated = true;
      break;
    }
    const type = bytes[at + 1];
    const data = at + 2;
    const dataLength = length - 1;
    summary.structures++;
    summary.signatureEnd = next;
    switch (type) {
      case AD_TYPE.FLAGS:
        if (summary.flags < 0 && dataLength >= 1) summary.flags = bytes[data];
        break;
      case AD_TYPE.INCOMPLETE_UUID16:
      case AD_TYPE.COMPLETE_UUID16:
        addUuids(summary, data, next, 2);
        break;
      case AD_TYPE.INCOMPLETE_UUID32:
      case AD_TYPE.COMPLETE_UUID32:
        addUuids(summary, data, next, 4);
        break;
      case AD_TYPE.INCOMPLETE_UUID128:
      case AD_TYPE.COMPLETE_UUID128:
        addUuids(summary, data, next, 16);
        break;
      case AD_TYPE.SHORTENED_LOCAL_NAME:
        if (summary.nameStart < 0) {
          summary.nameStart = data;
          summary.nameEnd = next;
        }
        break;
      case AD_TYPE.COMPLETE_LOCAL_NAME:
        if (!summary.nameComplete) {
          summary.nameStart = data;
          summary.nameEnd = next;
          summary.nameComplete = true;
        }
        break;
      case AD_TYPE.TX_POWER_LEVEL:
        if (summary.txPower === -1 && dataLength >= 1) summary.txPower = bytes[data];
        break;
      case AD_TYPE.APPEARANCE:
        if (summary.appearance < 0 && dataLength >= 2) summary.appearance = bytes[data] | (bytes[data + 1] << 8);
        break;
      case AD_TYPE.MANUFACTURER_SPECIFIC:
        if (summary.companyId < 0 && dataLength >= 2) {
          summary.companyId = bytes[data] | (bytes[data + 1] << 8);
          summary.manufacturerStart = data + 2;
          summary.manufacturerEnd = next;
        }
        break;
      case AD_TYPE.SERVICE_DATA_UUID16:
        setServiceData(summary, data, next, 2);
        break;
      case AD_TYPE.SERVICE_DATA_UUID32:
        setServiceData(summary, data, next, 4);
        break;
      case AD_TYPE.SERVICE_DATA_UUID128:
        setServiceData(summary, data, next, 16);
        break;
      default:
        break;
    }
    at = next;
  }
}

function addUuids(summary: AdSummary, start: number, end: number, size: 2 | 4 | 16): void {
  for (let at = start; at + size <= end && summary.uuidCount < MAX_UUIDS; at += size) {
    summary.uuidOffsets[summary.uuidCount] = at;
    summary.uuidSizes[summary.uuidCount] = size;
    summary.uuidCount++;
  }
}

function setServiceData(summary: AdSummary, start: number, end: number, size: 2 | 4 | 16): void {
  if (summary.serviceDataStart >= 0 || end - start < size) return;
  summary.serviceDataUuidStart = start;
  summary.serviceDataUuidSize = size;
  summary.serviceDataStart = start + size;
  summary.serviceDataEnd = end;
}

/**
 * FNV-1a 64 over `bytes[start..end)`, as two unsigned 32-bit halves `[high, low]` written
 * into `out`. The 64-bit product is split so that every intermediate stays an exact double.
 */
export function fnv1a64(bytes: Uint8Array, start: number, end: number, out: Uint32Array): void {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let index = start; index < end; index++) {
    low = (low ^ bytes[index]) >>> 0;
    // prime = 2^40 + 0x1b3: h·prime = h·0x1b3 + (h << 40)
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 4294967296);
    high = (Math.imul(high, 0x1b3) + carry + (low << 8)) >>> 0;
    low = lowProduct >>> 0;
  }
  out[0] = high;
  out[1] = low;
}
