import type { AddressType } from '../shared/analysis-types.ts';

/**
 * What the bits of a random address say (ble-spec.md §1). The TxAdd bit (or the HCI address
 * type) decides public versus random; only then do the two most significant bits give the
 * random sub-type. A public address can begin 4x–7x: never infer "random" from bits alone.
 */
export type BleRandomSubtype = 'random_static' | 'rpa' | 'nrpa' | 'reserved';

export interface BleBitVerdict {
  type: AddressType;
  /** Why, for the evidence list. */
  reason: string;
}

const TWO_POW_46 = 2 ** 46;
const TWO_POW_22 = 2 ** 22;

/** The sub-type named by the two most significant bits of a random address. */
export function bleRandomSubtype(address: number): BleRandomSubtype {
  switch (Math.floor(address / TWO_POW_46)) {
    case 0b11:
      return 'random_static';
    case 0b01:
      return 'rpa';
    case 0b00:
      return 'nrpa';
    default:
      return 'reserved';
  }
}

/**
 * Classifies a random address by its bits, applying the validity rules: the 46 random bits of
 * a static or non-resolvable address, and the 22 random bits of an RPA's prand, must be neither
 * all 0 nor all 1.
 */
export function classifyRandomBits(address: number): BleBitVerdict {
  const subtype = bleRandomSubtype(address);
  const low46 = address % TWO_POW_46;
  switch (subtype) {
    case 'reserved':
      return { type: 'unknown', reason: 'Reserved random sub-type bits 10 (invalid address; often a corrupted frame)' };
    case 'random_static':
      if (low46 === 0 || low46 === TWO_POW_46 - 1) return { type: 'unknown', reason: 'Static bit pattern 11 but the random part is all 0 or all 1 (invalid)' };
      return { type: 'random_static', reason: 'Random static bit pattern (top bits 11)' };
    case 'nrpa':
      if (low46 === 0 || low46 === TWO_POW_46 - 1) return { type: 'unknown', reason: 'Non-resolvable bit pattern 00 but the random part is all 0 or all 1 (invalid)' };
      return { type: 'nrpa', reason: 'Non-resolvable private bit pattern (top bits 00)' };
    case 'rpa': {
      const prandRandom = Math.floor(low46 / 2 ** 24) % TWO_POW_22;
      if (prandRandom === 0 || prandRandom === TWO_POW_22 - 1) {
        return { type: 'unknown', reason: 'Resolvable bit pattern 01 but the random part of prand is all 0 or all 1 (invalid)' };
      }
      return { type: 'rpa', reason: 'Resolvable private bit pattern detected (top bits 01)' };
    }
  }
}
