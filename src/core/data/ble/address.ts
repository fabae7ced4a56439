/** Bluetooth device addresses as the importer stores them. */

const HEX = '0123456789ABCDEF';

/**
 * The address in `bytes[offset..offset+6)` (over-the-air order: least significant octet
 * first) as upper-case `AA:BB:CC:DD:EE:FF`, most significant octet first.
 */
export function formatAddress(bytes: Uint8Array, offset: number): string {
  let text = '';
  for (let index = 5; index >= 0; index--) {
    const value = bytes[offset + index];
    text += HEX[value >> 4] + HEX[value & 15];
    if (index > 0) text += ':';
  }
  return text;
}

/**
 * A UUID stored little-endian in `bytes[start..start+size)`: 16- and 32-bit UUIDs as 4 or 8
 * upper-case hex digits (`180F`), 128-bit ones in the canonical dashed form
 * (`6E400001-B5A3-F393-E0A9-E50E24DCCA9E`).
 */
export function formatUuid(bytes: Uint8Array, start: number, size: number): string {
  let text = '';
  for (let index = size - 1; index >= 0; index--) {
    const value = bytes[start + index];
    text += HEX[value >> 4] + HEX[value & 15];
    if (size === 16 && (index === 12 || index === 10 || index === 8 || index === 6)) text += '-';
  }
  return text;
}
