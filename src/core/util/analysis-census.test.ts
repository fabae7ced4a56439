import { describe, expect, it } from 'vitest';
import { ANALYSIS_CENSUS_KEY, analysisCensus, countAnalysis } from './analysis-census.ts';

describe('analysis census', () => {
  it('counts runs per kind on globalThis, where a test outside the bundle can read them', () => {
    const before = analysisCensus();
    countAnalysis('tool_run');
    countAnalysis('tool_run');
    countAnalysis('capture_import');
    expect(analysisCensus()).toEqual({ tool_run: before.tool_run + 2, capture_import: before.capture_import + 1 });
    expect((globalThis as unknown as Record<string, unknown>)[ANALYSIS_CENSUS_KEY]).toEqual(analysisCensus());
  });
});
