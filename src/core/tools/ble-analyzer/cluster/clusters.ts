import type { AddressCluster } from '../shared/analysis-types.ts';
import type { BleChain, BleChainPair } from '../co-location/co-location-types.ts';
import { flatText } from '../shared/flat-text.ts';
import { compareAscending } from '../shared/number-order.ts';
import { BleClusterMatrices, BleLinkForest, groupByKey, MAX_UNPROVEN_PROBABILITY } from './cluster-links.ts';
import type { BleHandoffFactors } from '../handoff/handoff-description.ts';
import type { BleLinkableAddress, BleScoredPairs } from '../handoff/handoff-types.ts';
import { BleHandoffTexts } from '../handoff/handoff-description.ts';
import { OVERLAP_TOLERANCE_S } from '../handoff/handoff-model.ts';
import { MAX_CONCURRENT_SETS } from '../co-location/co-location-model.ts';

/**
 * Clusters in two steps.
 *
 * 1. Chains: hand-off edges with p > 0.5 are taken best first under a
 *    one-successor/one-predecessor constraint (chains of hand-offs, not transitive closure).
 *    Each chain is one advertising set followed through its rotations.
 * 2. Devices: chains are joined by co-location (co-location.ts: concurrent sets of one phone),
 *    best first, when P(one device) > 0.5, unless the joined chains would run more than
 *    MAX_CONCURRENT_SETS at one moment (more than one device can): then the join is refused, so a
 *    group too large for one device is split at its weakest links (the joins taken last), and
 *    the refused pair is a travelled-together pair; then addresses resolving under the same IRK
 *    join one cluster (a key proves them, whatever the count). A cluster may hold several
 *    parallel chains.
 *
 * Matrix cells: the links that built the cluster form a tree (each join connects two parts
 * that were apart), so every pair of members has one path; its cell is the product of the
 * link probabilities along it (hand-off edges, co-location joins; IRK pairs count as 1).
 * Symmetric, diagonal 1; work O(k²) per cluster of k members (cluster-links.ts).
 *
 * `cluster_id` is derived from content: `cluster_<kind>_<earliest member's address hex>`, so
 * the same input always gives the same ids.
 */
/** `a.localeCompare(b)` (the same default collation), without building a collator per call. */
const COLLATOR = new Intl.Collator();

/** Per address list: whether its index order is its collation order (see `addressOrder`). */
const INDEX_ORDER_IS_COLLATION = new WeakMap<ReadonlyArray<BleLinkableAddress>, boolean>();

/**
 * The collation order of two addresses of the list, by index. The analysis lists linkable
 * addresses sorted by text, and for uniform "AA:BB:…" texts that is also their collation order;
 * when the collator puts every address strictly before the next one, the index difference gives
 * the same answer as `COLLATOR.compare` (a total order, so adjacent pairs settle it) at a fraction
 * of the cost. Otherwise the texts are compared.
 */
function addressOrder(addresses: ReadonlyArray<BleLinkableAddress>): (x: number, y: number) => number {
  let indexOrder = INDEX_ORDER_IS_COLLATION.get(addresses);
  if (indexOrder === undefined) {
    indexOrder = true;
    for (let index = 1; index < addresses.length && indexOrder; index++) indexOrder = COLLATOR.compare(addresses[index - 1].address, addresses[index].address) < 0;
    INDEX_ORDER_IS_COLLATION.set(addresses, indexOrder);
  }
  return indexOrder ? (x, y) => x - y : (x, y) => COLLATOR.compare(addresses[x].address, addresses[y].address);
}

