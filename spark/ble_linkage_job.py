"""The BLE linkage of a Sextant dataset on Apache Spark, window by window on the executors (issue 26).

The same analysis as `sextant analyze-dataset DATASET --out OUT --window W --overlap O`, with
the windows analysed on the executors, next to the data, by the `sextant` Node runner:

1. The driver reads the manifest and checks every part's schema (ble_summary_job.register_packets),
   takes the dataset's first and last packet time with Spark, and asks `sextant plan-windows`
   for the windows: the very plan analyze-dataset makes (one definition, in the runner).
2. Each packet row goes to every window that holds it ([from_ms, to_ms): its own window and the
   overlap of the previous), the rows are grouped by window, and each window's rows go as an
   Arrow IPC stream to `sextant analyze-window --serve`, started once per executor Python worker
   and kept for its next windows (applyInArrow and a subprocess pipe), which analyses them as
   analyze-dataset analyses a window and answers with the window's result as JSON.
3. The driver hands the windows' results to `sextant stitch-windows`, which writes what
   analyze-dataset writes: OUT/windows/<n>/result.json, OUT/clusters.jsonl, conflicts.jsonl,
   relations.jsonl, the summary ToolResult OUT/result.json and OUT/analysis.json.

    spark-submit --master 'local-cluster[2,1,1024]' --py-files spark/ble_summary_job.py \\
        spark/ble_linkage_job.py DATASET OUT --window 10m --overlap 4m

Node on the executors: the executors start `$SEXTANT_NODE` (default `node`) with the runner at
`$SEXTANT_RUNNER` (default this repository's cli/sextant.mjs); set them with
spark.executorEnv.SEXTANT_NODE and spark.executorEnv.SEXTANT_RUNNER (or --executor-node,
--executor-runner). Before reading any data, one task per core checks that its executor starts
Node and finds the runner; an executor that cannot fails the job with SEXTANT_NODE_MISSING (or
SEXTANT_RUNNER_MISSING), naming the executor's host and the path it tried, and how to set it. The driver runs Node too (plan and stitch),
`--node`/`--runner`. DATASET is a local path or Hadoop URI; OUT is a directory on the driver.

Prints one JSON line on stdout (Spark version, master, windows, seconds). Exit codes: 0 written,
1 a window's analysis failed (the files are written, as analyze-dataset), 2 bad arguments, 3 an
executor without Node or without the runner, 4 a dataset refused (as ble_summary_job) or a
window over --max-packets, or --window/--overlap refused by the runner, 5 the analyzer's arguments
(--arguments) fail its input schema. --window, --overlap and --arguments are checked by the runner
on the driver before the Spark session starts, and --from/--to read (a bad time: exit 4).
--from, --to and --capture narrow the range as analyze-dataset's do (the times with a zone).
"""

import argparse
import datetime
import json
import math
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import ble_summary_job

REPOSITORY = Path(__file__).resolve().parent.parent
DEFAULT_RUNNER = str(REPOSITORY / 'cli' / 'sextant.mjs')
EXIT_WINDOW_FAILED = 1
EXIT_NO_NODE = 3
EXIT_REFUSED = 4
EXIT_INVALID_ARGUMENTS = 5
NODE_MISSING = 'SEXTANT_NODE_MISSING'
RUNNER_MISSING = 'SEXTANT_RUNNER_MISSING'
WINDOW_REFUSED = 'SEXTANT_WINDOW_REFUSED'
# The codes an executor's failure carries up to the driver, and the exit code each one gives.
EXECUTOR_CODES = {NODE_MISSING: EXIT_NO_NODE, RUNNER_MISSING: EXIT_NO_NODE, WINDOW_REFUSED: EXIT_REFUSED}


