#!/usr/bin/env node
// `npm run test:spark` (issue 26): the summary stage on Apache Spark equals DuckDB's, exactly,
// and the linkage on Spark's executors writes what `sextant analyze-dataset --window` writes.
//
// 1. Installs, if missing, a project-local Python environment in .cache/spark/venv with PySpark,
//    PyArrow and pandas (pinned below; PySpark's PyPI sdist carries Spark's jars, no compiler
//    involved; applyInArrow needs the other two). Java 17+ needed.
// 2. Builds a small dataset with `sextant import --dataset`: a generated sniffer capture
//    (bench/ble-capture-generator.ts) cut into consecutive files, so time bins straddle parts,
//    plus two real captures from ../shared/captures/ble (several hours, so several hour parts).
// 3. Runs `sextant summarize` (DuckDB) and spark/ble_summary_job.py on
//    `local-cluster[2,1,1024]` (a master and two workers in the driver's JVM, each executor a JVM
//    of its own: a real cluster's code path). If that mode cannot start, says why and runs the
//    job on local[2] instead, saying so.
//    Both also get two copies of the dataset with one part rewritten — a column missing, a column
//    of another type — and must refuse them naming that part (DATASET_SCHEMA_DRIFT, exit 4). All
//    Spark runs share one session (scripts/spark_checks.py): one JVM start, one local cluster.
//    In the same session, spark/ble_linkage_job.py runs on a second dataset (a generated
//    fast-rotation scenario) in 10-minute windows overlapping by 4 minutes: first with the
//    executors' Node pointed at a missing file (it must fail with exit 3, SEXTANT_NODE_MISSING,
//    the executor's host and that path), then as configured; `sextant analyze-dataset` analyses
//    the same dataset with the same windows on this machine.
// 4. Compares both summaries: the same columns, the same number of rows, and row by row in key
//    order every value equal (doubles with ===, never a tolerance); Spark's are read back through
//    their receiver=/hour= partitions, each row in its packets' hour's. Compares the two linkage outputs:
//    the same files, byte for byte (analysis.json without its duration_ms fields).
//
// Exit code: 0 when every summary and the linkage output are equal and every refusal happened;
// 1 when one differs; 2 when the environment, the
// dataset or a run failed (or a deadline passed). Everything of the run is kept in
// .cache/spark/run/ (rebuilt on every run). Every child has a deadline; Spark binds to 127.0.0.1.
//
//   npm run test:spark
//   npm run test:spark -- --packets 300000 --files 6 --bin-s 1 --master 'local[2]'
/* global process, console, setTimeout, clearTimeout, Buffer, URL */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { localSparkConf, localSparkEnv } from './spark-local.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, '.cache', 'spark');
const VENV = join(CACHE, 'venv');
const PYTHON = join(VENV, 'bin', 'python');
const RUN = join(CACHE, 'run');
const JOB = join(ROOT, 'spark', 'ble_summary_job.py');
const CHECKS = join(ROOT, 'scripts', 'spark_checks.py');
const LINKAGE_JOB = join(ROOT, 'spark', 'ble_linkage_job.py');
const SEXTANT = join(ROOT, 'cli', 'sextant.mjs');
/** Pinned: the release this test was written against (Spark 4.3.0, Scala 2.13, Java 17+). */
const PYSPARK_VERSION = '4.3.0';
/** applyInArrow (the linkage job) needs PyArrow and pandas on the driver and the executors; pandas 3 is not yet supported by PySpark 4.3. */
const PYTHON_PACKAGES = [`pyspark==${PYSPARK_VERSION}`, 'pyarrow==26.0.1', 'pandas==2.3.3'];
const CLUSTER_MASTER = 'local-cluster[2,1,1024]';
const FALLBACK_MASTER = 'local[2]';
const REAL_CAPTURES = ['tesi-ble_nrf_capture.pcapng', 'mabip_btsnoop_hci.log'];
/** The key each summary is ordered by (as `sextant summarize` and the Spark job order them), and the Hive partitions Spark writes it in. */
const SUMMARIES = {
  'address_bins.parquet': { key: ['hour', 'receiver', 'advertiser_addr', 'bin_start_ms'], partitions: ['receiver', 'hour'] },
  'address_payloads.parquet': { key: ['hour', 'receiver', 'advertiser_addr', 'payload_signature'], partitions: ['receiver', 'hour'] },
};
/**
 * The linkage dataset: a generated scenario with fast address rotation (30 min, two receivers in
 * one capture, 174 rotations), analysed in 10-minute windows overlapping by 4 minutes from a minute
 * after its start to a minute before its end (--from, --to, --capture): 3 windows whose
 * boundaries cut hand-offs, so the stitching step has joins to make.
 */
