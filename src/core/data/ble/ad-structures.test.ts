import { describe, expect, it } from 'vitest';
import { ad, ascii } from './__fixtures__/capture-builders.ts';
import { createAdSummary, fnv1a64, parseAdStructures } from './ad-structures.ts';
import { formatAddress, formatUuid } from './address.ts';

function parse(bytes: number[]) {
  const summary = createAdSummary();
  parseAdStructures(Uint8Array.from(bytes), 0, bytes.length, summary);
  return summary;
}

describe('parseAdStructures', () => {
  it('finds flags, TX power, appearance, manufacturer data and service data', () => {
    const bytes = [...ad(0x01, [0x1a]), ...ad(0x0a, [0xf4]), ...ad(0x19, [0x40, 0x03]), ...ad(0xff, [0x4c, 0x00, 0x12, 0x19]), ...ad(0x16, [0x6f, 0xfd, 0xaa, 0xbb])];
    const summary = parse(bytes);
    expect(summary.structures).toBe(5);
    expect(summary.flags).toBe(0x1a);
    expect(summary.txPower).toBe(0xf4);
    expect(summary.appearance).toBe(0x0340);
    expect(summary.companyId).toBe(0x004c);
    expect(bytes.slice(summary.manufacturerStart, summary.manufacturerEnd)).toEqual([0x12, 0x19]);
    expect(summary.serviceDataUuidSize).toBe(2);
    expect(bytes.slice(summary.serviceDataStart, summary.serviceDataEnd)).toEqual([0xaa, 0xbb]);
    expect(summary.signatureEnd).toBe(bytes.length);
  });

  it('prefers the Complete Local Name over a Shortened one, whatever the order', () => {
    const bytes = [...ad(0x08, ascii('Sho')), ...ad(0x09, ascii('Shortened'))];
    const summary = parse(bytes);
    expect(String.fromCharCode(...bytes.slice(summary.nameStart, summary.nameEnd))).toBe('Shortened');
    expect(summary.nameComplete).toBe(true);
  });

  it('keeps every service UUID of the UUID-list types, formatted by size', () => {
    const uuid128 = [0x9e, 0xca, 0xdc, 0x24, 0x0e, 0xe5, 0xa9, 0xe0, 0x93, 0xf3, 0xa3, 0xb5, 0x01, 0x00, 0x40, 0x6e];
    const bytes = [...ad(0x03, [0x0f, 0x18, 0x0a, 0x18]), ...ad(0x05, [0x78, 0x56, 0x34, 0x12]), ...ad(0x07, uuid128)];
    const summary = parse(bytes);
    const array = Uint8Array.from(bytes);
    const uuids = Array.from({ length: summary.uuidCount }, (_, index) => formatUuid(array, summary.uuidOffsets[index], summary.uuidSizes[index]));
    expect(uuids).toEqual(['180F', '180A', '12345678', '6E400001-B5A3-F393-E0A9-E50E24DCCA9E']);
  });

  it('stops at a zero length (padding) and ignores a structure that runs past the end', () => {
    const padded = parse([...ad(0x01, [0x06]), 0, 0, 0]);
    expect(padded.structures).toBe(1);
    expect(padded.signatureEnd).toBe(3);
    const truncated = parse([...ad(0x01, [0x06]), 0x1b, 0xff, 0x4c, 0x00]);
    expect(truncated.structures).toBe(1);
    expect(truncated.truncated).toBe(true);
    expect(truncated.companyId).toBe(-1);
  });

  it('ignores structures too short for their type', () => {
    const summary = parse([...ad(0x19, [0x40]), ...ad(0xff, [0x4c])]);
    expect(summary.appearance).toBe(-1);
    expect(summary.companyId).toBe(-1);
    expect(summary.structures).toBe(2);
  });
});

describe('fnv1a64', () => {
  const hex = (text: string) => {
    const out = new Uint32Array(2);
    const bytes = new TextEncoder().encode(text);
    fnv1a64(bytes, 0, bytes.length, out);
    return out[0].toString(16).padStart(8, '0') + out[1].toString(16).padStart(8, '0');
  };

  it('matches the published FNV-1a 64 test vectors', () => {
    expect(hex('')).toBe('cbf29ce484222325');
    expect(hex('a')).toBe('af63dc4c8601ec8c');
    expect(hex('foobar')).toBe('85944171f73967e8');
  });
});

describe('formatAddress', () => {
  it('prints the most significant octet (sent last) first, upper case', () => {
    expect(formatAddress(Uint8Array.from([0xef, 0x10, 0x9d, 0x21, 0x4c, 0x7a]), 0)).toBe('7A:4C:21:9D:10:EF');
  });
});
