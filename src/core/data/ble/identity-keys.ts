/**
 * Identity resolving keys (IRKs) that HCI logs carry, collected while a capture is imported:
 *
 * - SMP **Identity Information** (code 0x08, Core Vol 3 Part H §3.6.4): a 16-byte IRK sent
 *   during key distribution, in L2CAP channel 0x0006 over HCI ACL data. The **Identity Address
 *   Information** (0x09, §3.6.5) that follows it on the same connection and direction gives the
 *   sender's identity address.
 * - HCI **LE Add Device To Resolving List** (OGF 0x08, OCF 0x0027, opcode 0x2027; Vol 4 Part E
 *   §7.8.38): peer identity address type and address, peer IRK, local IRK.
 *
 *
 * Every IRK on the wire is little-endian (least significant octet first, the order Wireshark
 * prints); keys here are 32 lower-case hex digits **most significant octet first**, the order the
 * analyzer's `irks` argument and `ah()` use. All-zero IRKs mean "no key" and are left out.
 *
 * - The same SMP PDUs in LE link-layer **data channel PDUs** of sniffer captures, where they are
 *   plaintext. Key distribution always happens after the link is encrypted (Vol 3 Part H
 *   §3.6.1), so they are plaintext only in captures the sniffer decrypted. A PDU is read as SMP
 *   only when its length is exactly the L2CAP length plus the L2CAP header (an encrypted PDU
 *   carries a 4-byte MIC more, and its L2CAP header is ciphertext), so ciphertext is not read as
 *   keys. Sniffers also record retransmissions: a key repeated by the next SMP PDU of the same
 *   connection is kept once.
 *
 * Hand-written because no library parses HCI/L2CAP/SMP in a pure, browser-safe way; the formats
 * are fixed-size records.
 */
import { formatAddress } from './address.ts';
import type { Tally } from './decode-context.ts';

/** Where a key was found. */
export type IdentityKeySource = 'smp_identity_information' | 'resolving_list_peer' | 'resolving_list_local';

/** One identity resolving key found in a capture. */
export interface IdentityKey {
  /** The IRK, 32 lower-case hex digits, most significant octet first (the analyzer's `irks` order). */
  irk: string;
  /** The packet that carried it. */
  source: IdentityKeySource;
  /** 1-based frame number of that packet (of the last fragment when it was reassembled). */
  frame_number: number;
  /**
   * The identity address the key belongs to, `AA:BB:CC:DD:EE:FF`, when the capture says it: the
   * Identity Address Information after an Identity Information, or the peer of a resolving-list
   * entry. Absent for a resolving list's local IRK (the command does not name the local address).
   */
  identity_address?: string;
  /** `public` or `random` (static); present with `identity_address`. */
  identity_address_type?: 'public' | 'random';
}

/** HCI command opcode of LE Add Device To Resolving List. */
export const LE_ADD_DEVICE_TO_RESOLVING_LIST = 0x2027;
/** L2CAP channel of the Security Manager Protocol on LE links. */
const SMP_CID = 0x0006;
const SMP = { IDENTITY_INFORMATION: 0x08, IDENTITY_ADDRESS_INFORMATION: 0x09 } as const;
/** The longest SMP PDU (Pairing Public Key: 1 + 64 octets). Longer L2CAP lengths on CID 6 are corrupt. */
const SMP_MAX_LENGTH = 65;
/** Packet direction: host → controller, controller → host, or not recorded by the container. */
export const DIRECTION = { SENT: 0, RECEIVED: 1, UNKNOWN: -1 } as const;

interface Reassembly {
  /** L2CAP payload length announced by the first fragment. */
  length: number;
  bytes: Uint8Array;
  filled: number;
}

/** Collects keys frame by frame; `keys()` at the end. Never throws on malformed input. */
export class IdentityKeyCollector {
  private readonly found: IdentityKey[] = [];
  /** Per connection handle and direction: an SMP PDU split over ACL fragments. */
  private readonly partial = new Map<number, Reassembly>();
  /** Per connection handle and direction: the Identity Information waiting for its address. */
  private readonly awaitingAddress = new Map<number, IdentityKey>();
  /** Per stream: the last Identity Information key, until another kind of SMP PDU comes. */
  private readonly lastKey = new Map<number, IdentityKey>();

