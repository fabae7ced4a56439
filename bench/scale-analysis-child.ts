/**
 * The summary stage (`sextant summarize`) and then one windowed `sextant analyze-dataset` of a
 * dataset, in a fresh process, so their time and peak memory are their own (DuckDB's and the
 * tool threads included: CPU time and VmHWM are the process's), run by the built runner as
 * `sextant` runs it (scale-bench.ts builds it first):
 *
 *   node --import tsx bench/scale-analysis-child.ts DATASET_DIR OUT WINDOW OVERLAP JOBS
 */
import { readFileSync } from 'node:fs';
import { BUILT_MAIN, builtRunnerIsCurrent } from '../cli/built-runner.mjs';

// The runner as `sextant` runs it: the build when it is current (its tool threads then load
// plain JavaScript, not sources compiled again in every thread), else the sources.
const { main } = (builtRunnerIsCurrent() ? await import(BUILT_MAIN.href) : await import('../cli/main.ts')) as typeof import('../cli/main.ts');

function peakRssMb(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}

async function run(): Promise<void> {
  const [root, out, window, overlap, jobs] = process.argv.slice(2);
  let stdout = '';
  let stderr = '';
  const io = { stdout: (text: string) => void (stdout += text), stderr: (text: string) => void (stderr += text), readStdin: async () => '' };
  const summarizeStarted = performance.now();
  const summarizeCpu = process.cpuUsage();
  const summarized = await main(['summarize', root, '--out', `${out}-summaries`], io);
  if (summarized !== 0) throw new Error(`summarize exited ${summarized}: ${stderr}`);
  const summarizeUsed = process.cpuUsage(summarizeCpu);
  const summarizeSeconds = (performance.now() - summarizeStarted) / 1000;
  stdout = '';
  const started = performance.now();
  const cpu = process.cpuUsage();
  const code = await main(['analyze-dataset', root, '--out', out, '--window', window, '--overlap', overlap, '--jobs', jobs], io);
  if (code !== 0) throw new Error(`analyze-dataset exited ${code}: ${stderr}`);
  const used = process.cpuUsage(cpu);
  const analysis = JSON.parse(stdout) as { windows: Array<{ rows: number; status: string }>; stitched: Record<string, number>; status: string };
  console.log(
    JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      cpu_seconds: (used.user + used.system) / 1e6,
      summarize_seconds: summarizeSeconds,
      summarize_cpu_seconds: (summarizeUsed.user + summarizeUsed.system) / 1e6,
      peak_rss_mb: peakRssMb(),
      windows: analysis.windows.length,
      window_statuses: analysis.windows.map((entry) => entry.status),
      rows_analysed: analysis.windows.reduce((sum, entry) => sum + entry.rows, 0),
      largest_window_rows: Math.max(...analysis.windows.map((entry) => entry.rows)),
      stitched: analysis.stitched,
      status: analysis.status,
    }),
  );
}

await run();
