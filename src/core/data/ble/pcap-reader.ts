/**
 * Classic pcap: a 24-byte file header (magic, version, snaplen, link type), then records of a
 * 16-byte header (seconds, micro- or nanoseconds, captured length, original length) and the
 * bytes. The magic gives both the byte order and the timestamp unit.
 */
import { ContainerReader, MAX_FRAME_BYTES, u32be, u32le } from './container-reader.ts';
import { decoderForLinkType, SUPPORTED_LINK_TYPES, type Decoder } from './link-types.ts';

const FILE_HEADER_BYTES = 24;
const RECORD_HEADER_BYTES = 16;

/** The four pcap magic numbers as read little-endian, with what they mean. */
const MAGICS: ReadonlyArray<{ magic: number; littleEndian: boolean; nanoseconds: boolean }> = [
  { magic: 0xa1b2c3d4, littleEndian: true, nanoseconds: false },
  { magic: 0xd4c3b2a1, littleEndian: false, nanoseconds: false },
  { magic: 0xa1b23c4d, littleEndian: true, nanoseconds: true },
  { magic: 0x4d3cb2a1, littleEndian: false, nanoseconds: true },
];

/** True when `bytes` start with a pcap magic number. */
export function isPcapMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && MAGICS.some((entry) => entry.magic === u32le(bytes, 0));
}

/** Reads classic pcap records into frames. */
export class PcapReader extends ContainerReader {
  private littleEndian = true;
  private nanoseconds = false;
  private decoder: Decoder | null = null;
  private linkType = 0;
  private receiver = 0;

  constructor(
    sink: ConstructorParameters<typeof ContainerReader>[0],
    private readonly receiverName: string | undefined,
  ) {
    super(sink);
  }

  protected parse(): void {
    const queue = this.queue;
    if (!this.headerDone) {
      if (!queue.ensure(FILE_HEADER_BYTES)) return;
      if (!this.readHeader(queue.bytes, queue.start)) return;
      queue.consume(FILE_HEADER_BYTES);
    }
    const read32 = this.littleEndian ? u32le : u32be;
    const fractionPerMs = this.nanoseconds ? 1e6 : 1e3;
    const sink = this.sink;
    while (queue.ensure(RECORD_HEADER_BYTES)) {
      let bytes = queue.bytes;
      let at = queue.start;
      const captured = read32(bytes, at + 8);
      if (captured > MAX_FRAME_BYTES) {
        this.corrupt('corrupt_record_header');
        return;
      }
      if (!queue.ensure(RECORD_HEADER_BYTES + captured)) return;
      bytes = queue.bytes;
      at = queue.start;
      const tsMs = read32(bytes, at) * 1000 + read32(bytes, at + 4) / fractionPerMs;
      const start = at + RECORD_HEADER_BYTES;
      sink.frame(this.decoder, this.linkType, this.receiver, tsMs, bytes, start, start + captured, 0);
      queue.consume(RECORD_HEADER_BYTES + captured);
    }
  }

  private readHeader(bytes: Uint8Array, at: number): boolean {
    const magic = u32le(bytes, at);
    const entry = MAGICS.find((candidate) => candidate.magic === magic);
    if (!entry) {
      this.fatal = { code: 'UNRECOGNIZED_FORMAT', message: 'not a pcap file (unknown magic number)' };
      return false;
    }
    this.littleEndian = entry.littleEndian;
    this.nanoseconds = entry.nanoseconds;
    const read32 = this.littleEndian ? u32le : u32be;
    const major = this.littleEndian ? bytes[at + 4] | (bytes[at + 5] << 8) : (bytes[at + 4] << 8) | bytes[at + 5];
    if (major !== 2) {
      this.fatal = { code: 'UNSUPPORTED_VERSION', message: `pcap version ${major} is not supported (only 2.x)` };
      return false;
    }
    // The top 6 bits of the link-type field carry FCS information, not the link type.
    this.linkType = read32(bytes, at + 20) & 0x03ffffff;
    this.decoder = decoderForLinkType(this.linkType);
    if (this.decoder === null) {
      this.fatal = {
        code: 'UNSUPPORTED_LINK_TYPE',
        message: `pcap link type ${this.linkType} (DLT ${this.linkType}) is not a supported Bluetooth link type; supported: ${SUPPORTED_LINK_TYPES.join(', ')}`,
        link_types: [this.linkType],
      };
      return false;
    }
    this.sink.linkType(this.linkType);
    this.receiver = this.sink.receiverIndex(this.receiverName ?? 'if0');
    this.headerDone = true;
    return true;
  }

  protected truncatedHeaderMessage(): string {
    return `the file ends inside the ${FILE_HEADER_BYTES}-byte pcap file header`;
  }
}
