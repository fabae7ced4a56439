/** handoff_gap (handoff-model.ts): a gap weighed against how often the two addresses are heard. */
import { describe, expect, it } from 'vitest';
import { handoffGapLlr, heardGapS } from './handoff-model.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';

describe('the hand-off gap', () => {
  it('expects the gap of an address heard every 25 s to be tens of seconds, not the advertising interval', () => {
    // A phone's set at 1 s intervals, heard once every 25 s on average by each of two receivers.
    const dense = handoffGapLlr(50, 1, 1, false, 180);
    const sparse = handoffGapLlr(50, 1, 1, false, 180, 25 + 25);
    expect(dense).toBeLessThan(-1.5);
    expect(sparse).toBeGreaterThan(0);
    // A gap of a second is still the likelier the more often both are heard.
    expect(handoffGapLlr(1, 1, 1, false, 180)).toBeGreaterThan(handoffGapLlr(1, 1, 1, false, 180, 50));
    // Addresses heard at least every advertising interval keep the interval's scale.
    expect(handoffGapLlr(5, 1, 1, false, 180, 1)).toBe(handoffGapLlr(5, 1, 1, false, 180));
  });

  it("takes an address's mean gap between heard packets from its packets and span", () => {
    const profile = { firstMs: 0, lastMs: 900_000, count: 37 } as BleAddressProfile;
    expect(heardGapS(profile, undefined)).toBe(25);
    expect(heardGapS({ ...profile, count: 1 }, undefined)).toBe(0);
  });
});
