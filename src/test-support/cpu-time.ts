// Test support (Node only): how much CPU this process spent on a piece of work.
//
// Tests that guard against a catastrophic algorithm (ReDoS, quadratic decoding, a decoder that
// never ends) bound the work's CPU time, not its wall time: on a machine busy with other work the
// wall time stretches with the load (issue 27: 4× at a load average of 10–18 on 2 cores), while the
// CPU time the work itself needs barely moves. Bounds are still set at least 20× above what the
// work takes here, so a slower CPU does not break them either; the catastrophic cases they catch
// take minutes or never end.

/** CPU milliseconds (user + system, all of this process's threads) since `since`. */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Runs `work` and returns its value with the CPU milliseconds it took. */
export function withCpuTime<T>(work: () => T): { value: T; cpuMs: number } {
  const since = process.cpuUsage();
  const value = work();
  return { value, cpuMs: cpuMsSince(since) };
}

/** `withCpuTime` for asynchronous work; counts whatever else this process runs meanwhile too. */
export async function withCpuTimeAsync<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const since = process.cpuUsage();
  const value = await work();
  return { value, cpuMs: cpuMsSince(since) };
}
