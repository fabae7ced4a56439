/**
 * `npm run bench -- spark`: the summary stage on Apache Spark beside DuckDB on the same dataset
 * (issue 26's scaling table). A dataset of 10 M packets (100 M too with `--spark-1e8`) is imported
 * from the scale bench's generated pcap stream; `sextant summarize` (DuckDB) and
 * spark/ble_summary_job.py on `local-cluster[2,1,1024]` and `local-cluster[1,1,1024]` (executors
 * as JVMs of their own, a real cluster's code path) summarize it with 10 s bins, and every Spark
 * output must equal DuckDB's (EXCEPT ALL both ways, every column, no tolerance) or the row says
 * so. Each engine is timed as a process tree (bench/process-tree.ts): wall, CPU of every process
 * it started, peak summed RSS.
 *
 * Needs the project's PySpark environment (`npm run test:spark` installs it in .cache/spark/venv)
 * and Java 17+.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import type { BenchRow } from './bench-row.ts';
import { writeBleBenchmarkPcap } from './ble-capture-generator.ts';
import { measureTree, type TreeMeasure } from './process-tree.ts';
import { localSparkConf, localSparkEnv } from '../scripts/spark-local.mjs';
import { exponent, round, runScaleImportChild } from './scale-bench.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const VENV = join(REPO, '.cache', 'spark', 'venv');
const SEXTANT = join(REPO, 'cli', 'sextant.mjs');
const JOB = join(REPO, 'spark', 'ble_summary_job.py');
const BIN_S = '10';
const MASTERS = [
  { master: 'local-cluster[2,1,1024]', executors: 2 },
  { master: 'local-cluster[1,1,1024]', executors: 1 },
];
const SUMMARIES = ['address_bins.parquet', 'address_payloads.parquet'];
const BASE_PACKETS = 1_000_000;
const DEADLINE_MS = 3 * 60 * 60_000;

export async function runSparkBench(flags: { sparkLarge: boolean }): Promise<BenchRow[]> {
  if (!existsSync(join(VENV, 'bin', 'spark-submit'))) {
    throw new Error(`no PySpark environment in ${VENV}: run \`npm run test:spark\` once to install it`);
  }
  const work = mkdtempSync(join(tmpdir(), 'sextant-spark-bench-'));
  const rows: BenchRow[] = [];
  try {
    const base = join(work, 'base.pcap');
    await writeBleBenchmarkPcap(base, BASE_PACKETS);
    for (const packets of [10_000_000, ...(flags.sparkLarge ? [100_000_000] : [])]) {
      const dataset = join(work, `dataset-${packets}`);
      const imported = runScaleImportChild('dataset', base, packets, dataset, false);
      const duckOut = join(work, `duckdb-${packets}`);
      const duckLoad = loadavg()[0];
      const duck = await measureTree(process.execPath, [SEXTANT, 'summarize', dataset, '--out', duckOut, '--bin-s', BIN_S], { cwd: REPO, deadlineMs: DEADLINE_MS });
      if (duck.code !== 0) throw new Error(`sextant summarize failed (exit ${duck.code}): ${duck.stderr.slice(-2000)}`);
      for (const { master, executors } of MASTERS) {
        const sparkOut = join(work, `spark-${packets}-${executors}`);
        const load = loadavg()[0];
        const spark = await sparkSubmit(master, dataset, sparkOut, join(work, 'spark-local'));
        const report = jobReport(spark);
        const equality = await compareSummaries(duckOut, sparkOut);
        rows.push({
          name: `spark_summary_${exponent(packets)}_${executors}x1`,
          ours_ms: Math.round(spark.seconds * 1000),
          peer: 'sextant summarize (DuckDB, this machine)',
          peer_ms: Math.round(duck.seconds * 1000),
          ratio: round(duck.seconds / spark.seconds, 3),
          peak_rss_mb: Math.round(spark.peak_tree_rss_mb),
          params: {
            packets,
            master,
            executors,
            bin_s: Number(BIN_S),
            spark_version: report.spark_version,
            parts: report.parts,
            seconds: round(spark.seconds, 1),
            job_seconds: report.seconds,
            cpu_seconds: round(spark.cpu_seconds, 1),
            peak_tree_rss_mb: Math.round(spark.peak_tree_rss_mb),
            packets_per_cpu_s: Math.round(packets / spark.cpu_seconds),
            duckdb_seconds: round(duck.seconds, 1),
            duckdb_cpu_seconds: round(duck.cpu_seconds, 1),
            duckdb_peak_tree_rss_mb: Math.round(duck.peak_tree_rss_mb),
            duckdb_packets_per_cpu_s: Math.round(packets / duck.cpu_seconds),
            summaries_equal: equality.equal,
            summary_rows: equality.rows,
            differences: equality.differences,
            import_cpu_seconds: round(imported.cpu_seconds, 1),
            load_average_1m: round(load, 2),
            duckdb_load_average_1m: round(duckLoad, 2),
            source: `generated pcap stream: a ${BASE_PACKETS.toLocaleString('en-US')}-packet capture of 300 advertisers repeated with advancing times, imported with sextant import --dataset`,
          },
        });
        rmSync(sparkOut, { recursive: true, force: true });
      }
      rmSync(duckOut, { recursive: true, force: true });
      rmSync(dataset, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

function sparkSubmit(master: string, dataset: string, out: string, localDir: string): Promise<TreeMeasure> {
  const args = ['--master', master, ...localSparkConf(localDir), JOB, pathToFileURL(dataset).href, pathToFileURL(out).href, '--bin-s', BIN_S, '--sql-dir', join(REPO, 'sql')];
  // spark-submit from the venv, as `npm run test:spark` runs it.
  return measureTree(join(VENV, 'bin', 'spark-submit'), args, { cwd: REPO, env: localSparkEnv(VENV), deadlineMs: DEADLINE_MS });
}

/** The job's JSON line (Spark version, master, parts read, its own seconds); a failed run throws with its stderr's tail. */
function jobReport(run: TreeMeasure): { spark_version: string; parts: number; seconds: number } {
  const line = run.stdout.split('\n').find((text) => text.startsWith('{') && text.includes('spark_version'));
  if (run.code !== 0 || !line) throw new Error(`spark-submit failed (exit ${run.code}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(line) as { spark_version: string; parts: number; seconds: number };
}

/**
 * Each summary of both engines as one relation (Spark's partition columns back from its Hive
 * directories, as text like DuckDB's), compared with EXCEPT ALL both ways: equal means the same
 * multiset of rows, every value identical.
 */
async function compareSummaries(duckOut: string, sparkOut: string): Promise<{ equal: boolean; rows: Record<string, number>; differences: Record<string, number> }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const rows: Record<string, number> = {};
  const differences: Record<string, number> = {};
  try {
    for (const name of SUMMARIES) {
      const duck = `read_parquet('${sqlText(join(duckOut, name))}')`;
      const sparkFiles = join(sparkOut, name, 'receiver=*', 'hour=*', '*.parquet');
      const spark = `read_parquet('${sqlText(sparkFiles)}', hive_partitioning = true, hive_types_autocast = false)`;
      const columns = (await connection.runAndReadAll(`SELECT * FROM ${duck} LIMIT 0`)).columnNames().map((column) => `"${column}"`).join(', ');
      const count = async (sql: string): Promise<number> => Number((await connection.runAndReadAll(sql)).getRowsJS()[0][0]);
      rows[name] = await count(`SELECT count(*) FROM ${duck}`);
      differences[name] =
        (await count(`SELECT count(*) FROM (SELECT ${columns} FROM ${duck} EXCEPT ALL SELECT ${columns} FROM ${spark})`)) +
        (await count(`SELECT count(*) FROM (SELECT ${columns} FROM ${spark} EXCEPT ALL SELECT ${columns} FROM ${duck})`));
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return { equal: Object.values(differences).every((count) => count === 0), rows, differences };
}

function sqlText(path: string): string {
  return path.replaceAll("'", "''");
}
