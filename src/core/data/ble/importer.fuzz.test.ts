/**
 * Fuzzing the importer: random bytes behind each container's magic, and real captures with
 * bits flipped, truncated, length fields corrupted and cut into random chunks. Whatever comes
 * in, nothing escapes as an exception, nothing hangs, nothing allocates without bound, and
 * only coded problems come out (never IMPORT_FAILED, which would mean a bug was caught).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ad, address, btsnoopFile, hciAdvertisingReport, llPacket, pcapFile, pcapngSection, withNordicHeader, withPhdr } from './__fixtures__/capture-builders.ts';
import { createBleImporter, importBleCapture } from './ble-importer.ts';
import { cpuMsSince } from '../../../test-support/cpu-time.ts';

// A bound on CPU time at least 20× what this work takes here (see src/test-support/cpu-time.ts).
const PER_FILE_CPU_MS = 2_000;

// Seeded so a failure replays; change the seed locally to explore further.
const SEED = 20260314;
const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));
/** Small real captures, one per container and link layer. */
const REAL = [
  'whad-client_sniffle_capture.pcap',
  'mhaberler-ble-advertiser_ble.pcapng',
  'crackle_le_secure_connections.pcapng',
  'crackle_pairing_and_ltk_exchange.pcap',
  'projet-rp_ble_capture.snoop',
  'horizon74_btsnoop_hci.log',
];

function samples(): Uint8Array[] {
  const A = '7A:4C:21:9D:10:EF';
  const adv = llPacket({ pduType: 0, txAdd: 1, payload: [...address(A), ...ad(0x01, [0x06]), ...ad(0xff, [0x4c, 0, 1, 2])] });
  const built = [
    pcapFile({ linkType: 256, packets: [1, 2, 3].map((seconds) => ({ seconds, fraction: 0, bytes: withPhdr(adv, { rfChannel: 12, signalDbm: -50 }) })) }),
    pcapngSection({ interfaces: [{ linkType: 272, tsresol: 9 }], blocks: [{ kind: 'epb', interfaceId: 0, timestamp: 5n, bytes: withNordicHeader(adv, { channel: 37, rssi: -40, crcOk: true }) }] }),
    btsnoopFile({ datalink: 1002, records: [{ epochUs: 1n, flags: 3, bytes: hciAdvertisingReport([{ eventType: 0, addressType: 1, address: A, data: [2, 1, 6], rssi: -30 }]) }] }),
  ];
  const real = existsSync(CAPTURES) ? REAL.map((name) => new Uint8Array(readFileSync(CAPTURES + name))) : [];
  return [...built, ...real];
}

const FILES = samples();
const HEADERS = FILES.slice(0, 3).map((file) => file.subarray(0, 32));

/** Imports in the given chunk sizes; checks the invariants every outcome must keep. */
function importChecked(bytes: Uint8Array, chunkSizes: number[] = [bytes.length || 1]) {
  const since = process.cpuUsage();
  const importer = createBleImporter({ captureId: 'fuzz', fileName: 'fuzz.bin' });
  let at = 0;
  let next = 0;
  while (at < bytes.length) {
    const size = Math.max(1, chunkSizes[next++ % chunkSizes.length]);
    importer.push(bytes.subarray(at, at + size));
    at += size;
  }
  const result = importer.finish();
  expect(cpuMsSince(since)).toBeLessThan(PER_FILE_CPU_MS);
  if (!result.ok) {
    expect(result.error.code).not.toBe('IMPORT_FAILED');
    return result;
  }
  const { table, report } = result.value;
  expect(table.numRows).toBe(report.rows);
  expect(report.advertising_packets).toBe(report.rows);
  expect(report.advertising_packets_crc_ok).toBeLessThanOrEqual(report.rows);
  expect(report.advertisers_crc_ok).toBeLessThanOrEqual(report.advertisers);
  expect(report.unparsed_bytes).toBeLessThanOrEqual(bytes.length);
  return result;
}

describe('importer fuzzing', () => {
  it('random bytes, bare or behind a real container header, never throw', () => {
    fc.assert(
      fc.property(fc.nat({ max: HEADERS.length }), fc.uint8Array({ maxLength: 2_000 }), (header, body) => {
        const bytes = header === HEADERS.length ? body : new Uint8Array([...HEADERS[header], ...body]);
        importChecked(bytes);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it('real and built files with flipped bits never throw, and chunking does not change the result', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: FILES.length - 1 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat({ max: 7 })), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 4_096 }), { minLength: 1, maxLength: 5 }),
        (which, flips, chunks) => {
          const bytes = FILES[which].slice();
          for (const [where, bit] of flips) bytes[Math.floor(where * bytes.length)] ^= 1 << bit;
          const whole = importChecked(bytes);
          const chunked = importChecked(bytes, chunks);
          expect(chunked.ok).toBe(whole.ok);
          if (whole.ok && chunked.ok) expect(chunked.value.report).toEqual(whole.value.report);
          else if (!whole.ok && !chunked.ok) expect(chunked.error.code).toBe(whole.error.code);
        },
      ),
      { seed: SEED, numRuns: 250 },
    );
  });

  it('truncations never throw', () => {
    fc.assert(
      fc.property(fc.nat({ max: FILES.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (which, fraction) => {
        const file = FILES[which];
        importChecked(file.subarray(0, Math.floor(fraction * file.length)));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('corrupted length fields (any aligned word set to a huge or random value) never throw, hang or allocate it', () => {
    const arrayBuffersBefore = process.memoryUsage().arrayBuffers;
    fc.assert(
      fc.property(
        fc.nat({ max: FILES.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.oneof(fc.constant(0xffffffff), fc.constant(0x7ffffffc), fc.constant(0x00040000), fc.constant(0), fc.constant(13), fc.nat()),
        fc.boolean(),
        (which, where, value, bigEndian) => {
          const bytes = FILES[which].slice();
          const at = Math.min(Math.floor((where * bytes.length) / 4) * 4, Math.max(0, bytes.length - 4));
          if (bytes.length >= 4) new DataView(bytes.buffer).setUint32(at, value >>> 0, !bigEndian);
          importChecked(bytes, [4_096]);
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
    // No corrupted length made the importer allocate the size it claimed.
    expect(process.memoryUsage().arrayBuffers - arrayBuffersBefore).toBeLessThan(256 * 1024 * 1024);
  });

  it('an absurd length in every container stops or skips without waiting for the bytes', () => {
    for (const file of FILES.slice(0, 3)) {
      for (let at = 0; at + 4 <= Math.min(file.length, 96); at += 4) {
        const bytes = file.slice();
        new DataView(bytes.buffer).setUint32(at, 0xfffffff0, true);
        const result = importBleCapture(bytes, { captureId: 'c', fileName: 'f' });
        expect(result.ok || result.error.code !== 'IMPORT_FAILED').toBe(true);
      }
    }
  });
});
