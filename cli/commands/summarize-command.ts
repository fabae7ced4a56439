import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetEngine } from '../dataset/duckdb-engine.ts';
import { DEFAULT_BIN_MS, SUMMARY_FILES, SUMMARY_SQL, writeSummaries } from '../dataset/summaries.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';

export const SUMMARIZE_USAGE = `Usage:
  sextant summarize DIR --out OUT [--bin-s N] [--capture ID]...

Runs the BLE summary stage (sql/ble-summary.sql and sql/ble-summary-payloads.sql, with DuckDB)
over the dataset DIR and writes OUT/${SUMMARY_FILES.bins} (per hour, receiver, advertiser address
and time bin: packets, CRC-good packets, first/last time, RSSI count, sum, sum of squares, min, max,
per advertising channel packets and RSSI sums, scan responses, times scanned) and
OUT/${SUMMARY_FILES.payloads} (per hour, receiver, address and payload signature: packets,
first/last time, company id, manufacturer and service data, name), and prints OUT/summary.json.
It runs slice by slice of whole hours, so its memory does not grow with the dataset's length.
Every figure is a count, an integer sum or an extreme, so summaries of shards merge exactly into
the summaries of their union (sql/ble-summary-merge.sql). The analyzer does not read them yet.

--bin-s N     time bin in seconds (default ${DEFAULT_BIN_MS / 1000}; fractions to the millisecond)
--capture ID  only this capture (repeatable)

Exit codes: 0 written; 4 bad arguments, not a dataset or a damaged one (a part missing or
truncated, or of another schema than the other parts: DATASET_SCHEMA_DRIFT).`;

/** `sextant summarize DIR --out OUT`: returns the exit code. */
export async function runSummarize(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { out: { type: 'string' }, 'bin-s': { type: 'string' }, capture: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    SUMMARIZE_USAGE,
  );
  if (values.help) {
    io.stdout(`${SUMMARIZE_USAGE}\n`);
    return EXIT.ok;
  }
  const [root, ...extra] = positionals;
  if (!root || !values.out) throw new UsageError('summarize needs a dataset DIR and --out OUT', SUMMARIZE_USAGE);
  expectNoMore(extra, SUMMARIZE_USAGE);
  const binMs = values['bin-s'] === undefined ? DEFAULT_BIN_MS : Math.round(Number(values['bin-s']) * 1000);
  if (!Number.isSafeInteger(binMs) || binMs < 1) throw new UsageError(`--bin-s must be a number of seconds ≥ 0.001, not '${values['bin-s']}'`, SUMMARIZE_USAGE);
  const opened = await DatasetEngine.open(root);
  if (!opened.ok) {
    io.stderr(`sextant: summarize ${root}: ${opened.error.message} [${opened.error.code}]\n`);
    return EXIT.badArguments;
  }
  const engine = opened.value;
  try {
    await mkdir(values.out, { recursive: true });
    const started = performance.now();
    const paths = { bins: join(values.out, SUMMARY_FILES.bins), payloads: join(values.out, SUMMARY_FILES.payloads) };
    const rows = await writeSummaries(engine, { binMs, captureIds: values.capture ?? [], paths });
    const summary = {
      dataset: root,
      bin_ms: binMs,
      captures: values.capture ?? engine.manifest.sources.map((source) => source.capture_id),
      sql: Object.values(SUMMARY_SQL).map((entry) => `sql/${entry.file}`),
      files: { [SUMMARY_FILES.bins]: rows.bins, [SUMMARY_FILES.payloads]: rows.payloads },
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    };
    await writeFile(join(values.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    io.stdout(`${JSON.stringify(summary, null, 2)}\n`);
    return EXIT.ok;
  } finally {
    engine.close();
  }
}