class UnionFind {
  private readonly parent: Int32Array;
  constructor(size: number) {
    this.parent = new Int32Array(size);
    for (let index = 0; index < size; index++) this.parent[index] = index;
  }
  find(x: number): number {
    const parent = this.parent;
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  /** Joins the sets of x and y; false when they were one already. */
  union(x: number, y: number): boolean {
    const rx = this.find(x);
    const ry = this.find(y);
    if (rx === ry) return false;
    this.parent[Math.max(rx, ry)] = Math.min(rx, ry);
    return true;
  }
}

export interface BleChains {
  chains: BleChain[];
  /** Chain index of every linkable address. */
  chainOf: Int32Array;
  /** The scored hand-offs the chains were built from… */
  pairs: BleScoredPairs;
  /** …and the indices of those the chains are made of, best first. Indices rather than an object per hand-off: they live through the co-location stage. */
  kept: Int32Array;
}

/** Chains of hand-offs (step 1) from the pairs above 0.5; every linkable address is in exactly one chain (often alone). */
export function buildChains(addresses: ReadonlyArray<BleLinkableAddress>, pairs: BleScoredPairs): BleChains {
  const successor = new Int32Array(addresses.length).fill(-1);
  const predecessor = new Int32Array(addresses.length).fill(-1);
  const order = addressOrder(addresses);
  const { earlier, later, probability } = pairs;
  const ranked: number[] = [];
  for (let e = 0; e < probability.length; e++) if (probability[e] > 0.5) ranked.push(e);
  ranked.sort((x, y) => compareAscending(probability[y], probability[x]) || order(earlier[x], earlier[y]) || order(later[x], later[y]));
  const kept: number[] = [];
  for (const e of ranked) {
    if (successor[earlier[e]] >= 0 || predecessor[later[e]] >= 0) continue;
    successor[earlier[e]] = later[e];
    predecessor[later[e]] = earlier[e];
    kept.push(e);
  }
  const chains: BleChain[] = [];
  const chainOf = new Int32Array(addresses.length).fill(-1);
  // Heads in address order (addresses are sorted by text), so chain indices are deterministic.
  for (let head = 0; head < addresses.length; head++) {
    if (predecessor[head] >= 0) continue;
    const members: number[] = [];
    // A hand-off always goes forward in time, so following successors cannot loop.
    for (let at = head; at >= 0; at = successor[at]) {
      chainOf[at] = chains.length;
      members.push(at);
    }
    chains.push({ members, firstMs: addresses[members[0]].profile.firstMs, lastMs: addresses[members[members.length - 1]].profile.lastMs });
  }
  return { chains, chainOf, pairs, kept: Int32Array.from(kept) };
}


export function buildClusters(
  addresses: ReadonlyArray<BleLinkableAddress>,
  chained: BleChains,
  pairs: ReadonlyArray<BleChainPair>,
  irkLabels: ReadonlyArray<string>,
  handoffs: BleHandoffFactors,
): AddressCluster[] {
  const { chains, chainOf, kept } = chained;
  const { earlier, later, probability } = chained.pairs;
  const count = addresses.length;
  const sets = new UnionFind(count);
  // Every edge joins two parts (hand-offs follow chains, which are paths), so at most count − 1.
  const forest = new BleLinkForest(Math.max(count, kept.length));
  for (const e of kept) {
    sets.union(earlier[e], later[e]);
    forest.add(earlier[e], later[e], probability[e]);
  }
  // Co-location joins, best first: a chain pair joins when one device is the likelier story.
  const order = addressOrder(addresses);
  const joins = pairs.filter((pair) => pair.same > 0.5).sort((x, y) => compareAscending(y.same, x.same) || order(x.memberA, y.memberA) || order(x.memberB, y.memberB));
  const joinsByRoot = new Map<number, BleChainPair[]>();
  const joined: BleChainPair[] = [];
  // The chains of each part so far, by its root (only parts that co-location joined are listed).
  const chainsByRoot = new Map<number, number[]>();
  for (const pair of joins) {
    const rootA = sets.find(chains[pair.a].members[0]);
    const rootB = sets.find(chains[pair.b].members[0]);
    if (rootA === rootB) continue;
    const together = [...(chainsByRoot.get(rootA) ?? [pair.a]), ...(chainsByRoot.get(rootB) ?? [pair.b])];
    const most = mostConcurrent(together, chains);
    if (most > MAX_CONCURRENT_SETS) {
      refuseJoin(pair, most);
      continue;
    }
    sets.union(rootA, rootB);
    chainsByRoot.delete(rootA);
    chainsByRoot.delete(rootB);
    chainsByRoot.set(sets.find(rootA), together);
    forest.add(pair.memberA, pair.memberB, pair.same);
    joined.push(pair);
  }
  const irkOf = new Int32Array(count);
  const byKey = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    const irk = addresses[index].irk;
    irkOf[index] = irk;
    if (irk < 0) continue;
    const first = byKey.get(irk);
    if (first === undefined) byKey.set(irk, index);
    else if (sets.union(first, index)) forest.add(first, index, 1);
  }
  for (const pair of joined) {
    const root = sets.find(pair.memberA);
    const list = joinsByRoot.get(root);
    if (list) list.push(pair);
    else joinsByRoot.set(root, [pair]);
  }

