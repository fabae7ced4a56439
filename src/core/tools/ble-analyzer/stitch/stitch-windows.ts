/**
 * Stitching of windowed BLE analyses: the clusters of time windows (each analysed on its own,
 * overlapping its neighbour) joined into device-clusters that span the windows.
 *
 * - **Nodes** are a window's clusters (`probabilistic_links`) and its addresses that no cluster
 *   holds (one address, one device as far as that window knows).
 * - **Joins.** A BLE address is one identity within the receiver set: two nodes of different
 *   windows that hold the same address are one device. Overlapping windows make a rotating
 *   device's addresses shared: the hand-off A → B that one window sees in its overlap puts B
 *   into both windows. Joins are certain (an address equality, probability 1).
 * - **A window's separation wins.** A stitched device holds at most one *firm* node per window:
 *   a join that would put two firm nodes of one window into one device is refused and reported
 *   as a conflict (people who walk together share a path, not a device; a window that saw both
 *   sides judged them apart). Firm are the window's clusters, and its lone addresses that the
 *   window saw whole: a lone address whose activity in the window begins or ends within
 *   `marginMs` of a window edge cut by the windowing (not the data's own start or end) may be
 *   alone only because the window saw too little of it — the tail of an address that handed off
 *   before the window began — and is no evidence of a separation. Within a window, joins are
 *   tried strongest first (most shared addresses), so a cluster that shares addresses with two
 *   clusters of the next window continues as the one it shares most with.
 * - **An address belongs to one device**: after a refused join an address can sit in nodes of two
 *   devices; it goes to the device of the latest window that saw it (the later window saw its
 *   future as well as the overlap). So the later window decides both ways: when it separates
 *   what an earlier one joined, the earlier cluster continues as one side; when it joins what an
 *   earlier window kept apart, the earlier node left without addresses is absorbed (counted in
 *   `absorbed`, its window named in the conflict).
 * - **Confidence** of a device is its weakest join: the smallest, over its windows, of the
 *   cluster's weakest link (the bottleneck of the maximum spanning tree of the window's pairwise
 *   probability matrix); 1 for a single address. Joins across windows are address equalities
 *   (probability 1), so a device is never more confident than its weakest hand-off. It is the
 *   probability of that one join, an upper bound on all of them holding at once.
 *
 * Windows are added in time order, one at a time; the stitcher keeps only addresses, nodes and
 * the union-find (memory grows with the addresses of the whole run, not with its packets).
 * Pure and DOM-free; it reads the analyzer's JSON output, not its internals.
 */

/** The parts of a window's `structured_output` (bluetooth_address_analyzer 1.2.0) the stitcher reads. */
export interface BleWindowOutput {
  address_classification: ReadonlyArray<{ address: string; type?: string }>;
  probabilistic_links: ReadonlyArray<{ cluster_id: string; addresses: readonly string[]; pairwise_probability_matrix: ReadonlyArray<readonly number[]>; tracker_kind?: string }>;
  timeline_segments: ReadonlyArray<{ address: string; start_ts: string; end_ts: string }>;
  travelled_together?: ReadonlyArray<{
    addresses_a: readonly string[];
    addresses_b: readonly string[];
    cluster_a?: string;
    cluster_b?: string;
    probability: number;
    start_ts: string;
    end_ts: string;
    duration_s: number;
    tracker_kind?: string;
  }>;
}

/** One device across the windows. */
export interface StitchedCluster {
  /** `device_000001`…, numbered by first seen, then first address. */
  id: string;
  addresses: string[];
  first_seen: string | null;
  last_seen: string | null;
  /** Window indices the device was seen in, ascending. */
  windows: number[];
  /** Its cluster in each window (`cluster_id` null: a single address that window left unclustered). */
  window_clusters: Array<{ window: number; cluster_id: string | null }>;
  /** The weakest join (see the module comment). */
  confidence: number;
  tracker_kind?: string;
  /** How many refused joins concern this device (see `StitchConflict`). */
  conflicts: number;
}

/** A join refused because a window keeps the two sides apart. */
export interface StitchConflict {
  /** The cluster that shares addresses with both sides, and its window. */
  window: number;
  cluster_id: string | null;
  /** The node it could not join (a cluster of another window). */
  other_window: number;
  other_cluster_id: string | null;
  shared_addresses: string[];
  /** The window that keeps the two devices apart, and its two clusters there. */
  kept_apart_in_window: number;
  kept_apart: [string | null, string | null];
  /** Devices the two sides ended up in. */
  devices: [string, string];
}

