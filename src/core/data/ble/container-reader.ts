/**
 * What the three container readers (pcap, pcapng, btsnoop) share: a byte queue fed by chunks,
 * a sink that receives frames, and the rules for damage: a problem in the file header is a
 * whole-file failure; a corrupt record header later on stops reading (a length can no longer
 * be trusted, so there is no way to resynchronise) and is counted.
 */
import { ByteQueue } from './byte-queue.ts';
import type { CaptureImportProblem } from './import-report.ts';
import type { Decoder } from './link-types.ts';

/** Largest frame the readers accept (Wireshark's WTAP_MAX_PACKET_SIZE_STANDARD). */
export const MAX_FRAME_BYTES = 262_144;

/** Receives what a container reader finds. */
export interface FrameSink {
  /**
   * One frame: its bytes are `bytes[start..end)` (valid only during the call). `tsMs` is epoch
   * milliseconds or NaN when the container gives none; `flags` is the btsnoop record flags (0
   * for pcap/pcapng); `decoder` is null when the frame's link type is not decoded.
   */
  frame(decoder: Decoder | null, linkType: number, receiver: number, tsMs: number, bytes: Uint8Array, start: number, end: number, flags: number): void;
  /** A problem; `isFrame` when it cost a whole frame (the frame still counts as a packet). */
  skip(reason: string, isFrame: boolean): void;
  /** An interface with this link type exists in the file. */
  linkType(linkType: number): void;
  /** Dictionary index for a receiver name. */
  receiverIndex(name: string): number;
}

/** A container reader: `push` chunks, `finish` at the end; problems land in `fatal` or the sink. */
export abstract class ContainerReader {
  protected readonly queue = new ByteQueue();
  /** Set when the file cannot be imported at all. */
  fatal: CaptureImportProblem | null = null;
  /** Set after an unrecoverable corruption: everything after it is counted, not read. */
  protected stopped = false;
  unparsedBytes = 0;
  /** True once the file header has been read. */
  protected headerDone = false;

  constructor(protected readonly sink: FrameSink) {}

  push(chunk: Uint8Array): void {
    if (this.fatal) return;
    if (this.stopped) {
      this.unparsedBytes += chunk.length;
      return;
    }
    this.queue.append(chunk);
    this.parse();
    if (this.stopped) {
      this.unparsedBytes += this.queue.available;
      this.queue.clear();
    }
    this.queue.detach();
  }

  /** Reads whatever complete units the queue holds. */
  protected abstract parse(): void;

  /** What a file that ends now lacks; sets `fatal` or counts a truncated record. */
  finish(): void {
    if (this.fatal || this.stopped) return;
    if (!this.headerDone) {
      this.fatal = { code: 'TRUNCATED_HEADER', message: this.truncatedHeaderMessage() };
      return;
    }
    if (this.queue.available > 0 || this.queue.owed > 0) {
      this.sink.skip('truncated_record', false);
      this.unparsedBytes += this.queue.available;
      this.queue.clear();
    }
  }

  protected abstract truncatedHeaderMessage(): string;

  /** Stops reading after a corrupt record header. */
  protected corrupt(reason: string): void {
    this.sink.skip(reason, false);
    this.stopped = true;
  }
}

/** Unsigned 16-bit big-endian integer at `at`. */
export function u16be(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 8) | bytes[at + 1];
}

/** Unsigned 32-bit little-endian integer at `at`. */
export function u32le(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** Unsigned 32-bit big-endian integer at `at`. */
export function u32be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}
