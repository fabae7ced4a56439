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

/** Above this many two-bit lookups only single-bit flips are tried (the rule the results keep to). */
const LOOKUP_BUDGET = 4_000_000;
/** Flips of one or two of 48 bits: 48 + 48·47/2. */
const TWO_BIT_NEIGHBOURS = 1176;

function popcount24(value: number): number {
  let bits = value - ((value >>> 1) & 0x555555);
  bits = (bits & 0x333333) + ((bits >>> 2) & 0x333333);
  bits = (bits + (bits >>> 4)) & 0x0f0f0f;
  return (bits + (bits >>> 8) + (bits >>> 16)) & 0x3f;
}

/**
 * Returns child id → parent id. Parents have at least `minParentCount` observations; a child
 * must have fewer than max(minObservationCount, 5% of its parent's). Among the parents 1–2 bit
 * flips away (only 1 when there are many children), the most observed wins, then the lowest id.
 *
 * Found by pigeonhole rather than by trying every flip: two 48-bit values at most 2 bits apart
 * agree on at least one of their three 16-bit blocks, so each child is compared with the
 * parents that share a block with it.
 */
export function foldCorruptedAddresses(addresses: ReadonlyArray<BleFoldCandidate>, minParentCount: number, minObservationCount: number): Map<number, number> {
  // One parent per value (the last listed, as a Map keeps it).
  const byValue = new Map<number, BleFoldCandidate>();
  for (const address of addresses) if (address.count >= minParentCount && Number.isFinite(address.value)) byValue.set(address.value, address);
  const folded = new Map<number, number>();
  if (byValue.size === 0) return folded;
  const parents = [...byValue.values()];
  const children = addresses.filter((address) => Number.isFinite(address.value) && !byValue.has(address.value));
  const maxFlips = children.length * TWO_BIT_NEIGHBOURS <= LOOKUP_BUDGET ? 2 : 1;
  // A 48-bit value is held as two 24-bit halves so bit operations stay within 32-bit integers.
  const high = new Int32Array(parents.length);
  const low = new Int32Array(parents.length);
  // Per block, parents chained by block value: head[block · 2^16 + value], then next[block · parents + parent].
  const head = new Int32Array(3 << 16).fill(-1);
  const next = new Int32Array(3 * parents.length);
  const blocksOf = (h: number, l: number, out: Int32Array): void => {
    out[0] = l & 0xffff;
    out[1] = (l >>> 16) | ((h & 0xff) << 8);
    out[2] = h >>> 8;
  };
  const blocks = new Int32Array(3);
  parents.forEach((parent, index) => {
    high[index] = Math.floor(parent.value / 2 ** 24);
    low[index] = parent.value % 2 ** 24;
    blocksOf(high[index], low[index], blocks);
    for (let block = 0; block < 3; block++) {
      const slot = (block << 16) + blocks[block];
      next[block * parents.length + index] = head[slot];
      head[slot] = index;
    }
  });
  for (const child of children) {
    const h = Math.floor(child.value / 2 ** 24);
    const l = child.value % 2 ** 24;
    blocksOf(h, l, blocks);
    let best: BleFoldCandidate | undefined;
    for (let block = 0; block < 3; block++) {
      for (let index = head[(block << 16) + blocks[block]]; index >= 0; index = next[block * parents.length + index]) {
        const flips = popcount24(high[index] ^ h) + popcount24(low[index] ^ l);
        if (flips > maxFlips) continue;
        const parent = parents[index];
        if (child.count >= Math.max(minObservationCount, 0.05 * parent.count)) continue;
        if (!best || parent.count > best.count || (parent.count === best.count && parent.id < best.id)) best = parent;
      }
    }
    if (best) folded.set(child.id, best.id);
  }
  return folded;
}
