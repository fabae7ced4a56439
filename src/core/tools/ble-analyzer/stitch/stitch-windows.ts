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
 * the union-find (memory grows with the addresses and windows of the whole run, not with its
 * packets), as columns: each address is one string however many windows name it, a node is a
 * few numbers (its window, firmness, confidence, first address, union-find links), and only a
 * component of two or more nodes has a map of its firm nodes. The 1 B-packet week's 584 windows
 * (411 k addresses) hold 89 MB so, against 295 MB as an object, a map and a list per node.
 * Pure and DOM-free; it reads the analyzer's JSON output, not its internals.
 */

import { BleGrowableFloat64, BleGrowableInt32 } from '../shared/growable.ts';

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

/** Where a window's view is cut by the windowing: null for an edge that is the data's own. */
export interface WindowFrame {
  startMs: number | null;
  endMs: number | null;
  /** A lone address active this close to a cut edge is not firm (the linkage window is a good choice). */
  marginMs: number;
}

/** A travelled-together relation kept for finish(): its nodes and the fields the output reports. */
interface PendingRelation {
  window: number;
  nodeA: number;
  nodeB: number;
  probability: number;
  startTs: string;
  endTs: string;
  durationS: number;
  trackerKind: string | undefined;
}

interface PendingConflict {
  from: number;
  to: number;
  shared: string[];
  keptApartIn: number;
  keptApart: [number, number];
}

const NONE = -1;

export class WindowStitcher {
  // Addresses, interned: an id per address, its text, its span over the run and the latest node that holds it.
  private readonly addressId = new Map<string, number>();
  private readonly addressText: string[] = [];
  private readonly firstMs = new BleGrowableFloat64();
  private readonly lastMs = new BleGrowableFloat64();
  private readonly latestNode = new BleGrowableInt32();

  // Nodes, as columns by node index.
  private readonly nodeWindow = new BleGrowableInt32();
  /** 1 for a firm node (a cluster, or a lone address the window saw whole; see the module comment). */
  private readonly nodeFirm = new BleGrowableInt32();
  private readonly nodeConfidence = new BleGrowableFloat64();
  /** The node's first address (the only one finish() names it by); NONE for a cluster without addresses. */
  private readonly nodeFirstAddress = new BleGrowableInt32();
  private readonly nodeClusterId: Array<string | null> = [];
  private readonly nodeTrackerKind = new Map<number, string>();

