/**
 * Writes a synthetic BLE sniffer capture for the import benchmark: a classic pcap with
 * LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256) frames, as a HackRF/Sniffle sniffer writes them —
 * RF channel and signal power in the pseudo-header, then access address, PDU and CRC.
 *
 * The traffic is made to look like a busy public place: a few hundred advertisers (random
 * static, resolvable private and public addresses) on channels 37/38/39 sending ADV_IND,
 * ADV_NONCONN_IND and SCAN_RSP with realistic AD data (flags, Apple/Microsoft/Samsung
 * manufacturer data, 16-bit service UUIDs and service data, names, TX power), some SCAN_REQs,
 * and 10% of frames with a flipped bit so their CRC fails.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from '../src/core/index.ts';

/** The project's seeded generator (mulberry32), as a uniform sequence. */
const random = (seed: number): (() => number) => seededRandom(seed).uniform;

/** BLE CRC-24 over the PDU, bitwise (independent of the importer's table-driven one). */
function crc24(bytes: Uint8Array, start: number, end: number): number {
  let state = 0x555555;
  for (let index = start; index < end; index++) {
    const byte = bytes[index];
    for (let bit = 0; bit < 8; bit++) {
      const feedback = ((state >> 23) & 1) ^ ((byte >> bit) & 1);
      state = (state << 1) & 0xffffff;
      if (feedback) state ^= 0x00065b;
    }
  }
  return state;
}

function reverseBits8(value: number): number {
  let out = 0;
  for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) out |= 1 << (7 - bit);
  return out;
}

interface Advertiser {
  address: Uint8Array;
  random: boolean;
  pduType: number;
  advData: Uint8Array;
  scanResponse: Uint8Array | null;
  intervalMs: number;
}

function adStructure(type: number, data: ArrayLike<number>): number[] {
  return [data.length + 1, type, ...Array.from(data)];
}

function makeAdvertiser(next: () => number, index: number): Advertiser {
  const address = new Uint8Array(6);
  for (let octet = 0; octet < 6; octet++) address[octet] = Math.floor(next() * 256);
  const kind = next();
  const randomAddress = kind < 0.9;
  // Top two bits of the most significant octet (sent last): 11 static, 01 RPA.
  if (randomAddress) address[5] = (address[5] & 0x3f) | (kind < 0.4 ? 0xc0 : 0x40);
  const flags = adStructure(0x01, [0x1a]);
  const style = index % 5;
  let data: number[];
  switch (style) {
    case 0: {
      const payload = Array.from({ length: 22 }, () => Math.floor(next() * 256));
      data = [...flags, ...adStructure(0xff, [0x4c, 0x00, 0x10, 0x05, ...payload.slice(0, 20)])];
      break;
    }
    case 1:
      data = [...adStructure(0xff, [0x06, 0x00, 0x01, 0x09, 0x20, 0x22, ...Array.from({ length: 23 }, () => Math.floor(next() * 256))])];
      break;
    case 2:
      data = [...flags, ...adStructure(0x03, [0x6f, 0xfd]), ...adStructure(0x16, [0x6f, 0xfd, ...Array.from({ length: 20 }, () => Math.floor(next() * 256))])];
      break;
    case 3:
      data = [...flags, ...adStructure(0x0a, [0xf4]), ...adStructure(0x09, Array.from(`Sensor-${index}`, (char) => char.charCodeAt(0))), ...adStructure(0x19, [0x40, 0x03])];
      break;
    default:
      data = [...flags, ...adStructure(0xff, [0x75, 0x00, 0x42, 0x04, 0x01, 0x80, 0x66, ...Array.from({ length: 18 }, () => Math.floor(next() * 256))])];
  }
  data = data.slice(0, 31);
  const scannable = style === 0 || style === 3;
  return {
    address,
    random: randomAddress,
    pduType: scannable ? 0 : 2,
    advData: Uint8Array.from(data),
    scanResponse: scannable ? Uint8Array.from(adStructure(0x09, Array.from(`Device ${index}`, (char) => char.charCodeAt(0)))) : null,
    intervalMs: 20 + Math.floor(next() * 1000),
  };
}

