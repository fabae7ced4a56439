/**
 * The BLE link-layer CRC-24 (Core Vol 6 Part B §3.1.1: x²⁴+x¹⁰+x⁹+x⁶+x⁴+x³+x+1, data fed
 * least significant bit first). Computed in reflected form, one table step per byte: the
 * reflected register then equals the three CRC octets read little-endian off the air.
 */

/** Advertising physical channel PDUs always use CRCInit 0x555555 (reflected: 0xAAAAAA). */
export const ADVERTISING_CRC_INIT_REFLECTED = 0xaaaaaa;

const REFLECTED_POLYNOMIAL = 0xda6000;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ REFLECTED_POLYNOMIAL : value >>> 1;
    table[index] = value;
  }
  return table;
})();

/** The reflected CRC register after `bytes[start..end)` (the PDU: header and payload). */
export function crc24Reflected(bytes: Uint8Array, start: number, end: number, initReflected = ADVERTISING_CRC_INIT_REFLECTED): number {
  let state = initReflected;
  for (let index = start; index < end; index++) state = (state >>> 8) ^ TABLE[(state ^ bytes[index]) & 0xff];
  return state;
}

/**
 * True when the 3 CRC octets at `crcAt` match the PDU `bytes[start..crcAt)` under the
 * advertising CRCInit.
 */
export function advertisingCrcMatches(bytes: Uint8Array, start: number, crcAt: number): boolean {
  const received = bytes[crcAt] | (bytes[crcAt + 1] << 8) | (bytes[crcAt + 2] << 16);
  return crc24Reflected(bytes, start, crcAt) === received;
}
