import { describe, expect, it } from 'vitest';
import { BACKGROUND_PSEUDO_PAIRS, backgroundBound, coLocationPosteriors, ONE_RADIO_MIN_LLR, sameDeviceEvidence } from './co-location-model.ts';

describe('one radio or two (co-location-model.ts)', () => {
  it('lets co-movement lower one device against travelled together, never raise it above', () => {
    // Co-movement far in favour of one device (identical offsets on every receiver, strong co-variation): no more than travelled together's.
    expect(sameDeviceEvidence(12, 4, 0)).toBe(4);
    // Against one device (a blind spot): it counts in full.
    expect(sameDeviceEvidence(-3, 1, 0)).toBe(-3);
    // One-radio evidence is what lifts it.
    expect(sameDeviceEvidence(12, 4, 6)).toBe(10);
  });

  it('gives the same-device mass of a pair without evidence of one radio to travelled together, whatever the priors', () => {
    const out = new Float64Array(2);
    // Priors that favour sibling sets a hundredfold, evidence equal: without one radio, no same-device mass.
    coLocationPosteriors(5, 5, 4, 2, 0.02, false, out);
    expect(out[0]).toBe(0);
    const withOneRadio = new Float64Array(2);
    coLocationPosteriors(5, 5, 4, 2, 0.02, true, withOneRadio);
    expect(withOneRadio[0]).toBeGreaterThan(0.9);
    // The mass moves, it does not vanish: "unrelated" keeps its share.
    expect(out[1]).toBeCloseTo(withOneRadio[0] + withOneRadio[1], 12);
    expect(ONE_RADIO_MIN_LLR).toBeGreaterThan(0);
  });

  it('bounds a one-radio term by how often the capture\'s unrelated pairs come as close', () => {
    // No background: the term's own likelihood ratio stands.
    expect(backgroundBound(6, 0.9, new Float64Array(0))).toBe(6);
    // (Backgrounds ascend, as the score keeps them.) Unrelated pairs that never come close: it stands too.
    const apart = Float64Array.from({ length: 200 }, (_, index) => 0.1 + (index % 5) / 10).sort();
    expect(backgroundBound(6, 0.9, apart)).toBe(6);
    // A capture where every unrelated pair reaches it (timestamps on a coarse grid, one channel
    // pattern for everyone): next to nothing.
    const alike = new Float64Array(200).fill(1);
    expect(backgroundBound(6, 0.9, alike)).toBeLessThan(0.05);
    expect(backgroundBound(6, 0.9, alike)).toBeGreaterThanOrEqual(0);
    // One unrelated pair in ten reaches it: at most about log(10).
    const someAlike = Float64Array.from({ length: 200 }, (_, index) => (index % 10 === 0 ? 0.95 : 0.2)).sort();
    expect(backgroundBound(6, 0.9, someAlike)).toBeCloseTo(-Math.log((20 + BACKGROUND_PSEUDO_PAIRS * Math.exp(-6)) / (200 + BACKGROUND_PSEUDO_PAIRS)), 12);
    // Evidence against one radio is not weakened.
    expect(backgroundBound(-4, 0.1, alike)).toBe(-4);
  });
});
