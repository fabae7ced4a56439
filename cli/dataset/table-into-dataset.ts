/**
 * An Arrow table of capture rows committed into a dataset as one source, the way an import stages
 * and commits a file (conformed to the dataset schema, parts split by hour, then the manifest's
 * atomic commit), for tests that need a dataset of generated scenarios (`sextant import
 * --dataset` reads capture files, and the scenarios are Arrow tables).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { tableToIPC, type Table } from 'apache-arrow';
import { conformToDatasetSchema, type DatasetSource } from '../../src/core/index.ts';
import { commitSource, STAGING_DIR } from './dataset-store.ts';
import { StagedParts, timeBounds } from './stream-import.ts';

export async function commitTable(root: string, captureId: string, table: Table): Promise<DatasetSource> {
  const ipc = tableToIPC(table);
  const sha256 = createHash('sha256').update(ipc).digest('hex');
  const conformed = conformToDatasetSchema(table, captureId);
  if (!conformed.ok) throw new Error(`${conformed.error.code}: ${conformed.error.message}`);
  const parts = new StagedParts(join(root, STAGING_DIR, `${process.pid}-${captureId}`), captureId, sha256.slice(0, 16));
  await parts.add(conformed.value.table);
  const { min_ts_ms: start, max_ts_ms: end } = timeBounds(conformed.value.table);
  const committed = await commitSource(root, {
    stagingDir: parts.stagingDir,
    source: {
      capture_id: captureId,
      file: `${captureId}.arrow`,
      sha256,
      bytes: ipc.length,
      rows: parts.rows,
      bounds: start === null || end === null ? null : { start_ms: Math.floor(start), end_ms: Math.ceil(end) },
      report: { generated: true },
      parts: parts.list,
    },
  });
  if (!committed.ok) throw new Error(`${committed.error.code}: ${committed.error.message}`);
  return committed.value;
}
