/**
 * pcapng (draft-ietf-opsawg-pcapng): a sequence of blocks `[type][total length][body][total
 * length]`, 4-byte aligned. Each Section Header Block sets the byte order (from its byte-order
 * magic) and starts a new list of interfaces; each Interface Description Block declares a link
 * type and a timestamp resolution (`if_tsresol`, power of 10 or of 2; default µs) and offset
 * (`if_tsoffset`). Enhanced, Simple and (obsolete) Packet Blocks carry frames; every other
 * block is skipped without being buffered.
 */
import { ContainerReader, MAX_FRAME_BYTES, u32be, u32le } from './container-reader.ts';
import { decoderForLinkType, SUPPORTED_LINK_TYPES, type Decoder } from './link-types.ts';

const BLOCK = { SECTION_HEADER: 0x0a0d0d0a, INTERFACE: 0x00000001, PACKET: 0x00000002, SIMPLE_PACKET: 0x00000003, ENHANCED_PACKET: 0x00000006 } as const;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
const OPTION = { END: 0, NAME: 2, TSRESOL: 9, TSOFFSET: 14 } as const;

/** Blocks the reader buffers whole: a frame plus generous room for options. */
const MAX_BUFFERED_BLOCK = MAX_FRAME_BYTES + 65_536;
/** Blocks larger than this cannot be real: the length field is corrupt. */
const MAX_SKIPPED_BLOCK = 256 * 1024 * 1024;

/** True when `bytes` start with a pcapng Section Header Block type. */
export function isPcapngMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32le(bytes, 0) === BLOCK.SECTION_HEADER;
}

interface Interface {
  linkType: number;
  decoder: Decoder | null;
  receiver: number;
  snapLength: number;
  /** Timestamp ticks per second, and the conversion to ms. */
  ticksPerSecond: number;
  offsetMs: number;
}

/** Reads pcapng blocks into frames, interface by interface. */
export class PcapngReader extends ContainerReader {
  private littleEndian = true;
  private interfaces: Interface[] = [];
  /** Interfaces declared in the whole file (names of unnamed ones count across sections). */
  private interfaceCount = 0;
  private readonly linkTypes = new Set<number>();
  private supportedInterfaces = 0;
  private readonly textDecoder = new TextDecoder('utf-8');

  constructor(
    sink: ConstructorParameters<typeof ContainerReader>[0],
    private readonly receiverName: string | undefined,
  ) {
    super(sink);
  }

  protected parse(): void {
    const queue = this.queue;
    while (!this.fatal && !this.stopped && queue.ensure(12)) {
      let bytes = queue.bytes;
      let at = queue.start;
      const type = this.read32(bytes, at);
      if (type === BLOCK.SECTION_HEADER) {
        const magic = u32le(bytes, at + 8);
        if (magic === BYTE_ORDER_MAGIC) this.littleEndian = true;
        else if (u32be(bytes, at + 8) === BYTE_ORDER_MAGIC) this.littleEndian = false;
        else {
          if (!this.headerDone) this.fatal = { code: 'CORRUPT_HEADER', message: 'pcapng section header has no valid byte-order magic' };
          else this.corrupt('corrupt_block');
          return;
        }
      } else if (!this.headerDone) {
        this.fatal = { code: 'UNRECOGNIZED_FORMAT', message: 'pcapng file does not start with a section header block' };
        return;
      }
      const length = this.read32(bytes, at + 4);
      if (length < 12 || length % 4 !== 0 || length > MAX_SKIPPED_BLOCK) {
        if (!this.headerDone) this.fatal = { code: 'CORRUPT_HEADER', message: `pcapng section header has an impossible length (${length})` };
        else this.corrupt('corrupt_block');
        return;
      }
      const buffered = type === BLOCK.SECTION_HEADER || type === BLOCK.INTERFACE || type === BLOCK.PACKET || type === BLOCK.SIMPLE_PACKET || type === BLOCK.ENHANCED_PACKET;
      if (!buffered) {
        // Name resolution, statistics, decryption secrets, custom blocks: not needed.
        queue.skip(length);
        continue;
      }
      if (length > MAX_BUFFERED_BLOCK) {
        if (!this.headerDone) this.fatal = { code: 'CORRUPT_HEADER', message: `pcapng section header is too long (${length} bytes)` };
        else this.corrupt('corrupt_block');
        return;
      }
      if (!queue.ensure(length)) return;
      bytes = queue.bytes;
      at = queue.start;
      if (this.read32(bytes, at + length - 4) !== length) {
        if (!this.headerDone) this.fatal = { code: 'CORRUPT_HEADER', message: 'pcapng section header lengths disagree' };
        else this.corrupt('corrupt_block');
        return;
      }
      this.block(type, bytes, at, length);
      queue.consume(length);
    }
  }

  private read32(bytes: Uint8Array, at: number): number {
    return this.littleEndian ? u32le(bytes, at) : u32be(bytes, at);
  }

