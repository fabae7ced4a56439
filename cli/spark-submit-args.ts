/**
 * The `spark-submit` argument list that runs spark/ble_summary_job.py (the BLE summary stage of a
 * dataset) or, with `linkage`, spark/ble_linkage_job.py (the BLE linkage in time windows on the
 * executors, stitched on the driver) on a given kind of cluster, with the settings a user must
 * still provide. Pure: it reads no file and starts nothing, so it is the same on a laptop and in CI.
 */

export type ClusterKind = 'local' | 'local-cluster' | 'standalone' | 'yarn' | 'kubernetes' | 'databricks';

export interface SparkSubmitRequest {
  /** `local[N]`, `local-cluster[N,CORES,MB]`, `spark://HOST:PORT`, `yarn`, `k8s://https://HOST:PORT` or `databricks`. */
  master: string;
  /** The dataset and the summaries' destination: paths or Hadoop URIs (s3a://, hdfs://, abfss://, gs://, dbfs:/). */
  dataset: string;
  out: string;
  binS?: string;
  executorMemory?: string;
  executors?: number;
  executorCores?: number;
  driverMemory?: string;
  /** A packed Python environment (venv-pack/conda-pack .tar.gz) shipped to the executors. */
  pythonEnv?: string;
  /** Kubernetes: the container image holding Spark, Python and the repository's spark/ and sql/. */
  image?: string;
  /** Where the repository is: the job and sql/ are read from `REPO/spark/…` and `REPO/sql`. */
  repo?: string;
  overwrite?: boolean;
  /** The linkage job instead of the summaries: windows as `analyze-dataset --window --overlap`. */
  linkage?: SparkLinkageRequest;
}

export interface SparkLinkageRequest {
  window: string;
  overlap?: string;
  /** Node on the executors (spark.executorEnv.SEXTANT_NODE); default `node` on their PATH. */
  executorNode?: string;
  /** The built runner packed as .tar.gz (dist-cli, cli/sextant.mjs and the production node_modules) shipped with --archives; default the repository's path on every node. */
  runnerArchive?: string;
}

export interface SparkSubmitPlan {
  kind: ClusterKind;
  /** The arguments after `spark-submit` (for Databricks: a spark-submit task's `parameters`). */
  argv: string[];
  /** What the user must set or provide for this kind of cluster, one sentence each. */
  settings: string[];
}

export class SparkSubmitArgsError extends Error {}

/** Where the job and the SQL live inside the Kubernetes image (see spark/README.md). */
export const IMAGE_REPO = '/opt/sextant';

const LOCAL_CLUSTER = /^local-cluster\[(\d+),\s*(\d+),\s*(\d+)\]$/;
const LOCAL = /^local(\[(\d+|\*)\])?$/;

export function clusterKind(master: string): ClusterKind {
  if (LOCAL_CLUSTER.test(master)) return 'local-cluster';
  if (LOCAL.test(master)) return 'local';
  if (/^spark:\/\/[^/\s]+$/.test(master)) return 'standalone';
  if (master === 'yarn') return 'yarn';
  if (/^k8s:\/\/https?:\/\/[^/\s]+/.test(master)) return 'kubernetes';
  if (master === 'databricks') return 'databricks';
  throw new SparkSubmitArgsError(`unknown master '${master}': expected local[N], local-cluster[N,CORES,MB], spark://HOST:PORT, yarn, k8s://https://HOST:PORT or databricks`);
}

const MEMORY = /^\d+[kmgt]$/i;

