import { DatasetEngine, DEFAULT_MEMORY_LIMIT, type QueryAnswer } from '../dataset/duckdb-engine.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';
import { UsageError } from '../usage-error.ts';

export const QUERY_USAGE = `Usage:
  sextant query DIR SQL [--format json|csv] [--max-rows N] [--memory-limit SIZE] [--threads N]

Runs SQL (DuckDB's dialect) over the dataset DIR, which is the view \`packets\`: the normalized
capture columns (docs/capture-schema.md) and the \`hour\` partition (UTC, e.g. 2026-11-20T13).
Prints {columns: [{name, type}], rows: [[...]], row_count, truncated} as JSON, or CSV with a
header. Integers beyond ±2^53 print as text, times as ISO-8601. DuckDB spills to a temporary
directory past the memory limit instead of growing. The SQL runs with your rights: it can read
and write files as DuckDB can.

--format json|csv    output format (default json)
--max-rows N         rows printed at most (default 10000); truncated says when there were more
--memory-limit SIZE  DuckDB's memory_limit (default ${DEFAULT_MEMORY_LIMIT})
--threads N          DuckDB threads (default: the core count)

Exit codes: 0 answered; 1 the SQL failed (DuckDB's message on stderr); 4 bad arguments, not a
dataset, or a damaged dataset (a part missing or truncated, named by its path).`;

/** `sextant query DIR SQL`: returns the exit code. */
export async function runQuery(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      format: { type: 'string' },
      'max-rows': { type: 'string' },
      'memory-limit': { type: 'string' },
      threads: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    QUERY_USAGE,
  );
  if (values.help) {
    io.stdout(`${QUERY_USAGE}\n`);
    return EXIT.ok;
  }
  const [root, sql, ...extra] = positionals;
  if (!root || !sql) throw new UsageError('query needs a dataset DIR and an SQL statement', QUERY_USAGE);
  expectNoMore(extra, QUERY_USAGE);
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not '${format}'`, QUERY_USAGE);
  const maxRows = wholeNumber(values['max-rows'] ?? '10000', '--max-rows', 0);
  const threads = values.threads === undefined ? undefined : wholeNumber(values.threads, '--threads', 1);
  if (values['memory-limit'] !== undefined && !/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(values['memory-limit'])) {
    throw new UsageError(`--memory-limit must be a size such as 512MB or 2GB, not '${values['memory-limit']}'`, QUERY_USAGE);
  }

  const opened = await DatasetEngine.open(root, {
    ...(values['memory-limit'] === undefined ? {} : { memoryLimit: values['memory-limit'] }),
    ...(threads === undefined ? {} : { threads }),
  });
  if (!opened.ok) {
    io.stderr(`sextant: query ${root}: ${opened.error.message} [${opened.error.code}]\n`);
    return EXIT.badArguments;
  }
  const engine = opened.value;
  try {
    const answer = await engine.query(sql, maxRows);
    io.stdout(format === 'json' ? toJson(answer) : toCsv(answer));
    return EXIT.ok;
  } catch (error) {
    io.stderr(`sextant: query: ${error instanceof Error ? error.message : String(error)} [QUERY_FAILED]\n`);
    return EXIT.executionFailure;
  } finally {
    engine.close();
  }
}

function wholeNumber(text: string, flag: string, min: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`${flag} must be a whole number ≥ ${min}, not '${text}'`, QUERY_USAGE);
  return value;
}

/** The answer as JSON, one line per column and per row: readable, and still one JSON document. */
function toJson(answer: QueryAnswer): string {
  const lines = (items: unknown[]): string => (items.length === 0 ? '[]' : `[\n  ${items.map((item) => JSON.stringify(item)).join(',\n  ')}\n ]`);
  return `{\n "columns": ${lines(answer.columns)},\n "rows": ${lines(answer.rows)},\n "row_count": ${answer.rows.length},\n "truncated": ${answer.truncated}\n}\n`;
}

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled; lists and structs as JSON. */
function toCsv(answer: QueryAnswer): string {
  const field = (value: unknown): string => {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const lines = [answer.columns.map((column) => field(column.name)).join(',')];
  for (const row of answer.rows) lines.push(row.map(field).join(','));
  return `${lines.join('\n')}\n`;
}
