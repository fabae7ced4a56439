/** One line of `bench-results.json`: our time against one peer's on the same data. */
export interface BenchRow {
  /** Benchmark name, e.g. `linear_regression_1e6x10`. */
  name: string;
  /** Our wall time in milliseconds (median of the timed runs). */
  ours_ms: number;
  /** The peer implementation measured. */
  peer: string;
  /** The peer's wall time in milliseconds, or null when it could not run. */
  peer_ms: number | null;
  /** `peer_ms / ours_ms`: how many times faster we are (null when the peer did not run). */
  ratio: number | null;
  /** Peak resident set size of this process after our runs, in MiB. */
  peak_rss_mb: number;
  /** Data shape, run counts, the peer's memory and any other context. */
  params: Record<string, unknown>;
}