  // Members, chain edges and tree edges grouped by root (a set's root is its smallest index), each in its own order.
  const rootOf = new Int32Array(Math.max(count, kept.length, forest.length));
  for (let index = 0; index < count; index++) rootOf[index] = sets.find(index);
  const groups = groupByKey(rootOf, count, count);
  for (let index = 0; index < kept.length; index++) rootOf[index] = sets.find(earlier[kept[index]]);
  const keptByRoot = groupByKey(rootOf, kept.length, count, kept);
  for (let edge = 0; edge < forest.length; edge++) rootOf[edge] = sets.find(forest.x[edge]);
  const treeByRoot = groupByKey(rootOf, forest.length, count);

  const clusters: AddressCluster[] = [];
  const matrices = new BleClusterMatrices(count, forest.length);
  const firstMs = new Float64Array(count);
  for (let index = 0; index < count; index++) firstMs[index] = addresses[index].profile.firstMs;
  for (let root = 0; root < count; root++) {
    const size = groups.from[root + 1] - groups.from[root];
    if (size < 2) continue;
    // By first packet, then address: an insertion sort comparing the keys inline (the same order
    // as a stable sort by compareAscending(first, first) || order).
    const members = new Array<number>(size);
    for (let index = 0; index < size; index++) {
      const held = groups.items[groups.from[root] + index];
      const key = firstMs[held];
      let at = index;
      while (at > 0) {
        const before = firstMs[members[at - 1]];
        if (before < key || (!(before > key) && order(members[at - 1], held) <= 0)) break;
        members[at] = members[at - 1];
        at--;
      }
      members[at] = held;
    }
    const chainEdges = keptByRoot.items.subarray(keptByRoot.from[root], keptByRoot.from[root + 1]);
    const matrix = matrices.matrix(members, forest, treeByRoot, treeByRoot.from[root], treeByRoot.from[root + 1], irkOf);
    clusters.push(describeCluster(addresses, members, matrix, chained.pairs, chainEdges, joinsByRoot.get(root) ?? [], chains, chainOf, irkLabels, handoffs));
  }
  clusters.sort((x, y) => COLLATOR.compare(x.clusterId, y.clusterId));
  return clusters;
}

/** The most of these chains active at one moment (a chain is one advertising set: one address at a time). */
export function mostConcurrent(chainIds: ReadonlyArray<number>, chains: ReadonlyArray<BleChain>): number {
  // Starts before ends at one time: chains that touch count as concurrent (the bound errs towards splitting).
  const edges = chainIds.flatMap((chain) => [
    [chains[chain].firstMs, 1],
    [chains[chain].lastMs, -1],
  ]);
  edges.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  let active = 0;
  let most = 0;
  for (const [, step] of edges) {
    active += step;
    if (active > most) most = active;
  }
  return most;
}

/**
 * A join the bound refused: the pair is two devices after all (travelled together, since the
 * evidence put them together), and its rationale says why.
 */
function refuseJoin(pair: BleChainPair, concurrent: number): void {
  pair.travel = Math.min(1, pair.travel + pair.same);
  pair.same = 0;
  pair.terms?.push({
    name: 'one_radio',
    llrSame: 0,
    llrTravel: 0,
    text: `joining them would make one device of ${concurrent} concurrent advertising sets, more than the ${MAX_CONCURRENT_SETS} one device runs: kept apart (travelled together)`,
  });
}

// Per-cluster code below uses plain loops rather than array callbacks: it runs for every
// cluster, and closures made per call are a large share of its cost.

