import { mkdtemp, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBleBenchmarkPcap } from '../../bench/ble-capture-generator.ts';
import type { DatasetManifest } from '../../src/core/index.ts';
import { sqlString } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';

/** Rewrites the last source's first part with `select` (over the part as `part`), keeping the manifest's sizes true. */
async function rewritePart(root: string, select: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as DatasetManifest;
  const part = manifest.sources.at(-1)!.parts[0];
  const path = join(root, part.path);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${select.replace('part', `read_parquet(${sqlString(path)}, hive_partitioning = false)`)}) TO ${sqlString(`${path}.new`)} (FORMAT parquet)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  await rename(`${path}.new`, path);
  part.bytes = (await stat(path)).size;
  await writeFile(join(root, 'manifest.json'), JSON.stringify(manifest));
  return part.path;
}

describe('a dataset whose parts differ in schema', () => {
  let captures: string[];
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sextant-drift-captures-'));
    captures = [];
    for (const packets of [3_000, 3_001, 3_002]) {
      const path = join(dir, `generated-${packets}.pcap`);
      await writeBleBenchmarkPcap(path, packets);
      captures.push(path);
    }
  }, 60_000);

  async function dataset(): Promise<string> {
    const root = join(await mkdtemp(join(tmpdir(), 'sextant-drift-')), 'ds');
    const imported = await runCli(['import', ...captures, '--dataset', root, '--jobs', '1']);
    expect(imported.code).toBe(0);
    return root;
  }

  it.each([
    ['a column missing', 'SELECT * EXCLUDE (rssi) FROM part', /expected but absent: rssi TINYINT; present but not expected: none/],
    ['a column of another type', 'SELECT * REPLACE (CAST(rssi AS BIGINT) AS rssi) FROM part', /present but not expected: rssi BIGINT/],
  ])('is refused with the shard’s path when one part has %s', async (_, select, difference) => {
    const root = await dataset();
    expect((await runCli(['query', root, 'SELECT count(*) FROM packets'])).code).toBe(0);
    const drifted = await rewritePart(root, select);
    for (const argv of [['summarize', root, '--out', join(root, '..', 'out')], ['query', root, 'SELECT count(*) FROM packets']]) {
      const { code, stderr } = await runCli(argv);
      expect(code).toBe(4);
      expect(stderr).toContain('[DATASET_SCHEMA_DRIFT]');
      expect(stderr).toContain(join(root, drifted));
      expect(stderr).toMatch(difference);
    }
  }, 60_000);
});
