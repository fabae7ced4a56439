/**
 * The link forest of the clusters (clusters.ts) as flat arrays, and each cluster's probability
 * matrix from its link tree.
 *
 * The links that built a cluster (hand-off edges, co-location joins, IRK pairs) form a tree:
 * each join connected two parts that were apart. Every pair of members has one path, and its
 * cell is the product of the link probabilities along it, multiplied outwards from the row's
 * member. Edges, members and per-cluster groups live in typed arrays (grouped by cluster root in
 * compressed rows) rather than an object per edge and a Map of lists per root: the clusters are
 * built at the very end of the analysis, when every young object still alive is copied by the
 * next scavenge.
 */

/** The largest printed probability of a link that no IRK proves (three decimals, like every cell). */
export const MAX_UNPROVEN_PROBABILITY = 0.999;

/** Edges of the link forest, in the order they were added. */
export class BleLinkForest {
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly probability: Float64Array;
  length = 0;

  /** Room for `capacity` edges: a forest of n nodes has at most n − 1. */
  constructor(capacity: number) {
    this.x = new Int32Array(capacity);
    this.y = new Int32Array(capacity);
    this.probability = new Float64Array(capacity);
  }

  add(x: number, y: number, probability: number): void {
    this.x[this.length] = x;
    this.y[this.length] = y;
    this.probability[this.length++] = probability;
  }
}

/**
 * Items grouped by a key in 0 … keys − 1, each group in the order the items were given:
 * group k holds `items[from[k]]` … `items[from[k + 1] − 1]`.
 */
export interface BleGroups {
  from: Int32Array;
  items: Int32Array;
}

/** Groups items 0 … count − 1 (or `values[i]` in place of item i) by `keyOf[i]`, keeping their order. */
export function groupByKey(keyOf: Int32Array, count: number, keys: number, values?: ArrayLike<number>): BleGroups {
  const from = new Int32Array(keys + 1);
  for (let index = 0; index < count; index++) from[keyOf[index] + 1]++;
  for (let key = 0; key < keys; key++) from[key + 1] += from[key];
  const items = new Int32Array(count);
  const next = from.slice(0, keys);
  for (let index = 0; index < count; index++) items[next[keyOf[index]]++] = values ? values[index] : index;
  return { from, items };
}

/**
 * Working arrays of the matrices, made once per set of clusters and sized for the largest
 * possible cluster (every address, every forest edge), so a cluster allocates only its rows.
 */
export class BleClusterMatrices {
  /** A member's position in its cluster. */
  private readonly positionOf: Int32Array;
  private readonly linksFrom: Int32Array;
  private readonly filled: Int32Array;
  private readonly neighbour: Int32Array;
  private readonly linkProbability: Float64Array;
  private readonly product: Float64Array;
  /** The tree rooted at its first member: each member's parent (−1 at the root), the probability of that link, and an order with parents first. */
  private readonly parent: Int32Array;
  private readonly up: Float64Array;
  private readonly order: Int32Array;
  /** The row whose member has this member on its way to the root (or is it). */
  private readonly onPathOf: Int32Array;
  /** Per position: the IRK of the member, or −1. */
  private readonly irkAt: Int32Array;

  constructor(addresses: number, edges: number) {
    this.positionOf = new Int32Array(addresses);
    this.linksFrom = new Int32Array(addresses + 1);
    this.filled = new Int32Array(addresses);
    this.neighbour = new Int32Array(2 * edges);
    this.linkProbability = new Float64Array(2 * edges);
    this.product = new Float64Array(addresses);
    this.parent = new Int32Array(addresses);
    this.up = new Float64Array(addresses);
    this.order = new Int32Array(addresses);
    this.onPathOf = new Int32Array(addresses);
    this.irkAt = new Int32Array(addresses);
  }

  /**
   * The rows of one cluster's matrix: `members` (address indices) in the order of the rows, the
   * cluster's tree as `tree.items[treeFrom … treeTo − 1]` (edge indices of `forest`), `irkOf` the
   * IRK of every address (−1: none). Cell (i, j) is 1 when i = j or both resolve under one IRK
   * (only an IRK proves a link), else the path product rounded to three decimals, at most
   * MAX_UNPROVEN_PROBABILITY. The edges must form one tree over the members (buildClusters adds
   * an edge only where it joins two parts).
   */
  matrix(members: ReadonlyArray<number>, forest: BleLinkForest, tree: BleGroups, treeFrom: number, treeTo: number, irkOf: Int32Array): number[][] {
    const size = members.length;
    const { positionOf, linksFrom, filled, neighbour, linkProbability, product, parent, up, order, onPathOf, irkAt } = this;
    let anyKey = false;
    for (let index = 0; index < size; index++) {
      positionOf[members[index]] = index;
      irkAt[index] = irkOf[members[index]];
      if (irkAt[index] >= 0) anyKey = true;
    }
    // Adjacency of the link tree in compressed rows: member i's links are linksFrom[i] … linksFrom[i + 1] − 1.
    linksFrom.fill(0, 0, size + 1);
    for (let at = treeFrom; at < treeTo; at++) {
      const edge = tree.items[at];
      linksFrom[positionOf[forest.x[edge]] + 1]++;
      linksFrom[positionOf[forest.y[edge]] + 1]++;
    }
    for (let i = 0; i < size; i++) linksFrom[i + 1] += linksFrom[i];
    for (let i = 0; i < size; i++) filled[i] = linksFrom[i];
    for (let at = treeFrom; at < treeTo; at++) {
      const edge = tree.items[at];
      const i = positionOf[forest.x[edge]];
      const j = positionOf[forest.y[edge]];
      const p = forest.probability[edge];
      neighbour[filled[i]] = j;
      linkProbability[filled[i]++] = p;
      neighbour[filled[j]] = i;
      linkProbability[filled[j]++] = p;
    }
    // Rooted at the first member, parents listed before their children (breadth first).
    parent[0] = -1;
    order[0] = 0;
    let listed = 1;
    for (let next = 0; next < listed; next++) {
      const at = order[next];
      for (let link = linksFrom[at]; link < linksFrom[at + 1]; link++) {
        const child = neighbour[link];
        if (child === parent[at]) continue;
        parent[child] = at;
        up[child] = linkProbability[link];
        order[listed++] = child;
      }
    }
    for (let index = 0; index < size; index++) onPathOf[index] = -1;
    // Row i: the path from member i to member j multiplies its links outwards from i. Up from i
    // to the root each member follows its child; every other member follows its parent, which the
    // order lists first. O(k) per row, O(k²) per cluster, with no walk and stack per row.
    const rows: number[][] = new Array(size);
    for (let i = 0; i < size; i++) {
      product[i] = 1;
      onPathOf[i] = i;
      for (let at = i; parent[at] >= 0; at = parent[at]) {
        product[parent[at]] = product[at] * up[at];
        onPathOf[parent[at]] = i;
      }
      for (let next = 1; next < size; next++) {
        const at = order[next];
        if (onPathOf[at] !== i) product[at] = product[parent[at]] * up[at];
      }
      const row: number[] = new Array(size);
      const irk = irkAt[i];
      for (let j = 0; j < size; j++) {
        const proven = i === j || (anyKey && irk >= 0 && irk === irkAt[j]);
        row[j] = proven ? 1 : Math.min(MAX_UNPROVEN_PROBABILITY, Math.round(Math.max(0, product[j]) * 1000) / 1000);
      }
      rows[i] = row;
    }
    return rows;
  }
}
