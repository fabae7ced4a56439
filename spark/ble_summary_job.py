"""The BLE summary stage of a Sextant dataset on Apache Spark (issue 26).

Reads the dataset's manifest, then exactly the Parquet parts it lists, with Hive partition
discovery rooted at DATASET/parts so that `capture_id` and `hour` come back as columns; registers
them as the temporary view `packets`; runs the repository's summary SQL files unchanged (the same
files `sextant summarize` runs with DuckDB; `{{bin_ms}}` replaced by the bin width in whole
milliseconds, as cli/dataset/summaries.ts does) and writes the two summaries as Parquet:

    OUT/address_bins.parquet/       sql/ble-summary.sql, partitioned like the dataset's parts
                                    (receiver=…/hour=…, the hour partition of the packets each
                                    row summarizes, as the dataset's hour=2025-08-23T08),
                                    ordered by hour, receiver, address, bin
    OUT/address_payloads.parquet/   sql/ble-summary-payloads.sql, partitioned the same way,
                                    ordered by hour, receiver, address, payload signature

DATASET and OUT are local paths or any Hadoop filesystem URI (hdfs://, s3a://, abfss://, gs://):
everything is read and written through Spark, so the job runs unchanged on a cluster.

    spark-submit --master 'local-cluster[2,1,1024]' spark/ble_summary_job.py DATASET OUT [--bin-s 10]

Before reading any data it reads every part's Parquet footer (through Hadoop, 8 at a time) and
refuses a part whose columns or types differ from those most parts share, naming it
(DATASET_SCHEMA_DRIFT). It prints one JSON line on stdout: the Spark version, the master, the
rows written and the seconds the summaries took. Exit codes: 0 written, 2 bad arguments, 4 a
dataset refused (a coded message with the file's path on stderr). spark/README.md says how to
run it on a cluster; `sextant spark-submit-args` prints the arguments.
"""

import argparse
import json
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pyspark.sql import SparkSession

DATASET_FORMAT = 'sextant-dataset/1'
DEFAULT_BIN_MS = 10_000
# The summary SQL files of the repository, with the key each summary is ordered by (as
# `sextant summarize` orders its files, so that equal summaries are equal rows in order) and the
# Hive partitions it is written in (the partition columns leave the files for the directory names).
SUMMARIES = (
    ('address_bins.parquet', 'ble-summary.sql', ('hour', 'receiver', 'advertiser_addr', 'bin_start_ms'), ('receiver', 'hour')),
    ('address_payloads.parquet', 'ble-summary-payloads.sql', ('hour', 'receiver', 'advertiser_addr', 'payload_signature'), ('receiver', 'hour')),
)
# Exit codes, as `sextant`'s: 0 written; 2 bad arguments (argparse); 4 a dataset refused (no
# manifest, an invalid one, no parts, a part unreadable or of another schema: DatasetError).
EXIT_BAD_DATASET = 4
DEFAULT_SQL_DIR = Path(__file__).resolve().parent.parent / 'sql'


class DatasetError(Exception):
    """A dataset this job refuses to read: a code (as `sextant`'s DatasetProblem codes) and a
    message that names the file and says why."""

    def __init__(self, code, message):
        super().__init__(f'{message} [{code}]')
        self.code = code


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
        raise DatasetError('DATASET_NOT_FOUND', f'{manifest_uri}: cannot read the manifest ({str(error).splitlines()[0]})') from error
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise DatasetError('DATASET_MANIFEST_INVALID', f'{manifest_uri}: not JSON ({error})') from error
    if manifest.get('format') != DATASET_FORMAT:
        raise DatasetError('DATASET_MANIFEST_INVALID', f"{manifest_uri}: format {manifest.get('format')!r}, expected {DATASET_FORMAT!r}")
    paths = [join_uri(dataset, part['path']) for source in manifest.get('sources', []) for part in source.get('parts', [])]
    if not paths:
        raise DatasetError('DATASET_EMPTY', f'{manifest_uri}: the dataset lists no parts')
    return paths


