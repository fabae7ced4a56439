import { describe, expect, it } from 'vitest';
import { oneWayAnova } from './anova.ts';

describe('oneWayAnova', () => {
  it('matches a hand-computed one-way ANOVA', () => {
    // a: 1 2 3 (mean 2), b: 4 5 6 7 (mean 5.5), c: 2 2 8 (mean 4); grand mean 4.
    // SSB = 3·4 + 4·2.25 + 0 = 21; SSW = 2 + 5 + 24 = 31; F = (21/2)/(31/7) = 2.370967…
    const result = oneWayAnova([
      { target: Float64Array.from([1, 4, 2, 5]), groups: ['a', 'b', 'c', 'b'] },
      { target: Float64Array.from([2, 6, 3, 2, 7, 8, Number.NaN, 9]), groups: ['a', 'b', 'a', 'c', 'b', 'c', 'a', null] },
    ]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const anova = result.value;
    expect(anova.groups.map((group) => [group.group, group.count, group.mean])).toEqual([
      ['a', 3, 2],
      ['b', 4, 5.5],
      ['c', 3, 4],
    ]);
    expect(anova.groups[1].sd).toBeCloseTo(Math.sqrt(5 / 3), 14);
    expect(anova.grandMean).toBeCloseTo(4, 14);
    expect(anova.ssBetween).toBeCloseTo(21, 12);
    expect(anova.ssWithin).toBeCloseTo(31, 12);
    expect(anova.ssTotal).toBeCloseTo(52, 12);
    expect(anova.dfBetween).toBe(2);
    expect(anova.dfWithin).toBe(7);
    expect(anova.fStatistic).toBeCloseTo(2.370967741935484, 12);
    expect(anova.pValue).toBeCloseTo(0.16358904824254064, 12);
    expect(anova.etaSquared).toBeCloseTo(21 / 52, 12);
    expect(anova.sampleCount).toBe(10);
    expect(anova.rowsSkipped).toBe(2);
  });

  it('respects the selection mask', () => {
    const result = oneWayAnova([{ target: Float64Array.from([1, 2, 100, 3, 4]), groups: ['x', 'x', 'x', 'y', 'y'], mask: Uint8Array.from([1, 1, 0, 1, 1]) }]);
    expect(result.ok && result.value.groups.map((group) => group.mean)).toEqual([1.5, 3.5]);
  });

  it('needs two groups and more rows than groups', () => {
    const oneGroup = oneWayAnova([{ target: Float64Array.from([1, 2, 3]), groups: ['a', 'a', 'a'] }]);
    expect(oneGroup.ok).toBe(false);
    if (!oneGroup.ok) expect(oneGroup.error).toMatchObject({ code: 'INSUFFICIENT_DATA', observedRows: 3, observedGroups: 1 });
    const tooFew = oneWayAnova([{ target: Float64Array.from([1, 2]), groups: ['a', 'b'] }]);
    expect(tooFew.ok).toBe(false);
  });
});
