/**
 * The unread bytes of a stream that arrives in chunks. Readers ask for `ensure(n)` contiguous
 * bytes and parse straight out of `bytes[start..]`, which is normally the caller's chunk
 * itself: only a record that straddles two chunks is copied (the tail of one chunk joined to
 * just enough of the next). Between pushes the queue keeps no view of a caller's chunk, so
 * callers may reuse their buffers.
 */
export class ByteQueue {
  /** The current contiguous buffer; unread bytes start at `start`. */
  bytes: Uint8Array = new Uint8Array(0);
  start = 0;
  /** Bytes that follow `bytes` (the rest of the latest chunk), or null. */
  private tail: Uint8Array | null = null;
  /** True when `bytes` is a copy the queue made (not the caller's chunk). */
  private owned = true;
  /** Bytes still to be discarded that have not arrived yet. */
  private skipping = 0;

  /** Unread bytes, contiguous or not. */
  get available(): number {
    return this.bytes.length - this.start + (this.tail?.length ?? 0);
  }

  /** Bytes owed to a skip that never arrived (non-zero at the end means a truncated block). */
  get owed(): number {
    return this.skipping;
  }

  /** Adds the next chunk (after the bytes a pending skip still owes are dropped). */
  append(chunk: Uint8Array): void {
    let data = chunk;
    if (this.skipping > 0) {
      const dropped = Math.min(this.skipping, data.length);
      this.skipping -= dropped;
      data = data.subarray(dropped);
    }
    if (data.length === 0) return;
    if (this.bytes.length - this.start === 0 && this.tail === null) {
      this.bytes = data;
      this.start = 0;
      this.owned = false;
    } else if (this.tail === null) {
      this.tail = data;
    } else {
      const joined = new Uint8Array(this.tail.length + data.length);
      joined.set(this.tail);
      joined.set(data, this.tail.length);
      this.tail = joined;
    }
  }

  /**
   * Makes `count` contiguous unread bytes available at `bytes[start..]` if the queue holds
   * them; false when it does not (yet).
   */
  ensure(count: number): boolean {
    const have = this.bytes.length - this.start;
    if (have >= count) return true;
    const tail = this.tail;
    if (tail === null) return false;
    if (have === 0) {
      this.bytes = tail;
      this.start = 0;
      this.owned = false;
      this.tail = null;
      return tail.length >= count;
    }
    // A record straddles the boundary: join what is left with just enough of the tail.
    const take = Math.min(tail.length, count - have);
    const joined = new Uint8Array(have + take);
    joined.set(this.bytes.subarray(this.start));
    joined.set(tail.subarray(0, take), have);
    this.bytes = joined;
    this.start = 0;
    this.owned = true;
    this.tail = take === tail.length ? null : tail.subarray(take);
    return joined.length >= count;
  }

  consume(count: number): void {
    this.start += count;
  }

  /** Discards `count` bytes, including ones that have not arrived yet. */
  skip(count: number): void {
    let remaining = count;
    const now = Math.min(remaining, this.bytes.length - this.start);
    this.start += now;
    remaining -= now;
    if (remaining > 0 && this.tail !== null) {
      const fromTail = Math.min(remaining, this.tail.length);
      remaining -= fromTail;
      this.bytes = this.tail.subarray(fromTail);
      this.start = 0;
      this.owned = false;
      this.tail = null;
    }
    this.skipping += remaining;
  }

  /** Copies the unread bytes out of the caller's chunk; called at the end of every push. */
  detach(): void {
    if (this.tail !== null) this.ensure(this.available);
    const have = this.bytes.length - this.start;
    if (have === 0) {
      this.bytes = new Uint8Array(0);
      this.owned = true;
    } else if (!this.owned || this.start > 0) {
      this.bytes = this.bytes.slice(this.start);
      this.owned = true;
    }
    this.start = 0;
  }

  /** Forgets everything (after an unrecoverable corruption). */
  clear(): void {
    this.bytes = new Uint8Array(0);
    this.start = 0;
    this.tail = null;
    this.owned = true;
    this.skipping = 0;
  }
}
