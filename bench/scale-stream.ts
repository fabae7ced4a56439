/**
 * A pcap of any length as a stream, without storing it: a generated base capture's records
 * repeated, each repetition's timestamps moved on by the base's span plus a second, so the
 * stream reads as one long capture from a busy place (~5,000 advertising packets a second).
 * By default addresses and payloads repeat with the base, so the importer's dictionaries stay the
 * base's size (300 advertisers). `diverse` makes the stream as varied as a real week: every
 * repetition's advertisers take new addresses (as if each rotated once per repetition, ~200 s),
 * and one packet in ten carries a payload never seen before (real captures here have 5–20 % as
 * many distinct payloads as packets), so the dictionaries grow as they would.
 */
import { readFileSync } from 'node:fs';
import { advertisingCrcMatches, crc24Reflected } from '../src/core/data/ble/crc24.ts';

const GLOBAL_HEADER = 24;
const RECORD_HEADER = 16;
/** Offsets in a record of the base (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR): the PDU header, its payload. */
const PDU_AT = RECORD_HEADER + 14;
const PAYLOAD_AT = PDU_AT + 2;
const SCAN_REQ = 3;
const NEW_PAYLOAD_EVERY = 10;

export interface StreamOptions {
  chunkRecords?: number;
  diverse?: boolean;
}

export function* repeatedPcap(basePath: string, packets: number, { chunkRecords = 65_536, diverse = false }: StreamOptions = {}): Generator<Uint8Array> {
  const base = readFileSync(basePath);
  const view = new DataView(base.buffer, base.byteOffset, base.byteLength);
  const starts: number[] = [];
  for (let offset = GLOBAL_HEADER; offset + RECORD_HEADER <= base.length; offset += RECORD_HEADER + view.getUint32(offset + 8, true)) starts.push(offset);
  starts.push(base.length);
  const records = starts.length - 1;
  const firstSecond = view.getUint32(GLOBAL_HEADER, true);
  const spanSeconds = view.getUint32(starts[records - 1], true) - firstSecond + 1;
  yield base.subarray(0, GLOBAL_HEADER);
  let sent = 0;
  for (let repetition = 0; sent < packets; repetition++) {
    const shift = repetition * spanSeconds;
    for (let first = 0; first < records && sent < packets; first += chunkRecords) {
      const last = Math.min(records, first + chunkRecords, first + packets - sent);
      // A copy: Buffer#slice shares the base's memory, and the shift below would then pile up over the repetitions.
      const chunk = new Uint8Array(base.subarray(starts[first], starts[last]));
      const chunkView = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      for (let record = first; record < last; record++) {
        const at = starts[record] - starts[first];
        chunkView.setUint32(at, chunkView.getUint32(at, true) + shift, true);
        if (diverse) diversify(chunk, at, repetition, sent + record - first);
      }
      sent += last - first;
      yield chunk;
    }
  }
}

/**
 * Gives the record at `at` the repetition's address (its three low octets XORed with the
 * repetition; the top octet, which holds a random address's type bits, is kept) and, for one
 * packet in ten, a payload whose last two octets carry the packet's sequence number. The CRC is
 * recomputed only where it was good: the base's corrupted packets stay corrupted.
 */
function diversify(chunk: Uint8Array, at: number, repetition: number, sequence: number): void {
  const pdu = at + PDU_AT;
  const payloadLength = chunk[pdu + 1];
  const crcAt = at + PAYLOAD_AT + payloadLength;
  const crcWasGood = advertisingCrcMatches(chunk, pdu, crcAt);
  // The first address of every advertising PDU (AdvA, or ScanA of a SCAN_REQ).
  const address = at + PAYLOAD_AT;
  chunk[address] ^= repetition & 0xff;
  chunk[address + 1] ^= (repetition >>> 8) & 0xff;
  chunk[address + 2] ^= (repetition >>> 16) & 0xff;
  // A SCAN_REQ ends with the AdvA it asks for, which must keep naming the advertiser.
  const pduType = chunk[pdu] & 0x0f;
  if (pduType !== SCAN_REQ && payloadLength > 8 && sequence % NEW_PAYLOAD_EVERY === 0) {
    const serial = Math.floor(sequence / NEW_PAYLOAD_EVERY);
    chunk[crcAt - 2] = serial & 0xff;
    chunk[crcAt - 1] = (serial >>> 8) & 0xff;
  }
  if (!crcWasGood) return;
  const crc = crc24Reflected(chunk, pdu, crcAt);
  chunk[crcAt] = crc & 0xff;
  chunk[crcAt + 1] = (crc >>> 8) & 0xff;
  chunk[crcAt + 2] = (crc >>> 16) & 0xff;
}
