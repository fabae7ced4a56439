/**
 * An Arrow table of capture rows committed into a dataset as one source, the way the streaming
 * import stages and commits a file (parts split by hour, then the manifest's atomic commit), for
 * tests that need a dataset of generated scenarios (`sextant import --dataset` reads capture
 * files, and the scenarios are Arrow tables).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { tableToIPC, type Table } from 'apache-arrow';
import { partitionDirectory, splitByHour, type DatasetPart, type DatasetSource } from '../../src/core/index.ts';
import { commitSource, STAGING_DIR } from './dataset-store.ts';
import { parquetPart } from './parquet-part.ts';

export async function commitTable(root: string, captureId: string, table: Table): Promise<DatasetSource> {
  const ipc = tableToIPC(table);
  const sha256 = createHash('sha256').update(ipc).digest('hex');
  const stagingDir = join(root, STAGING_DIR, `${process.pid}-${captureId}`);
  const parts: DatasetPart[] = [];
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const slice of splitByHour(table, 'ts_ms')) {
    const path = `${partitionDirectory(captureId, slice.hour)}/${sha256.slice(0, 16)}-${String(parts.length).padStart(6, '0')}.parquet`;
    const bytes = parquetPart(slice.table);
    await mkdir(dirname(join(stagingDir, path)), { recursive: true });
    await writeFile(join(stagingDir, path), bytes);
    const times = slice.table.getChild('ts_ms')!.toArray() as Float64Array;
    const min = Math.min(...times);
    const max = Math.max(...times);
    start = Math.min(start, min);
    end = Math.max(end, max);
    parts.push({ path, hour: slice.hour, rows: slice.table.numRows, bytes: bytes.length, min_ts_ms: min, max_ts_ms: max });
  }
  const committed = await commitSource(root, {
    stagingDir,
    source: { capture_id: captureId, file: `${captureId}.arrow`, sha256, bytes: ipc.length, rows: table.numRows, bounds: { start_ms: Math.floor(start), end_ms: Math.ceil(end) }, report: { generated: true }, parts },
  });
  if (!committed.ok) throw new Error(`${committed.error.code}: ${committed.error.message}`);
  return committed.value;
}