const LINKAGE = { scenario: 'fast_rotation', seed: '7', window: '10m', overlap: '4m' };
/** Where the run without Node points the executors: no file is there. */
const MISSING_NODE = '/nonexistent/sextant-test/node';
const DEADLINES = { probeMs: 60_000, pipMs: 15 * 60_000, generateMs: 5 * 60_000, importMs: 10 * 60_000, summarizeMs: 5 * 60_000, analyzeMs: 10 * 60_000, sparkMs: 15 * 60_000 };

function options() {
  const { values } = parseArgs({
    options: {
      packets: { type: 'string', default: '100000' },
      files: { type: 'string', default: '6' },
      'bin-s': { type: 'string', default: '1' },
      master: { type: 'string', default: CLUSTER_MASTER },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log("Usage: npm run test:spark -- [--packets 100000] [--files 6] [--bin-s 1] [--master 'local-cluster[2,1,1024]']");
    process.exit(0);
  }
  const whole = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) fail(2, `--${name} expects a whole number >= 1, got '${values[name]}'`);
    return value;
  };
  const binS = Number(values['bin-s']);
  if (!(binS >= 0.001)) fail(2, `--bin-s expects seconds >= 0.001, got '${values['bin-s']}'`);
  return { packets: whole('packets'), files: whole('files'), binS: values['bin-s'], master: values.master };
}

// ---------------------------------------------------------------- small helpers

const running = new Set();

function fail(code, message) {
  console.error(`\ntest:spark: ${message}`);
  stopAll();
  process.exit(code);
}

