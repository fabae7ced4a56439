import { describe, expect, it } from 'vitest';
import { ah, bleAhFor, formatBleAddress, parseBleAddress, parseIrk, resolvesUnder } from './ah.ts';

describe('ah (Core Vol 3 Part H §2.2.2)', () => {
  it('reproduces the specification sample data (Appendix D.7)', () => {
    const irk = parseIrk('ec0234a357c8ad05341010a60a397d9b')!;
    expect(ah(irk, 0x708194)).toBe(0x0dfbaa);
    expect(resolvesUnder('70:81:94:0D:FB:AA', irk)).toBe(true);
    expect(resolvesUnder('70:81:94:0D:FB:AB', irk)).toBe(false);
  });

  it.each([
    // IRKs found in the real captures (ble-spec.md §2), MSB first, with addresses they resolve.
    ['267483cba09b720412251bd6638d40b7', '74:3C:CF:60:32:BC'],
    ['56f128ea744b2394f11daae178ea5e5e', '54:4F:AF:48:D5:61'],
    ['56f128ea744b2394f11daae178ea5e5e', '57:41:70:B7:F4:B6'],
    ['56f128ea744b2394f11daae178ea5e5e', '78:E9:5B:E7:19:D8'],
    ['a49ae4b68dbe0abb413aeb45e3f31637', '5B:0E:B3:28:5D:C5'],
  ])('real-data IRK %s resolves %s', (hex, address) => {
    const irk = parseIrk(hex)!;
    expect(resolvesUnder(address, irk)).toBe(true);
    const bound = bleAhFor(irk);
    expect(resolvesUnder(address, bound)).toBe(true);
    // A bound function is reused across many addresses.
    expect(resolvesUnder(address, bound)).toBe(true);
    expect(resolvesUnder('70:81:94:0D:FB:AA', bound)).toBe(false);
  });

  it('does not resolve under another key, nor a non-RPA', () => {
    const mabip = parseIrk('56f128ea744b2394f11daae178ea5e5e')!;
    expect(resolvesUnder('74:3C:CF:60:32:BC', mabip)).toBe(false);
    // Same 46 low bits with static top bits: not an RPA at all.
    expect(resolvesUnder('D4:4F:AF:48:D5:61', mabip)).toBe(false);
  });

  it('the wire-order (LSB-first) IRK does not resolve: byte order matters', () => {
    expect(resolvesUnder('54:4F:AF:48:D5:61', parseIrk('5e5eea78e1aa1df194234b74ea28f156')!)).toBe(false);
  });

  it('parses keys and addresses strictly', () => {
    expect(parseIrk('xyz')).toBeUndefined();
    expect(parseIrk('ec0234a357c8ad05341010a60a397d9')).toBeUndefined();
    expect(parseBleAddress('7A:4C:21:9D:10:EF')).toBe(0x7a4c219d10ef);
    expect(parseBleAddress('7a-4c-21-9d-10-ef')).toBe(0x7a4c219d10ef);
    expect(parseBleAddress('7a4c219d10ef')).toBe(0x7a4c219d10ef);
    expect(parseBleAddress('7A:4C-21:9D:10:EF')).toBeUndefined();
    expect(formatBleAddress(0x7a4c219d10ef)).toBe('7A:4C:21:9D:10:EF');
    expect(formatBleAddress(0xffffffffffff)).toBe('FF:FF:FF:FF:FF:FF');
  });
});
