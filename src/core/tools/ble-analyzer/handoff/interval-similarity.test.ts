import { describe, expect, it } from 'vitest';
import { intervalSimilarityLlr } from './handoff-model.ts';

describe('adv_interval_similarity', () => {
  it('reads an interval kept within advDelay’s jitter as one set’s, at the term’s cap', () => {
    expect(intervalSimilarityLlr(7.001, 7.002)).toBe(1.2);
    expect(intervalSimilarityLlr(0.102, 0.1)).toBe(1.2);
  });

  it('counts intervals a few percent apart against one set, though a set may change its interval', () => {
    // 7001 vs 6752 ms: two advertisers on the same nominal setting family, not one set (this read +1.2 before).
    const llr = intervalSimilarityLlr(7.001, 6.752);
    expect(llr).toBeLessThan(0);
    expect(llr).toBeGreaterThan(-0.5);
    // A doubled interval (every other event missed) is far less likely for one set than for two devices.
    expect(intervalSimilarityLlr(2, 1)).toBe(-2.5);
  });

  it('allows a short interval more relative jitter than a long one', () => {
    // 10 % apart: a 130 ms interval is still likely kept (5 ms of jitter is 4 % of it); a 7 s one is not.
    expect(intervalSimilarityLlr(0.143, 0.13)).toBeGreaterThan(0.5);
    expect(intervalSimilarityLlr(7.7, 7)).toBeLessThan(0);
  });

  it('is symmetric', () => {
    expect(intervalSimilarityLlr(0.37, 0.266)).toBeCloseTo(intervalSimilarityLlr(0.266, 0.37), 12);
  });
});