/** A window's travelled-together relation, with the devices its two sides belong to. */
export interface StitchedRelation {
  window: number;
  device_a: string;
  device_b: string;
  probability: number;
  start_ts: string;
  end_ts: string;
  duration_s: number;
  tracker_kind?: string;
}

export interface StitchedAnalysis {
  clusters: StitchedCluster[];
  conflicts: StitchConflict[];
  relations: StitchedRelation[];
  counts: {
    windows_stitched: number;
    devices: number;
    /** Devices of two or more addresses. */
    multi_address_devices: number;
    /** Devices seen in two or more windows. */
    spanning_devices: number;
    /** Joins across windows that were made. */
    joins: number;
    conflicts: number;
    /** Devices left without addresses by a later window's judgement (see the module comment). */
    absorbed: number;
  };
}

interface StitchNode {
  window: number;
  clusterId: string | null;
  addresses: string[];
  confidence: number;
  trackerKind: string | undefined;
  /** A cluster, or a lone address the window saw whole: it separates (see the module comment). */
  firm: boolean;
}

/** Where a window's view is cut by the windowing: null for an edge that is the data's own. */
export interface WindowFrame {
  startMs: number | null;
  endMs: number | null;
  /** A lone address active this close to a cut edge is not firm (the linkage window is a good choice). */
  marginMs: number;
}

interface PendingRelation {
  window: number;
  nodeA: number;
  nodeB: number;
  relation: NonNullable<BleWindowOutput['travelled_together']>[number];
}

interface PendingConflict {
  from: number;
  to: number;
  shared: string[];
  keptApartIn: number;
  keptApart: [number, number];
}

export class WindowStitcher {
  private readonly nodes: StitchNode[] = [];
  private readonly parent: number[] = [];
  /** Per component root: its firm node in each window (one at most). */
  private readonly firmOf = new Map<number, Map<number, number>>();
  /** Per component root: its nodes. */
  private readonly membersOf = new Map<number, number[]>();
  /** The latest node that holds each address. */
  private readonly latestNode = new Map<string, number>();
  private readonly seen = new Map<string, { first: number; last: number }>();
  private readonly relations: PendingRelation[] = [];
  private readonly conflicts: PendingConflict[] = [];
  private lastWindow = Number.NEGATIVE_INFINITY;
  private windowCount = 0;
  private joins = 0;

  /** Adds one window's analysis; windows come in ascending order. Without a frame every node is firm. */
  addWindow(window: number, output: BleWindowOutput, frame?: WindowFrame): void {
    if (!(window > this.lastWindow)) throw new Error(`windows are stitched in ascending order: ${window} after ${this.lastWindow}`);
    this.lastWindow = window;
    this.windowCount++;
    const inWindow = new Map<string, { first: number; last: number }>();
    for (const segment of output.timeline_segments) {
      const start = Date.parse(segment.start_ts);
      const end = Date.parse(segment.end_ts);
      for (const spans of [this.seen, inWindow]) {
        const known = spans.get(segment.address);
        if (!known) spans.set(segment.address, { first: start, last: end });
        else {
          known.first = Math.min(known.first, start);
          known.last = Math.max(known.last, end);
        }
      }
    }
    const cut = (address: string): boolean => {
      const span = inWindow.get(address);
      if (!frame || !span) return false;
      return (frame.startMs !== null && span.first - frame.startMs < frame.marginMs) || (frame.endMs !== null && frame.endMs - span.last < frame.marginMs);
    };
    const local = new Map<string, number>();
    for (const link of output.probabilistic_links) {
      const node = this.addNode({ window, clusterId: link.cluster_id, addresses: [...link.addresses], confidence: weakestJoin(link.pairwise_probability_matrix), trackerKind: link.tracker_kind, firm: true });
      for (const address of link.addresses) local.set(address, node);
    }
    for (const { address } of output.address_classification) {
      if (local.has(address)) continue;
      local.set(address, this.addNode({ window, clusterId: null, addresses: [address], confidence: 1, trackerKind: undefined, firm: !cut(address) }));
    }

    // Candidate joins: each new node with the earlier nodes that hold its addresses.
    const shared = new Map<string, { node: number; earlier: number; addresses: string[] }>();
    for (const [address, node] of local) {
      const earlier = this.latestNode.get(address);
      this.latestNode.set(address, node);
      if (earlier === undefined) continue;
      const key = `${node}:${earlier}`;
      const entry = shared.get(key);
      if (entry) entry.addresses.push(address);
      else shared.set(key, { node, earlier, addresses: [address] });
    }
    const candidates = [...shared.values()].sort((x, y) => y.addresses.length - x.addresses.length || x.node - y.node || x.earlier - y.earlier);
    for (const candidate of candidates) this.tryJoin(candidate.earlier, candidate.node, candidate.addresses.sort());

    for (const relation of output.travelled_together ?? []) {
      const nodeA = relation.cluster_a !== undefined ? this.clusterNode(window, relation.cluster_a) : local.get(relation.addresses_a[0]);
      const nodeB = relation.cluster_b !== undefined ? this.clusterNode(window, relation.cluster_b) : local.get(relation.addresses_b[0]);
      if (nodeA === undefined || nodeB === undefined) continue;
      this.relations.push({ window, nodeA, nodeB, relation });
    }
  }

