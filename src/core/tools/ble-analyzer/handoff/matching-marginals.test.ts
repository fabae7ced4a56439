import { describe, expect, it } from 'vitest';
import { matchingMarginals, type BleCandidatePairs } from './matching-marginals.ts';

/** Deterministic uniform [0, 1) numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The same belief propagation by plain full sweeps (every message every sweep), run to `settled`. */
function fullSweepReference(nodes: number, pairs: BleCandidatePairs, logK: Float64Array, settled: number): Float64Array {
  const edges = pairs.earlier.length;
  const k = Float64Array.from(logK, Math.exp);
  const m = new Float64Array(edges).fill(1);
  const n = new Float64Array(edges).fill(1);
  const rowTotal = new Float64Array(nodes);
  const colTotal = new Float64Array(nodes);
  const rows = (): void => {
    rowTotal.fill(1);
    for (let e = 0; e < edges; e++) rowTotal[pairs.earlier[e]] += k[e] * n[e];
  };
  for (let sweep = 0; sweep < 10_000; sweep++) {
    let moving = false;
    rows();
    for (let e = 0; e < edges; e++) {
      const next = k[e] / Math.max(1, rowTotal[pairs.earlier[e]] - k[e] * n[e]);
      if (!(Math.abs(next - m[e]) < settled * (next + m[e]))) moving = true;
      m[e] = next;
    }
    colTotal.fill(1);
    for (let e = 0; e < edges; e++) colTotal[pairs.later[e]] += m[e];
    for (let e = 0; e < edges; e++) {
      const next = 1 / Math.max(1, colTotal[pairs.later[e]] - m[e]);
      if (!(Math.abs(next - n[e]) < settled * (next + n[e]))) moving = true;
      n[e] = next;
    }
    if (!moving) break;
  }
  rows();
  return Float64Array.from(k, (weight, e) => (weight * n[e]) / rowTotal[pairs.earlier[e]]);
}

/**
 * A candidate graph shaped like a capture's: addresses in time order, each with up to 8 candidate
 * successors among the next 20, mostly weak with a few strong hand-offs; one connected tangle.
 */
function randomCandidateGraph(seed: number, nodes: number): { pairs: BleCandidatePairs; logK: Float64Array } {
  const next = random(seed);
  const earlier: number[] = [];
  const later: number[] = [];
  const logK: number[] = [];
  for (let a = 0; a < nodes - 1; a++) {
    const count = 1 + Math.floor(next() * 8);
    const chosen = new Set<number>();
    for (let c = 0; c < count; c++) {
      const b = Math.min(nodes - 1, a + 1 + Math.floor(next() * 20));
      if (chosen.has(b)) continue;
      chosen.add(b);
      earlier.push(a);
      later.push(b);
      logK.push(next() < 0.2 ? 4 + 10 * next() : -10 + 12 * next());
    }
  }
  return { pairs: { earlier: Int32Array.from(earlier), later: Int32Array.from(later) }, logK: Float64Array.from(logK) };
}

describe('matching marginals', () => {
  it('is exact for an isolated pair: K / (K + 1)', () => {
    const marginals = matchingMarginals(2, { earlier: Int32Array.of(0), later: Int32Array.of(1) }, Float64Array.of(Math.log(9)));
    expect(marginals[0]).toBeCloseTo(0.9, 6);
  });

  it('splits a k × k block of equal strong weights into ≈ 1/k', () => {
    const k = 3;
    const earlier: number[] = [];
    const later: number[] = [];
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < k; b++) {
        earlier.push(a);
        later.push(k + b);
      }
    }
    const marginals = matchingMarginals(2 * k, { earlier: Int32Array.from(earlier), later: Int32Array.from(later) }, new Float64Array(earlier.length).fill(12));
    for (const value of marginals) expect(value).toBeCloseTo(1 / k, 2);
  });

  it('recomputing only the moving rows and columns reaches the fixed point of plain full sweeps', () => {
    for (const seed of [1, 2, 3]) {
      const nodes = 600;
      const { pairs, logK } = randomCandidateGraph(seed, nodes);
      const marginals = matchingMarginals(nodes, pairs, logK);
      // The reference runs far past the tolerance, to the fixed point itself.
      const reference = fullSweepReference(nodes, pairs, logK, 1e-12);
      let largest = 0;
      for (let e = 0; e < marginals.length; e++) largest = Math.max(largest, Math.abs(marginals[e] - reference[e]));
      // Every message ends within the tolerance of its update, as with full sweeps: ~3e-5 here.
      expect(largest).toBeLessThan(2e-4);
    }
  });

  it('gives every pair of a graph with edge-free addresses and in any edge order the same marginals', () => {
    const nodes = 300;
    const { pairs, logK } = randomCandidateGraph(7, 200);
    const marginals = matchingMarginals(nodes, pairs, logK);
    // Reversed edge order: the rows are laid out by address, so the marginals follow their pairs.
    const reversed = matchingMarginals(nodes, { earlier: pairs.earlier.slice().reverse(), later: pairs.later.slice().reverse() }, logK.slice().reverse());
    const edges = marginals.length;
    for (let e = 0; e < edges; e++) expect(reversed[edges - 1 - e]).toBeCloseTo(marginals[e], 3);
  });

  it('may write the marginals over the log-weights it was given', () => {
    const nodes = 300;
    const { pairs, logK } = randomCandidateGraph(11, nodes);
    const marginals = matchingMarginals(nodes, pairs, logK);
    // Grouped and ungrouped edge orders (the latter is laid out by a counting sort first).
    for (const order of [pairs, { earlier: pairs.earlier.slice().reverse(), later: pairs.later.slice().reverse() }]) {
      const reversed = order !== pairs;
      const weights = reversed ? logK.slice().reverse() : logK.slice();
      const expected = matchingMarginals(nodes, order, weights);
      const inPlace = matchingMarginals(nodes, order, weights, weights);
      expect(inPlace).toBe(weights);
      expect([...inPlace]).toEqual([...expected]);
      if (!reversed) expect([...inPlace]).toEqual([...marginals]);
    }
    expect(() => matchingMarginals(nodes, pairs, logK, new Float64Array(1))).toThrow();
  });
});
