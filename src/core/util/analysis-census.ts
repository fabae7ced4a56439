/**
 * Counts the analysis work run in this JavaScript realm: the page's main thread, one Web Worker,
 * or a Node process. The app promises that tools and imports run in workers; the end-to-end
 * specs check that by reading the page's census (no runs) and the workers' (some), which holds
 * however slow the machine is, where a bound on main-thread time does not (issue 27).
 * Kept on `globalThis` under `ANALYSIS_CENSUS_KEY` so a test can read it from outside the bundle.
 */
export const ANALYSIS_CENSUS_KEY = '__sextantAnalysisCensus';

export type AnalysisKind = 'tool_run' | 'capture_import';
export type AnalysisCensus = Record<AnalysisKind, number>;

function census(): AnalysisCensus {
  const realm = globalThis as unknown as Record<string, AnalysisCensus | undefined>;
  return (realm[ANALYSIS_CENSUS_KEY] ??= { tool_run: 0, capture_import: 0 });
}

/** Notes one run of `kind` in this realm. */
export function countAnalysis(kind: AnalysisKind): void {
  census()[kind] += 1;
}

/** The runs noted in this realm so far. */
export function analysisCensus(): Readonly<AnalysisCensus> {
  return { ...census() };
}