  finish(): StitchedAnalysis {
    // Each address goes to the device of the latest node that holds it.
    const addressesOf = new Map<number, string[]>();
    for (const [address, node] of this.latestNode) {
      const root = this.find(node);
      const list = addressesOf.get(root);
      if (list) list.push(address);
      else addressesOf.set(root, [address]);
    }
    const drafts: Array<Omit<StitchedCluster, 'id'> & { root: number; firstMs: number }> = [];
    for (const [root, addresses] of addressesOf) {
      addresses.sort();
      let first = Number.POSITIVE_INFINITY;
      let last = Number.NEGATIVE_INFINITY;
      for (const address of addresses) {
        const seen = this.seen.get(address);
        if (!seen) continue;
        first = Math.min(first, seen.first);
        last = Math.max(last, seen.last);
      }
      const members = this.membersOf.get(root)!.map((node) => this.nodes[node]).sort((x, y) => x.window - y.window || (x.firm === y.firm ? 0 : x.firm ? -1 : 1));
      const trackerKind = members.map((node) => node.trackerKind).find((kind) => kind !== undefined);
      drafts.push({
        root,
        firstMs: Number.isFinite(first) ? first : Number.POSITIVE_INFINITY,
        addresses,
        first_seen: Number.isFinite(first) ? new Date(first).toISOString() : null,
        last_seen: Number.isFinite(last) ? new Date(last).toISOString() : null,
        windows: [...new Set(members.map((node) => node.window))],
        window_clusters: members.map((node) => ({ window: node.window, cluster_id: node.clusterId })),
        confidence: Math.min(...members.map((node) => node.confidence)),
        ...(trackerKind === undefined ? {} : { tracker_kind: trackerKind }),
        conflicts: 0,
      });
    }
    drafts.sort((x, y) => x.firstMs - y.firstMs || (x.addresses[0] < y.addresses[0] ? -1 : x.addresses[0] > y.addresses[0] ? 1 : 0));
    const idOf = new Map<number, string>();
    const clusters: StitchedCluster[] = drafts.map(({ root, firstMs: _firstMs, ...draft }, index) => {
      const id = `device_${String(index + 1).padStart(6, '0')}`;
      idOf.set(root, id);
      return { id, ...draft };
    });
    // A component whose every address went to later devices has no device of its own: it is named by the device of its latest node's first address.
    const deviceOf = (node: number): string => idOf.get(this.find(node)) ?? idOf.get(this.find(this.latestNode.get(this.nodes[node].addresses[0])!))!;
    const byId = new Map(clusters.map((cluster) => [cluster.id, cluster]));
    const conflicts: StitchConflict[] = this.conflicts.map((conflict) => {
      const devices: [string, string] = [deviceOf(conflict.from), deviceOf(conflict.to)];
      for (const device of new Set(devices)) byId.get(device)!.conflicts++;
      return {
        window: this.nodes[conflict.from].window,
        cluster_id: this.nodes[conflict.from].clusterId,
        other_window: this.nodes[conflict.to].window,
        other_cluster_id: this.nodes[conflict.to].clusterId,
        shared_addresses: conflict.shared,
        kept_apart_in_window: conflict.keptApartIn,
        kept_apart: [this.nodes[conflict.keptApart[0]].clusterId ?? this.nodes[conflict.keptApart[0]].addresses[0], this.nodes[conflict.keptApart[1]].clusterId ?? this.nodes[conflict.keptApart[1]].addresses[0]],
        devices,
      };
    });
    const relations: StitchedRelation[] = this.relations.map(({ window, nodeA, nodeB, relation }) => ({
      window,
      device_a: deviceOf(nodeA),
      device_b: deviceOf(nodeB),
      probability: relation.probability,
      start_ts: relation.start_ts,
      end_ts: relation.end_ts,
      duration_s: relation.duration_s,
      ...(relation.tracker_kind === undefined ? {} : { tracker_kind: relation.tracker_kind }),
    }));
    return {
      clusters,
      conflicts,
      relations,
      counts: {
        windows_stitched: this.windowCount,
        devices: clusters.length,
        multi_address_devices: clusters.filter((cluster) => cluster.addresses.length >= 2).length,
        spanning_devices: clusters.filter((cluster) => cluster.windows.length >= 2).length,
        joins: this.joins,
        conflicts: conflicts.length,
        absorbed: this.membersOf.size - clusters.length,
      },
    };
  }

