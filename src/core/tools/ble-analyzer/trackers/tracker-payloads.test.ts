import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readTrackerPayload, type BleTrackerPayloadFields } from './tracker-payloads.ts';

const hex = (bytes: ArrayLike<number>) => Array.from(bytes, (value) => value.toString(16).padStart(2, '0')).join('');
const range = (count: number, from = 0) => Array.from({ length: count }, (_, index) => (from + index) & 0xff);
const apple = (data: ArrayLike<number>): BleTrackerPayloadFields => ({ companyId: 0x004c, manufacturerData: hex(data), serviceDataUuid: '' });
const service = (uuid: string, data: ArrayLike<number>): BleTrackerPayloadFields => ({ companyId: Number.NaN, manufacturerData: '', serviceDataUuid: uuid, serviceData: hex(data) });

/** Apple offline finding, separated: type, length, status, 22 key bytes, key bits, hint. */
const separated = [0x12, 0x19, 0x10, ...range(22, 0x40), 0x02, 0x00];
/** FMDN: frame type, 20-byte ephemeral identifier, hashed flags. */
const fmdn = [0x40, ...range(20, 0x80), 0x5c];
/** SmartTag: state, 24-bit LE aging counter 0x012345, 8-byte privacy id, flags. */
const smartTag = [0x12, 0x45, 0x23, 0x01, ...range(8, 0xa0), 0x07];

describe('readTrackerPayload', () => {
  it('reads the Find My forms, separated and near the owner', () => {
    expect(readTrackerPayload(apple(separated))).toEqual({ kind: 'find_my', mode: 'separated', status: 0x10 });
    expect(readTrackerPayload(apple([0x12, 0x02, 0x24, 0x01]))).toEqual({ kind: 'find_my', mode: 'near_owner', status: 0x24 });
    // Other Apple messages (Nearby Info 0x10) and other companies are not trackers.
    expect(readTrackerPayload(apple([0x10, 0x05, 0x01, 0x18, 0x44, 0x00, 0x00])).kind).toBe('none');
    expect(readTrackerPayload({ ...apple(separated), companyId: 0x0075 }).kind).toBe('none');
  });

  it('reads FMDN frames 0x40 and 0x41 with 20- or 32-byte identifiers, and no other Eddystone frame', () => {
    expect(readTrackerPayload(service('FEAA', fmdn))).toEqual({ kind: 'fmdn', frameType: 0x40, eidBytes: 20 });
    expect(readTrackerPayload(service('feaa', [0x41, ...range(32), 0x00]))).toEqual({ kind: 'fmdn', frameType: 0x41, eidBytes: 32 });
    expect(readTrackerPayload(service('FEAA', [0x10, 0x00, 0x03, ...range(10, 0x61)])).kind).toBe('none');
    expect(readTrackerPayload(service('FE2C', fmdn)).kind).toBe('none');
  });

  it('reads the SmartTag aging counter little-endian', () => {
    expect(readTrackerPayload(service('FD5A', smartTag))).toEqual({ kind: 'smarttag', state: 0x12, agingCounter: 0x012345 });
    expect(readTrackerPayload(service('FD5A', smartTag.slice(0, 12))).kind).toBe('smarttag');
  });

  it('calls a payload that claims a format but does not hold it malformed, with the reason', () => {
    const cases: Array<[BleTrackerPayloadFields, string]> = [
      [apple([0x12]), 'without its length byte'],
      [apple([0x12, 0x19, 0x10, ...range(10)]), 'truncated: 11 of 25 bytes'],
      [apple([0x12, 0x07, ...range(7)]), 'length 7'],
      [apple([...separated.slice(0, 25), 0x42, 0x00]), 'reserved key bits'],
      [{ ...apple(separated), manufacturerData: `${hex(separated)}0` }, 'not whole hex bytes'],
      // The demo generator's find-my-device-like set: a 0x41 frame and 16 bytes (15 after the flags byte).
      [service('FEAA', [0x41, ...range(16)]), '15-byte ephemeral identifier'],
      [service('FEAA', [0x40]), '0-byte ephemeral identifier'],
      [service('FD5A', smartTag.slice(0, 9)), 'truncated: 9 of at least 12'],
      [service('FD5A', []), 'truncated: 0 of at least 12'],
      [{ ...service('FD5A', smartTag), serviceData: 'zz' }, 'not whole hex bytes'],
    ];
    for (const [fields, reason] of cases) {
      const reading = readTrackerPayload(fields);
      expect(reading.kind).toBe('malformed');
      if (reading.kind === 'malformed') expect(reading.reason).toContain(reason);
    }
  });

  it('reads every truncation of a valid payload as malformed (or as no claim when nothing is left), never as a tracker', () => {
    for (let length = 0; length < separated.length; length++) {
      const kind = readTrackerPayload(apple(separated.slice(0, length))).kind;
      expect(kind).toBe(length === 0 ? 'none' : 'malformed');
    }
    for (let length = 0; length < fmdn.length; length++) expect(readTrackerPayload(service('FEAA', fmdn.slice(0, length))).kind).toBe(length === 0 ? 'none' : 'malformed');
    for (let length = 0; length < 12; length++) expect(readTrackerPayload(service('FD5A', smartTag.slice(0, length))).kind).toBe('malformed');
  });

  it('never throws on arbitrary fields, and anything it recognizes holds the layout', () => {
    const hexText = fc.oneof(
      fc.uint8Array({ maxLength: 40 }).map(hex),
      fc.string({ maxLength: 80 }),
      // Near-misses of the real formats: the right head, then anything.
      fc.uint8Array({ maxLength: 40 }).map((tail) => hex([0x12, ...tail])),
      fc.uint8Array({ maxLength: 40 }).map((tail) => hex([0x40, ...tail])),
    );
    const fields = fc.record({
      companyId: fc.oneof(fc.constant(0x004c), fc.integer({ min: 0, max: 0xffff }), fc.constant(Number.NaN)),
      manufacturerData: hexText,
      serviceDataUuid: fc.constantFrom('', 'FEAA', 'FD5A', 'fd5a', 'FE2C', '180F', 'FEA'),
      serviceData: fc.option(hexText, { nil: undefined }),
    });
    fc.assert(
      fc.property(fields, (input) => {
        const reading = readTrackerPayload(input);
        switch (reading.kind) {
          case 'find_my': {
            const length = reading.mode === 'separated' ? 25 : 2;
            expect(input.manufacturerData.length).toBeGreaterThanOrEqual(2 * (2 + length));
            expect(input.manufacturerData.slice(0, 4).toLowerCase()).toBe(reading.mode === 'separated' ? '1219' : '1202');
            break;
          }
          case 'fmdn':
            expect((input.serviceData ?? '').length).toBe(2 * (reading.eidBytes + 2));
            break;
          case 'smarttag':
            expect((input.serviceData ?? '').length).toBeGreaterThanOrEqual(24);
            expect(reading.agingCounter).toBeLessThan(0x1000000);
            break;
          default:
            break;
        }
      }),
      { numRuns: 3000, seed: 22 },
    );
  });
});
