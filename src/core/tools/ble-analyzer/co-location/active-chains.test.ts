/** The co-location prior's time-local crowd (active-chains.ts): chains active at once, averaged over a time range. */
import { describe, expect, it } from 'vitest';
import { ActiveChains, timeLocalCrowd } from './active-chains.ts';

describe('chains active at once', () => {
  // A day-long chain, and six quarter-hour chains one after another in its first 90 minutes.
  const MINUTE = 60_000;
  const spans = [{ firstMs: 0, lastMs: 1440 * MINUTE }, ...Array.from({ length: 6 }, (_, index) => ({ firstMs: index * 15 * MINUTE, lastMs: (index + 1) * 15 * MINUTE }))];
  const active = new ActiveChains(spans);

  it('averages the count of active chains over a range, counting a step where it falls', () => {
    expect(active.averageOver(0, 90 * MINUTE)).toBeCloseTo(2, 10);
    expect(active.averageOver(0, 180 * MINUTE)).toBeCloseTo(1.5, 10);
    expect(active.averageOver(100 * MINUTE, 200 * MINUTE)).toBeCloseTo(1, 10);
    // An empty range: the count just after it.
    expect(active.averageOver(5 * MINUTE, 5 * MINUTE)).toBeCloseTo(2, 10);
  });

  it("gives a pair the crowd of its own time, not of every chain its day-long member ever met", () => {
    // The day-long chain met six others, but beside any one of them only the two are active: the floor of 2.
    expect(timeLocalCrowd(active, 15 * MINUTE, 30 * MINUTE)).toBe(2);
    const busy = new ActiveChains(Array.from({ length: 20 }, () => ({ firstMs: 0, lastMs: 60 * MINUTE })));
    expect(timeLocalCrowd(busy, 0, 60 * MINUTE)).toBeCloseTo(19, 10);
  });
});
