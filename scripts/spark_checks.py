"""`npm run test:spark`'s checks on Spark, in one session (one JVM start, one local cluster):

    spark-submit --py-files spark/ble_summary_job.py,spark/ble_linkage_job.py scripts/spark_checks.py \
        --refuse DATASET:CODE [--refuse ...] [--linkage-args JSON --missing-node PATH] \
        -- DATASET OUT [--bin-s 1]

First runs the summary job on every dataset given with --refuse, expecting exit code 4 and CODE
on stderr with the path of a part; then runs it on DATASET into OUT. With --linkage-args (the
linkage job's arguments as a JSON list), then runs the linkage job with the executors' Node at
--missing-node, expecting exit code 3 and SEXTANT_NODE_MISSING naming an executor and that path,
and then the linkage job as given. Prints one JSON line per run: {"refused": DATASET, "code": 4,
"message": ...}, the summary job's report line, {"without_node": ..., "as_expected": ...} and the
linkage job's report line. Exits 0 when every refusal and failure happened as expected and the
jobs ran (the linkage job's exit 1, a window that failed, counts as ran: its files are
compared); 1 otherwise.
"""

import contextlib
import io
import json
import sys

from pyspark.sql import SparkSession

import ble_linkage_job
import ble_summary_job


def main(argv):
    split = argv.index('--')
    refusals = [argv[index + 1] for index in range(split) if argv[index] == '--refuse']
    linkage_args = next((json.loads(argv[index + 1]) for index in range(split) if argv[index] == '--linkage-args'), None)
    missing_node = next((argv[index + 1] for index in range(split) if argv[index] == '--missing-node'), None)
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
        failed = failed or code != 0
        if linkage_args is not None:
            stderr = io.StringIO()
            with contextlib.redirect_stderr(stderr):
                code = ble_linkage_job.main([*linkage_args[:1], linkage_args[1] + '-without-node', *linkage_args[2:], '--executor-node', missing_node], spark)
            message = stderr.getvalue().strip()
            as_expected = code == ble_linkage_job.EXIT_NO_NODE and f'[{ble_linkage_job.NODE_MISSING}]' in message and 'executor ' in message and missing_node in message
            failed = failed or not as_expected
            print(json.dumps({'without_node': missing_node, 'exit': code, 'message': message, 'as_expected': as_expected}), flush=True)
            code = ble_linkage_job.main(linkage_args, spark)
            failed = failed or code not in (0, ble_linkage_job.EXIT_WINDOW_FAILED)
        return 1 if failed else 0
    finally:
        spark.stop()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
