/** How many bins of a pair's overlap the score reads (co-location-model.ts `scoredBins`). */
import { describe, expect, it } from 'vitest';
import { MAX_BINS, MAX_BINS_SPARSE, scoredBins } from './co-location-model.ts';

describe('the bins a scored pair reads', () => {
  it('reads MAX_BINS of chains heard in every bin, more of rarely heard ones, at most MAX_BINS_SPARSE', () => {
    expect(scoredBins(Float64Array.of(1, 1), Float64Array.of(1, 0.2), 2)).toBe(MAX_BINS);
    // Heard together in a quarter of the bins on the best receiver: four times as many read.
    expect(scoredBins(Float64Array.of(0.5, 0.1), Float64Array.of(0.5, 0.1), 2)).toBe(4 * MAX_BINS);
    expect(scoredBins(Float64Array.of(0.3, 0.3), Float64Array.of(0.5, 0.5), 2)).toBe(Math.ceil(MAX_BINS / 0.15) > MAX_BINS_SPARSE ? MAX_BINS_SPARSE : Math.ceil(MAX_BINS / 0.15));
    // Never heard together: the cap, not a division by zero.
    expect(scoredBins(Float64Array.of(0, 1), Float64Array.of(1, 0), 2)).toBe(MAX_BINS_SPARSE);
  });
});