function describeCluster(
  addresses: ReadonlyArray<BleLinkableAddress>,
  members: number[],
  matrix: number[][],
  pairs: BleScoredPairs,
  chainEdges: Int32Array,
  joins: BleChainPair[],
  chains: ReadonlyArray<BleChain>,
  chainOf: Int32Array,
  irkLabels: ReadonlyArray<string>,
  handoffs: BleHandoffFactors,
): AddressCluster {
  const size = members.length;
  const memberAddresses: string[] = new Array(size);
  let kind: string = addresses[members[0]].type;
  for (let i = 0; i < size; i++) {
    memberAddresses[i] = addresses[members[i]].address;
    if (addresses[members[i]].type !== kind) kind = 'mixed';
  }
  // Parallel chains: the hand-off chains inside the cluster, in order of their first member.
  const chainIds: number[] = [];
  for (const member of members) if (!chainIds.includes(chainOf[member])) chainIds.push(chainOf[member]);
  const parallel = chainIds.map((chain) => chains[chain].members.map((member) => addresses[member].address));
  const first = addresses[members[0]].address.replace(/:/g, '');
  const rationale = clusterRationale(addresses, members, pairs, chainEdges, irkLabels, handoffs);
  if (joins.length > 0) {
    // Rationale lines are built flat (flat-text.ts): they stay in the result, and a line grown by
    // `+=` would keep a node per piece and every factor text it was made of.
    if (chainEdges.length > 0) {
      const handoffs = new Array<string>(chainEdges.length);
      for (let index = 0; index < chainEdges.length; index++) handoffs[index] = flatText(addresses[pairs.earlier[chainEdges[index]]].address, ' → ', addresses[pairs.later[chainEdges[index]]].address);
      rationale.push(flatText('joined by hand-off: ', handoffs.join(', ')));
    }
    const sizes = new Array<number>(parallel.length);
    for (let index = 0; index < parallel.length; index++) sizes[index] = parallel[index].length;
    rationale.push(flatText('parallel chains: ', parallel.length, ' advertising sets followed by hand-off, joined by co-location (', sizes.join(' + '), ' addresses)'));
    for (const join of joins) {
      const terms = join.terms ?? [];
      const texts = new Array<string>(terms.length);
      for (let index = 0; index < terms.length; index++) texts[index] = flatText(terms[index].name, ': ', terms[index].text);
      rationale.push(
        flatText('co_location: ', addresses[join.memberA].address, ' ~ ', addresses[join.memberB].address, ' (concurrent sets) p=', Math.min(MAX_UNPROVEN_PROBABILITY, join.same).toFixed(3), ': ', texts.join('; ')),
      );
    }
  }
  return {
    clusterId: `cluster_${kind}_${first}`,
    addresses: memberAddresses,
    matrix,
    rationale,
    chains: parallel,
  };
}

/** "low–high" of the values at `digits` decimals, or one number when both print the same. */
function printedRange(values: ReadonlyArray<number>, digits: number): string {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (value < low) low = value;
    if (value > high) high = value;
  }
  const lowText = low.toFixed(digits);
  const highText = high.toFixed(digits);
  return lowText === highText ? lowText : `${lowText}–${highText}`;
}

/** Whether hand-off `e` carries its payload signature over unchanged (see clusterRationale). */
function samePayloadCarried(addresses: ReadonlyArray<BleLinkableAddress>, pairs: BleScoredPairs, e: number): boolean {
  const carried = addresses[pairs.earlier[e]].profile.tailPayload;
  return carried >= 0 && carried === addresses[pairs.later[e]].profile.headPayload;
}

/** The co_occurrence line of a chain's hand-offs from their overlaps (s) within and beyond OVERLAP_TOLERANCE_S: never "no overlap" where there is one. */
export function coOccurrenceLine(within: ReadonlyArray<number>, beyond: ReadonlyArray<number>): string {
  const tolerance = OVERLAP_TOLERANCE_S.toFixed(1);
  const handoffs = (count: number) => `${count} hand-off${count === 1 ? '' : 's'} overlap${count === 1 ? 's' : ''}`;
  const parts: string[] = [];
  if (within.length > 0) parts.push(`${handoffs(within.length)} by ${printedRange(within, 1)} s, within the ${tolerance} s tolerance for receiver clock offsets and out-of-sync payload windows`);
  if (beyond.length > 0) parts.push(`${handoffs(beyond.length)} by ${printedRange(beyond, 1)} s, beyond the ${tolerance} s tolerance: those members were active at the same time, which counts against their link (one phone can advertise several sets at once)`);
  if (parts.length === 0) return 'co_occurrence: no two members active at the same time (evidence against linkage absent)';
  return flatText('co_occurrence: ', parts.join('; '));
}

