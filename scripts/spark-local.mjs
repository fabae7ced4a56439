// What every spark-submit on this machine's local cluster shares (`npm run test:spark` and
// `npm run bench -- spark`): a driver and executors on 127.0.0.1 only, no web UI, scratch under
// the run's own directory, a shuffle sized for a few cores, and Spark found through the
// project's virtual environment. Plain JavaScript so that the test script needs no compiler.
/* global process */
import { join } from 'node:path';

/** `--conf` arguments of a local-cluster run whose scratch files go under `localDir`. */
export function localSparkConf(localDir) {
  return [
    '--conf', 'spark.driver.host=127.0.0.1',
    '--conf', 'spark.driver.bindAddress=127.0.0.1',
    '--conf', 'spark.ui.enabled=false',
    '--conf', `spark.local.dir=${localDir}`,
    // Spark SQL's default of 200 shuffle partitions is for big data; adaptive execution coalesces them anyway.
    '--conf', 'spark.sql.shuffle.partitions=8',
  ];
}

/** The environment of spark-submit from the virtual environment `venv` (it finds Spark through the `python` on PATH). */
export function localSparkEnv(venv) {
  const python = join(venv, 'bin', 'python');
  return {
    ...process.env,
    PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}`,
    PYSPARK_PYTHON: python,
    PYSPARK_DRIVER_PYTHON: python,
    SPARK_LOCAL_IP: '127.0.0.1',
  };
}
