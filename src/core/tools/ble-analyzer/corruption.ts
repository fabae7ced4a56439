/**
 * CRC-bad frames carry bit-flipped "phantom" addresses (tesi: 955 AdvA values for 38 real ones).
 * An address 1–2 bit flips from a well-observed address, and seen far less often, is treated as
 * a corrupted copy of it: folded into the parent, never reported as a device.
 */
export interface BleFoldCandidate {
  id: number;
  value: number;
  count: number;
}

/** Above this many lookups only single-bit flips are tried (still linear in the addresses). */
const LOOKUP_BUDGET = 4_000_000;

/**
 * Returns child id → parent id. Parents have at least `minParentCount` observations; a child
 * must have fewer than max(minObservationCount, 5% of its parent's).
 */
export function foldCorruptedAddresses(addresses: ReadonlyArray<BleFoldCandidate>, minParentCount: number, minObservationCount: number): Map<number, number> {
  const parents = new Map<number, BleFoldCandidate>();
  for (const address of addresses) if (address.count >= minParentCount && Number.isFinite(address.value)) parents.set(address.value, address);
  const folded = new Map<number, number>();
  if (parents.size === 0) return folded;
  const children = addresses.filter((address) => Number.isFinite(address.value) && !parents.has(address.value));
  const twoBits = children.length * 1176 <= LOOKUP_BUDGET;
  // A 48-bit value is held as two 24-bit halves so bit flips never overflow 32-bit integers.
  for (const child of children) {
    let best: BleFoldCandidate | undefined;
    const limit = (parentCount: number) => Math.max(minObservationCount, 0.05 * parentCount);
    const consider = (value: number) => {
      const parent = parents.get(value);
      if (!parent || child.count >= limit(parent.count)) return;
      if (!best || parent.count > best.count || (parent.count === best.count && parent.id < best.id)) best = parent;
    };
    const h0 = Math.floor(child.value / 2 ** 24);
    const l0 = child.value % 2 ** 24;
    for (let i = 0; i < 48; i++) {
      const h1 = i < 24 ? h0 : h0 ^ (1 << (i - 24));
      const l1 = i < 24 ? l0 ^ (1 << i) : l0;
      consider(h1 * 2 ** 24 + l1);
      if (!twoBits) continue;
      for (let j = i + 1; j < 48; j++) {
        const h2 = j < 24 ? h1 : h1 ^ (1 << (j - 24));
        const l2 = j < 24 ? l1 ^ (1 << j) : l1;
        consider(h2 * 2 ** 24 + l2);
      }
    }
    if (best) folded.set(child.id, best.id);
  }
  return folded;
}