function clusterRationale(
  addresses: ReadonlyArray<BleLinkableAddress>,
  members: number[],
  pairs: BleScoredPairs,
  chainEdges: Int32Array,
  irkLabels: ReadonlyArray<string>,
  handoffs: BleHandoffFactors,
): string[] {
  const lines: string[] = [];
  const keys = new Set<number>();
  for (const member of members) if (addresses[member].irk >= 0) keys.add(addresses[member].irk);
  for (const key of keys) {
    let count = 0;
    for (const member of members) if (addresses[member].irk === key) count++;
    lines.push(flatText('irk_resolution: ', count, " addresses resolve under IRK '", irkLabels[key], "' (probability 1)"));
  }
  if (chainEdges.length > 0) {
    // Every described hand-off has one payload factor, and it reads "same payload signature …"
    // exactly when the earlier address's last payload is the later one's first (describePair in
    // linkage.ts): when all do, the line says so and no payload text is needed.
    let described = 0;
    let exact = 0;
    for (let index = 0; index < chainEdges.length; index++) {
      const e = chainEdges[index];
      if (!handoffs.described(e)) continue;
      described++;
      if (samePayloadCarried(addresses, pairs, e)) exact++;
    }
    const payloadTexts = exact !== described;
    // Described now, straight into the pieces of the lines below (see BleLinks.handoffs).
    const texts = new BleHandoffTexts();
    for (let index = 0; index < chainEdges.length; index++) handoffs.appendClusterTexts(chainEdges[index], payloadTexts, texts);
    const gaps: number[] = [];
    const lifetimes: number[] = [];
    // Overlaps of a hand-off's two members: within the hand-off model's tolerance (receiver clock
    // offsets, out-of-sync payload windows) or beyond it; the lines below state which, with the numbers.
    const within: number[] = [];
    const beyond: number[] = [];
    let minimum = Infinity;
    for (let index = 0; index < chainEdges.length; index++) {
      const e = chainEdges[index];
      const earlier = addresses[pairs.earlier[e]].profile;
      const gapS = (addresses[pairs.later[e]].profile.firstMs - earlier.lastMs) / 1000;
      gaps.push(gapS);
      if (gapS < -OVERLAP_TOLERANCE_S) beyond.push(-gapS);
      else if (gapS < 0) within.push(-gapS);
      lifetimes.push((earlier.lastMs - earlier.firstMs) / 60_000);
      if (pairs.probability[e] < minimum) minimum = pairs.probability[e];
    }
    lines.push(
      flatText(
        'rotation_interval_fit: ',
        beyond.length > 0 ? 'hand-offs' : within.length > 0 ? 'sequential activity windows' : 'sequential non-overlapping activity windows',
        ' consistent with RPA rotation; hand-off gaps ',
        printedRange(gaps, 1),
        ' s, address lifetimes ',
        printedRange(lifetimes, 1),
        ' min',
      ),
    );
    if (texts.rssiCount > 0) lines.push(flatText('rssi_continuity: ', texts.rssiPositive, ' of ', texts.rssiCount, ' hand-offs continuous in RSSI (', texts.rssi.join(''), ')'));
    if (described > 0) {
      lines.push(
        payloadTexts
          ? flatText('payload_signature_match: ', texts.payload.join(''))
          : flatText('payload_signature_match: identical payload signature carried across all ', members.length, ' addresses'),
      );
    }
    if (texts.intervalCount > 0) lines.push(flatText('adv_interval_similarity: ', texts.interval.join('')));
    lines.push(coOccurrenceLine(within, beyond));
    lines.push(flatText('weakest hand-off probability ', Math.min(MAX_UNPROVEN_PROBABILITY, minimum).toFixed(3), '; non-adjacent cells are products along the chain'));
  }
  return lines;
}
