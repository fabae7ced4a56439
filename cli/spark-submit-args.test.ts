import { describe, expect, it } from 'vitest';
import { runSparkSubmitArgs } from './commands/spark-submit-args-command.ts';
import type { Io } from './main.ts';
import { clusterKind, shellWord, sparkSubmitArgs } from './spark-submit-args.ts';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  try {
    return { code: await runSparkSubmitArgs(args, io), stdout, stderr };
  } catch (error) {
    return { code: 4, stdout, stderr: (error as Error).message };
  }
}

/** The value after `flag` in an argument list (`--conf` values looked up by key). */
function after(argv: string[], flag: string): string | undefined {
  if (flag.startsWith('spark.')) return argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
  const index = argv.indexOf(flag);
  return index < 0 ? undefined : argv[index + 1];
}

describe('sparkSubmitArgs', () => {
  it('names every kind of master and refuses others', () => {
    expect(['local[2]', 'local', 'local-cluster[2,1,1024]', 'spark://h:7077', 'yarn', 'k8s://https://h:6443', 'databricks'].map(clusterKind)).toEqual([
      'local', 'local', 'local-cluster', 'standalone', 'yarn', 'kubernetes', 'databricks',
    ]);
    expect(() => clusterKind('mesos://h:5050')).toThrow(/unknown master 'mesos:\/\/h:5050'/);
  });

  it('keeps a local cluster on the loopback with the UI off, and ends with the job and its arguments', () => {
    const { argv, settings } = sparkSubmitArgs({ master: 'local-cluster[2,1,1024]', dataset: 'ds', out: 'out', binS: '1' });
    expect(after(argv, '--master')).toBe('local-cluster[2,1,1024]');
    expect(after(argv, 'spark.driver.bindAddress')).toBe('127.0.0.1');
    expect(after(argv, 'spark.ui.enabled')).toBe('false');
    expect(argv.slice(-7)).toEqual(['./spark/ble_summary_job.py', 'ds', 'out', '--sql-dir', './sql', '--bin-s', '1']);
    expect(settings.join(' ')).toContain('SPARK_LOCAL_IP=127.0.0.1');
  });

  it('sizes executors on standalone, YARN and Kubernetes, and says where the SQL comes from', () => {
    const common = { dataset: 'hdfs://nn/ds', out: 'hdfs://nn/out', executorMemory: '8g', executors: 10, executorCores: 4 };
    const standalone = sparkSubmitArgs({ ...common, master: 'spark://h:7077', repo: '/srv/sextant' });
    expect([after(standalone.argv, '--executor-memory'), after(standalone.argv, '--total-executor-cores'), after(standalone.argv, '--sql-dir')]).toEqual(['8g', '40', '/srv/sextant/sql']);
    const yarn = sparkSubmitArgs({ ...common, master: 'yarn' });
    expect([after(yarn.argv, '--deploy-mode'), after(yarn.argv, '--num-executors'), after(yarn.argv, '--files'), after(yarn.argv, '--sql-dir')]).toEqual(['cluster', '10', './sql/ble-summary.sql,./sql/ble-summary-payloads.sql', '.']);
    const k8s = sparkSubmitArgs({ ...common, master: 'k8s://https://h:6443', image: 'registry/sextant-spark:1' });
    expect([after(k8s.argv, 'spark.kubernetes.container.image'), after(k8s.argv, 'spark.executor.instances'), after(k8s.argv, 'spark.executor.memory')]).toEqual(['registry/sextant-spark:1', '10', '8g']);
    expect(k8s.argv).toContain('local:///opt/sextant/spark/ble_summary_job.py');
    expect(() => sparkSubmitArgs({ ...common, master: 'k8s://https://h:6443' })).toThrow(/needs --image/);
  });

  it('gives Databricks a task’s parameters without a master', () => {
    const { argv, settings } = sparkSubmitArgs({ master: 'databricks', dataset: 'dbfs:/ds', out: 'dbfs:/out' });
    expect(argv).not.toContain('--master');
    expect(argv).toContain('dbfs:/FileStore/sextant/spark/ble_summary_job.py');
    expect(settings.join(' ')).toMatch(/node type/);
  });

  it('adds hadoop-aws and the default credentials chain for s3a://, never keys', () => {
    const { argv, settings } = sparkSubmitArgs({ master: 'spark://h:7077', dataset: 's3a://b/ds', out: 's3a://b/out' });
    expect(after(argv, '--packages')).toMatch(/^org\.apache\.hadoop:hadoop-aws:/);
    expect(argv.join(' ')).not.toMatch(/access\.key|secret/i);
    expect(settings.join(' ')).toMatch(/credentials/);
  });

  it('ships a packed Python environment to the executors on a cluster only', () => {
    const { argv } = sparkSubmitArgs({ master: 'yarn', dataset: 'hdfs://nn/ds', out: 'hdfs://nn/out', pythonEnv: 'env.tar.gz' });
    expect([after(argv, '--archives'), after(argv, 'spark.pyspark.python')]).toEqual(['env.tar.gz#environment', './environment/bin/python']);
    expect(() => sparkSubmitArgs({ master: 'local[2]', dataset: 'ds', out: 'out', pythonEnv: 'env.tar.gz' })).toThrow(/PYSPARK_PYTHON/);
  });

  it('says a cluster needs URIs every node reaches, and refuses bad sizes', () => {
    expect(sparkSubmitArgs({ master: 'spark://h:7077', dataset: '/data/ds', out: '/data/out' }).settings.join(' ')).toMatch(/URIs every node reaches/);
    expect(() => sparkSubmitArgs({ master: 'yarn', dataset: 'a', out: 'b', executorMemory: 'lots' })).toThrow(/--executor-memory/);
    expect(() => sparkSubmitArgs({ master: 'yarn', dataset: 'a', out: 'b', executors: 0 })).toThrow(/--executors/);
  });

  it('runs the linkage job with Node and the runner named for the executors, in client mode on YARN', () => {
    const local = sparkSubmitArgs({ master: 'local-cluster[2,1,1024]', dataset: 'ds', out: 'out', linkage: { window: '1h', overlap: '10m', executorNode: '/usr/bin/node' } });
    expect(local.argv.slice(-9)).toEqual(['./spark/ble_linkage_job.py', 'ds', 'out', '--window', '1h', '--overlap', '10m', '--runner', './cli/sextant.mjs']);
    expect(after(local.argv, '--py-files')).toBe('./spark/ble_summary_job.py');
    expect(after(local.argv, 'spark.executorEnv.SEXTANT_NODE')).toBe('/usr/bin/node');
    expect(after(local.argv, 'spark.executorEnv.SEXTANT_RUNNER')).toBe('./cli/sextant.mjs');
    const yarn = sparkSubmitArgs({ master: 'yarn', dataset: 's3a://b/ds', out: '/data/out', linkage: { window: '1h', runnerArchive: 'sextant-runner.tar.gz' } });
    expect(after(yarn.argv, '--deploy-mode')).toBe('client');
    expect(after(yarn.argv, '--archives')).toBe('sextant-runner.tar.gz#sextant');
    expect(after(yarn.argv, 'spark.executorEnv.SEXTANT_RUNNER')).toBe('./sextant/cli/sextant.mjs');
    expect(after(yarn.argv, 'spark.executorEnv.SEXTANT_NODE')).toBe('node');
    expect(yarn.argv).not.toContain('--files');
    expect(yarn.settings.join(' ')).toContain('SEXTANT_NODE_MISSING');
    const k8s = sparkSubmitArgs({ master: 'k8s://https://h:6443', image: 'r/sextant', dataset: 's3a://b/ds', out: '/mnt/out', linkage: { window: '1h' } });
    expect(k8s.argv.at(-7)).toBe('local:///opt/sextant/spark/ble_linkage_job.py');
    expect(after(k8s.argv, '--py-files')).toBe('local:///opt/sextant/spark/ble_summary_job.py');
    expect(k8s.settings.join(' ')).toContain('volume');
    expect(() => sparkSubmitArgs({ master: 'local[2]', dataset: 'ds', out: 'out', linkage: { window: '1h', runnerArchive: 'r.tar.gz' } })).toThrow(/for clusters/);
    expect(() => sparkSubmitArgs({ master: 'local[2]', dataset: 'ds', out: 'out', binS: '1', linkage: { window: '1h' } })).toThrow(/not the linkage/);
  });

  it('quotes shell words only when needed', () => {
    expect(['local-cluster[2,1,1024]', 's3a://b/ds', "it's"].map(shellWord)).toEqual(["'local-cluster[2,1,1024]'", 's3a://b/ds', "'it'\\''s'"]);
  });
});

