/** State shared by the link-layer and HCI decoders while one file is imported. */
import type { IdentityKeyCollector } from './identity-keys.ts';
import type { RecordWriter } from './record-writer.ts';

/** Counts by name, in first-seen order. */
export class Tally {
  readonly counts = new Map<string, number>();

  add(key: string, count = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + count);
  }

  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }

  toObject(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** Where the decoders put what they find, and the frame they are decoding. */
export interface DecodeContext {
  writer: RecordWriter;
  /** Frames without an advertising record, by kind. */
  nonAdvertising: Tally;
  /** Frames or parts of frames that could not be decoded, by reason. */
  skipped: Tally;
  /** Identity resolving keys in HCI commands and SMP over ACL (see identity-keys.ts). */
  identityKeys: IdentityKeyCollector;
  /** The frame being decoded. */
  tsMs: number;
  receiver: number;
  frame: number;
}

/** Signed value of a byte. */
export function int8(value: number): number {
  return value > 127 ? value - 256 : value;
}