/** Stops every child still running, with its process group (spark-submit starts JVMs). */
function stopAll() {
  for (const child of running) killGroup(child, 'SIGKILL');
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\ntest:spark: ${signal}, stopping`);
    stopAll();
    process.exit(130);
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs a command to its end within a deadline (then SIGTERM to its process group, then SIGKILL);
 * never throws. Under /usr/bin/time when present, so the CPU time of it and its children is known
 * (wall time on this shared 2-core machine measures the load more than the work).
 */
function run(command, args, { deadlineMs, env } = {}) {
  const timed = existsSync('/usr/bin/time');
  const cpuMarker = 'test-spark-cpu';
  const [file, argv] = timed ? ['/usr/bin/time', ['-f', `${cpuMarker} %U %S`, command, ...args]] : [command, args];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(file, argv, { env: env ?? process.env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 10_000).unref();
    }, deadlineMs);
    const finish = (code, extra = '') => {
      running.delete(child);
      clearTimeout(timer);
      let cpuMs = null;
      const cpuLine = stderr.split('\n').find((line) => line.startsWith(cpuMarker));
      if (cpuLine) {
        const [, user, system] = cpuLine.split(' ');
        cpuMs = Math.round((Number(user) + Number(system)) * 1000);
        stderr = stderr.replace(`${cpuLine}\n`, '');
      }
      resolve({ code, stdout, stderr: stderr + extra, timedOut, ms: Date.now() - started, cpuMs });
    };
    child.on('error', (error) => finish(null, error.message));
    child.on('close', (code) => finish(code));
  });
}

/** The last lines of a child's output, without Spark's INFO/WARN log lines and Java stack frames (a Python traceback stays visible). */
function lastLines(text, count = 15) {
  const lines = text.trimEnd().split('\n').filter((line) => !/^\S+ \S+ (INFO|WARN) |^\s+at /.test(line));
  return lines.slice(-count).join('\n');
}

function described(result, what) {
  if (result.timedOut) return `${what}: the deadline passed after ${seconds(result.ms)}`;
  // spark-submit passes its Python driver's stderr (a traceback) to its stdout: show both.
  return `${what} exited with code ${result.code}:\n${lastLines(`${result.stdout}\n${result.stderr}`)}`;
}

const timing = (result) => `${seconds(result.ms)} wall, ${result.cpuMs === null ? '?' : seconds(result.cpuMs)} CPU`;

// ---------------------------------------------------------------- the Python environment

async function ensurePyspark() {
  if (existsSync(PYTHON)) {
    const probe = await run(PYTHON, ['-c', "import pyspark, pyarrow, pandas; print(f'pyspark=={pyspark.__version__} pyarrow=={pyarrow.__version__} pandas=={pandas.__version__}')"], { deadlineMs: DEADLINES.probeMs });
    if (probe.code === 0 && probe.stdout.trim() === PYTHON_PACKAGES.join(' ')) {
      console.log(`environment  ${VENV} (${PYTHON_PACKAGES.join(', ')} already installed)`);
      return;
    }
  }
  console.log(`environment  installing ${PYTHON_PACKAGES.join(', ')} into ${VENV}`);
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(PYTHON)) {
    const venv = await run('python3', ['-m', 'venv', VENV], { deadlineMs: DEADLINES.probeMs * 2 });
    if (venv.code !== 0) fail(2, described(venv, 'python3 -m venv (Python 3.10 or newer with venv is needed)'));
  }
  const pip = await run(PYTHON, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', ...PYTHON_PACKAGES], { deadlineMs: DEADLINES.pipMs });
  if (pip.code !== 0) fail(2, described(pip, `pip install ${PYTHON_PACKAGES.join(' ')}`));
  console.log(`environment  installed in ${timing(pip)}`);
}

// ---------------------------------------------------------------- the dataset

/** A pcap cut into `count` pcaps of consecutive frames, each with the original's global header. */
async function cutPcap(path, count) {
  const bytes = await readFile(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts = [];
  for (let offset = 24; offset < bytes.length; offset += 16 + view.getUint32(offset + 8, true)) starts.push(offset);
  const per = Math.ceil(starts.length / count);
  const paths = [];
  for (let file = 0; file * per < starts.length; file++) {
    const from = starts[file * per];
    const to = (file + 1) * per < starts.length ? starts[(file + 1) * per] : bytes.length;
    const target = join(RUN, 'captures', `generated-${file}.pcap`);
    await writeFile(target, Buffer.concat([bytes.subarray(0, 24), bytes.subarray(from, to)]));
    paths.push(target);
  }
  return paths;
}

async function buildDataset({ packets, files }) {
  mkdirSync(join(RUN, 'captures'), { recursive: true });
  const whole = join(RUN, 'captures', 'generated.pcap');
  // The generator is TypeScript: a child under tsx writes the capture.
  const generator = new URL('../bench/ble-capture-generator.ts', import.meta.url).href;
  const generate = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `const { writeBleBenchmarkPcap } = await import(${JSON.stringify(generator)}); await writeBleBenchmarkPcap(${JSON.stringify(whole)}, ${packets});`], {
    deadlineMs: DEADLINES.generateMs,
  });
  if (generate.code !== 0) fail(2, described(generate, 'generating the capture'));
  const generated = await cutPcap(whole, files);
  rmSync(whole);
  const real = REAL_CAPTURES.map((name) => join(ROOT, '..', 'shared', 'captures', 'ble', name));
  for (const path of real) if (!existsSync(path)) fail(2, `a real capture is missing: ${path}`);
  const dataset = join(RUN, 'dataset');
  const imported = await run(process.execPath, [SEXTANT, 'import', ...generated, ...real, '--dataset', dataset], { deadlineMs: DEADLINES.importMs });
  if (imported.code !== 0) fail(2, described(imported, 'sextant import --dataset'));
  const manifest = JSON.parse(await readFile(join(dataset, 'manifest.json'), 'utf8'));
  const parts = manifest.sources.flatMap((source) => source.parts);
  const rows = manifest.sources.reduce((sum, source) => sum + source.rows, 0);
  console.log(`dataset      ${dataset}: ${manifest.sources.length} files (${generated.length} cut from a ${packets.toLocaleString('en-US')}-packet generated capture, ${real.length} real), ${rows.toLocaleString('en-US')} rows in ${parts.length} parts (import ${timing(imported)})`);
  return { path: dataset, parts: parts.length };
}

/** The linkage dataset (LINKAGE's scenario imported into a dataset of its own). */
async function buildLinkageDataset() {
  const arrow = join(RUN, 'captures', `${LINKAGE.scenario}.arrow`);
  const generated = await run(process.execPath, [SEXTANT, 'generate', 'ble', '--seed', LINKAGE.seed, '--scenario', LINKAGE.scenario, '--out', arrow], { deadlineMs: DEADLINES.generateMs });
  if (generated.code !== 0) fail(2, described(generated, 'sextant generate ble'));
  const dataset = join(RUN, 'linkage-dataset');
  const imported = await run(process.execPath, [SEXTANT, 'import', arrow, '--dataset', dataset], { deadlineMs: DEADLINES.importMs });
  if (imported.code !== 0) fail(2, described(imported, 'sextant import --dataset (linkage)'));
  const { rows, bounds, capture_id: captureId } = JSON.parse(await readFile(join(dataset, 'manifest.json'), 'utf8')).sources[0];
  // analyze-dataset's --from, --to and --capture, a minute inside the capture at each end: both engines must narrow alike.
  const range = ['--from', String(bounds.start_ms + 60_000), '--to', String(bounds.end_ms - 60_000), '--capture', captureId];
  console.log(`dataset      ${dataset}: the ${LINKAGE.scenario} scenario (seed ${LINKAGE.seed}), ${rows.toLocaleString('en-US')} rows, for the linkage (${range.join(' ')})`);
  return { dataset, range };
}

/** `sextant analyze-dataset --window --overlap` on one machine: the output the Spark linkage must equal. */
/**
 * The linkage job must refuse analyzer arguments that fail the tool's input schema before its
 * Spark session starts: exit 5, the runner's field and code on stderr (the job run by the venv's
 * Python, no spark-submit: nothing of Spark is needed to refuse).
 */
async function linkageRefusesBadArguments(dataset) {
  const file = join(RUN, 'bad-arguments.json');
  await writeFile(file, JSON.stringify({ linkage_window_s: 'three minutes' }));
  const result = await run(PYTHON, [LINKAGE_JOB, dataset, join(RUN, 'never-written'), '--window', LINKAGE.window, '--overlap', LINKAGE.overlap, '--arguments', file, '--node', process.execPath, '--runner', SEXTANT], { deadlineMs: DEADLINES.probeMs * 2, env: localSparkEnv(VENV) });
  const ok = result.code === 5 && result.stderr.includes('arguments.linkage_window_s') && result.stderr.includes('[INVALID_TYPE]') && !existsSync(join(RUN, 'never-written'));
  console.log(`linkage      bad analyzer arguments: ${ok ? 'refused before Spark started (exit 5, field and code)' : `NOT refused as expected (exit ${result.code}): ${lastLines(result.stderr, 3)}`}`);
  // A --from without a zone: the driver and the executors may each read it in another one.
  const zoneless = await run(PYTHON, [LINKAGE_JOB, dataset, join(RUN, 'never-written'), '--window', LINKAGE.window, '--overlap', LINKAGE.overlap, '--from', '2026-11-20T13:00', '--node', process.execPath, '--runner', SEXTANT], { deadlineMs: DEADLINES.probeMs * 2, env: localSparkEnv(VENV) });
  const zoneOk = zoneless.code === 4 && zoneless.stderr.includes('has no zone') && !existsSync(join(RUN, 'never-written'));
  console.log(`linkage      --from without a zone: ${zoneOk ? 'refused before Spark started (exit 4)' : `NOT refused as expected (exit ${zoneless.code}): ${lastLines(zoneless.stderr, 3)}`}`);
  return ok && zoneOk;
}

async function analyzeWithNode({ dataset, range }) {
  const out = join(RUN, 'linkage-node');
  const result = await run(process.execPath, [SEXTANT, 'analyze-dataset', dataset, '--out', out, '--window', LINKAGE.window, '--overlap', LINKAGE.overlap, ...range], { deadlineMs: DEADLINES.analyzeMs });
  // 0: every window ok or partial; 1: a window failed, the files are still written (and must be equal too).
  if (result.code !== 0 && result.code !== 1) fail(2, described(result, 'sextant analyze-dataset --window'));
  console.log(`node         sextant analyze-dataset --window ${LINKAGE.window} --overlap ${LINKAGE.overlap}: ${timing(result)}`);
  return out;
}

// ---------------------------------------------------------------- the two engines

/** The drifted copies: one part of the last source rewritten by DuckDB, the manifest's size kept true. */
const DRIFTS = {
  'missing-column': 'SELECT * EXCLUDE (rssi) FROM part',
  'other-type': 'SELECT * REPLACE (CAST(rssi AS BIGINT) AS rssi) FROM part',
};

async function driftedCopies(dataset) {
  const copies = [];
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  for (const [name, select] of Object.entries(DRIFTS)) {
    const copy = join(RUN, `drift-${name}`);
    cpSync(dataset, copy, { recursive: true });
    const manifest = JSON.parse(await readFile(join(copy, 'manifest.json'), 'utf8'));
    const part = manifest.sources.at(-1).parts[0];
    const path = join(copy, part.path);
    const from = `read_parquet('${path.replaceAll("'", "''")}', hive_partitioning = false)`;
    await connection.run(`COPY (${select.replace('part', from)}) TO '${`${path}.new`.replaceAll("'", "''")}' (FORMAT parquet)`);
    renameSync(`${path}.new`, path);
    part.bytes = statSync(path).size;
    await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest));
    copies.push({ name, path: copy, part: part.path });
  }
  connection.closeSync();
  instance.closeSync();
  return copies;
}

