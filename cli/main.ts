// The runner's entry: the global usage and a table of commands, each loaded only when run so
// that `sextant --help` (and every command) starts without loading the others. The commands
// import io.ts, exit-codes.ts and usage-error.ts, never this file.
import { EXIT } from './exit-codes.ts';
import { processIo, type Io } from './io.ts';
import { UsageError } from './usage-error.ts';

export type { Io } from './io.ts';

type CommandRun = (args: string[], io: Io) => Promise<number>;

/** Each command and the module that runs it (loaded on demand). */
const COMMANDS: Readonly<Record<string, () => Promise<CommandRun>>> = {
  invoke: async () => (await import('./commands/invoke-command.ts')).runInvoke,
  template: async () => (await import('./commands/template-command.ts')).runTemplate,
  captures: async () => (await import('./commands/captures-command.ts')).runCaptures,
  import: async () => (await import('./commands/import-command.ts')).runImport,
  query: async () => (await import('./commands/query-command.ts')).runQuery,
  summarize: async () => (await import('./commands/summarize-command.ts')).runSummarize,
  'analyze-dataset': async () => (await import('./commands/analyze-dataset-command.ts')).runAnalyzeDataset,
  'plan-windows': async () => (await import('./commands/plan-windows-command.ts')).runPlanWindows,
  'analyze-window': async () => (await import('./commands/analyze-window-command.ts')).runAnalyzeWindow,
  'stitch-windows': async () => (await import('./commands/stitch-windows-command.ts')).runStitchWindows,
  'spark-submit-args': async () => (await import('./commands/spark-submit-args-command.ts')).runSparkSubmitArgs,
  manifests: async () => (await import('./commands/manifests-command.ts')).runManifests,
  canon: async () => (await import('./commands/canon-command.ts')).runCanon,
  manifest: async () => (await import('./commands/manifest-command.ts')).runManifest,
  generate: async () => (await import('./commands/generate-command.ts')).runGenerate,
  report: async () => (await import('./commands/report-command.ts')).runReport,
  plan: async () => (await import('./commands/plan-command.ts')).runPlan,
  mcp: async () => (await import('./mcp/mcp-command.ts')).runMcp,
};

const USAGE = `Usage:
  sextant invoke FILE|- [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools] [--run-out RUN.json]
  sextant template TOOL [--capture ID=PATH]... [--time-column NAME] [--enable-test-tools]
  sextant captures [--capture ID=PATH]... [--time-column NAME]
  sextant import PATH [--id ID] [--out FILE.arrow]
  sextant import FILE... --dataset DIR [--jobs N]
  sextant query DIR SQL [--format json|csv]
  sextant summarize DIR --out OUT [--bin-s N] [--capture ID]...
  sextant analyze-dataset DIR --out OUT [--from TIME] [--to TIME] [--capture ID]...
  sextant plan-windows --first-ms MS --last-ms MS --window DURATION [--overlap DURATION]
  sextant analyze-window --index N --from-ms MS --end-ms MS --to-ms MS --arguments-json JSON [--rows FILE|-]
  sextant stitch-windows --plan PLAN.json --windows WINDOWS.jsonl --out OUT
  sextant spark-submit-args DATASET OUT --master MASTER [--executor-memory SIZE] [--format json|shell]
  sextant manifests [--enable-test-tools]
  sextant canon FILE|-... [--format openai|anthropic|mcp|langchain|raw] [--emit canonical|openai|anthropic|mcp|json_schema|manifest]
  sextant manifest check FILE|-
  sextant manifest diff OLD NEW
  sextant generate ble --seed N [--scenario NAME] --out FILE [--per-receiver]
  sextant report RUN.json --out FILE.html [--json FILE.json] [--capture ID=PATH]...
  sextant report verify REPORT.json [--capture ID=PATH]... [--irk LABEL=HEX]...
  sextant plan --prompt TEXT [--config FILE] [--provider scripted:FILE|openai:MODEL|anthropic:MODEL|openai-compatible:URL#MODEL]... [--test-tools]
  sextant mcp serve|tools|call|check ...

invoke     runs one ToolInvocation or an ordered array of them (a plan) and prints the
           ToolResult (or an array of them) as JSON on stdout
template   prints an example invocation of an installed tool that passes validation, filled
           from a capture's bounds when --capture is given
captures   lists the available captures as JSON
import     reads a capture file and prints its import report as JSON, with its integrity verdict
           (with --out, also writes the normalized table as an Arrow IPC file; with --dataset,
           streams files of any size into a Parquet dataset)
query      runs SQL (DuckDB) over a dataset's packets
summarize  writes a dataset's BLE summaries (per receiver, address, time bin; per payload)
analyze-dataset
           runs the BLE address analyzer on a time window of a dataset
plan-windows, analyze-window, stitch-windows
           analyze-dataset --window in three steps, for a cluster: the window plan, one
           window's analysis from its rows (Arrow IPC), the stitching of the windows' results
spark-submit-args
           prints the spark-submit arguments that run the summary stage on a Spark cluster
manifests  lists the installed tool manifests as JSON
canon      detects a tool definition's format and canonicalizes it (or emits it in another format)
manifest   check: lints a ToolManifest; diff: classifies a change by the compatibility policy
generate   ble: writes a synthetic BLE scenario (Arrow IPC captures + FILE.truth.json)
report     writes a case report (self-contained HTML + JSON twin) from a run file; verify
           re-checks a report's capture hashes and results
plan       runs a planner session (LLM plan → validate → execute → repair → final report)
           with Sextant's tools and the configured MCP servers' tools; prints its result as JSON
mcp        Sextant as an MCP server (serve), and any MCP server's tools under Sextant's contract
           (tools, call, check)

\`sextant COMMAND --help\` prints a command's options and exit codes.

Exit codes: 0 ok; 1 an execution or session failure; 3 a configured MCP server missing or
failing to start (plan), a report that does not verify (report verify); 4 bad arguments,
configuration or unreadable files; 5 a validation failure.`;

/** Runs one command; returns the process exit code. Never throws. */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }
  const load = name === undefined || !Object.hasOwn(COMMANDS, name) ? undefined : COMMANDS[name];
  if (!load) {
    io.stderr(`sextant: ${name === undefined ? 'no command given' : `unknown command '${name}'`}\n\n${USAGE}\n`);
    return EXIT.badArguments;
  }
  try {
    return await (await load())(rest, io);
  } catch (error) {
    io.stderr(`sextant ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof UsageError) {
      if (error.usage) io.stderr(`\n${error.usage}\n`);
      return EXIT.badArguments;
    }
    return isFileError(error) ? EXIT.badArguments : EXIT.executionFailure;
  }
}

function isFileError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string';
}
