"""`npm run test:spark`'s checks on Spark, in one session (one JVM start, one local cluster):

    spark-submit --py-files spark/ble_summary_job.py scripts/spark_checks.py \
        --refuse DATASET:CODE [--refuse ...] -- DATASET OUT [--bin-s 1]

First runs the job on every dataset given with --refuse, expecting exit code 4 and CODE on
stderr with the path of a part; then runs it on DATASET into OUT. Prints one JSON line per run:
{"refused": DATASET, "code": 4, "message": ...} and then the job's own report line. Exits 0
when every refusal happened as expected and the job ran; 1 otherwise.
"""

import contextlib
import io
import json
import sys

from pyspark.sql import SparkSession

import ble_summary_job


def main(argv):
    split = argv.index('--')
    refusals = [argv[index + 1] for index in range(split) if argv[index] == '--refuse']
    spark = SparkSession.builder.appName('sextant-test-spark').getOrCreate()
    try:
        failed = False
        for refusal in refusals:
            dataset, expected_code = refusal.rsplit(':', 1)
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                code = ble_summary_job.main([dataset, dataset + '-summaries'], spark)
            message = stderr.getvalue().strip()
            as_expected = code == ble_summary_job.EXIT_BAD_DATASET and f'[{expected_code}]' in message and '/parts/' in message
            failed = failed or not as_expected
            print(json.dumps({'refused': dataset, 'expected_code': expected_code, 'exit': code, 'message': message, 'as_expected': as_expected}), flush=True)
        code = ble_summary_job.main(argv[split + 1:], spark)
        return 1 if failed or code != 0 else 0
    finally:
        spark.stop()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
