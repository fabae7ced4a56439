import { readFile } from 'node:fs/promises';
import { bleAddressAnalyzerManifest, isJsonObject, safeParseJson, type JsonObject } from '../../src/core/index.ts';
import { analyseWindowRows, windowRowsFromIpc } from '../dataset/window-rows.ts';
import { serveWindows } from '../dataset/window-serve.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';
import { ANALYSIS_MEMORY_LIMIT, DEFAULT_MAX_PACKETS } from './analyze-dataset-command.ts';

export const ANALYZE_WINDOW_USAGE = `Usage:
  sextant analyze-window --index N --from-ms MS --end-ms MS --to-ms MS --arguments-json JSON
                         [--rows FILE|-] [--timeout-ms N] [--max-packets N]
  sextant analyze-window --serve

Analyses one window of a dataset from its packet rows (an Arrow IPC stream or file of the
normalized capture columns with capture_id; default stdin) exactly as analyze-dataset --window
analyses each window, and prints the window's result as one JSON line
(format sextant-window-analysis/1), which stitch-windows reads. The window [--from-ms, --to-ms)
and its index are those plan-windows prints; --end-ms is where the next window starts. This is
what the Spark linkage job (spark/ble_linkage_job.py) runs on its executors.

--serve keeps one runner for many windows: each request on stdin is one JSON line {index,
from_ms, end_ms, to_ms, arguments, timeout_ms?, max_packets?, rows_bytes} followed by rows_bytes
bytes of Arrow IPC, and each is answered with one line on stdout, in order: the window's result
as above, or {format: "sextant-window-refusal/1", index, code, message}. It ends when stdin does.

Exit codes: 0 the window's result printed (its status says whether the analysis succeeded); 4 bad arguments, rows that are not packets
(ROWS_NOT_PACKETS) or more rows than --max-packets (WINDOW_TOO_LARGE). Serving: 0 when stdin
ends, 4 after a request it could not read (BAD_WINDOW_REQUEST, answered as a refusal).`;

/** `sextant analyze-window`: returns the exit code. */
export async function runAnalyzeWindow(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      index: { type: 'string' },
      'from-ms': { type: 'string' },
      'end-ms': { type: 'string' },
      'to-ms': { type: 'string' },
      'arguments-json': { type: 'string' },
      rows: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-packets': { type: 'string' },
      serve: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    ANALYZE_WINDOW_USAGE,
  );
  if (values.help) {
    io.stdout(`${ANALYZE_WINDOW_USAGE}\n`);
    return EXIT.ok;
  }
  expectNoMore(positionals, ANALYZE_WINDOW_USAGE);
  const maxTimeout = bleAddressAnalyzerManifest.execution_constraints.max_timeout_ms;
  if (values.serve) {
    const others = Object.keys(values).filter((name) => name !== 'serve');
    if (others.length > 0) throw new UsageError(`--serve reads each window's settings from its request, not --${others[0]}`, ANALYZE_WINDOW_USAGE);
    const served = await serveWindows(process.stdin, io.stdout, { maxTimeoutMs: maxTimeout, defaultMaxPackets: DEFAULT_MAX_PACKETS, memoryLimit: ANALYSIS_MEMORY_LIMIT });
    return served ? EXIT.ok : EXIT.badArguments;
  }
  const number = (name: 'index' | 'from-ms' | 'end-ms' | 'to-ms' | 'timeout-ms' | 'max-packets', fallback?: number): number => {
    const text = values[name];
    const value = text === undefined ? fallback : Number(text);
    if (value === undefined || !Number.isSafeInteger(value) || value < 0) throw new UsageError(`--${name} must be a whole number ≥ 0, not '${text ?? ''}'`, ANALYZE_WINDOW_USAGE);
    return value;
  };
  const plan = { index: number('index'), fromMs: number('from-ms'), endMs: number('end-ms'), toMs: number('to-ms') };
  if (!(plan.fromMs < plan.endMs && plan.endMs <= plan.toMs)) throw new UsageError('the window needs --from-ms < --end-ms ≤ --to-ms', ANALYZE_WINDOW_USAGE);
  const timeoutMs = number('timeout-ms', maxTimeout);
  if (timeoutMs < 1 || timeoutMs > maxTimeout) throw new UsageError(`--timeout-ms is between 1 and ${maxTimeout}, the analyzer's limit`, ANALYZE_WINDOW_USAGE);
  const parsed = safeParseJson(values['arguments-json'] ?? '');
  if (!parsed.ok || !isJsonObject(parsed.value)) throw new UsageError("--arguments-json must be the analyzer's arguments as a JSON object (plan-windows prints them)", ANALYZE_WINDOW_USAGE);
  const toolArguments: JsonObject = parsed.value;
  const source = values.rows ?? '-';
  const bytes = source === '-' ? await readStdinBytes() : await readFile(source);
  const table = windowRowsFromIpc(bytes);
  if (typeof table === 'string') {
    io.stderr(`sextant: analyze-window: ${table} [ROWS_NOT_PACKETS]\n`);
    return EXIT.badArguments;
  }
  const outcome = await analyseWindowRows(table, { plan, toolArguments, timeoutMs, maxPackets: number('max-packets', DEFAULT_MAX_PACKETS), memoryLimit: ANALYSIS_MEMORY_LIMIT });
  if (outcome.kind === 'refused') {
    io.stderr(`sextant: analyze-window: ${outcome.message} [${outcome.code}]\n`);
    return EXIT.badArguments;
  }
  // A window whose analysis failed is a result too (status error): stitching reports it, as analyze-dataset does.
  io.stdout(`${JSON.stringify(outcome.output)}\n`);
  return EXIT.ok;
}

/** Standard input as bytes (Arrow IPC is binary; Io.readStdin reads text). */
async function readStdinBytes(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