  private addNode(node: StitchNode): number {
    const index = this.nodes.length;
    this.nodes.push(node);
    this.parent.push(index);
    this.firmOf.set(index, node.firm ? new Map([[node.window, index]]) : new Map());
    this.membersOf.set(index, [index]);
    return index;
  }

  private clusterNode(window: number, clusterId: string): number | undefined {
    // Nodes of the current window are the last ones added; a window has few clusters next to its addresses.
    for (let index = this.nodes.length - 1; index >= 0 && this.nodes[index].window === window; index--) {
      if (this.nodes[index].clusterId === clusterId) return index;
    }
    return undefined;
  }

  private find(node: number): number {
    let root = node;
    while (this.parent[root] !== root) root = this.parent[root];
    while (this.parent[node] !== root) {
      const next = this.parent[node];
      this.parent[node] = root;
      node = next;
    }
    return root;
  }

  /** Joins the devices of `earlier` and `later` unless one window holds a firm node of each. */
  private tryJoin(earlier: number, later: number, shared: string[]): void {
    const a = this.find(earlier);
    const b = this.find(later);
    if (a === b) return;
    const firmA = this.firmOf.get(a)!;
    const firmB = this.firmOf.get(b)!;
    const [small, large] = firmA.size <= firmB.size ? [firmA, firmB] : [firmB, firmA];
    for (const [window, node] of small) {
      const other = large.get(window);
      if (other === undefined) continue;
      const fromA = small === firmA;
      this.conflicts.push({ from: earlier, to: later, shared, keptApartIn: window, keptApart: fromA ? [node, other] : [other, node] });
      return;
    }
    const membersA = this.membersOf.get(a)!;
    const membersB = this.membersOf.get(b)!;
    const [root, child] = membersA.length >= membersB.length ? [a, b] : [b, a];
    this.parent[child] = root;
    for (const [window, node] of small) large.set(window, node);
    this.firmOf.set(root, large);
    this.firmOf.delete(child);
    const [fewer, more] = membersA.length >= membersB.length ? [membersB, membersA] : [membersA, membersB];
    for (const node of fewer) more.push(node);
    this.membersOf.set(root, more);
    this.membersOf.delete(child);
    this.joins++;
  }
}

/**
 * The weakest link that holds a cluster together: the largest p such that the pairs with
 * probability ≥ p connect every address (the bottleneck of a maximum spanning tree, Prim's).
 * The analyzer's matrix holds the hand-off and co-location probabilities of its joins, and
 * products along chains elsewhere, so this is its weakest join. 1 for a single address.
 */
export function weakestJoin(matrix: ReadonlyArray<readonly number[]>): number {
  const size = matrix.length;
  if (size <= 1) return 1;
  const best = new Float64Array(size).fill(-1);
  const inTree = new Uint8Array(size);
  best[0] = Number.POSITIVE_INFINITY;
  let weakest = 1;
  for (let step = 0; step < size; step++) {
    let pick = -1;
    for (let index = 0; index < size; index++) if (!inTree[index] && (pick < 0 || best[index] > best[pick])) pick = index;
    inTree[pick] = 1;
    if (step > 0) weakest = Math.min(weakest, Math.max(0, best[pick]));
    const row = matrix[pick];
    for (let index = 0; index < size; index++) if (!inTree[index] && row[index] > best[index]) best[index] = row[index];
  }
  return weakest;
}
