"""The BLE summary stage of a Sextant dataset on Apache Spark (issue 26).

Reads the dataset's manifest, then exactly the Parquet parts it lists, with Hive partition
discovery rooted at DATASET/parts so that `capture_id` and `hour` come back as columns; registers
them as the temporary view `packets`; runs the repository's summary SQL files unchanged (the same
files `sextant summarize` runs with DuckDB; `{{bin_ms}}` replaced by the bin width in whole
milliseconds, as cli/dataset/summaries.ts does) and writes the two summaries as Parquet:

    OUT/address_bins.parquet/       sql/ble-summary.sql, ordered by receiver, address, bin
    OUT/address_payloads.parquet/   sql/ble-summary-payloads.sql, ordered by receiver, address,
                                    payload signature

DATASET and OUT are local paths or any Hadoop filesystem URI (hdfs://, s3a://, abfss://, gs://):
everything is read and written through Spark, so the job runs unchanged on a cluster.

    spark-submit --master 'local-cluster[2,1,1024]' spark/ble_summary_job.py DATASET OUT [--bin-s 10]

It prints one JSON line on stdout: the Spark version, the master, the rows written and the
seconds the summaries took.
"""

import argparse
import json
import sys
import time
from pathlib import Path

from pyspark.sql import SparkSession

DATASET_FORMAT = 'sextant-dataset/1'
DEFAULT_BIN_MS = 10_000
# The summary SQL files of the repository, with the key each summary is ordered by (as
# `sextant summarize` orders its files, so that equal summaries are equal rows in order).
SUMMARIES = (
    ('address_bins.parquet', 'ble-summary.sql', ('receiver', 'advertiser_addr', 'bin_start_ms')),
    ('address_payloads.parquet', 'ble-summary-payloads.sql', ('receiver', 'advertiser_addr', 'payload_signature')),
)
DEFAULT_SQL_DIR = Path(__file__).resolve().parent.parent / 'sql'


class DatasetError(Exception):
    """A dataset this job refuses to read; the message says which file and why."""


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description='Sextant BLE summaries of a dataset, on Spark.')
    parser.add_argument('dataset', help='the dataset directory (local path or Hadoop URI)')
    parser.add_argument('out', help='where the summaries go (local path or Hadoop URI)')
    parser.add_argument('--bin-s', type=float, default=DEFAULT_BIN_MS / 1000, help='the time bin in seconds (default 10)')
    parser.add_argument('--sql-dir', default=str(DEFAULT_SQL_DIR), help="the repository's sql/ folder, read by the driver")
    parser.add_argument('--overwrite', action='store_true', help='replace summaries already in OUT')
    arguments = parser.parse_args(argv)
    # The same rounding as `sextant summarize --bin-s`: Math.round(seconds * 1000).
    bin_ms = int(arguments.bin_s * 1000 + 0.5)
    if bin_ms < 1:
        parser.error(f'--bin-s must be a number of seconds >= 0.001, not {arguments.bin_s}')
    arguments.bin_ms = bin_ms
    return arguments


def summary_sql(sql_dir, file_name, bin_ms):
    text = (Path(sql_dir) / file_name).read_text(encoding='utf-8')
    return text.replace('{{bin_ms}}', str(bin_ms))


def join_uri(base, relative):
    return base.rstrip('/') + '/' + relative.lstrip('/')


def manifest_part_paths(spark, dataset):
    """The parts the manifest lists, as URIs under the dataset (read through Hadoop, any scheme)."""
    manifest_uri = join_uri(dataset, 'manifest.json')
    try:
        text = spark.read.text(manifest_uri, wholetext=True).first()[0]
    except Exception as error:  # Spark raises its own analysis/IO errors; name the file instead.
        raise DatasetError(f'{manifest_uri}: cannot read the manifest ({str(error).splitlines()[0]})') from error
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise DatasetError(f'{manifest_uri}: not JSON ({error})') from error
    if manifest.get('format') != DATASET_FORMAT:
        raise DatasetError(f"{manifest_uri}: format {manifest.get('format')!r}, expected {DATASET_FORMAT!r}")
    paths = [join_uri(dataset, part['path']) for source in manifest.get('sources', []) for part in source.get('parts', [])]
    if not paths:
        raise DatasetError(f'{manifest_uri}: the dataset lists no parts')
    return paths


def register_packets(spark, dataset):
    paths = manifest_part_paths(spark, dataset)
    # Partition values stay strings (capture ids and hours such as 2025-08-23T08 are not numbers
    # or dates); basePath makes Spark discover capture_id and hour from the parts' directories.
    spark.conf.set('spark.sql.sources.partitionColumnTypeInference.enabled', 'false')
    packets = spark.read.option('basePath', join_uri(dataset, 'parts')).parquet(*paths)
    packets.createOrReplaceTempView('packets')
    return len(paths)


def write_summaries(spark, arguments):
    rows = {}
    for file_name, sql_file, key in SUMMARIES:
        summary = spark.sql(summary_sql(arguments.sql_dir, sql_file, arguments.bin_ms)).orderBy(*key)
        target = join_uri(arguments.out, file_name)
        summary.write.mode('overwrite' if arguments.overwrite else 'errorifexists').parquet(target)
        rows[file_name] = spark.read.parquet(target).count()  # from the files' footers
    return rows


def main(argv):
    arguments = parse_arguments(argv)
    spark = SparkSession.builder.appName('sextant-ble-summary').getOrCreate()
    try:
        started = time.monotonic()
        parts = register_packets(spark, arguments.dataset)
        rows = write_summaries(spark, arguments)
        print(json.dumps({
            'spark_version': spark.version,
            'master': spark.sparkContext.master,
            'dataset': arguments.dataset,
            'parts': parts,
            'bin_ms': arguments.bin_ms,
            'out': arguments.out,
            'rows': rows,
            'seconds': round(time.monotonic() - started, 2),
        }), flush=True)
    except DatasetError as error:
        print(f'ble_summary_job: {error}', file=sys.stderr)
        return 4
    finally:
        spark.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