  // Union-find by size; each component's nodes as a list from its root (in join order), with its tail.
  private readonly parent = new BleGrowableInt32();
  private readonly componentSize = new BleGrowableInt32();
  private readonly nextMember = new BleGrowableInt32();
  private readonly lastMember = new BleGrowableInt32();
  /** Per component root of two or more nodes: its firm node in each window (one at most); a lone node's is implicit. */
  private readonly firmOf = new Map<number, Map<number, number>>();

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
      const id = this.intern(segment.address);
      const first = this.firstMs.values;
      const last = this.lastMs.values;
      if (Number.isNaN(first[id])) {
        first[id] = start;
        last[id] = end;
      } else {
        first[id] = Math.min(first[id], start);
        last[id] = Math.max(last[id], end);
      }
      const known = inWindow.get(segment.address);
      if (!known) inWindow.set(segment.address, { first: start, last: end });
      else {
        known.first = Math.min(known.first, start);
        known.last = Math.max(known.last, end);
      }
    }
    const cut = (address: string): boolean => {
      const span = inWindow.get(address);
      if (!frame || !span) return false;
      return (frame.startMs !== null && span.first - frame.startMs < frame.marginMs) || (frame.endMs !== null && frame.endMs - span.last < frame.marginMs);
    };
    const local = new Map<string, number>();
    for (const link of output.probabilistic_links) {
      const first = link.addresses.length > 0 ? this.intern(link.addresses[0]) : NONE;
      const node = this.addNode(window, link.cluster_id, first, weakestJoin(link.pairwise_probability_matrix), link.tracker_kind, true);
      for (const address of link.addresses) local.set(address, node);
    }
    for (const { address } of output.address_classification) {
      if (local.has(address)) continue;
      local.set(address, this.addNode(window, null, this.intern(address), 1, undefined, !cut(address)));
    }

    // Candidate joins: each new node with the earlier nodes that hold its addresses.
    const shared = new Map<string, { node: number; earlier: number; addresses: string[] }>();
    for (const [address, node] of local) {
      const id = this.intern(address);
      const earlier = this.latestNode.values[id];
      this.latestNode.values[id] = node;
      if (earlier === NONE) continue;
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
      const { probability, start_ts: startTs, end_ts: endTs, duration_s: durationS, tracker_kind: trackerKind } = relation;
      this.relations.push({ window, nodeA, nodeB, probability, startTs, endTs, durationS, trackerKind });
    }
  }

  finish(): StitchedAnalysis {
    // Each address goes to the device of the latest node that holds it.
    const addressesOf = new Map<number, string[]>();
    const latest = this.latestNode.values;
    for (let id = 0; id < this.addressText.length; id++) {
      if (latest[id] === NONE) continue;
      const root = this.find(latest[id]);
      const list = addressesOf.get(root);
      if (list) list.push(this.addressText[id]);
      else addressesOf.set(root, [this.addressText[id]]);
    }
    const drafts: Array<Omit<StitchedCluster, 'id'> & { root: number; firstMs: number }> = [];
    for (const [root, addresses] of addressesOf) {
      addresses.sort();
      let first = Number.POSITIVE_INFINITY;
      let last = Number.NEGATIVE_INFINITY;
      for (const address of addresses) {
        const id = this.addressId.get(address)!;
        if (Number.isNaN(this.firstMs.values[id])) continue;
        first = Math.min(first, this.firstMs.values[id]);
        last = Math.max(last, this.lastMs.values[id]);
      }
      const windowOf = this.nodeWindow.values;
      const firm = this.nodeFirm.values;
      // By window, firm nodes first; otherwise in join order (the sort is stable).
      const members = this.members(root).sort((x, y) => windowOf[x] - windowOf[y] || firm[y] - firm[x]);
      const trackerKind = members.map((node) => this.nodeTrackerKind.get(node)).find((kind) => kind !== undefined);
      drafts.push({
        root,
        firstMs: Number.isFinite(first) ? first : Number.POSITIVE_INFINITY,
        addresses,
        first_seen: Number.isFinite(first) ? new Date(first).toISOString() : null,
        last_seen: Number.isFinite(last) ? new Date(last).toISOString() : null,
        windows: [...new Set(members.map((node) => windowOf[node]))],
        window_clusters: members.map((node) => ({ window: windowOf[node], cluster_id: this.nodeClusterId[node] })),
        confidence: members.reduce((weakest, node) => Math.min(weakest, this.nodeConfidence.values[node]), Number.POSITIVE_INFINITY),
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
    const deviceOf = (node: number): string => idOf.get(this.find(node)) ?? idOf.get(this.find(latest[this.nodeFirstAddress.values[node]]))!;
    const nameOf = (node: number): string | null => this.nodeClusterId[node] ?? this.addressText[this.nodeFirstAddress.values[node]] ?? null;
    const byId = new Map(clusters.map((cluster) => [cluster.id, cluster]));
    const conflicts: StitchConflict[] = this.conflicts.map((conflict) => {
      const devices: [string, string] = [deviceOf(conflict.from), deviceOf(conflict.to)];
      for (const device of new Set(devices)) byId.get(device)!.conflicts++;
      return {
        window: this.nodeWindow.values[conflict.from],
        cluster_id: this.nodeClusterId[conflict.from],
        other_window: this.nodeWindow.values[conflict.to],
        other_cluster_id: this.nodeClusterId[conflict.to],
        shared_addresses: conflict.shared,
        kept_apart_in_window: conflict.keptApartIn,
        kept_apart: [nameOf(conflict.keptApart[0]), nameOf(conflict.keptApart[1])],
        devices,
      };
    });
    const relations: StitchedRelation[] = this.relations.map(({ window, nodeA, nodeB, probability, startTs, endTs, durationS, trackerKind }) => ({
      window,
      device_a: deviceOf(nodeA),
      device_b: deviceOf(nodeB),
      probability,
      start_ts: startTs,
      end_ts: endTs,
      duration_s: durationS,
      ...(trackerKind === undefined ? {} : { tracker_kind: trackerKind }),
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
        absorbed: this.componentCount() - clusters.length,
      },
    };
  }

  /** The address's id, given on first sight. */
  private intern(address: string): number {
    const known = this.addressId.get(address);
    if (known !== undefined) return known;
    const id = this.addressText.length;
    this.addressId.set(address, id);
    this.addressText.push(address);
    this.firstMs.push(Number.NaN);
    this.lastMs.push(Number.NaN);
    this.latestNode.push(NONE);
    return id;
  }

  private addNode(window: number, clusterId: string | null, firstAddress: number, confidence: number, trackerKind: string | undefined, firm: boolean): number {
    const node = this.nodeClusterId.length;
    this.nodeClusterId.push(clusterId);
    this.nodeWindow.push(window);
    this.nodeFirm.push(firm ? 1 : 0);
    this.nodeConfidence.push(confidence);
    this.nodeFirstAddress.push(firstAddress);
    if (trackerKind !== undefined) this.nodeTrackerKind.set(node, trackerKind);
    this.parent.push(node);
    this.componentSize.push(1);
    this.nextMember.push(NONE);
    this.lastMember.push(node);
    return node;
  }

  /** A component's nodes from its root, in the order they joined it. */
  private members(root: number): number[] {
    const nodes: number[] = [];
    for (let node = root; node !== NONE; node = this.nextMember.values[node]) nodes.push(node);
    return nodes;
  }

  private componentCount(): number {
    let count = 0;
    for (let node = 0; node < this.parent.length; node++) if (this.parent.values[node] === node) count++;
    return count;
  }

  /** A root's firm nodes by window: its map, or a lone node's own. */
  private firmNodes(root: number): Map<number, number> {
    return this.firmOf.get(root) ?? (this.nodeFirm.values[root] === 1 ? new Map([[this.nodeWindow.values[root], root]]) : new Map());
  }

  private clusterNode(window: number, clusterId: string): number | undefined {
    // Nodes of the current window are the last ones added; a window has few clusters next to its addresses.
    for (let index = this.nodeClusterId.length - 1; index >= 0 && this.nodeWindow.values[index] === window; index--) {
      if (this.nodeClusterId[index] === clusterId) return index;
    }
    return undefined;
  }

  private find(node: number): number {
    const parent = this.parent.values;
    let root = node;
    while (parent[root] !== root) root = parent[root];
    while (parent[node] !== root) {
      const next = parent[node];
      parent[node] = root;
      node = next;
    }
    return root;
  }

  /** Joins the devices of `earlier` and `later` unless one window holds a firm node of each. */
  private tryJoin(earlier: number, later: number, shared: string[]): void {
    const a = this.find(earlier);
    const b = this.find(later);
    if (a === b) return;
    const firmA = this.firmNodes(a);
    const firmB = this.firmNodes(b);
    const [small, large] = firmA.size <= firmB.size ? [firmA, firmB] : [firmB, firmA];
    for (const [window, node] of small) {
      const other = large.get(window);
      if (other === undefined) continue;
      const fromA = small === firmA;
      this.conflicts.push({ from: earlier, to: later, shared, keptApartIn: window, keptApart: fromA ? [node, other] : [other, node] });
      return;
    }
    const size = this.componentSize.values;
    const [root, child] = size[a] >= size[b] ? [a, b] : [b, a];
    this.parent.values[child] = root;
    size[root] += size[child];
    // The child's nodes follow the root's (its list starts at the child, which was its root).
    this.nextMember.values[this.lastMember.values[root]] = child;
    this.lastMember.values[root] = this.lastMember.values[child];
    for (const [window, node] of small) large.set(window, node);
    this.firmOf.set(root, large);
    this.firmOf.delete(child);
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
