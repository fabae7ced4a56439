import { ecb } from '@noble/ciphers/aes.js';

/**
 * The Core specification's random address hash (Vol 3 Part H §2.2.2):
 * ah(k, r) = e(k, r') mod 2^24 with r' = 104 zero bits ‖ r, e = AES-128, most significant octet
 * first. An RPA is prand (24 MSBs, top bits 01) ‖ hash (24 LSBs) with hash = ah(IRK, prand).
 */

const IRK_HEX = /^[0-9a-fA-F]{32}$/;

/** An IRK from 32 hex digits, most significant octet first (as the specification prints sample data). */
export function parseIrk(hex: string): Uint8Array | undefined {
  const text = hex.trim();
  if (!IRK_HEX.test(text)) return undefined;
  const key = new Uint8Array(16);
  for (let index = 0; index < 16; index++) key[index] = Number.parseInt(text.slice(index * 2, index * 2 + 2), 16);
  return key;
}

/** An AES-128 block cipher bound to one key, reused for every address checked against it. */
export interface BleAhFunction {
  (prand: number): number;
}

/** `ah` bound to one IRK (the key schedule is computed once). */
export function bleAhFor(irk: Uint8Array): BleAhFunction {
  if (irk.length !== 16) throw new Error('an IRK is 16 bytes');
  const key = irk.slice();
  const block = new Uint8Array(16);
  return (prand: number): number => {
    block.fill(0);
    block[13] = (prand >>> 16) & 0xff;
    block[14] = (prand >>> 8) & 0xff;
    block[15] = prand & 0xff;
    // noble refuses to reuse one cipher instance (a guard for modes with nonces): one per block.
    // Callers cache results per address, so this runs once per (address, key).
    const out = ecb(key, { disablePadding: true }).encrypt(block);
    return (out[13] << 16) | (out[14] << 8) | out[15];
  };
}

/** ah(irk, prand): the 24-bit hash of a 24-bit prand under a 16-byte IRK (MSB first). */
export function ah(irk: Uint8Array, prand: number): number {
  return bleAhFor(irk)(prand & 0xffffff);
}

const ADDRESS_TEXT = /^([0-9a-fA-F]{2})([:-]?)([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})$/;

/**
 * A printed BLE address (`7A:4C:21:9D:10:EF`, most significant octet first; `-` or no separator
 * also accepted) as a 48-bit integer, or undefined when it is not an address.
 */
export function parseBleAddress(text: string): number | undefined {
  const match = ADDRESS_TEXT.exec(text);
  if (!match) return undefined;
  let value = 0;
  for (const group of [1, 3, 4, 5, 6, 7]) value = value * 256 + Number.parseInt(match[group], 16);
  return value;
}

const HEX = '0123456789ABCDEF';

/** A 48-bit address as upper-case `AA:BB:CC:DD:EE:FF`. */
export function formatBleAddress(value: number): string {
  let text = '';
  for (let octet = 5; octet >= 0; octet--) {
    const byte = Math.floor(value / 2 ** (8 * octet)) % 256;
    text += HEX[byte >> 4] + HEX[byte & 15];
    if (octet > 0) text += ':';
  }
  return text;
}

/** True when the address is an RPA (top bits 01) whose hash part is ah(irk, prand part). */
export function resolvesUnder(address: string | number, irk: Uint8Array | BleAhFunction): boolean {
  const value = typeof address === 'number' ? address : parseBleAddress(address);
  if (value === undefined) return false;
  const prand = Math.floor(value / 2 ** 24);
  if (prand >>> 22 !== 0b01) return false;
  const hash = value % 2 ** 24;
  const hashOf = typeof irk === 'function' ? irk : bleAhFor(irk);
  return hashOf(prand) === hash;
}
