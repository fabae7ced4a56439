import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuiltRunner } from './ensure-built-runner.ts';
import type { BenchRow } from './bench-row.ts';

const RUNS = 10;
const REPO = fileURLToPath(new URL('..', import.meta.url));
const SEXTANT = fileURLToPath(new URL('../cli/sextant.mjs', import.meta.url));
/** The goal: `sextant --help` within this many times the wall time of `node -e 0`. */
const GOAL_TIMES_NODE = 3;

/** Wall time of one child process, in ms; throws when it fails. */
function timeOnce(args: string[]): number {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`node ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return ms;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value: number): number => Math.round(value * 10) / 10;

/**
 * Start-up of the command line: `sextant --help` against `node -e 0`, alternating runs so both
 * see the same machine load. Builds the runner first when dist-cli/ is missing or stale, so the
 * row measures the shipped (built) runner.
 */
export async function runCliStartupBench(): Promise<BenchRow[]> {
  ensureBuiltRunner();
  timeOnce([SEXTANT, '--help']); // warm the file cache
  const node: number[] = [];
  const sextant: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    node.push(timeOnce(['-e', '0']));
    sextant.push(timeOnce([SEXTANT, '--help']));
  }
  const ours = median(sextant);
  const peer = median(node);
  return [
    {
      name: 'cli_startup_help',
      ours_ms: round(ours),
      peer: 'node -e 0',
      peer_ms: round(peer),
      ratio: Math.round((peer / ours) * 100) / 100,
      peak_rss_mb: round(process.memoryUsage().rss / 1024 / 1024),
      params: {
        command: 'sextant --help',
        runs: RUNS,
        times_node: Math.round((ours / peer) * 100) / 100,
        goal_max_times_node: GOAL_TIMES_NODE,
        sextant_runs_ms: sextant.map(round),
        node_runs_ms: node.map(round),
      },
    },
  ];
}
