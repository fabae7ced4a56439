/**
 * A child command measured as a whole process tree (Linux /proc): wall time, CPU time of the
 * child and everything it waited for (a Spark driver's JVM, its local-cluster workers and their
 * executor JVMs), and the peak of the tree's summed resident memory, sampled twice a second.
 * Node reports neither for a child: `process.resourceUsage()` is this process's own, so the CPU
 * comes from this process's cutime/cstime (children reaped so far) before and after.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeMeasure {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  cpu_seconds: number;
  peak_tree_rss_mb: number;
}

/** USER_HZ: the unit of /proc times, 100 on Linux whatever the kernel's own tick rate. */
const CLOCK_TICKS_PER_S = 100;
const PAGE_BYTES = 4096;
const SAMPLE_MS = 500;

export async function measureTree(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; deadlineMs: number }): Promise<TreeMeasure> {
  const cpuBefore = reapedChildrenCpuS();
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let peakBytes = 0;
  const sampler = setInterval(() => {
    if (child.pid !== undefined) peakBytes = Math.max(peakBytes, treeRssBytes(child.pid));
  }, SAMPLE_MS);
  const deadline = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs);
  const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
  clearInterval(sampler);
  clearTimeout(deadline);
  return {
    code,
    stdout,
    stderr,
    seconds: (performance.now() - started) / 1000,
    cpu_seconds: reapedChildrenCpuS() - cpuBefore,
    peak_tree_rss_mb: peakBytes / 2 ** 20,
  };
}

/** cutime + cstime of this process (s): CPU of every child it has waited for, and theirs. */
function reapedChildrenCpuS(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / CLOCK_TICKS_PER_S;
}

/** Resident bytes of `root` and all its descendants now (processes that vanish mid-read are skipped). */
function treeRssBytes(root: number): number {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Exited between the listing and the read.
    }
  }
  let bytes = 0;
  for (const pid of parentOf.keys()) {
    let ancestor: number | undefined = pid;
    while (ancestor !== undefined && ancestor !== root && ancestor > 1) ancestor = parentOf.get(ancestor);
    if (ancestor !== root) continue;
    try {
      bytes += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
    } catch {
      // Exited.
    }
  }
  return bytes;
}