  constructor(private readonly skipped: Tally) {}

  /** An HCI command packet, `[opcode 2][parameter length][parameters]` from `start`. */
  command(bytes: Uint8Array, start: number, end: number, frame: number): void {
    if (end - start < 3) return;
    const opcode = bytes[start] | (bytes[start + 1] << 8);
    if (opcode !== LE_ADD_DEVICE_TO_RESOLVING_LIST) return;
    // [peer identity address type][peer identity address 6][peer IRK 16][local IRK 16]
    const at = start + 3;
    if (bytes[start + 2] < 39 || at + 39 > end) {
      this.skipped.add('truncated_resolving_list_command');
      return;
    }
    const addressType = bytes[at];
    const peer = irkHex(bytes, at + 7);
    if (peer !== null) {
      const key: IdentityKey = { irk: peer, source: 'resolving_list_peer', frame_number: frame };
      if (addressType <= 1) {
        key.identity_address = formatAddress(bytes, at + 1);
        key.identity_address_type = addressType === 0 ? 'public' : 'random';
      }
      this.found.push(key);
    }
    const local = irkHex(bytes, at + 23);
    if (local !== null) this.found.push({ irk: local, source: 'resolving_list_local', frame_number: frame });
  }

  /**
   * An HCI ACL data packet, `[handle + flags 2][data length 2][data]` from `start`; `direction`
   * keeps the two sides of a connection apart (pairing distributes keys both ways).
   */
  acl(bytes: Uint8Array, start: number, end: number, frame: number, direction: number): void {
    if (end - start < 4) return;
    const handleAndFlags = bytes[start] | (bytes[start + 1] << 8);
    const stream = ((handleAndFlags & 0x0fff) << 2) | (direction + 1);
    const dataEnd = Math.min(end, start + 4 + (bytes[start + 2] | (bytes[start + 3] << 8)));
    // Packet boundary 0b01: a continuation fragment; 0b00 and 0b10 start an L2CAP packet.
    if (((handleAndFlags >> 12) & 0x3) === 0x1) this.continuation(stream, bytes, start + 4, dataEnd, frame);
    else this.l2capStart(stream, bytes, start + 4, dataEnd, frame, false);
  }

  /**
   * A link-layer data channel PDU, `[header 2][payload][CRC 3]` from `start` (after the access
   * address), of the connection with `accessAddress`. `crcStatus` is the sniffer's verdict (0
   * bad: ignored). Only plaintext L2CAP on the SMP channel is read (see above).
   */
  linkLayerData(bytes: Uint8Array, start: number, end: number, frame: number, accessAddress: number, crcStatus: number): void {
    if (crcStatus === 0 || end - start < 2) return;
    const header = bytes[start];
    // CP (bit 5): a CTEInfo octet follows the header.
    const payload = start + 2 + (header & 0x20 ? 1 : 0);
    const payloadEnd = payload + bytes[start + 1];
    if (payloadEnd > end) return;
    // Streams of LL connections sit above every HCI handle/direction stream (< 2^14).
    const stream = 0x4000 + accessAddress;
    const llid = header & 0x03;
    if (llid === 0x1) {
      if (payloadEnd > payload) this.continuation(stream, bytes, payload, payloadEnd, frame);
    } else if (llid === 0x2) this.l2capStart(stream, bytes, payload, payloadEnd, frame, true);
  }

