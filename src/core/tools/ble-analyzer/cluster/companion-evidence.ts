import type { BleChain, BleChainPair } from '../co-location/co-location-types.ts';
import type { BleCoLocationRates } from '../co-location/co-location.ts';
import { coLocationPosteriors } from '../co-location/co-location-model.ts';
import type { BleScoredPairs } from '../handoff/handoff-types.ts';
import { timeLocalCrowd, type ActiveChains } from '../co-location/active-chains.ts';

/**
 * Travelled together across hand-offs. A tag in a pocket is heard beside each of its carrier's
 * addresses in turn, and one address's minutes beside it rarely settle anything: +1 to +3 nats
 * of co-movement against a prior of about −5.5 (μ/crowd). Read one chain pair at a time, a
 * carried tag is never found (docs/ble-analyzer.md, "Travelled together across hand-offs").
 *
 * The chains a side hands off to (and from) are the same device with the hand-off's
 * probability, so what the companion showed beside them counts for this pair too. Over the
 * hand-off candidates out of a chain's last member (exclusive alternatives, probabilities p_k),
 * the evidence the chains after it add is folded back from the companion's end:
 *   R(c) = (1 − Σ p_k + Σ p_k · e^{L_k} · R(c_k) / B_k) / (1 − Σ p_k + Σ p_k / B_k),
 * L_k the co-movement log-odds of c_k with the companion (0 where the pair was not scored: the
 * screen dropped it, or they never met), and the same backwards in time. Candidates that start
 * after the companion's last packet (or end before its first) say nothing (their R is 1).
 *
 * B_k is what c_k shows if it is some other device, which travels with the companion at the base
 * rate π = μ/crowd (its crowd over its time beside the companion, active-chains.ts):
 * B = π·e^{L}·R + 1 − π (`baseLogRatio`). A likely hand-off into a run of chains that all moved
 * with the companion is strong evidence; an unlikely one into the companion's true carrier is
 * not (in a walking group, where π is large, neither is much). Only the travelled-together
 * relation reads this; same-device decisions are the clusters' and stay as they were.
 */
export interface CompanionEvidence {
  /** Per pair (in the pairs' order): P(travelled together) with its neighbours' evidence. */
  travel: Float64Array;
  /** Per pair: the log-odds the chains handed off to and from either side added. */
  addedLogOdds: Float64Array;
}

/** Chains followed along one path of hand-offs at most. */
const MAX_PATH = 2000;

/** Hand-off candidates between chains, per chain: forward (from its last member) and backward (to its first), as compressed rows. */
interface ChainHandoffs {
  start: Int32Array;
  chain: Int32Array;
  p: Float64Array;
}

/** `active`: the chains active at once over time, as co-location counted the pairs' crowds (`scoreChainPairs`'s). */
export function companionEvidence(chains: ReadonlyArray<BleChain>, chainOf: Int32Array, handoffs: BleScoredPairs, pairs: ReadonlyArray<BleChainPair>, rates: BleCoLocationRates, active: ActiveChains): CompanionEvidence {
  const forward = chainHandoffs(chains, chainOf, handoffs, true);
  const backward = chainHandoffs(chains, chainOf, handoffs, false);
  // The pairs each chain is the companion side of: the walks from the other side share its folds.
  const byCompanion = new Map<number, number[]>();
  const add = (companion: number, pair: number) => {
    const list = byCompanion.get(companion);
    if (list) list.push(pair);
    else byCompanion.set(companion, [pair]);
  };
  const pairOf = new Map<number, number>();
  const key = (x: number, y: number) => (x < y ? x * chains.length + y : y * chains.length + x);
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    pairOf.set(key(pair.a, pair.b), index);
    add(pair.a, index);
    add(pair.b, index);
  }
  const addedLogOdds = new Float64Array(pairs.length);
  for (const [companion, list] of byCompanion) {
    const fold: Fold = { chains, companion, pairs, pairOf, active, mu: rates.mu, key, folded: new Map() };
    for (const index of list) {
      const pair = pairs[index];
      const moving = pair.a === companion ? pair.b : pair.a;
      addedLogOdds[index] += continuation(fold, forward, moving, true) + continuation(fold, backward, moving, false);
    }
  }
  const travel = new Float64Array(pairs.length);
  const posterior = new Float64Array(2);
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    coLocationPosteriors(pair.evidenceS, pair.evidenceT + addedLogOdds[index], pair.crowd, rates.lambda, rates.mu, pair.mayBeOne, posterior);
    // A join the device-size bound refused already holds its same-device mass as travelled together.
    travel[index] = Math.max(pair.travel, posterior[1]);
  }
  return { travel, addedLogOdds };
}

/** One companion chain's folds: log R per chain and direction, made once. */
interface Fold {
  chains: ReadonlyArray<BleChain>;
  companion: number;
  pairs: ReadonlyArray<BleChainPair>;
  pairOf: Map<number, number>;
  active: ActiveChains;
  mu: number;
  key: (x: number, y: number) => number;
  folded: Map<number, number>;
}

/**
 * log R(chain): the evidence the chains handed off to after it (or from, before it) add, in one
 * direction. In the branch where candidate k continues the device, the others are other devices
 * whose evidence shows B_j whatever the pair is; dividing both hypotheses by Π B_j leaves
 *   R = (1 − Σp + Σ p_k·e^{L_k}·R_k / B_k) / (1 − Σp + Σ p_k / B_k).
 */
