/**
 * A pcap of any length as a stream, without storing it: a generated base capture's records
 * repeated, each repetition's timestamps moved on by the base's span plus a second, so the
 * stream reads as one long capture from a busy place (~5,000 advertising packets a second).
 * Addresses and payloads repeat with the base, so the importer's dictionaries stay the base's
 * size: memory figures are for traffic of the base's diversity (300 advertisers).
 */
import { readFileSync } from 'node:fs';

const GLOBAL_HEADER = 24;
const RECORD_HEADER = 16;

export function* repeatedPcap(basePath: string, packets: number, chunkRecords = 65_536): Generator<Uint8Array> {
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
      }
      sent += last - first;
      yield chunk;
    }
  }
}
