import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBleImporter } from './ble-importer.ts';
import { importIntegrity } from './import-integrity.ts';

// The real captures live in ../shared beside the repository (a worktree sits one level deeper).
const CAPTURES = ['../../../../../shared/captures/ble/', '../../../../../../shared/captures/ble/']
  .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
  .find((path) => existsSync(path));

const importReal = (name: string) => {
  if (!CAPTURES) throw new Error('no ../shared/captures/ble');
  const importer = createBleImporter({ captureId: 'c', fileName: name });
  importer.push(new Uint8Array(readFileSync(`${CAPTURES}${name}`)));
  const result = importer.finish();
  if (!result.ok) throw new Error(result.error.message);
  return result.value.report;
};

describe('importIntegrity', () => {
  it('is clean only when nothing failed', () => {
    const verdict = importIntegrity({ advertising_packets: 10, advertising_packets_crc_ok: 10, adv_type_counts: { ADV_IND: 10 }, skipped: {} });
    expect(verdict.status).toBe('clean');
    expect(verdict.verdict).toBe('Clean: all 10 advertising packets passed CRC; nothing skipped');
  });

  it('a single failure is a degraded import, and its share is not rounded away', () => {
    const verdict = importIntegrity({ advertising_packets: 10_000, advertising_packets_crc_ok: 9_999 });
    expect(verdict.status).toBe('degraded');
    expect(verdict.verdict).toBe('99.9 % usable: 1 of 10,000 advertising packets failed CRC');
    expect(verdict.crc_failed_share).toBe(0.0001);
  });

  it('names skips, reserved PDU types, unread bytes and warnings', () => {
    const verdict = importIntegrity({
      advertising_packets: 4,
      advertising_packets_crc_ok: 4,
      adv_type_counts: { ADV_IND: 3, RESERVED_9: 1, UNKNOWN: 0 },
      skipped: { short_pseudo_header: 2, other: 0 },
      unparsed_bytes: 12,
      warnings: [{}],
    });
    expect(verdict.reserved_pdu_types).toEqual({ RESERVED_9: 1 });
    expect(verdict.verdict).toBe('100 % usable: 1 with reserved or unknown PDU types (RESERVED_9); 2 skipped (short pseudo header: 2); 12 bytes unread after a corruption; 1 import warning');
  });

  it('a tabular report is judged by its skips and warnings', () => {
    expect(importIntegrity({ rows: 3, skipped: {}, warnings: [] }).verdict).toBe('Clean: 3 rows; nothing skipped, no warnings');
    expect(importIntegrity({ rows: 3, skipped: {}, warnings: [{}, {}] }).status).toBe('degraded');
  });

  it.runIf(CAPTURES)('auracast: none of 6,702 packets passes CRC, so the capture is unusable, never clean', () => {
    const { integrity } = importReal('auracast-afit_trial1_filtered.pcapng');
    expect(integrity.status).toBe('unusable');
    expect(integrity.crc_failed).toBe(6702);
    expect(integrity.crc_failed_share).toBe(1);
    expect(integrity.verdict).toBe('0 % usable: 6,702 of 6,702 advertising packets failed CRC');
  });

  it.runIf(CAPTURES)('tesi: 2,498 CRC-bad packets and the reserved PDU types they carry', () => {
    const { integrity } = importReal('tesi-ble_nrf_capture.pcapng');
    expect(integrity.status).toBe('degraded');
    expect(integrity.crc_failed).toBe(2498);
    expect(Object.keys(integrity.reserved_pdu_types)).toEqual(['RESERVED_9', 'RESERVED_10', 'RESERVED_11', 'RESERVED_12', 'RESERVED_13', 'RESERVED_14', 'RESERVED_15']);
    expect(integrity.verdict).toMatch(/^83 % usable: 2,498 of 14,843 advertising packets failed CRC; 110 with reserved or unknown PDU types \(RESERVED_9, /);
  });
});
