import { tableToIPC, type Table } from 'apache-arrow';
import { sha256Hex } from '../executor/finalize-result.ts';
import type { CaptureInfo } from '../data/capture.ts';
import type { JsonValue } from '../util/json.ts';
import type { CaptureProvenance, HashBasis } from './report-types.ts';

/**
 * A built-in capture has no source file, so its provenance is the SHA-256 of its Arrow IPC
 * stream as built (deterministic: the generators are seeded). Reports say which basis they use.
 */
export async function builtinCaptureFingerprint(table: Table): Promise<{ sha256: string; bytes: number }> {
  const bytes = tableToIPC(table, 'stream');
  return { sha256: await sha256Hex(bytes), bytes: bytes.byteLength };
}

/** The hash a caller recorded for a capture, and what it is the hash of. */
export interface RecordedFingerprint {
  sha256: string;
  /** Bytes hashed; null when only the hash was recorded. */
  bytes: number | null;
  basis: HashBasis;
}

/** A capture's provenance as a report records it: what its info says, and the hash the caller has (or none). */
export function captureProvenance(info: CaptureInfo, fingerprint: RecordedFingerprint | null, importReport: JsonValue | null): CaptureProvenance {
  return {
    id: info.id,
    source: info.source,
    description: info.description,
    rows: info.rowCount,
    bounds: info.bounds,
    channels: info.channels,
    timeOrigin: info.timeOrigin,
    bytes: fingerprint?.bytes ?? null,
    sha256: fingerprint?.sha256 ?? null,
    hashBasis: fingerprint ? fingerprint.basis : 'not-recorded',
    importReport,
  };
}
