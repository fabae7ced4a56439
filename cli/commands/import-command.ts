import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { tableToIPC } from 'apache-arrow';
import { readCaptureSource } from '../../src/core/index.ts';
import { defaultCaptureId } from '../capture-files.ts';
import { EXIT } from '../exit-codes.ts';
import { withFileCaptureSource } from '../file-source.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';

export const IMPORT_USAGE = `Usage:
  sextant import PATH [--id ID] [--out FILE.arrow] [--time-column NAME]
  sextant import FILE... --dataset DIR [--id ID] [--jobs N] [--receiver NAME]

Reads a capture file and prints its import report as JSON on stdout: for pcap, pcapng and
btsnoop files the BLE import report (rows, bounds, link_types, packets,
advertising_packets[_crc_ok], advertisers[_crc_ok], adv_type_counts, skipped, identity_keys:
IRKs found in HCI logs, MSB first, with source and frame, ...), and for every file
source_bytes, source_sha256, warnings (also on stderr), partial and integrity (status
clean|degraded|unusable, crc_failed[_share], usable_share, reserved_pdu_types, skipped_total,
verdict).

--id ID             capture id (default: the file name without its extension)
--out FILE.arrow    also writes the normalized table as an Arrow IPC file
--time-column NAME  timestamp column of an Arrow, Parquet or CSV file (default ts_ms)

--dataset DIR       streams pcap, pcapng and btsnoop files into the Parquet dataset DIR
                    (created on first use; see docs/dataset.md) in bounded memory, whatever
                    their size, and prints {dataset, imported: [manifest entries], refused:
                    [{file, code, message}]}. A file already in the dataset (same SHA-256) or
                    whose capture id is taken is refused; a file that cannot be read is refused
                    and the others still land. Progress on stderr when it is a terminal.
--id ID             with --dataset: the capture id of the only FILE (default: each file's name)
--jobs N            files imported at once, each in its own thread (default: the core count)
--receiver NAME     receiver name for every row (default: from each file)

Exit codes: 0 imported; 4 bad arguments or a file that cannot be read (with --dataset: any
file refused; the others landed).`;

/** `sextant import PATH`: returns the exit code. */
export async function runImport(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      id: { type: 'string' },
      out: { type: 'string' },
      'time-column': { type: 'string' },
      dataset: { type: 'string' },
      jobs: { type: 'string' },
      receiver: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    IMPORT_USAGE,
  );
  if (values.help) {
    io.stdout(`${IMPORT_USAGE}\n`);
    return EXIT.ok;
  }
  if (values.dataset !== undefined) {
    if (values.out !== undefined || values['time-column'] !== undefined) throw new UsageError('--out and --time-column do not apply with --dataset', IMPORT_USAGE);
    const { runDatasetImport } = await import('../dataset/dataset-import-command.ts');
    return runDatasetImport({ root: values.dataset, paths: positionals, id: values.id, jobs: values.jobs, receiver: values.receiver }, io);
  }
  if (values.jobs !== undefined || values.receiver !== undefined) throw new UsageError('--jobs and --receiver need --dataset', IMPORT_USAGE);
  const [path, ...extra] = positionals;
  if (!path) throw new UsageError('import needs a PATH', IMPORT_USAGE);
  expectNoMore(extra, IMPORT_USAGE);
  return importFile(path, values.id ?? defaultCaptureId(path), values.out, values['time-column'], io);
}

/**
 * The report on stdout (with the file's size and SHA-256, every warning and whether the import
 * is partial), each warning also on stderr; the table to --out; exit 4 when the file cannot be read.
 */
async function importFile(path: string, id: string, out: string | undefined, timeColumn: string | undefined, io: Io): Promise<number> {
  const read = await withFileCaptureSource(path, basename(path), (source) => readCaptureSource(source, { id, fileName: basename(path), timeColumn }));
  if (!read.ok) {
    io.stderr(`sextant: import ${path}: ${read.error.message} [${read.error.code}]\n`);
    return EXIT.badArguments;
  }
  const capture = read.value;
  if (out) await writeFile(out, tableToIPC(capture.table, 'file'));
  const full = capture.report;
  const report =
    full.format === 'pcap' || full.format === 'pcapng' || full.format === 'btsnoop'
      ? full
      : {
          // Arrow, Parquet and CSV files: what the reader knows about them.
          capture_id: capture.info.id,
          source: capture.info.source,
          format: full.format,
          rows: capture.info.rowCount,
          bounds: capture.info.bounds,
          time_column: capture.info.timeColumn,
          channel_column: capture.info.channelColumn,
          columns: capture.info.columns.map((column) => ({ name: column.name, type: column.kind })),
          skipped: full.skipped,
          source_bytes: full.source_bytes,
          source_sha256: full.source_sha256,
          warnings: full.warnings,
          partial: full.partial,
          integrity: full.integrity,
        };
  for (const warning of full.warnings) io.stderr(`sextant: import ${path}: warning [${warning.code}] ${warning.message}\n`);
  io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return EXIT.ok;
}
