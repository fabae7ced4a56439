import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** An incremental SHA-256: feed the bytes in any number of chunks, then read the digest once. */
export interface Sha256Stream {
  update(chunk: Uint8Array): void;
  /** The digest as 64 lowercase hex digits. */
  hex(): string;
}

/**
 * Starts an incremental SHA-256 (@noble/hashes: audited, pure JS, no platform crypto needed).
 * WebCrypto's `subtle.digest` would need the whole file in one buffer, and a capture is
 * streamed; this hashes each chunk as it passes.
 */
export function createSha256(): Sha256Stream {
  const hash = sha256.create();
  return {
    update: (chunk) => void hash.update(chunk),
    hex: () => bytesToHex(hash.digest()),
  };
}
