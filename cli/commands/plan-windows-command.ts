import { bleAddressAnalyzerManifest } from '../../src/core/index.ts';
import { planWindows, windowedSpan } from '../dataset/windowed-analysis.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';
import { argumentsValid, DEFAULT_ARGUMENTS, DEFAULT_OVERLAP, readArguments, windowingFlags } from './analyze-dataset-command.ts';

export const PLAN_WINDOWS_USAGE = `Usage:
  sextant plan-windows --first-ms MS --last-ms MS --window DURATION [--overlap DURATION]
                       [--arguments FILE] [--from-ms MS] [--to-ms MS]

Prints, as JSON, the windows analyze-dataset --window would analyse a dataset whose first and
last packets are at --first-ms and --last-ms (epoch milliseconds, fractional allowed): the same
span, window and overlap arithmetic and the same checks of --window and --overlap, and the
analyzer's arguments (the defaults under --arguments FILE) and its default deadline. --from-ms and
--to-ms are analyze-dataset's --from (inclusive) and --to (exclusive): the span runs from them
instead of the first packet and past the last. The Spark linkage job
(spark/ble_linkage_job.py) plans its windows with it, so both plans are one definition.

Exit codes: 0 printed; 4 bad arguments (a bad duration, an overlap too short); 5 the analyzer's
arguments fail its input schema (each problem printed with its field and code).`;

/** `sextant plan-windows`: returns the exit code. */
export async function runPlanWindows(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      'first-ms': { type: 'string' },
      'last-ms': { type: 'string' },
      window: { type: 'string' },
      overlap: { type: 'string' },
      arguments: { type: 'string' },
      'from-ms': { type: 'string' },
      'to-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    PLAN_WINDOWS_USAGE,
  );
  if (values.help) {
    io.stdout(`${PLAN_WINDOWS_USAGE}\n`);
    return EXIT.ok;
  }
  expectNoMore(positionals, PLAN_WINDOWS_USAGE);
  const time = (name: 'first-ms' | 'last-ms' | 'from-ms' | 'to-ms'): number => {
    const value = Number(values[name]);
    if (values[name] === undefined || !Number.isFinite(value)) throw new UsageError(`--${name} must be epoch milliseconds, not '${values[name] ?? ''}'`, PLAN_WINDOWS_USAGE);
    return value;
  };
  const firstMs = time('first-ms');
  const lastMs = time('last-ms');
  if (lastMs < firstMs) throw new UsageError('--last-ms is before --first-ms', PLAN_WINDOWS_USAGE);
  const range = { fromMs: values['from-ms'] === undefined ? null : time('from-ms'), toMs: values['to-ms'] === undefined ? null : time('to-ms') };
  if (values.window === undefined) throw new UsageError('plan-windows needs --window', PLAN_WINDOWS_USAGE);
  // As analyze-dataset: the defaults, under the file's.
  const toolArguments = values.arguments === undefined ? DEFAULT_ARGUMENTS : { ...DEFAULT_ARGUMENTS, ...(await readArguments(values.arguments)) };
  if (!argumentsValid(toolArguments, 'plan-windows', io)) return EXIT.validationFailure;
  const { windowMs, overlapMs } = windowingFlags(values.window, values.overlap ?? DEFAULT_OVERLAP, toolArguments, PLAN_WINDOWS_USAGE);
  const span = windowedSpan(range, [{ captureId: '', rows: 1, firstMs, lastMs }]);
  if (span === null) throw new UsageError('no packet time to plan from', PLAN_WINDOWS_USAGE);
  const windows = planWindows(span.fromMs, span.toMs, windowMs, overlapMs).map((plan) => ({ index: plan.index, from_ms: plan.fromMs, end_ms: plan.endMs, to_ms: plan.toMs }));
  io.stdout(`${JSON.stringify({ window_ms: windowMs, overlap_ms: overlapMs, from_ms: span.fromMs, to_ms: span.toMs, tool_arguments: toolArguments, timeout_ms: bleAddressAnalyzerManifest.execution_constraints.max_timeout_ms, windows })}\n`);
  return EXIT.ok;
}