def part_schema(spark, uri):
    """One part's columns with the types Spark reads them as ('rssi tinyint', ...), from its
    Parquet footer only, read through Hadoop (any filesystem Spark reads). Spark's types, not the
    Parquet annotations, which differ between writers for the same data."""
    jvm = spark.sparkContext._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    configuration = spark.sparkContext._jsc.hadoopConfiguration()
    try:
        reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(path, configuration))
    except Exception as error:  # py4j wraps the Java exception; its first line says what failed
        raise DatasetError('DATASET_PART_TRUNCATED', f'{uri}: not a readable Parquet file ({str(error).splitlines()[0]})') from error
    try:
        parquet_schema = reader.getFooter().getFileMetaData().getSchema()
    finally:
        reader.close()
    sql_conf = spark._jsparkSession.sessionState().conf()
    fields = jvm.org.apache.spark.sql.execution.datasources.parquet.ParquetToSparkSchemaConverter(sql_conf).convert(parquet_schema).fields()
    return tuple(sorted(f'{field.name()} {field.dataType().simpleString()}' for field in fields))


def check_part_schemas(spark, paths):
    """Refuses a dataset whose parts do not all have one schema (a column missing, added or of
    another type), naming the first part that differs from the schema most parts share. Spark
    itself would read such a part with the first file's schema: a missing column as nulls."""
    with ThreadPoolExecutor(max_workers=8) as pool:  # footer reads are latency-bound on object stores
        schemas = list(pool.map(lambda uri: part_schema(spark, uri), paths))
    counts = Counter(schemas)
    # The schema most parts share; on a tie, the first part's.
    expected = max(counts, key=lambda schema: (counts[schema], -schemas.index(schema)))
    for uri, schema in zip(paths, schemas):
        if schema == expected:
            continue
        missing = [field for field in expected if field not in schema]
        extra = [field for field in schema if field not in expected]
        raise DatasetError('DATASET_SCHEMA_DRIFT', (
            f'{uri}: its schema differs from that of {counts[expected]} of the {len(paths)} parts'
            f" (expected but absent: {'; '.join(missing) or 'none'}; present but not expected: {'; '.join(extra) or 'none'})"
        ))


def register_packets(spark, dataset):
    paths = manifest_part_paths(spark, dataset)
    check_part_schemas(spark, paths)
    # Partition values stay strings (capture ids and hours such as 2025-08-23T08 are not numbers
    # or dates); basePath makes Spark discover capture_id and hour from the parts' directories.
    spark.conf.set('spark.sql.sources.partitionColumnTypeInference.enabled', 'false')
    packets = spark.read.option('basePath', join_uri(dataset, 'parts')).parquet(*paths)
    packets.createOrReplaceTempView('packets')
    return len(paths)


def write_summaries(spark, arguments):
    rows = {}
    for file_name, sql_file, key, partitions in SUMMARIES:
        summary = spark.sql(summary_sql(arguments.sql_dir, sql_file, arguments.bin_ms))
        # One task per partition, its rows in key order: each partition's file is ordered as `sextant summarize` orders its own.
        summary = summary.repartition(*partitions).sortWithinPartitions(*key)
        target = join_uri(arguments.out, file_name)
        summary.write.mode('overwrite' if arguments.overwrite else 'errorifexists').partitionBy(*partitions).parquet(target)
        rows[file_name] = spark.read.parquet(target).count()  # from the files' footers
    return rows


def main(argv, spark=None):
    """Runs the job; returns its exit code. With `spark`, runs in that session and leaves it open
    (the test runs every check in one session); without, makes a session and stops it."""
    arguments = parse_arguments(argv)
    owned = spark is None
    if owned:
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
        return EXIT_BAD_DATASET
    finally:
        if owned:
            spark.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
