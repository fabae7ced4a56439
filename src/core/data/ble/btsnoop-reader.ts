/**
 * btsnoop (RFC 1761 "snoop" adapted by Symbian; Android's `btsnoop_hci.log`, BlueZ's
 * `btmon -w`): a 16-byte header (`btsnoop\0`, version 1, datalink), then records of a 24-byte
 * big-endian header (original length, included length, flags, cumulative drops, 64-bit
 * timestamp in µs since midnight 1 January of year 0) and the bytes.
 */
import { ContainerReader, MAX_FRAME_BYTES, u32be } from './container-reader.ts';
import { BTSNOOP_DATALINK, DECODER, LINKTYPE, type Decoder } from './link-types.ts';

const FILE_HEADER_BYTES = 16;
const RECORD_HEADER_BYTES = 24;
const MAGIC = [0x62, 0x74, 0x73, 0x6e, 0x6f, 0x6f, 0x70, 0x00]; // "btsnoop\0"

/**
 * 0x00DCDDB30F2F8000 µs: from 0000-01-01 to 1970-01-01 in the proleptic Gregorian calendar as
 * btsnoop writers count it (Wireshark's KUnixTimeBase), split in two exact 32-bit halves.
 */
const EPOCH_OFFSET_HIGH = 0x00dcddb3;
const EPOCH_OFFSET_LOW = 0x0f2f8000;

/** True when `bytes` start with the btsnoop magic. */
export function isBtsnoopMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((value, index) => bytes[index] === value);
}

/** The µs-since-year-0 timestamp `high·2³² + low` as Unix epoch milliseconds, exactly. */
export function btsnoopTimestampToEpochMs(high: number, low: number): number {
  // Subtracting half by half keeps every term an exact double (the full value exceeds 2^53).
  return ((high - EPOCH_OFFSET_HIGH) * 4294967296 + (low - EPOCH_OFFSET_LOW)) / 1000;
}

/** Reads btsnoop records into frames; the datalink picks the decoder. */
export class BtsnoopReader extends ContainerReader {
  private decoder: Decoder = DECODER.HCI_H4;
  private linkType = 0;
  private receiver = 0;
  /** Linux-monitor adapters by index: receiver dictionary indices. */
  private readonly adapters = new Map<number, number>();
  datalink = 0;

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
    const sink = this.sink;
    while (queue.ensure(RECORD_HEADER_BYTES)) {
      let bytes = queue.bytes;
      let at = queue.start;
      const included = u32be(bytes, at + 4);
      if (included > MAX_FRAME_BYTES) {
        this.corrupt('corrupt_record_header');
        return;
      }
      if (!queue.ensure(RECORD_HEADER_BYTES + included)) return;
      bytes = queue.bytes;
      at = queue.start;
      const flags = u32be(bytes, at + 8);
      const tsMs = btsnoopTimestampToEpochMs(u32be(bytes, at + 16), u32be(bytes, at + 20));
      const start = at + RECORD_HEADER_BYTES;
      const receiver = this.decoder === DECODER.BTSNOOP_LINUX_MONITOR ? this.adapterReceiver(flags >>> 16) : this.receiver;
      sink.frame(this.decoder, this.linkType, receiver, tsMs, bytes, start, start + included, flags);
      queue.consume(RECORD_HEADER_BYTES + included);
    }
  }

  private adapterReceiver(adapter: number): number {
    let receiver = this.adapters.get(adapter);
    if (receiver === undefined) {
      receiver = this.sink.receiverIndex(this.receiverName ?? `hci${adapter}`);
      this.adapters.set(adapter, receiver);
    }
    return receiver;
  }

  private readHeader(bytes: Uint8Array, at: number): boolean {
    if (!isBtsnoopMagic(bytes.subarray(at, at + 8))) {
      this.fatal = { code: 'UNRECOGNIZED_FORMAT', message: 'not a btsnoop file (bad magic)' };
      return false;
    }
    const version = u32be(bytes, at + 8);
    if (version !== 1) {
      this.fatal = { code: 'UNSUPPORTED_VERSION', message: `btsnoop version ${version} is not supported (only 1)` };
      return false;
    }
    this.datalink = u32be(bytes, at + 12);
    switch (this.datalink) {
      case BTSNOOP_DATALINK.H4:
        this.decoder = DECODER.HCI_H4;
        this.linkType = LINKTYPE.BLUETOOTH_HCI_H4_WITH_PHDR;
        break;
      case BTSNOOP_DATALINK.H1:
        this.decoder = DECODER.BTSNOOP_H1;
        this.linkType = LINKTYPE.BLUETOOTH_HCI_H4_WITH_PHDR;
        break;
      case BTSNOOP_DATALINK.LINUX_MONITOR:
        this.decoder = DECODER.BTSNOOP_LINUX_MONITOR;
        this.linkType = LINKTYPE.BLUETOOTH_LINUX_MONITOR;
        break;
      default:
        this.fatal = {
          code: 'UNSUPPORTED_LINK_TYPE',
          message: `btsnoop datalink ${this.datalink} is not supported; supported: 1001 (HCI H1), 1002 (HCI UART H4), 2001 (Linux monitor)`,
          link_types: [this.datalink],
        };
        return false;
    }
    this.sink.linkType(this.linkType);
    if (this.decoder !== DECODER.BTSNOOP_LINUX_MONITOR) this.receiver = this.sink.receiverIndex(this.receiverName ?? 'hci0');
    this.headerDone = true;
    return true;
  }

  protected truncatedHeaderMessage(): string {
    return `the file ends inside the ${FILE_HEADER_BYTES}-byte btsnoop header`;
  }
}