class ExecutorFailure(RuntimeError):
    """A window that could not be analysed on its executor; the message starts with its code."""


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description='Sextant BLE linkage of a dataset in time windows, on Spark.')
    parser.add_argument('dataset', help='the dataset directory (local path or Hadoop URI)')
    parser.add_argument('out', help="the output directory, on the driver's filesystem (as analyze-dataset --out)")
    parser.add_argument('--window', required=True, help='the window length (90s, 10m, 1h, 1d), as analyze-dataset --window')
    parser.add_argument('--overlap', help='how far each window reaches into the next (default analyze-dataset\'s)')
    parser.add_argument('--arguments', help="the analyzer's arguments as a JSON file (read by the driver), over the defaults")
    parser.add_argument('--timeout-ms', type=int, help="each window's deadline (default and at most the analyzer's limit)")
    parser.add_argument('--max-packets', type=int, help="refuse a window with more rows (default analyze-dataset's)")
    parser.add_argument('--from', dest='from_time', help='start of the range (inclusive): epoch milliseconds or ISO-8601 with a zone, as analyze-dataset --from')
    parser.add_argument('--to', dest='to_time', help='end of the range (exclusive): epoch milliseconds or ISO-8601 with a zone, as analyze-dataset --to')
    parser.add_argument('--capture', action='append', default=[], help='only this capture id (repeatable), as analyze-dataset --capture')
    parser.add_argument('--node', default='node', help='Node on the driver (default node)')
    parser.add_argument('--runner', default=DEFAULT_RUNNER, help="the sextant runner on the driver (default the repository's cli/sextant.mjs)")
    parser.add_argument('--executor-node', help='Node on the executors (default $SEXTANT_NODE there, else node)')
    parser.add_argument('--executor-runner', help="the runner on the executors (default $SEXTANT_RUNNER there, else the driver's --runner)")
    return parser.parse_args(argv)


class SextantFailure(RuntimeError):
    """The runner on the driver exited with an error: its exit code and what it printed."""

    def __init__(self, command, returncode, stderr):
        super().__init__(f'sextant {command} exited with code {returncode}: {stderr.strip()}')
        self.returncode = returncode
        self.stderr = stderr.strip()


def run_sextant(node, runner, args):
    """Runs the sextant runner on the driver; returns its stdout, raising SextantFailure with its stderr."""
    completed = subprocess.run([node, runner, *args], capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise SextantFailure(args[0], completed.returncode, completed.stderr)
    return completed.stdout


def planning_arguments(arguments):
    """plan-windows' flags for the job's --window, --overlap and --arguments."""
    flags = ['--window', arguments.window]
    if arguments.overlap is not None:
        flags += ['--overlap', arguments.overlap]
    if arguments.arguments is not None:
        flags += ['--arguments', arguments.arguments]
    return flags


EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def epoch_ms(text, flag):
    """--from/--to as epoch milliseconds: digits (a fraction allowed), or ISO-8601 with a zone
    (Z or ±hh:mm). A time without a zone is refused: the driver and the executors may each be in
    another one, and analyze-dataset would read it in its own machine's."""
    if text is None:
        return None
    if re.fullmatch(r'-?\d+(\.\d+)?', text):
        return float(text) if '.' in text else int(text)
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f'{flag} must be epoch milliseconds or an ISO-8601 time, not {text!r}') from None
    if moment.tzinfo is None:
        raise ValueError(f'{flag} {text!r} has no zone: add Z or an offset (+01:00)')
    return (moment - EPOCH) // datetime.timedelta(milliseconds=1)


def requested_range(arguments):
    """--from, --to and --capture as the plan file's range (analyze-dataset's DatasetWindow)."""
    return {'from_ms': epoch_ms(arguments.from_time, '--from'), 'to_ms': epoch_ms(arguments.to_time, '--to'), 'capture_ids': list(arguments.capture)}


def refused_before_spark(arguments):
    """The runner's verdict on --window, --overlap and the analyzer's arguments, before any
    Spark work: a plan of a one-millisecond span; and --from/--to read. Returns the exit code to
    stop with, or None."""
    try:
        requested_range(arguments)
    except ValueError as error:
        print(f'ble_linkage_job: {error}', file=sys.stderr)
        return EXIT_REFUSED
    try:
        run_sextant(arguments.node, arguments.runner, ['plan-windows', '--first-ms', '0', '--last-ms', '1', *planning_arguments(arguments)])
    except FileNotFoundError as error:
        print(f'ble_linkage_job: cannot start Node on the driver at {arguments.node!r} ({error.strerror}) [{NODE_MISSING}]', file=sys.stderr)
        return EXIT_NO_NODE
    except SextantFailure as failure:
        print(f'ble_linkage_job: refused by sextant plan-windows:\n{failure.stderr}', file=sys.stderr)
        return EXIT_INVALID_ARGUMENTS if failure.returncode == EXIT_INVALID_ARGUMENTS else EXIT_REFUSED
    return None


