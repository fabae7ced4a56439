import { describe, expect, it } from 'vitest';
import { activeAt, mostOverlapping } from './co-location-members.ts';

const addresses = [
  { profile: { firstMs: 0, lastMs: 900 } },
  { profile: { firstMs: 950, lastMs: 1_800 } },
  { profile: { firstMs: 1_850, lastMs: 2_700 } },
  { profile: { firstMs: 400, lastMs: 1_300 } },
  { profile: { firstMs: 1_350, lastMs: 2_600 } },
];
const a = { members: [0, 1, 2] };
const b = { members: [3, 4] };

describe('the members a co-location pair names', () => {
  it('is the member active at a time, or the last one before it', () => {
    expect(activeAt(a, addresses, 500)).toBe(0);
    expect(activeAt(a, addresses, 920)).toBe(0);
    expect(activeAt(a, addresses, 950)).toBe(1);
    expect(activeAt(a, addresses, 5_000)).toBe(2);
    // Before the chain's first packet: its first member.
    expect(activeAt(a, addresses, -10)).toBe(0);
  });

  it('are the two members that overlap the longest', () => {
    // 2 and 4 overlap 750 ms (1 850–2 600), more than 0 and 3 (500), 1 and 3 (350) or 1 and 4 (450).
    expect(mostOverlapping(a, b, addresses)).toEqual([2, 4]);
    expect(mostOverlapping(b, a, addresses)).toEqual([4, 2]);
    // Ties keep the first pair in member order.
    const tied = [{ profile: { firstMs: 0, lastMs: 100 } }, { profile: { firstMs: 0, lastMs: 100 } }, { profile: { firstMs: 0, lastMs: 100 } }];
    expect(mostOverlapping({ members: [0, 1] }, { members: [2] }, tied)).toEqual([0, 2]);
  });
});