/** `sextant summarize` must refuse each drifted copy with exit 4, the code and the part's path. */
async function duckdbRefusals(copies) {
  let refused = true;
  for (const copy of copies) {
    const result = await run(process.execPath, [SEXTANT, 'summarize', copy.path, '--out', `${copy.path}-summaries`], { deadlineMs: DEADLINES.summarizeMs });
    const ok = result.code === 4 && result.stderr.includes('[DATASET_SCHEMA_DRIFT]') && result.stderr.includes(join(copy.path, copy.part));
    refused &&= ok;
    console.log(`duckdb       ${copy.name}: ${ok ? 'refused with the part\'s path' : `NOT refused as expected (exit ${result.code}): ${lastLines(result.stderr, 3)}`}`);
  }
  return refused;
}

async function summarizeWithDuckdb(dataset, binS) {
  const out = join(RUN, 'duckdb');
  const result = await run(process.execPath, [SEXTANT, 'summarize', dataset, '--out', out, '--bin-s', binS], { deadlineMs: DEADLINES.summarizeMs });
  if (result.code !== 0) fail(2, described(result, 'sextant summarize'));
  console.log(`duckdb       sextant summarize: ${timing(result)}`);
  return out;
}


async function sparkSubmit(dataset, binS, master, copies, linkage) {
  const out = join(RUN, `spark-${master.replace(/[^a-z0-9]+/gi, '-')}`);
  rmSync(out, { recursive: true, force: true });
  const args = [
    '--master', master,
    ...localSparkConf(join(RUN, 'spark-local')),
    // The linkage job's executors start this Node and this runner (what a cluster sets, spark/README.md).
    '--conf', `spark.executorEnv.SEXTANT_NODE=${process.execPath}`,
    '--conf', `spark.executorEnv.SEXTANT_RUNNER=${SEXTANT}`,
    '--py-files', `${JOB},${LINKAGE_JOB}`,
    // As URIs: the job reads and writes through Hadoop's filesystems (file:// here, s3a:// etc. on a cluster).
    CHECKS, ...copies.flatMap((copy) => ['--refuse', `${pathToFileURL(copy.path).href}:DATASET_SCHEMA_DRIFT`]),
    // The linkage job's arguments (--runner: under --py-files the job's own path is a temporary copy), and the executors' Node for the run without it.
    '--linkage-args', JSON.stringify([linkage.dataset, linkage.out, '--window', LINKAGE.window, '--overlap', LINKAGE.overlap, ...linkage.range, '--node', process.execPath, '--runner', SEXTANT]),
    '--missing-node', MISSING_NODE,
    // --sql-dir: under --py-files the job's own path is a temporary copy, not the repository.
    '--', pathToFileURL(dataset).href, pathToFileURL(out).href, '--bin-s', binS, '--sql-dir', join(ROOT, 'sql'),
  ];
  const result = await run(join(VENV, 'bin', 'spark-submit'), args, { deadlineMs: DEADLINES.sparkMs, env: localSparkEnv(VENV) });
  await writeFile(join(RUN, `spark-${master.replace(/[^a-z0-9]+/gi, '-')}.log`), `${result.stdout}\n${result.stderr}`);
  return { ...result, out };
}

