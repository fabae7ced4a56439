/**
 * CRC-bad frames carry bit-flipped "phantom" addresses (tesi: 955 AdvA values for 38 real ones).
 * An address 1–2 bit flips from a well-observed address, and seen far less often, is treated as
 * a corrupted copy of it: folded into the parent, never reported as a device.
 */

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
 * Returns child id → parent id (children in id order), for addresses 0 … count − 1 with their
 * 48-bit `values` (NaN: not an address) and `counts` of observations. Parents have at least
 * `minParentCount` observations; a child must have fewer than max(minObservationCount, 5% of its
 * parent's). Among the parents 1–2 bit flips away (only 1 when there are many children), the
 * most observed wins, then the lowest id. Of several parents with one value (one address written
 * two ways), the last id is the parent.
 *
 * Found by pigeonhole rather than by trying every flip: two 48-bit values at most 2 bits apart
 * agree on at least one of their three 16-bit blocks, so each child is compared with the
 * parents that share a block with it. Columns rather than objects: it runs over every address.
 */
export function foldCorruptedAddresses(values: Float64Array, counts: Int32Array, count: number, minParentCount: number, minObservationCount: number): Map<number, number> {
  // One parent per value (the last id).
  const parentOfValue = new Map<number, number>();
  for (let id = 0; id < count; id++) if (counts[id] >= minParentCount && Number.isFinite(values[id])) parentOfValue.set(values[id], id);
  const folded = new Map<number, number>();
  if (parentOfValue.size === 0) return folded;
  const parents = Int32Array.from(parentOfValue.values());
  const children: number[] = [];
  for (let id = 0; id < count; id++) if (Number.isFinite(values[id]) && !parentOfValue.has(values[id])) children.push(id);
  const maxFlips = children.length * TWO_BIT_NEIGHBOURS <= LOOKUP_BUDGET ? 2 : 1;
  // A 48-bit value is held as two 24-bit halves so bit operations stay within 32-bit integers.
  const high = new Int32Array(parents.length);
  const low = new Int32Array(parents.length);
  // Per block, parents chained by a hash of the block value: head[block · buckets + (value & mask)],
  // then next[block · parents + parent]. A bucket may hold other block values too; the flip count
  // below rejects them, so the table only needs about two buckets per parent, not all 2^16.
  let buckets = 1024;
  while (buckets < 2 * parents.length && buckets < 1 << 16) buckets *= 2;
  const mask = buckets - 1;
  const head = new Int32Array(3 * buckets).fill(-1);
  const next = new Int32Array(3 * parents.length);
  const blocks = new Int32Array(3);
  for (let index = 0; index < parents.length; index++) {
    const value = values[parents[index]];
    high[index] = Math.floor(value / 2 ** 24);
    low[index] = value % 2 ** 24;
    blocksOf(high[index], low[index], blocks);
    for (let block = 0; block < 3; block++) {
      const slot = block * buckets + (blocks[block] & mask);
      next[block * parents.length + index] = head[slot];
      head[slot] = index;
    }
  }
  for (const child of children) {
    const h = Math.floor(values[child] / 2 ** 24);
    const l = values[child] % 2 ** 24;
    blocksOf(h, l, blocks);
    const childCount = counts[child];
    let best = -1;
    for (let block = 0; block < 3; block++) {
      for (let index = head[block * buckets + (blocks[block] & mask)]; index >= 0; index = next[block * parents.length + index]) {
        const flips = popcount24(high[index] ^ h) + popcount24(low[index] ^ l);
        if (flips > maxFlips) continue;
        const parent = parents[index];
        if (childCount >= Math.max(minObservationCount, 0.05 * counts[parent])) continue;
        if (best < 0 || counts[parent] > counts[best] || (counts[parent] === counts[best] && parent < best)) best = parent;
      }
    }
    if (best >= 0) folded.set(child, best);
  }
  return folded;
}

/** The three 16-bit blocks of a 48-bit value held as 24-bit halves. */
function blocksOf(high: number, low: number, out: Int32Array): void {
  out[0] = low & 0xffff;
  out[1] = (low >>> 16) | ((high & 0xff) << 8);
  out[2] = high >>> 8;
}
