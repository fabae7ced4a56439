import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defaultCaptureId } from '../capture-files.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { UsageError } from '../usage-error.ts';
import { importFiles } from './import-files.ts';
import { ProgressLine } from './progress-line.ts';

export interface DatasetImportArgs {
  root: string;
  paths: string[];
  id: string | undefined;
  jobs: string | undefined;
  receiver: string | undefined;
}

const USAGE_HINT = 'Usage: sextant import FILE... --dataset DIR [--id ID] [--jobs N] [--receiver NAME]';

/** `sextant import FILE... --dataset DIR`: returns the exit code. */
export async function runDatasetImport(args: DatasetImportArgs, io: Io): Promise<number> {
  if (args.paths.length === 0) throw new UsageError('import --dataset needs at least one FILE', USAGE_HINT);
  if (args.id !== undefined && args.paths.length > 1) throw new UsageError('--id names one file; several files take their names as ids', USAGE_HINT);
  const jobs = args.jobs === undefined ? availableParallelism() : Number(args.jobs);
  if (!Number.isSafeInteger(jobs) || jobs < 1) throw new UsageError(`--jobs must be a whole number ≥ 1, not '${args.jobs}'`, USAGE_HINT);
  const files = args.paths.map((path) => ({ path, captureId: args.id ?? defaultCaptureId(path) }));
  const progress = process.stderr.isTTY ? new ProgressLine('import', io.stderr) : null;
  const outcomes = await importFiles({
    root: resolve(args.root),
    files,
    jobs,
    ...(args.receiver === undefined ? {} : { receiver: args.receiver }),
    onProgress: ({ bytesRead, totalBytes, rows }) => progress?.update(bytesRead, totalBytes, rows),
  });
  progress?.end();
  const imported = outcomes.flatMap((outcome) => (outcome.result.ok ? [outcome.result.value] : []));
  const refused = outcomes.flatMap((outcome) => (outcome.result.ok ? [] : [{ file: outcome.file.path, code: outcome.result.error.code, message: outcome.result.error.message }]));
  for (const problem of refused) io.stderr(`sextant: import ${problem.file}: ${problem.message} [${problem.code}]\n`);
  io.stdout(`${JSON.stringify({ dataset: args.root, imported, refused }, null, 2)}\n`);
  return refused.length > 0 ? EXIT.badArguments : EXIT.ok;
}