/** Executors the standalone master granted (local-cluster): proof they ran as JVMs of their own. */
function grantedExecutors(log) {
  return log.split('\n').filter((line) => line.includes('Granted executor ID')).length;
}

async function summarizeWithSpark(dataset, parts, binS, master, copies, linkageDataset) {
  const linkage = { dataset: linkageDataset.dataset, range: linkageDataset.range, out: join(RUN, 'linkage-spark') };
  rmSync(linkage.out, { recursive: true, force: true });
  let result = await sparkSubmit(dataset, binS, master, copies, linkage);
  let ran = master;
  if (result.code !== 0 && master.startsWith('local-cluster')) {
    console.log(`spark        ${master} FAILED (${described(result, 'spark-submit')})`);
    console.log(`spark        falling back to ${FALLBACK_MASTER}`);
    rmSync(linkage.out, { recursive: true, force: true });
    result = await sparkSubmit(dataset, binS, FALLBACK_MASTER, copies, linkage);
    ran = FALLBACK_MASTER;
  }
  const lines = result.stdout.trim().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
  let refused = true;
  for (const refusal of lines.filter((line) => 'refused' in line)) {
    refused &&= refusal.as_expected;
    console.log(`spark        ${refusal.refused.split('/drift-').at(-1)}: ${refusal.as_expected ? 'refused with the part\'s path' : `NOT refused as expected (exit ${refusal.exit}): ${refusal.message}`}`);
  }
  if (lines.filter((line) => 'refused' in line).length !== copies.length) refused = false;
  const withoutNode = lines.find((line) => 'without_node' in line);
  console.log(`spark        linkage with executors without Node: ${withoutNode?.as_expected ? `failed as expected (exit ${withoutNode.exit}): ${withoutNode.message}` : `NOT failed as expected: ${JSON.stringify(withoutNode ?? null)}`}`);
  refused &&= withoutNode?.as_expected === true;
  if (result.code !== 0 && refused) fail(2, described(result, `spark-submit on ${ran}`));
  const report = lines.find((line) => 'spark_version' in line && 'rows' in line);
  if (!report) fail(2, described(result, `spark-submit on ${ran}`));
  const linkageReport = lines.find((line) => 'spark_version' in line && 'windows' in line);
  if (!linkageReport) fail(2, described(result, `the linkage job on ${ran}`));
  if (report.master !== ran) fail(2, `the job ran on ${report.master}, not ${ran}`);
  if (report.parts !== parts) fail(2, `the job read ${report.parts} parts, the manifest lists ${parts}`);
  const executors = ran.startsWith('local-cluster') ? `, ${grantedExecutors(result.stderr)} executor JVMs granted` : '';
  console.log(`spark        Spark ${report.spark_version} on master ${report.master}${executors}: ${report.parts} parts read; job ${timing(result)} (summaries ${report.seconds} s of it)`);
  console.log(`spark        linkage: ${linkageReport.windows} windows analysed on the executors (${linkageReport.analysed_windows} with rows), ${linkageReport.stitched.devices} devices stitched, ${linkageReport.seconds} s of the job`);
  return { out: result.out, report, refused, linkageOut: linkage.out };
}

