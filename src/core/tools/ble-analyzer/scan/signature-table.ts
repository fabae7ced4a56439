import { bleAsciiText } from './column-access.ts';
import { BleGrowableInt32 } from '../shared/growable.ts';

/**
 * Payload ids by signature text, in order of first sight, for the scan's second pass. A new
 * dictionary entry of ASCII bytes (every hex signature) is hashed and compared as bytes, so no
 * string is made for it: making one and looking it up in a Map cost the second pass about
 * 0.8 µs per distinct payload, 6 ms per million rows. Its text is made only when asked for.
 * Other entries come as strings. Both are hashed and compared by UTF-16 code unit, which for
 * ASCII bytes are the bytes themselves, so equal texts get one id however they came.
 */
export class BleSignatureTable {
  /** Open addressing: id + 1 per slot, 0 for empty; the length is a power of two. */
  private slots = new Int32Array(1024);
  private readonly hashes = new BleGrowableInt32(256);
  /** Per id: its bytes [from, to) in `sources`, or (source undefined) its text in `texts`. */
  private readonly sources: Array<Uint8Array | undefined> = [];
  private readonly from = new BleGrowableInt32(256);
  private readonly to = new BleGrowableInt32(256);
  private readonly texts: Array<string | undefined> = [];
  /**
   * The hash's starting value, drawn per table: signatures come from the capture, and a capture
   * built so that its signatures collide under a known seed would make every lookup a long probe.
   * Ids follow first sight, so the seed never shows in a result.
   */
  private readonly seed = (Math.random() * 2 ** 32) | 0;

  get size(): number {
    return this.texts.length;
  }

  /**
   * The id of the text whose ASCII bytes are `bytes[from, to)`, made if new; -1 (nothing made)
   * when a byte is not ASCII, since those bytes are not the text's code units.
   */
  idOfAscii(bytes: Uint8Array, from: number, to: number): number {
    let hash = this.seed;
    for (let index = from; index < to; index++) {
      const byte = bytes[index];
      if (byte >= 0x80) return -1;
      hash = Math.imul(hash ^ byte, HASH_PRIME);
    }
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] - 1;
      if (id < 0) return this.add(slot, hash, bytes, from, to, undefined);
      if (this.hashes.values[id] === hash && this.equalsBytes(id, bytes, from, to)) return id;
    }
  }

  /** The id of `text`, made if new. */
  idOfText(text: string): number {
    let hash = this.seed;
    for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), HASH_PRIME);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] - 1;
      if (id < 0) return this.add(slot, hash, undefined, 0, 0, text);
      if (this.hashes.values[id] === hash && this.text(id) === text) return id;
    }
  }

  /** The text of an id (made from its bytes the first time). */
  text(id: number): string {
    let text = this.texts[id];
    if (text === undefined) {
      text = asciiString(this.sources[id]!, this.from.values[id], this.to.values[id]);
      this.texts[id] = text;
      // The bytes are no longer needed for comparisons.
      this.sources[id] = undefined;
    }
    return text;
  }

  private equalsBytes(id: number, bytes: Uint8Array, from: number, to: number): boolean {
    const source = this.sources[id];
    if (source === undefined) {
      const text = this.texts[id]!;
      if (text.length !== to - from) return false;
      for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) !== bytes[from + index]) return false;
      return true;
    }
    const sourceFrom = this.from.values[id];
    if (this.to.values[id] - sourceFrom !== to - from) return false;
    for (let index = 0; index < to - from; index++) if (source[sourceFrom + index] !== bytes[from + index]) return false;
    return true;
  }

  private add(slot: number, hash: number, bytes: Uint8Array | undefined, from: number, to: number, text: string | undefined): number {
    const id = this.texts.length;
    this.slots[slot] = id + 1;
    this.hashes.push(hash);
    this.sources.push(bytes);
    this.from.push(from);
    this.to.push(to);
    this.texts.push(text);
    // At most half full, so probes stay short.
    if (2 * (id + 1) > this.slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(2 * this.slots.length);
    const mask = slots.length - 1;
    const hashes = this.hashes.values;
    for (let id = 0; id < this.texts.length; id++) {
      let slot = hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

/** FNV-1a's prime (32-bit), over code units rather than bytes, from a random start. */
const HASH_PRIME = 0x01000193;

/** ASCII bytes as a string, in pieces of at most 256 (bleAsciiText's limit). */
function asciiString(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let start = from; start < to; start += 256) text += bleAsciiText(bytes, start, Math.min(to, start + 256))!;
  return text;
}
