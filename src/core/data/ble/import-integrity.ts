/**
 * The import's integrity in numbers and in words: what share of the advertising packets can be
 * trusted (CRC not known bad), how many failed their CRC, which PDU types are reserved or unknown
 * (they come from bit-flipped frames), and what was skipped and why. A capture is called clean
 * only when none of these happened; an investigator reads "clean" as "trust this".
 */

/** clean: nothing failed; degraded: some packets failed or were skipped; unusable: no packet is trustworthy. */
export type ImportIntegrityStatus = 'clean' | 'degraded' | 'unusable';

export interface ImportIntegrity {
  status: ImportIntegrityStatus;
  /** Advertising packets whose CRC failed. */
  crc_failed: number;
  /** crc_failed / advertising packets (0 without packets). */
  crc_failed_share: number;
  /** Share of advertising packets whose CRC is good or unknown (0 without packets). */
  usable_share: number;
  /** Records per reserved or unknown PDU type (RESERVED_9…15, UNKNOWN), in the report's order. */
  reserved_pdu_types: Record<string, number>;
  /** Frames or parts of frames skipped, all reasons together. */
  skipped_total: number;
  /** Bytes after an unrecoverable corruption that were not read. */
  unparsed_bytes: number;
  /** Import warnings (tabular files: bad UTF-8, unterminated quotes, …). */
  warnings: number;
  /** One sentence, e.g. "83 % usable: 2,498 of 14,843 advertising packets failed CRC; …". */
  verdict: string;
}

/** The report fields the verdict reads; every one optional so any stored report (or a CSV's) can be judged. */
export interface IntegrityInput {
  advertising_packets?: number;
  advertising_packets_crc_ok?: number;
  adv_type_counts?: Record<string, number>;
  skipped?: Record<string, number>;
  unparsed_bytes?: number;
  warnings?: readonly unknown[];
  rows?: number;
}

const RESERVED_PDU = /^(RESERVED_\d+|UNKNOWN)$/;

const count = (value: number): string => value.toLocaleString('en-US');

/** 83.2 % → "83 %"; never rounds a loss away: 99.97 % reads "99.9 %", 0.03 % reads "0.1 %". */
export function formatShare(share: number): string {
  if (share <= 0) return '0 %';
  if (share >= 1) return '100 %';
  const whole = Math.round(share * 100);
  if (whole > 0 && whole < 100) return `${whole} %`;
  return whole >= 100 ? `${(Math.floor(share * 1000) / 10).toFixed(1)} %` : `${(Math.ceil(share * 1000) / 10).toFixed(1)} %`;
}

/** Judges an import report (BLE or tabular). Pure; the app and `sextant import` both use it. */
export function importIntegrity(report: IntegrityInput): ImportIntegrity {
  const packets = report.advertising_packets ?? 0;
  const crcOk = Math.min(report.advertising_packets_crc_ok ?? packets, packets);
  const crcFailed = packets - crcOk;
  const reserved = Object.fromEntries(Object.entries(report.adv_type_counts ?? {}).filter(([name, records]) => RESERVED_PDU.test(name) && records > 0));
  const reservedRecords = Object.values(reserved).reduce((sum, value) => sum + value, 0);
  const skippedEntries = Object.entries(report.skipped ?? {}).filter(([, value]) => value > 0);
  const skippedTotal = skippedEntries.reduce((sum, [, value]) => sum + value, 0);
  const unparsed = report.unparsed_bytes ?? 0;
  const warnings = report.warnings?.length ?? 0;
  const usableShare = packets > 0 ? crcOk / packets : 0;

  const losses: string[] = [];
  if (crcFailed > 0) losses.push(`${count(crcFailed)} of ${count(packets)} advertising packets failed CRC`);
  const reservedNames = Object.keys(reserved);
  if (reservedRecords > 0) losses.push(`${count(reservedRecords)} with reserved or unknown PDU types (${reservedNames.join(', ')})`);
  if (skippedTotal > 0) losses.push(`${count(skippedTotal)} skipped (${skippedEntries.map(([reason, value]) => `${reason.replace(/_/g, ' ')}: ${count(value)}`).join(', ')})`);
  if (unparsed > 0) losses.push(`${count(unparsed)} bytes unread after a corruption`);
  if (warnings > 0) losses.push(`${count(warnings)} import warning${warnings === 1 ? '' : 's'}`);

  const hasPackets = report.advertising_packets !== undefined;
  let status: ImportIntegrityStatus;
  let verdict: string;
  if (hasPackets && packets > 0 && crcOk === 0) {
    status = 'unusable';
    verdict = `0 % usable: ${losses.join('; ')}`;
  } else if (hasPackets && packets === 0) {
    status = 'unusable';
    verdict = `No advertising packets${losses.length > 0 ? `; ${losses.join('; ')}` : ''}`;
  } else if (losses.length > 0) {
    status = 'degraded';
    verdict = hasPackets ? `${formatShare(usableShare)} usable: ${losses.join('; ')}` : `Partial: ${losses.join('; ')}`;
  } else {
    status = 'clean';
    verdict = hasPackets ? `Clean: all ${count(packets)} advertising packets passed CRC; nothing skipped` : `Clean: ${count(report.rows ?? 0)} row${report.rows === 1 ? '' : 's'}; nothing skipped, no warnings`;
  }
  return {
    status,
    crc_failed: crcFailed,
    crc_failed_share: packets > 0 ? crcFailed / packets : 0,
    usable_share: hasPackets ? usableShare : 1,
    reserved_pdu_types: reserved,
    skipped_total: skippedTotal,
    unparsed_bytes: unparsed,
    warnings,
    verdict,
  };
}