// ---------------------------------------------------------------- the comparison

async function readSorted(connection, path, key) {
  const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}') ORDER BY ${key.join(', ')}`);
  return { columns: reader.columnNames().map((name, index) => `${name} ${reader.columnTypes()[index]}`), rows: reader.getRowsJS() };
}

/**
 * Spark's summary, written in Hive partitions: its partition columns back from the directory
 * names as text, in DuckDB's column order (the partition columns are not in the files), and how
 * many rows sit in an hour= partition other than the (UTC) hour of their first packet.
 */
async function readPartitioned(connection, dir, key, partitions, columns) {
  const types = partitions.map((name) => `'${name}': VARCHAR`).join(', ');
  const from = `read_parquet('${join(dir, partitions.map((name) => `${name}=*`).join('/'), '*.parquet').replaceAll("'", "''")}', hive_partitioning = true, hive_types = {${types}})`;
  const reader = await connection.runAndReadAll(`SELECT ${columns.map((name) => `"${name}"`).join(', ')} FROM ${from} ORDER BY ${key.join(', ')}`);
  const misplaced = partitions.includes('hour')
    ? Number((await connection.runAndReadAll(`SELECT count(*) FROM ${from} WHERE hour IS DISTINCT FROM strftime(make_timestamp(CAST(floor(first_ms) AS BIGINT) * 1000), '%Y-%m-%dT%H')`)).getRowsJS()[0][0])
    : 0;
  return { columns: reader.columnNames().map((name, index) => `${name} ${reader.columnTypes()[index]}`), rows: reader.getRowsJS(), misplaced };
}