export function sparkSubmitArgs(request: SparkSubmitRequest): SparkSubmitPlan {
  const kind = clusterKind(request.master);
  for (const [name, value] of [['--executor-memory', request.executorMemory], ['--driver-memory', request.driverMemory]] as const) {
    if (value !== undefined && !MEMORY.test(value)) throw new SparkSubmitArgsError(`${name} expects a JVM size such as 4g or 512m, not '${value}'`);
  }
  for (const [name, value] of [['--executors', request.executors], ['--executor-cores', request.executorCores]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new SparkSubmitArgsError(`${name} expects a whole number ≥ 1, not '${value}'`);
  }
  if (kind === 'kubernetes' && !request.image) throw new SparkSubmitArgsError('a Kubernetes master needs --image (a Spark image with Python and the repository at /opt/sextant; see spark/README.md)');
  const repo = (request.repo ?? '.').replace(/\/+$/, '') || '/';
  const argv: string[] = [];
  const settings: string[] = [];
  const conf = (key: string, value: string) => argv.push('--conf', `${key}=${value}`);
  const executorMemory = request.executorMemory ?? '4g';
  const executors = request.executors ?? 2;
  const executorCores = request.executorCores ?? 2;
  const jobFile = request.linkage ? 'ble_linkage_job.py' : 'ble_summary_job.py';
  let job = `${repo}/spark/${jobFile}`;
  let sparkDir = `${repo}/spark`;
  let sqlDir = `${repo}/sql`;

  switch (kind) {
    case 'local':
    case 'local-cluster':
      argv.push('--master', request.master);
      // One machine: everything bound to the loopback, no web UI.
      conf('spark.driver.host', '127.0.0.1');
      conf('spark.driver.bindAddress', '127.0.0.1');
      conf('spark.ui.enabled', 'false');
      if (request.driverMemory) argv.push('--driver-memory', request.driverMemory);
      settings.push('SPARK_LOCAL_IP=127.0.0.1 in the environment keeps the workers on the loopback too.');
      settings.push(kind === 'local-cluster' ? 'Executor memory is the third number of local-cluster[N,CORES,MB]; the master and workers run inside the driver JVM, each executor is a JVM of its own.' : 'local[N] runs every task in the driver JVM: its memory is --driver-memory.');
      break;
    case 'standalone':
      argv.push('--master', request.master, '--deploy-mode', 'client');
      argv.push('--executor-memory', executorMemory, '--executor-cores', String(executorCores), '--total-executor-cores', String(executors * executorCores));
      if (request.driverMemory) argv.push('--driver-memory', request.driverMemory);
      settings.push('Client mode: the driver runs here and reads the repository (the job and sql/); every worker must reach the dataset and the output URIs.');
      break;
    case 'yarn':
      // The linkage's driver runs Node (plan, stitch) and writes OUT where it runs: client mode, here.
      argv.push('--master', 'yarn', '--deploy-mode', request.linkage ? 'client' : 'cluster');
      argv.push('--executor-memory', executorMemory, '--executor-cores', String(executorCores), '--num-executors', String(executors));
      if (request.driverMemory) argv.push('--driver-memory', request.driverMemory);
      // Cluster mode: the driver runs in a YARN container; --files puts the SQL in its working directory.
      if (!request.linkage) {
        argv.push('--files', `${repo}/sql/ble-summary.sql,${repo}/sql/ble-summary-payloads.sql`);
        sqlDir = '.';
      }
      settings.push('HADOOP_CONF_DIR (or YARN_CONF_DIR) must name the cluster’s configuration; on EMR and Dataproc the master node has it.');
      break;
    case 'kubernetes':
      argv.push('--master', request.master, '--deploy-mode', 'cluster');
      conf('spark.kubernetes.container.image', request.image!);
      conf('spark.executor.instances', String(executors));
      conf('spark.executor.cores', String(executorCores));
      conf('spark.executor.memory', executorMemory);
      if (request.driverMemory) conf('spark.driver.memory', request.driverMemory);
      // The driver runs in a pod: the job and the SQL come from the image.
      job = `local://${IMAGE_REPO}/spark/${jobFile}`;
      sparkDir = `local://${IMAGE_REPO}/spark`;
      sqlDir = `${IMAGE_REPO}/sql`;
      settings.push(`The image must hold Spark 4 with Python and the repository’s spark/ and sql/ at ${IMAGE_REPO} (spark/README.md has a Dockerfile).`);
      settings.push('spark.kubernetes.namespace and spark.kubernetes.authenticate.driver.serviceAccountName: a namespace and a service account allowed to create pods.');
      break;
    case 'databricks':
      // A Databricks "spark-submit task": its parameters are this list; the cluster sets the master.
      conf('spark.executor.memory', executorMemory);
      job = `dbfs:/FileStore/sextant/spark/${jobFile}`;
      sparkDir = 'dbfs:/FileStore/sextant/spark';
      sqlDir = '/dbfs/FileStore/sextant/sql';
      settings.push('Copy spark/ble_summary_job.py and sql/*.sql to dbfs:/FileStore/sextant/ (databricks fs cp); the driver reads the SQL through /dbfs.');
      settings.push('The number and size of executors come from the job cluster’s node type and workers, not from these parameters.');
      break;
  }

  if (request.pythonEnv) {
    if (kind === 'local' || kind === 'local-cluster') throw new SparkSubmitArgsError('--python-env is for clusters; locally, PYSPARK_PYTHON names the Python to use');
    argv.push('--archives', `${request.pythonEnv}#environment`);
    conf('spark.pyspark.python', './environment/bin/python');
    if (kind === 'yarn' || kind === 'kubernetes') conf('spark.pyspark.driver.python', './environment/bin/python');
  } else if (kind !== 'local' && kind !== 'local-cluster') {
    settings.push(`Python 3.10+ on every node (${request.linkage ? 'with PySpark, PyArrow and pandas' : 'the job needs nothing beyond PySpark'}); set PYSPARK_PYTHON, or ship an environment with --python-env.`);
  }
  if ([request.dataset, request.out].some((uri) => uri.startsWith('s3a://'))) {
    argv.push('--packages', 'org.apache.hadoop:hadoop-aws:3.4.1');
    conf('spark.hadoop.fs.s3a.aws.credentials.provider', 'software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider');
    settings.push('s3a:// needs hadoop-aws matching the Hadoop version of the Spark build (3.4.1 for Spark 4.0–4.3) and AWS credentials the default provider chain finds (environment, profile or instance role); never put keys on the command line.');
  }
  if ((kind === 'local' || kind === 'local-cluster') && (isRemote(request.dataset) || isRemote(request.out))) {
    settings.push('A local master reads remote URIs from this machine: fine for a look, slow for a year of data.');
  }
  if (kind !== 'local' && kind !== 'local-cluster' && (!isRemote(request.dataset) || !isRemote(request.out))) {
    settings.push('On a cluster the dataset and the output must be URIs every node reaches (hdfs://, s3a://, abfss://, gs://, dbfs:/), not local paths.');
  }

  if (request.linkage) {
    const { linkage } = request;
    if (request.binS !== undefined || request.overwrite) throw new SparkSubmitArgsError('--bin-s and --overwrite are for the summaries, not the linkage');
    // The linkage job imports the summary job (the manifest and schema checks).
    argv.push('--py-files', `${sparkDir}/ble_summary_job.py`);
    conf('spark.executorEnv.SEXTANT_NODE', linkage.executorNode ?? 'node');
    const imageRunner = kind === 'kubernetes' ? `${IMAGE_REPO}/cli/sextant.mjs` : kind === 'databricks' ? '/dbfs/FileStore/sextant/cli/sextant.mjs' : `${repo}/cli/sextant.mjs`;
    if (linkage.runnerArchive) {
      if (kind === 'local' || kind === 'local-cluster') throw new SparkSubmitArgsError('--runner-archive is for clusters; locally the executors run the repository\'s runner');
      argv.push('--archives', `${linkage.runnerArchive}#sextant`);
      conf('spark.executorEnv.SEXTANT_RUNNER', './sextant/cli/sextant.mjs');
    } else {
      conf('spark.executorEnv.SEXTANT_RUNNER', imageRunner);
      if (kind !== 'local' && kind !== 'local-cluster') settings.push(`Every executor must hold the built runner at ${imageRunner} (npm ci && node cli/build.mjs), or ship it packed with --runner-archive.`);
    }
    settings.push(`Node 20.19+ on every executor (${linkage.executorNode ?? 'node on its PATH'}; spark.executorEnv.SEXTANT_NODE) and on the driver, which plans the windows and stitches them; an executor without it fails the job with SEXTANT_NODE_MISSING before any data is read.`);
    settings.push('PyArrow and pandas on the driver and every executor (applyInArrow), with PySpark; OUT is a directory on the driver’s filesystem, written as analyze-dataset writes it.');
    if (kind === 'kubernetes') settings.push(`The image needs Node and the built runner at ${IMAGE_REPO} too, and OUT a volume mounted in the driver pod (spark.kubernetes.driver.volumes.*): the pod’s own disk goes with it.`);
    if (kind === 'databricks') settings.push('Install Node on the job cluster with an init script, copy the built runner to dbfs:/FileStore/sextant/, and give OUT as a /dbfs/… path.');
    argv.push(job, request.dataset, request.out, '--window', linkage.window);
    if (linkage.overlap !== undefined) argv.push('--overlap', linkage.overlap);
    argv.push('--runner', imageRunner);
    return { kind, argv, settings };
  }
  argv.push(job, request.dataset, request.out, '--sql-dir', sqlDir);
  if (request.binS !== undefined) argv.push('--bin-s', request.binS);
  if (request.overwrite) argv.push('--overwrite');
  return { kind, argv, settings };
}

function isRemote(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(uri) && !uri.startsWith('file:');
}

/** A POSIX shell word for `value` (single-quoted unless it is plainly safe). */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
