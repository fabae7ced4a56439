/**
 * Which member of each chain a co-location pair names (co-location.ts): the pair is reported as
 * a candidate between two addresses, one of each chain.
 */

/** A chain's members as this reads them: address indices in time order. */
interface MemberChain {
  members: ReadonlyArray<number>;
}

/** An address as this reads it: its first and last packet. */
interface MemberAddress {
  profile: { firstMs: number; lastMs: number };
}

/** The member of a chain active at (or last before) `t`: members are in time order. */
export function activeAt(chain: MemberChain, addresses: ReadonlyArray<MemberAddress>, t: number): number {
  let found = chain.members[0];
  for (const member of chain.members) {
    if (addresses[member].profile.firstMs > t) break;
    found = member;
  }
  return found;
}

/** The members of chains a and b that overlap the longest (the first such pair in member order). */
export function mostOverlapping(a: MemberChain, b: MemberChain, addresses: ReadonlyArray<MemberAddress>): [number, number] {
  let best: [number, number] = [a.members[0], b.members[0]];
  let bestOverlap = -Infinity;
  for (const x of a.members) {
    const px = addresses[x].profile;
    for (const y of b.members) {
      const py = addresses[y].profile;
      const overlap = Math.min(px.lastMs, py.lastMs) - Math.max(px.firstMs, py.firstMs);
      if (overlap > bestOverlap) {
        bestOverlap = overlap;
        best = [x, y];
      }
    }
  }
  return best;
}