/** Exact equality of two DuckDB values: same JS type and same value (no tolerance). */
function same(a, b) {
  if (a === null || b === null) return a === b;
  if (typeof a !== typeof b) return false;
  return typeof a === 'number' ? Object.is(a, b) : a === b;
}

/** Compares one summary; returns the differences found (at most a few of each kind). */
async function compare(connection, name, { key, partitions }, duckdbDir, sparkDir) {
  const ours = await readSorted(connection, join(duckdbDir, name), key);
  const theirs = await readPartitioned(connection, join(sparkDir, name), key, partitions, ours.columns.map((column) => column.split(' ')[0]));
  const differences = [];
  if (theirs.misplaced > 0) differences.push(`${theirs.misplaced} rows in an hour= partition other than their first packet's hour`);
  if (ours.columns.join(', ') !== theirs.columns.join(', ')) differences.push(`columns differ:\n  duckdb ${ours.columns.join(', ')}\n  spark  ${theirs.columns.join(', ')}`);
  if (ours.rows.length !== theirs.rows.length) differences.push(`rows: duckdb ${ours.rows.length}, spark ${theirs.rows.length}`);
  const names = ours.columns.map((column) => column.split(' ')[0]);
  let valueDifferences = 0;
  for (let row = 0; row < Math.min(ours.rows.length, theirs.rows.length); row++) {
    for (let column = 0; column < names.length; column++) {
      if (same(ours.rows[row][column], theirs.rows[row][column])) continue;
      valueDifferences++;
      if (valueDifferences <= 5) differences.push(`row ${row} ${names[column]}: duckdb ${String(ours.rows[row][column])}, spark ${String(theirs.rows[row][column])}`);
    }
  }
  if (valueDifferences > 5) differences.push(`… ${valueDifferences} differing values in all`);
  console.log(`compare      ${name}: ${ours.rows.length} rows x ${names.length} columns (Spark's in ${partitions.map((column) => `${column}=`).join('/')} partitions) — ${differences.length === 0 ? 'EQUAL' : 'DIFFERENT'}`);
  for (const difference of differences) console.log(`               ${difference}`);
  return differences.length === 0;
}

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(dir, join(prefix, entry.name)) : [join(prefix, entry.name)]))
    .sort();
}