function continuation(fold: Fold, rows: ChainHandoffs, chain: number, later: boolean, depth = 0): number {
  const memo = later ? chain : -1 - chain;
  const known = fold.folded.get(memo);
  if (known !== undefined) return known;
  // A path this long (thousands of chains inside one companion's time) is followed no further, so the recursion stays within the stack.
  if (depth >= MAX_PATH) return 0;
  const { chains, companion } = fold;
  const span = chains[companion];
  let rest = 1;
  const together = new LogSum();
  const apart = new LogSum();
  for (let k = rows.start[chain]; k < rows.start[chain + 1]; k++) {
    const next = rows.chain[k];
    const p = rows.p[k];
    const outside = later ? chains[next].firstMs > span.lastMs : chains[next].lastMs < span.firstMs;
    // A chain beyond the companion's time, or the companion itself, says nothing: its R is 1.
    if (outside || next === companion) continue;
    rest -= p;
    const pair = fold.pairOf.get(fold.key(next, companion));
    const evidence = (pair === undefined ? 0 : fold.pairs[pair].evidenceT) + continuation(fold, rows, next, later, depth + 1);
    const crowd = timeLocalCrowd(fold.active, Math.max(chains[next].firstMs, span.firstMs), Math.min(chains[next].lastMs, span.lastMs));
    const baseRatio = baseLogRatio(evidence, fold.mu / crowd);
    together.add(Math.log(p) + evidence - baseRatio);
    apart.add(Math.log(p) - baseRatio);
  }
  // What the skipped and the absent alternatives leave: ratio 1 each, together 1 − Σ p over the others.
  if (rest > 1e-12) {
    together.add(Math.log(rest));
    apart.add(Math.log(rest));
  }
  const value = together.empty() ? 0 : together.value() - apart.value();
  fold.folded.set(memo, value);
  return value;
}

/**
 * log B: what a chain's evidence L beside the companion shows if the chain is some other device,
 * which travels with the companion at the base rate π (the prior μ/crowd): log(π·e^L + 1 − π).
 * In a walking group (π near 1/2) a neighbour's strong co-movement says little about this pair;
 * among strangers (π of a few per thousand) it says nearly all of e^L.
 */
export function baseLogRatio(logOdds: number, baseRate: number): number {
  return mixtureLogOdds(Math.min(0.5, baseRate), logOdds);
}

/** log(p·e^L + 1 − p), computed without overflow. */
export function mixtureLogOdds(probability: number, logOdds: number): number {
  const withIt = Math.log(probability) + logOdds;
  const without = Math.log1p(-Math.min(probability, 1 - 1e-12));
  const top = Math.max(withIt, without);
  return top + Math.log(Math.exp(withIt - top) + Math.exp(without - top));
}

/** A running log Σ e^x (log-sum-exp), without overflow. */
class LogSum {
  private top = Number.NEGATIVE_INFINITY;
  private sum = 0;

  add(logValue: number): void {
    if (logValue <= this.top) this.sum += Math.exp(logValue - this.top);
    else {
      this.sum = this.sum * Math.exp(this.top - logValue) + 1;
      this.top = logValue;
    }
  }

  empty(): boolean {
    return this.top === Number.NEGATIVE_INFINITY;
  }

  value(): number {
    return this.top + Math.log(this.sum);
  }
}

/**
 * Hand-off candidates from one chain's last member to another chain's first (forward) or
 * into one chain's first member from another's last (backward), their probabilities scaled so
 * the alternatives of one chain sum to at most 1.
 */
function chainHandoffs(chains: ReadonlyArray<BleChain>, chainOf: Int32Array, handoffs: BleScoredPairs, forward: boolean): ChainHandoffs {
  const { earlier, later, probability } = handoffs;
  const from: number[] = [];
  const to: number[] = [];
  const ps: number[] = [];
  for (let e = 0; e < probability.length; e++) {
    const tail = chainOf[earlier[e]];
    const head = chainOf[later[e]];
    if (tail === head || tail < 0 || head < 0 || !(probability[e] > 0)) continue;
    const tailMembers = chains[tail].members;
    if (tailMembers[tailMembers.length - 1] !== earlier[e] || chains[head].members[0] !== later[e]) continue;
    from.push(forward ? tail : head);
    to.push(forward ? head : tail);
    ps.push(probability[e]);
  }
  const start = new Int32Array(chains.length + 1);
  for (const chain of from) start[chain + 1]++;
  for (let chain = 0; chain < chains.length; chain++) start[chain + 1] += start[chain];
  const fill = start.slice(0, chains.length);
  const chainOut = new Int32Array(from.length);
  const p = new Float64Array(from.length);
  for (let k = 0; k < from.length; k++) {
    const at = fill[from[k]]++;
    chainOut[at] = to[k];
    p[at] = ps[k];
  }
  for (let chain = 0; chain < chains.length; chain++) {
    let total = 0;
    for (let k = start[chain]; k < start[chain + 1]; k++) total += p[k];
    if (total > 1) for (let k = start[chain]; k < start[chain + 1]; k++) p[k] /= total;
  }
  return { start, chain: chainOut, p };
}
