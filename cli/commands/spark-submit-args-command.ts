import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { shellWord, sparkSubmitArgs, SparkSubmitArgsError, type SparkSubmitRequest } from '../spark-submit-args.ts';
import { UsageError } from '../usage-error.ts';

export const SPARK_SUBMIT_ARGS_USAGE = `Usage:
  sextant spark-submit-args DATASET OUT --master MASTER [--bin-s N] [--executor-memory 4g]
      [--executors 2] [--executor-cores 2] [--driver-memory SIZE] [--python-env ENV.tar.gz]
      [--image IMAGE] [--repo DIR] [--overwrite] [--format json|shell]
      [--linkage --window DURATION [--overlap DURATION] [--executor-node PATH] [--runner-archive FILE]]

Prints the spark-submit arguments that run spark/ble_summary_job.py (the BLE summary stage,
sql/ble-summary*.sql) over the dataset DATASET into OUT on a cluster, and the settings a user
must still provide there. With --linkage, those of spark/ble_linkage_job.py instead: the BLE
linkage of analyze-dataset --window, each window analysed on an executor by the sextant runner
(Node), stitched on the driver into OUT (a directory there). Starts nothing and reads no file.

MASTER             local[N] | local-cluster[N,CORES,MB] | spark://HOST:PORT (standalone, client
                   mode) | yarn (EMR, Dataproc: cluster mode) | k8s://https://HOST:PORT
                   (cluster mode, needs --image) | databricks (a spark-submit task's parameters)
DATASET, OUT       paths or Hadoop URIs (s3a:// adds hadoop-aws and the default AWS credentials chain)
--executor-memory  per executor (default 4g; local-cluster takes it from MB)
--executors, --executor-cores   how many executors and cores each (default 2 and 2)
--python-env       a packed Python environment shipped to the executors (--archives)
--image            Kubernetes: the image with Spark, Python and the repository at /opt/sextant
--repo             where the repository is for the driver (default .)
--linkage          the linkage job; --window and --overlap as analyze-dataset's
--executor-node    Node on the executors (spark.executorEnv.SEXTANT_NODE; default node on their PATH)
--runner-archive   the built runner packed as .tar.gz, shipped to the executors (--archives)
--format           json (default: {"kind", "argv", "settings"}) or shell (a command line, then
                   the settings as # comments)

Exit codes: 0 printed; 4 bad arguments.`;

/** `sextant spark-submit-args`: returns the exit code. */
export async function runSparkSubmitArgs(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      master: { type: 'string' },
      'bin-s': { type: 'string' },
      'executor-memory': { type: 'string' },
      executors: { type: 'string' },
      'executor-cores': { type: 'string' },
      'driver-memory': { type: 'string' },
      'python-env': { type: 'string' },
      image: { type: 'string' },
      repo: { type: 'string' },
      overwrite: { type: 'boolean' },
      linkage: { type: 'boolean' },
      window: { type: 'string' },
      overlap: { type: 'string' },
      'executor-node': { type: 'string' },
      'runner-archive': { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    SPARK_SUBMIT_ARGS_USAGE,
  );
  if (values.help) {
    io.stdout(`${SPARK_SUBMIT_ARGS_USAGE}\n`);
    return EXIT.ok;
  }
  const [dataset, out, ...extra] = positionals;
  if (!dataset || !out || !values.master) throw new UsageError('spark-submit-args needs DATASET, OUT and --master', SPARK_SUBMIT_ARGS_USAGE);
  expectNoMore(extra, SPARK_SUBMIT_ARGS_USAGE);
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'shell') throw new UsageError(`--format expects json or shell, not '${format}'`, SPARK_SUBMIT_ARGS_USAGE);
  if (values['bin-s'] !== undefined && !(Number(values['bin-s']) >= 0.001)) throw new UsageError(`--bin-s must be a number of seconds ≥ 0.001, not '${values['bin-s']}'`, SPARK_SUBMIT_ARGS_USAGE);
  const whole = (name: 'executors' | 'executor-cores'): number | undefined => (values[name] === undefined ? undefined : Number(values[name]));
  const request: SparkSubmitRequest = {
    master: values.master,
    dataset,
    out,
    binS: values['bin-s'],
    executorMemory: values['executor-memory'],
    executors: whole('executors'),
    executorCores: whole('executor-cores'),
    driverMemory: values['driver-memory'],
    pythonEnv: values['python-env'],
    image: values.image,
    repo: values.repo,
    overwrite: values.overwrite,
  };
  if (values.linkage) {
    if (values.window === undefined) throw new UsageError('--linkage needs --window (as analyze-dataset --window)', SPARK_SUBMIT_ARGS_USAGE);
    request.linkage = { window: values.window, overlap: values.overlap, executorNode: values['executor-node'], runnerArchive: values['runner-archive'] };
  } else if ([values.window, values.overlap, values['executor-node'], values['runner-archive']].some((value) => value !== undefined)) {
    throw new UsageError('--window, --overlap, --executor-node and --runner-archive are for --linkage', SPARK_SUBMIT_ARGS_USAGE);
  }
  let plan;
  try {
    plan = sparkSubmitArgs(request);
  } catch (error) {
    if (error instanceof SparkSubmitArgsError) throw new UsageError(error.message, SPARK_SUBMIT_ARGS_USAGE);
    throw error;
  }
  if (format === 'json') {
    io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
  } else {
    const command = plan.kind === 'databricks' ? '# a Databricks spark-submit task, parameters:' : 'spark-submit';
    io.stdout(`${command} ${plan.argv.map(shellWord).join(' ')}\n${plan.settings.map((line) => `# ${line}`).join('\n')}\n`);
  }
  return EXIT.ok;
}