/** analysis.json without what differs between two runs of the same analysis: the times they took. */
function withoutTimings(text) {
  const analysis = JSON.parse(text);
  delete analysis.duration_ms;
  for (const window of analysis.windows) delete window.duration_ms;
  return JSON.stringify(analysis);
}

/** The Spark linkage's files must be analyze-dataset's: the same files, byte for byte (analysis.json: but for its timings). */
async function compareLinkage(nodeDir, sparkDir) {
  const ours = filesUnder(nodeDir);
  const theirs = filesUnder(sparkDir);
  const differences = [];
  if (ours.join('\n') !== theirs.join('\n')) differences.push(`files differ:\n  analyze-dataset ${ours.join(', ')}\n  spark           ${theirs.join(', ')}`);
  for (const file of ours.filter((name) => theirs.includes(name))) {
    const [a, b] = [await readFile(join(nodeDir, file)), await readFile(join(sparkDir, file))];
    const equal = file === 'analysis.json' ? withoutTimings(a.toString('utf8')) === withoutTimings(b.toString('utf8')) : a.equals(b);
    if (!equal) differences.push(`${file} differs`);
  }
  console.log(`compare      linkage: ${ours.length} files (analysis.json without its duration_ms; every other file byte for byte) — ${differences.length === 0 ? 'EQUAL' : 'DIFFERENT'}`);
  for (const difference of differences) console.log(`               ${difference}`);
  return differences.length === 0;
}

// ---------------------------------------------------------------- main

const settings = options();
const started = Date.now();
await ensurePyspark();
rmSync(RUN, { recursive: true, force: true });
mkdirSync(RUN, { recursive: true });
console.log(`machine      load average ${loadavg().map((load) => load.toFixed(2)).join(' ')} on ${availableParallelism()} cores (wall times measure the load as much as the work)`);
const dataset = await buildDataset(settings);
const copies = await driftedCopies(dataset.path);
const duckdbRefused = await duckdbRefusals(copies);
const duckdbDir = await summarizeWithDuckdb(dataset.path, settings.binS);
const linkageDataset = await buildLinkageDataset();
const nodeLinkage = await analyzeWithNode(linkageDataset);
const linkageRefused = await linkageRefusesBadArguments(linkageDataset.dataset);
const spark = await summarizeWithSpark(dataset.path, dataset.parts, settings.binS, settings.master, copies, linkageDataset);
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
let equal = duckdbRefused && spark.refused && linkageRefused;
for (const [name, summary] of Object.entries(SUMMARIES)) equal = (await compare(connection, name, summary, duckdbDir, spark.out)) && equal;
equal = (await compareLinkage(nodeLinkage, spark.linkageOut)) && equal;
connection.closeSync();
instance.closeSync();
const leftovers = readdirSync(RUN);
console.log(`\ntest:spark   ${equal ? 'PASS' : 'FAIL'}: Spark ${spark.report.spark_version} on ${spark.report.master}, bins of ${settings.binS} s; ${seconds(Date.now() - started)} in all (run files: ${RUN}: ${leftovers.join(', ')})`);
process.exit(equal ? 0 : 1);