def analyse_window_on_executor(plan_by_index, tool_arguments, settings):
    """The function applyInArrow runs per window, on an executor: the window's rows (a pyarrow
    Table) into `sextant analyze-window --serve` through a pipe, the window's result JSON back."""

    def analyse(table):
        import pyarrow as pa  # on the executor, where applyInArrow brings pyarrow

        index = table.column('window_index')[0].as_py()
        plan = plan_by_index[index]
        node, runner, host = executor_node(settings)
        if not os.path.isfile(runner):
            raise ExecutorFailure(node_problem(settings))
        rows = table.drop_columns([name for name in ('window_index', 'window_from_ms', 'window_to_ms', 'hour') if name in table.column_names])
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, rows.schema) as writer:
            writer.write_table(rows)
        request = {
            'index': index, 'from_ms': plan['from_ms'], 'end_ms': plan['end_ms'], 'to_ms': plan['to_ms'],
            'arguments': tool_arguments, 'timeout_ms': settings['timeout_ms'], 'max_packets': settings['max_packets'],
        }
        line = served_window(node, runner, {key: value for key, value in request.items() if value is not None}, sink.getvalue().to_pybytes())
        answer = json.loads(line)
        if answer.get('format') == 'sextant-window-refusal/1':
            raise ExecutorFailure(f"[{WINDOW_REFUSED}] executor {host}: window {index}: sextant analyze-window refused it: {answer.get('message')} [{answer.get('code')}]")
        return pa.table({'window_index': pa.array([index], pa.int32()), 'output': pa.array([line], pa.string())})

    return analyse


