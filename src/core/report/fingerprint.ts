import { tableToIPC, type Table } from 'apache-arrow';
import { sha256Hex } from '../executor/finalize-result.ts';

/**
 * A built-in capture has no source file, so its provenance is the SHA-256 of its Arrow IPC
 * stream as built (deterministic: the generators are seeded). Reports say which basis they use.
 */
export async function builtinCaptureFingerprint(table: Table): Promise<{ sha256: string; bytes: number }> {
  const bytes = tableToIPC(table, 'stream');
  return { sha256: await sha256Hex(bytes), bytes: bytes.byteLength };
}