  private read16(bytes: Uint8Array, at: number): number {
    return this.littleEndian ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1];
  }

  private block(type: number, bytes: Uint8Array, at: number, length: number): void {
    switch (type) {
      case BLOCK.SECTION_HEADER: {
        if (length < 28) {
          if (!this.headerDone) this.fatal = { code: 'CORRUPT_HEADER', message: 'pcapng section header is too short' };
          else this.corrupt('corrupt_block');
          return;
        }
        const major = this.read16(bytes, at + 12);
        if (major !== 1) {
          if (!this.headerDone) this.fatal = { code: 'UNSUPPORTED_VERSION', message: `pcapng version ${major} is not supported (only 1.x)` };
          else this.corrupt('unsupported_section_version');
          return;
        }
        this.headerDone = true;
        this.interfaces = [];
        return;
      }
      case BLOCK.INTERFACE:
        this.interfaceBlock(bytes, at, length);
        return;
      case BLOCK.ENHANCED_PACKET: {
        if (length < 32) return this.sink.skip('corrupt_packet_block', true);
        const captured = this.read32(bytes, at + 20);
        const timestamp = this.read32(bytes, at + 12) * 4294967296 + this.read32(bytes, at + 16);
        this.packet(this.read32(bytes, at + 8), timestamp, bytes, at + 28, captured, at + length - 4);
        return;
      }
      case BLOCK.PACKET: {
        if (length < 32) return this.sink.skip('corrupt_packet_block', true);
        const captured = this.read32(bytes, at + 20);
        const timestamp = this.read32(bytes, at + 12) * 4294967296 + this.read32(bytes, at + 16);
        this.packet(this.read16(bytes, at + 8), timestamp, bytes, at + 28, captured, at + length - 4);
        return;
      }
      case BLOCK.SIMPLE_PACKET: {
        if (length < 16) return this.sink.skip('corrupt_packet_block', true);
        const original = this.read32(bytes, at + 8);
        const snap = this.interfaces[0]?.snapLength ?? 0;
        let captured = Math.min(original, length - 16);
        if (snap > 0) captured = Math.min(captured, snap);
        this.packet(0, Number.NaN, bytes, at + 12, captured, at + length - 4);
        return;
      }
      default:
        return;
    }
  }

  private interfaceBlock(bytes: Uint8Array, at: number, length: number): void {
    if (length < 20) {
      this.corrupt('corrupt_interface_block');
      return;
    }
    const linkType = this.read16(bytes, at + 8);
    const snapLength = this.read32(bytes, at + 12);
    let name: string | null = null;
    let ticksPerSecond = 1e6;
    let offsetSeconds = 0;
    const end = at + length - 4;
    let option = at + 16;
    while (option + 4 <= end) {
      const code = this.read16(bytes, option);
      const size = this.read16(bytes, option + 2);
      const value = option + 4;
      if (code === OPTION.END || value + size > end) break;
      if (code === OPTION.NAME && size > 0) name = this.textDecoder.decode(bytes.subarray(value, value + size)).replace(/\0+$/, '');
      else if (code === OPTION.TSRESOL && size >= 1) {
        const resolution = bytes[value];
        // MSB clear: 10^-n seconds; MSB set: 2^-n seconds.
        const exponent = resolution & 0x7f;
        ticksPerSecond = resolution & 0x80 ? 2 ** exponent : 10 ** exponent;
      } else if (code === OPTION.TSOFFSET && size >= 8) {
        const high = this.read32(bytes, this.littleEndian ? value + 4 : value);
        const low = this.read32(bytes, this.littleEndian ? value : value + 4);
        // if_tsoffset is a signed 64-bit count of seconds.
        offsetSeconds = (high | 0) * 4294967296 + low;
      }
      option = value + ((size + 3) & ~3);
    }
    const decoder = decoderForLinkType(linkType);
    const index = this.interfaceCount++;
    this.linkTypes.add(linkType);
    this.sink.linkType(linkType);
    if (decoder !== null) this.supportedInterfaces++;
    const receiverName = this.receiverName ?? (name && name.length > 0 ? name : `if${index}`);
    this.interfaces.push({
      linkType,
      decoder,
      receiver: this.sink.receiverIndex(receiverName),
      snapLength,
      ticksPerSecond,
      offsetMs: offsetSeconds * 1000,
    });
  }

  private packet(interfaceId: number, timestamp: number, bytes: Uint8Array, start: number, captured: number, limit: number): void {
    const iface = this.interfaces[interfaceId];
    if (!iface) return this.sink.skip('unknown_interface', true);
    if (start + captured > limit) return this.sink.skip('corrupt_packet_block', true);
    let tsMs = Number.NaN;
    if (timestamp === timestamp) {
      const ticks = iface.ticksPerSecond;
      // Divide when a tick is at most 1 ms, so µs and ns timestamps convert with one rounding.
      tsMs = (ticks >= 1000 ? timestamp / (ticks / 1000) : timestamp * (1000 / ticks)) + iface.offsetMs;
    }
    this.sink.frame(iface.decoder, iface.linkType, iface.receiver, tsMs, bytes, start, start + captured, 0);
  }

  override finish(): void {
    super.finish();
    if (this.fatal) return;
    if (this.supportedInterfaces === 0 && this.linkTypes.size > 0) {
      const linkTypes = [...this.linkTypes].sort((a, b) => a - b);
      this.fatal = {
        code: 'UNSUPPORTED_LINK_TYPE',
        message: `pcapng interfaces have link type${linkTypes.length > 1 ? 's' : ''} ${linkTypes.map((type) => `${type} (DLT ${type})`).join(', ')}, none a supported Bluetooth link type; supported: ${SUPPORTED_LINK_TYPES.join(', ')}`,
        link_types: linkTypes,
      };
    }
  }

  protected truncatedHeaderMessage(): string {
    return 'the file ends inside the pcapng section header block';
  }
}
