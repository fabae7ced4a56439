/**
 * Every real capture in ../shared/captures/ble/ against what Wireshark's dissectors say about
 * it (tshark 4.0, recorded once in __fixtures__/tshark-expected.json by
 * bench/tshark-expected.ts, with the commands used): frame counts, advertising PDUs per type,
 * advertiser addresses with their TxAdd, timestamps, and CRC verdicts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Table } from 'apache-arrow';
import expected from './__fixtures__/tshark-expected.json';
import { ADDRESS_TYPE_NAMES } from './record-writer.ts';
import { llPduTypeOf } from './adv-types.ts';
import { createBleImporter } from './ble-importer.ts';

const CAPTURES = fileURLToPath(new URL('../../../../../shared/captures/ble/', import.meta.url));

interface AddressSet {
  count: number;
  sha256: string;
  list?: string[];
}

interface Expectation {
  kind: 'link-layer' | 'hci';
  command: string;
  sha256: string;
  packets: number;
  advertising_packets: number;
  pdu_type_counts?: Record<string, number>;
  adv_type_counts?: Record<string, number>;
  advertisers: AddressSet;
  first_ts_epoch: string;
  last_ts_epoch: string;
  ts_us_sha256: string;
  crc?: {
    source: string;
    bad: number;
    bad_frames_sha256: string;
    unverified_frames: number[];
    unverified_frames_with_good_crc_by_bitwise_check: number[];
    advertisers_crc_ok_on_verified_frames: AddressSet;
  };
}

const captures = expected.captures as Record<string, Expectation>;
const ADVERTISER_SENT_PDU = new Set([0, 1, 2, 4, 6, 7, 8]);

const sha256 = (lines: ReadonlyArray<string>) => createHash('sha256').update(lines.join('\n')).digest('hex');

function columnValues(table: Table, name: string): unknown[] {
  const vector = table.getChild(name)!;
  return Array.from({ length: vector.length }, (_, index) => vector.get(index));
}

function compareSet(actual: Set<string>, wanted: AddressSet): void {
  const sorted = [...actual].sort();
  if (wanted.list) expect(sorted).toEqual(wanted.list);
  expect(sorted.length).toBe(wanted.count);
  expect(sha256(sorted)).toBe(wanted.sha256);
}

describe.skipIf(!existsSync(CAPTURES))('real captures agree with Wireshark', () => {
  it(`fixture was made with ${expected.tshark_version}`, () => {
    expect(Object.keys(captures).length).toBeGreaterThanOrEqual(18);
  });

  for (const [name, wanted] of Object.entries(captures)) {
    it(name, () => {
      const bytes = readFileSync(CAPTURES + name);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(wanted.sha256);
      // Streamed in 64 KiB chunks, as the app's worker feeds File.stream().
      const importer = createBleImporter({ captureId: 'real', fileName: name });
      for (let at = 0; at < bytes.length; at += 65_536) importer.push(bytes.subarray(at, at + 65_536));
      const result = importer.finish();
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      const { table, report } = result.value;

      expect(report.packets).toBe(wanted.packets);
      expect(report.advertising_packets).toBe(wanted.advertising_packets);
      expect(report.rows).toBe(wanted.advertising_packets);
      expect(report.skipped).toEqual({});

      const advTypes = columnValues(table, 'adv_type') as string[];
      const addresses = columnValues(table, 'advertiser_addr') as Array<string | null>;
      const txAdds = columnValues(table, 'tx_add') as Array<number | null>;
      const addressTypes = columnValues(table, 'advertiser_addr_type') as Array<string | null>;
      const frames = columnValues(table, 'frame_number') as number[];
      const crcOk = columnValues(table, 'crc_ok') as Array<boolean | null>;
      const ts = columnValues(table, 'ts_ms') as number[];

      // Timestamps: every one, to the microsecond.
      expect(sha256(ts.map((value) => String(Math.round(value * 1000))))).toBe(wanted.ts_us_sha256);
      expect(ts[0]).toBeCloseTo(Number(wanted.first_ts_epoch) * 1000, 2);
      expect(ts.at(-1)).toBeCloseTo(Number(wanted.last_ts_epoch) * 1000, 2);

      const advertisers = new Set<string>();
      if (wanted.kind === 'hci') {
        const counts: Record<string, number> = {};
        for (const type of advTypes) counts[type] = (counts[type] ?? 0) + 1;
        expect(counts).toEqual(wanted.adv_type_counts);
        expect(report.adv_type_counts).toEqual(wanted.adv_type_counts);
        addresses.forEach((address, row) => {
          if (address !== null) advertisers.add(`${address}/${ADDRESS_TYPE_NAMES.indexOf(addressTypes[row] as (typeof ADDRESS_TYPE_NAMES)[number])}`);
        });
        compareSet(advertisers, wanted.advertisers);
        expect(report.advertisers).toBe(new Set(addresses.filter((address) => address !== null)).size);
        return;
      }

      // Link layer: PDU types by number (AUX_* names share their primary-channel numbers).
      const counts: Record<string, number> = {};
      for (const type of advTypes) {
        const number = llPduTypeOf(type);
        counts[String(number)] = (counts[String(number)] ?? 0) + 1;
      }
      expect(counts).toEqual(wanted.pdu_type_counts);

      const crc = wanted.crc!;
      const unverified = new Set(crc.unverified_frames);
      const advertisersCrcOk = new Set<string>();
      const distinct = new Set<string>();
      const distinctCrcOk = new Set<string>();
      advTypes.forEach((type, row) => {
        const address = addresses[row];
        if (!ADVERTISER_SENT_PDU.has(llPduTypeOf(type) ?? -1) || address === null) return;
        // For advertiser-sent PDUs, TxAdd is AdvA's type.
        const pair = `${address}/${txAdds[row]}`;
        advertisers.add(pair);
        distinct.add(address);
        if (crcOk[row] !== false) distinctCrcOk.add(address);
        if (crcOk[row] === true && !unverified.has(frames[row])) advertisersCrcOk.add(pair);
      });
      compareSet(advertisers, wanted.advertisers);
      compareSet(advertisersCrcOk, crc.advertisers_crc_ok_on_verified_frames);
      expect(report.advertisers).toBe(distinct.size);
      expect(report.advertisers_crc_ok).toBe(distinctCrcOk.size);

      // CRC verdicts agree on every frame where tshark made one.
      const bad = frames.filter((frame, row) => crcOk[row] === false);
      expect(bad.filter((frame) => !unverified.has(frame)).length).toBe(crc.bad);
      expect(sha256(bad.filter((frame) => !unverified.has(frame)).map(String))).toBe(crc.bad_frames_sha256);
      // Where tshark gave no verdict (malformed before the CRC), an independent bitwise check did.
      const goodByBitwiseCheck = new Set(crc.unverified_frames_with_good_crc_by_bitwise_check);
      frames.forEach((frame, row) => {
        if (unverified.has(frame)) expect(crcOk[row], `frame ${frame}`).toBe(goodByBitwiseCheck.has(frame));
      });
      expect(crcOk.every((value) => value !== null)).toBe(true);
      expect(report.advertising_packets_crc_ok).toBe(crcOk.filter((value) => value !== false).length);
    });
  }
});
