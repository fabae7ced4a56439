/**
 * Device addresses for the synthetic scenarios, built with the subtype bits the Core
 * specification defines (notes/ble-spec.md §1): random static `11`, resolvable private `01`,
 * non-resolvable private `00` in the two most significant bits; public addresses carry an
 * OUI and say nothing through their bits (TxAdd decides).
 */
import type { SeededRandom } from '../seeded-random.ts';

/** The truth type of an address, spelled as the analyzer's `AddressType`. */
export type BleTruthAddressType = 'public' | 'random_static' | 'rpa' | 'nrpa';

/** An address: its text (`7A:4C:21:9D:10:EF`, MSB first) and its over-the-air bytes (LSB first). */
export interface BleGeneratedAddress {
  text: string;
  /** Over-the-air order, as the record writer reads AdvA: least significant octet first. */
  air: Uint8Array;
  type: BleTruthAddressType;
}

/** OUIs for the synthetic public addresses (a handful of vendor-looking prefixes). */
const PUBLIC_OUIS = [
  [0x4e, 0x91, 0xb2],
  [0x00, 0x1a, 0x7d],
  [0xd8, 0x3a, 0xdd],
  [0x24, 0x0a, 0xc4],
  [0xac, 0x23, 0x3f],
] as const;

const HEX = '0123456789ABCDEF';

/** `AA:BB:…` from six octets, most significant first. */
export function bleAddressText(msbFirst: ArrayLike<number>): string {
  let text = '';
  for (let index = 0; index < 6; index++) {
    const value = msbFirst[index];
    text += HEX[value >> 4] + HEX[value & 15];
    if (index < 5) text += ':';
  }
  return text;
}

/** Parses `AA:BB:CC:DD:EE:FF` into six octets, most significant first; null when malformed. */
export function bleParseAddress(text: string): Uint8Array | null {
  if (!/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/.test(text)) return null;
  return Uint8Array.from(text.split(':'), (part) => parseInt(part, 16));
}

/**
 * The subtype the top two bits of a generated random address announce. The generator keeps its
 * own copy of this rule: the truth must not share code with the analyzer it scores.
 */
export function truthRandomSubtype(msbFirst: ArrayLike<number>): BleTruthAddressType | 'reserved' {
  switch (msbFirst[0] >> 6) {
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

function fromMsbFirst(msbFirst: Uint8Array, type: BleTruthAddressType): BleGeneratedAddress {
  return { text: bleAddressText(msbFirst), air: msbFirst.slice().reverse(), type };
}

/** An address from its text (fixed demo addresses); throws on malformed text (a programming error). */
export function bleAddressFromText(text: string, type: BleTruthAddressType): BleGeneratedAddress {
  const octets = bleParseAddress(text);
  if (!octets) throw new Error(`malformed address ${text}`);
  return fromMsbFirst(octets, type);
}

function randomOctets(random: SeededRandom, count: number): Uint8Array {
  return Uint8Array.from({ length: count }, () => Math.floor(random.uniform() * 256));
}

/** True when the 46 random bits under the subtype are all 0 or all 1 (forbidden by the spec). */
function degenerate(msbFirst: Uint8Array, bytes: number): boolean {
  // Checked over the random part only: the low 6 bits of octet 0 plus the next `bytes - 1` octets.
  let zeros = (msbFirst[0] & 0x3f) === 0;
  let ones = (msbFirst[0] & 0x3f) === 0x3f;
  for (let index = 1; index < bytes; index++) {
    zeros &&= msbFirst[index] === 0;
    ones &&= msbFirst[index] === 0xff;
  }
  return zeros || ones;
}

/**
 * A fresh address of `type`. RPAs get a random 22-bit prand under the `01` bits and a hash:
 * `hashOf(prand)` when given (ah with a real IRK), else random bits, which look the same to
 * anyone without the key.
 */
export function bleRandomAddress(random: SeededRandom, type: BleTruthAddressType, hashOf?: (prand: Uint8Array) => Uint8Array): BleGeneratedAddress {
  for (;;) {
    const octets = randomOctets(random, 6);
    switch (type) {
      case 'public': {
        const oui = PUBLIC_OUIS[Math.floor(random.uniform() * PUBLIC_OUIS.length)];
        octets.set(oui, 0);
        return fromMsbFirst(octets, type);
      }
      case 'random_static':
        octets[0] = (octets[0] & 0x3f) | 0xc0;
        if (degenerate(octets, 6)) continue;
        return fromMsbFirst(octets, type);
      case 'nrpa':
        octets[0] &= 0x3f;
        if (degenerate(octets, 6)) continue;
        return fromMsbFirst(octets, type);
      case 'rpa': {
        octets[0] = (octets[0] & 0x3f) | 0x40;
        if (degenerate(octets, 3)) continue;
        if (hashOf) octets.set(hashOf(octets.subarray(0, 3)), 3);
        return fromMsbFirst(octets, type);
      }
    }
  }
}

/**
 * Draws addresses that are unique within one scenario (collisions are astronomically rare in
 * 46 bits, but a duplicate would silently merge two devices in the truth).
 */
export class BleAddressPool {
  private readonly used = new Set<string>();

  constructor(private readonly random: SeededRandom) {}

  next(type: BleTruthAddressType, hashOf?: (prand: Uint8Array) => Uint8Array): BleGeneratedAddress {
    for (;;) {
      const address = bleRandomAddress(this.random, type, hashOf);
      if (!this.used.has(address.text)) {
        this.used.add(address.text);
        return address;
      }
    }
  }

  /** Reserves a fixed address (the demo's hand-picked ones). */
  reserve(address: BleGeneratedAddress): BleGeneratedAddress {
    this.used.add(address.text);
    return address;
  }
}