/**
 * Writes `packets` frames to `path`; resolves with the file size in bytes. Deterministic
 * for a given seed.
 */
export async function writeBleBenchmarkPcap(path: string, packets: number, seed = 20260314): Promise<number> {
  const next = random(seed);
  const advertisers = Array.from({ length: 300 }, (_, index) => makeAdvertiser(next, index));
  const scanner = new Uint8Array([0x11, 0x22, 0x33, 0x44, 0x55, 0x66]);
  const stream = createWriteStream(path);
  const header = new Uint8Array(24);
  const view = new DataView(header.buffer);
  view.setUint32(0, 0xa1b2c3d4, true);
  view.setUint16(4, 2, true);
  view.setUint16(6, 4, true);
  view.setUint32(16, 65535, true);
  view.setUint32(20, 256, true);
  stream.write(header);

  const chunk = new Uint8Array(1 << 20);
  let used = 0;
  let bytes = 24;
  let timeUs = 1_754_285_447_000_000;
  const channels = [0, 12, 39];
  for (let index = 0; index < packets; index++) {
    const advertiser = advertisers[Math.floor(next() * advertisers.length)];
    timeUs += 50 + Math.floor(next() * 300);
    const roll = next();
    let pduType = advertiser.pduType;
    let payload: Uint8Array;
    let txAdd = advertiser.random ? 1 : 0;
    let rxAdd = 0;
    if (roll < 0.05) {
      // SCAN_REQ: ScanA (random) then AdvA; TxAdd is the scanner's, RxAdd the advertiser's.
      pduType = 3;
      payload = new Uint8Array(12);
      payload.set(scanner, 0);
      payload.set(advertiser.address, 6);
      rxAdd = txAdd;
      txAdd = 1;
    } else if (roll < 0.15 && advertiser.scanResponse) {
      pduType = 4;
      payload = new Uint8Array(6 + advertiser.scanResponse.length);
      payload.set(advertiser.address, 0);
      payload.set(advertiser.scanResponse, 6);
    } else {
      payload = new Uint8Array(6 + advertiser.advData.length);
      payload.set(advertiser.address, 0);
      payload.set(advertiser.advData, 6);
    }
    const frameLength = 10 + 4 + 2 + payload.length + 3;
    const recordLength = 16 + frameLength;
    if (used + recordLength > chunk.length) {
      if (!stream.write(chunk.slice(0, used))) await once(stream, 'drain');
      used = 0;
    }
    const record = chunk.subarray(used, used + recordLength);
    const recordView = new DataView(record.buffer, record.byteOffset, record.byteLength);
    recordView.setUint32(0, Math.floor(timeUs / 1e6), true);
    recordView.setUint32(4, timeUs % 1e6, true);
    recordView.setUint32(8, frameLength, true);
    recordView.setUint32(12, frameLength, true);
    const frame = 16;
    record[frame] = channels[Math.floor(next() * 3)];
    record[frame + 1] = (-40 - Math.floor(next() * 55)) & 0xff;
    record[frame + 2] = 0x80;
    recordView.setUint16(frame + 8, 0x0003, true); // dewhitened, signal power valid
    recordView.setUint32(frame + 10, 0x8e89bed6, true);
    const pdu = frame + 14;
    record[pdu] = pduType | (txAdd << 6) | (rxAdd << 7);
    record[pdu + 1] = payload.length;
    record.set(payload, pdu + 2);
    const crcAt = pdu + 2 + payload.length;
    const crc = crc24(record, pdu, crcAt);
    record[crcAt] = reverseBits8((crc >> 16) & 0xff);
    record[crcAt + 1] = reverseBits8((crc >> 8) & 0xff);
    record[crcAt + 2] = reverseBits8(crc & 0xff);
    if (next() < 0.1) record[pdu + 2 + Math.floor(next() * payload.length)] ^= 1 << Math.floor(next() * 8);
    used += recordLength;
    bytes += recordLength;
  }
  stream.write(chunk.slice(0, used));
  stream.end();
  await once(stream, 'finish');
  return bytes;
}
