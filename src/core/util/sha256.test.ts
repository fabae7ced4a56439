import { describe, expect, it } from 'vitest';
import { createSha256 } from './sha256.ts';

describe('createSha256', () => {
  it('gives the FIPS 180-2 digests whatever the chunking', () => {
    const abc = createSha256();
    abc.update(new TextEncoder().encode('abc'));
    expect(abc.hex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const empty = createSha256();
    expect(empty.hex()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const text = new TextEncoder().encode('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq');
    const chunked = createSha256();
    for (let at = 0; at < text.length; at += 7) chunked.update(text.subarray(at, at + 7));
    expect(chunked.hex()).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });
});