  /** The first fragment of an L2CAP packet in `bytes[data..dataEnd)`. */
  private l2capStart(stream: number, bytes: Uint8Array, data: number, dataEnd: number, frame: number, exact: boolean): void {
    this.abandon(stream);
    if (dataEnd - data < 4) return;
    const length = bytes[data] | (bytes[data + 1] << 8);
    const cid = bytes[data + 2] | (bytes[data + 3] << 8);
    if (cid !== SMP_CID) return;
    const payload = data + 4;
    // Link layer: a PDU longer than its L2CAP packet is encrypted (MIC) or not L2CAP at all, and
    // only key PDUs are reassembled from there.
    if (exact && (dataEnd - payload > length || (dataEnd - payload < length && !(payload < dataEnd && isKeyCode(bytes[payload]))))) return;
    if (length > SMP_MAX_LENGTH) {
      if (payload < dataEnd && isKeyCode(bytes[payload])) this.skipped.add('bad_smp_length');
      return;
    }
    if (dataEnd - payload >= length) {
      this.smp(stream, bytes, payload, payload + length, frame);
      return;
    }
    const reassembly: Reassembly = { length, bytes: new Uint8Array(length), filled: dataEnd - payload };
    reassembly.bytes.set(bytes.subarray(payload, dataEnd));
    this.partial.set(stream, reassembly);
  }

  /** The keys found, in frame order. Counts SMP key PDUs left incomplete at the end of the file. */
  keys(): IdentityKey[] {
    for (const stream of [...this.partial.keys()]) this.abandon(stream);
    return this.found.map((key) => ({ ...key }));
  }

  private continuation(stream: number, bytes: Uint8Array, start: number, end: number, frame: number): void {
    const reassembly = this.partial.get(stream);
    if (!reassembly) return;
    const take = Math.min(end - start, reassembly.length - reassembly.filled);
    reassembly.bytes.set(bytes.subarray(start, start + take), reassembly.filled);
    reassembly.filled += take;
    if (reassembly.filled < reassembly.length) return;
    this.partial.delete(stream);
    this.smp(stream, reassembly.bytes, 0, reassembly.length, frame);
  }

  /** Drops an unfinished reassembly, counting it when it was a key PDU. */
  private abandon(stream: number): void {
    const reassembly = this.partial.get(stream);
    if (!reassembly) return;
    this.partial.delete(stream);
    if (reassembly.filled > 0 && isKeyCode(reassembly.bytes[0])) this.skipped.add('truncated_smp_key_packet');
  }

  private smp(stream: number, bytes: Uint8Array, start: number, end: number, frame: number): void {
    if (start >= end) return;
    const code = bytes[start];
    if (code === SMP.IDENTITY_INFORMATION) {
      this.awaitingAddress.delete(stream);
      if (end - start < 17) {
        this.lastKey.delete(stream);
        this.skipped.add('short_smp_identity_information');
        return;
      }
      // A retransmission (sniffers record every copy) of the key just found on this connection.
      if (this.lastKey.get(stream)?.irk === irkHex(bytes, start + 1)) return;
      const irk = irkHex(bytes, start + 1);
      if (irk === null) return;
      const key: IdentityKey = { irk, source: 'smp_identity_information', frame_number: frame };
      this.found.push(key);
      this.awaitingAddress.set(stream, key);
      this.lastKey.set(stream, key);
      return;
    }
    if (code === SMP.IDENTITY_ADDRESS_INFORMATION) {
      // A retransmitted Identity Address Information still belongs to the last key.
      const key = this.awaitingAddress.get(stream) ?? this.lastKey.get(stream);
      this.awaitingAddress.delete(stream);
      if (end - start < 8) {
        this.skipped.add('short_smp_identity_address_information');
        return;
      }
      if (key && bytes[start + 1] <= 1) {
        key.identity_address = formatAddress(bytes, start + 2);
        key.identity_address_type = bytes[start + 1] === 0 ? 'public' : 'random';
      }
      return;
    }
    // Any other SMP PDU between them breaks the pair (the specification sends 0x09 right after 0x08).
    this.awaitingAddress.delete(stream);
    this.lastKey.delete(stream);
  }
}

function isKeyCode(code: number): boolean {
  return code === SMP.IDENTITY_INFORMATION || code === SMP.IDENTITY_ADDRESS_INFORMATION;
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, value) => value.toString(16).padStart(2, '0'));

/** The little-endian IRK at `bytes[at..at+16)` as MSB-first hex, or null when it is all zero. */
export function irkHex(bytes: Uint8Array, at: number): string | null {
  let text = '';
  let zero = true;
  for (let index = 15; index >= 0; index--) {
    const value = bytes[at + index];
    if (value !== 0) zero = false;
    text += HEX_DIGITS[value];
  }
  return zero ? null : text;
}