describe('sextant spark-submit-args', () => {
  it('prints JSON by default and a command line with --format shell', async () => {
    const json = await run(['ds', 'out', '--master', 'local-cluster[2,1,1024]']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'local-cluster', argv: expect.arrayContaining(['ds', 'out']) });
    const shell = await run(['ds', 'out', '--master', 'local-cluster[2,1,1024]', '--format', 'shell']);
    expect(shell.stdout).toMatch(/^spark-submit --master 'local-cluster\[2,1,1024\]' .* \.\/spark\/ble_summary_job\.py ds out --sql-dir \.\/sql\n# /);
  });

  it('needs --window with --linkage, and the linkage flags only with it', async () => {
    expect((await run(['ds', 'out', '--master', 'local[2]', '--linkage'])).stderr).toContain('--linkage needs --window');
    expect((await run(['ds', 'out', '--master', 'local[2]', '--window', '1h'])).stderr).toContain('are for --linkage');
    const printed = await run(['ds', 'out', '--master', 'local[2]', '--linkage', '--window', '1h', '--format', 'shell']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('spark/ble_linkage_job.py ds out --window 1h');
  });

  it('refuses a missing master, an unknown one and a bad bin', async () => {
    expect((await run(['ds', 'out'])).stderr).toMatch(/needs DATASET, OUT and --master/);
    expect((await run(['ds', 'out', '--master', 'mesos://h'])).stderr).toMatch(/unknown master/);
    expect((await run(['ds', 'out', '--master', 'yarn', '--bin-s', 'x'])).stderr).toMatch(/--bin-s/);
  });
});