def served_window(node, runner, request, rows):
    """One window through `sextant analyze-window --serve`, started once per Python worker and
    kept for its next windows (Spark reuses a worker for many tasks): a process per window would
    load the runner's code and run the analyzer cold every time. Answers the runner's line as it
    wrote it (the window's result or refusal, JSON that stitch-windows reads); a runner that dies is named with its exit code and stderr, and the next
    window starts another."""
    # cloudpickle ships this job's functions by value, with fresh globals per task; a module in
    # sys.modules is what outlives a task in the worker process.
    kept = sys.modules.setdefault('sextant_window_runners', types.ModuleType('sextant_window_runners'))
    runners = kept.__dict__.setdefault('runners', {})
    process, stderr_file = runners.get((node, runner), (None, None))
    if process is None or process.poll() is not None:
        stderr_file = tempfile.TemporaryFile()
        try:
            process = subprocess.Popen([node, runner, 'analyze-window', '--serve'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr_file)
        except OSError as error:  # Node or the runner went missing since the check
            raise ExecutorFailure(f'[{NODE_MISSING}] executor {socket.gethostname()}: cannot start {node!r} ({error})') from error
        runners[(node, runner)] = (process, stderr_file)
    header = json.dumps({**request, 'rows_bytes': len(rows)}, separators=(',', ':')).encode('utf-8') + b'\n'
    try:
        process.stdin.write(header)
        process.stdin.write(rows)
        process.stdin.flush()
        line = process.stdout.readline()
    except OSError:  # a broken pipe: the runner is gone; its exit code and stderr say why
        line = b''
    if not line:
        code = process.wait()
        stderr_file.seek(0)
        stderr = stderr_file.read().decode('utf-8', 'replace').strip()
        runners.pop((node, runner), None)
        raise ExecutorFailure(f"[{WINDOW_REFUSED}] executor {socket.gethostname()}: window {request['index']}: sextant analyze-window exited with code {code}: {stderr}")
    return line.decode('utf-8').strip()


def executor_node(settings):
    """The Node and runner paths on this executor, with the host: what its failures name."""
    node = settings['executor_node'] or os.environ.get('SEXTANT_NODE') or 'node'
    runner = settings['executor_runner'] or os.environ.get('SEXTANT_RUNNER') or settings['runner']
    return node, runner, socket.gethostname()


def node_problem(settings):
    """Why this executor cannot run `sextant` (a coded message), or None when it can."""
    node, runner, host = executor_node(settings)
    if not os.path.isfile(runner):
        return (
            f'[{RUNNER_MISSING}] executor {host}: the sextant runner {runner} is not there; ship the built runner '
            '(--archives) or install it on the image, and set spark.executorEnv.SEXTANT_RUNNER to its sextant.mjs'
        )
    try:
        completed = subprocess.run([node, '--version'], capture_output=True, check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:  # ENOENT, EACCES, ENOEXEC: no Node to start at that path
        why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return (
            f'[{NODE_MISSING}] executor {host}: cannot start Node at {node!r} ({why}); install Node 20+ on '
            "every executor and set spark.executorEnv.SEXTANT_NODE to its path (or put node on the executors' PATH)"
        )
    if completed.returncode != 0:
        return f'[{NODE_MISSING}] executor {host}: {node!r} --version exited with code {completed.returncode}; set spark.executorEnv.SEXTANT_NODE to a working Node 20+'
    return None


def check_executors(spark, settings):
    """Before any data is read: one task per core of the cluster checks that its executor can
    start Node and finds the runner. The answer comes back as data, not as a task failure, so
    a cluster without Node is refused at once instead of after Spark's task retries. (An executor
    that joins later is checked by its first window's task, which fails with the same code.)"""
    slots = max(1, spark.sparkContext.defaultParallelism)
    problems = spark.sparkContext.parallelize(range(slots), slots).map(lambda _: node_problem(settings)).filter(lambda problem: problem is not None).distinct().collect()
    return problems[0] if problems else None


def in_range(packets, selected):
    """The packets of the range: from_ms <= ts_ms < to_ms, and the listed captures (all without)."""
    if selected['from_ms'] is not None:
        packets = packets.where(F.col('ts_ms') >= F.lit(selected['from_ms']))
    if selected['to_ms'] is not None:
        packets = packets.where(F.col('ts_ms') < F.lit(selected['to_ms']))
    if selected['capture_ids']:
        packets = packets.where(F.col('capture_id').isin(selected['capture_ids']))
    return packets


def windows_of_rows(packets, plan):
    """Every (row, window) pair with the window holding the row: from_ms <= ts_ms < to_ms. A row's
    candidates are its own window and the few before it whose overlap may reach it; the
    broadcast plan's exact bounds decide."""
    from_ms = plan['from_ms']
    window_ms = plan['window_ms']
    reach = math.ceil(plan['overlap_ms'] / window_ms) + 1
    own = F.floor((F.col('ts_ms') - F.lit(from_ms)) / F.lit(window_ms)).cast('int')
    bounds = packets.sparkSession.createDataFrame(
        [(window['index'], window['from_ms'], window['to_ms']) for window in plan['windows']],
        'window_index int, window_from_ms long, window_to_ms long',
    )
    candidates = packets.where(F.col('ts_ms').isNotNull()).withColumn('window_index', F.explode(F.sequence(own - F.lit(reach), own)))
    return candidates.join(F.broadcast(bounds), 'window_index').where((F.col('ts_ms') >= F.col('window_from_ms')) & (F.col('ts_ms') < F.col('window_to_ms')))


def executor_failure(error):
    """The coded message of an executor's failure inside Spark's error, or None."""
    text = str(error)
    for code in EXECUTOR_CODES:
        start = text.find(f'[{code}]')
        if start >= 0:
            return code, text[start:].splitlines()[0]
    return None


def main(argv, spark=None):
    """Runs the job; returns its exit code. With `spark`, runs in that session and leaves it open."""
    arguments = parse_arguments(argv)
    refused = refused_before_spark(arguments)
    if refused is not None:
        return refused
    owned = spark is None
    if owned:
        spark = SparkSession.builder.appName('sextant-ble-linkage').getOrCreate()
    try:
        started = time.monotonic()
        settings = {
            'executor_node': arguments.executor_node,
            'executor_runner': arguments.executor_runner,
            'runner': arguments.runner,
            'timeout_ms': arguments.timeout_ms,
            'max_packets': arguments.max_packets,
        }
        problem = check_executors(spark, settings)
        if problem is not None:
            print(f'ble_linkage_job: {problem}', file=sys.stderr)
            return EXIT_NO_NODE
        manifest_uri = ble_summary_job.join_uri(arguments.dataset, 'manifest.json')
        parts = ble_summary_job.register_packets(spark, arguments.dataset)
        manifest = json.loads(spark.read.text(manifest_uri, wholetext=True).first()[0])
        selected = requested_range(arguments)
        packets = in_range(spark.table('packets'), selected)
        whole = packets.groupBy('capture_id').agg(F.count(F.lit(1)).alias('n'), F.min('ts_ms').alias('first_ms'), F.max('ts_ms').alias('last_ms')).orderBy('capture_id').collect()
        firsts = [row['first_ms'] for row in whole if row['first_ms'] is not None]
        if not firsts:
            print(f'ble_linkage_job: {arguments.dataset}: no packets in the window [EMPTY_WINDOW]', file=sys.stderr)
            return EXIT_REFUSED
        plan_args = ['plan-windows', '--first-ms', repr(min(firsts)), '--last-ms', repr(max(row['last_ms'] for row in whole if row['last_ms'] is not None)), *planning_arguments(arguments)]
        for flag, key in (('--from-ms', 'from_ms'), ('--to-ms', 'to_ms')):
            if selected[key] is not None:
                plan_args += [flag, repr(selected[key])]
        try:
            plan = json.loads(run_sextant(arguments.node, arguments.runner, plan_args))
        except FileNotFoundError as error:
            print(f'ble_linkage_job: cannot start Node on the driver at {arguments.node!r} ({error.strerror}) [{NODE_MISSING}]', file=sys.stderr)
            return EXIT_NO_NODE
        plan_by_index = {window['index']: window for window in plan['windows']}
        assigned = windows_of_rows(packets, plan)
        results = assigned.groupBy('window_index').applyInArrow(analyse_window_on_executor(plan_by_index, plan['tool_arguments'], settings), 'window_index int, output string')
        try:
            outputs = [row['output'] for row in results.collect()]
        except Exception as error:  # Spark wraps the executor's exception (PythonException, Py4JJavaError)
            failure = executor_failure(error)
            if failure is None:
                raise
            print(f'ble_linkage_job: {failure[1]}', file=sys.stderr)
            return EXECUTOR_CODES[failure[0]]
        with tempfile.TemporaryDirectory(prefix='sextant-linkage-') as work:
            plan_file = Path(work) / 'plan.json'
            windows_file = Path(work) / 'windows.jsonl'
            sources = [{'capture_id': source['capture_id'], 'file': source['file'], 'sha256': source['sha256']} for source in manifest['sources']]
            plan_file.write_text(json.dumps({
                'format': 'sextant-window-plan/1',
                'dataset': arguments.dataset,
                'window_ms': plan['window_ms'],
                'overlap_ms': plan['overlap_ms'],
                'tool_arguments': plan['tool_arguments'],
                'timeout_ms': arguments.timeout_ms if arguments.timeout_ms is not None else plan['timeout_ms'],
                'captures': [{'capture_id': row['capture_id'], 'rows': row['n'], 'first_ms': row['first_ms'], 'last_ms': row['last_ms']} for row in whole],
                'sources': sources,
                'range': selected,
            }), encoding='utf-8')
            windows_file.write_text(''.join(f'{output}\n' for output in outputs), encoding='utf-8')
            stitched = subprocess.run([arguments.node, arguments.runner, 'stitch-windows', '--plan', str(plan_file), '--windows', str(windows_file), '--out', arguments.out], capture_output=True, text=True, check=False)
        if stitched.returncode not in (0, EXIT_WINDOW_FAILED):
            print(f'ble_linkage_job: sextant stitch-windows exited with code {stitched.returncode}: {stitched.stderr.strip()}', file=sys.stderr)
            return 1
        analysis = json.loads(stitched.stdout)
        print(json.dumps({
            'spark_version': spark.version,
            'master': spark.sparkContext.master,
            'dataset': arguments.dataset,
            'parts': parts,
            'out': arguments.out,
            'range': selected,
            'windows': len(plan['windows']),
            'analysed_windows': len(outputs),
            'status': analysis['status'],
            'stitched': analysis['stitched'],
            'seconds': round(time.monotonic() - started, 2),
        }), flush=True)
        return stitched.returncode
    except ble_summary_job.DatasetError as error:
        print(f'ble_linkage_job: {error}', file=sys.stderr)
        return ble_summary_job.EXIT_BAD_DATASET
    finally:
        if owned:
            spark.stop()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
