import type { AddressCluster } from './analysis-types.ts';
import type { BleLinkableAddress, BleLinkEdge, BleLinkFactor } from './linkage.ts';

/**
 * Clusters from linked pairs: edges with p > 0.5 are taken best first under a
 * one-successor/one-predecessor constraint (chains of hand-offs, not transitive closure), then
 * addresses resolving under the same IRK join one cluster.
 *
 * Matrix cells: adjacent hand-offs carry their edge probability; non-adjacent members carry the
 * product along the strongest path between them (a chain is only as likely as all its links;
 * IRK pairs count as 1). Symmetric, diagonal 1.
 *
 * `cluster_id` is derived from content: `cluster_<kind>_<earliest member's address hex>`, so
 * the same input always gives the same ids.
 */
/** `a.localeCompare(b)` (the same default collation), without building a collator per call. */
const COLLATOR = new Intl.Collator();

export function buildClusters(addresses: ReadonlyArray<BleLinkableAddress>, edges: ReadonlyArray<BleLinkEdge>, irkLabels: ReadonlyArray<string>): AddressCluster[] {
  const successor = new Int32Array(addresses.length).fill(-1);
  const predecessor = new Int32Array(addresses.length).fill(-1);
  const parent = addresses.map((_, index) => index);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const union = (x: number, y: number): void => {
    const rx = find(x);
    const ry = find(y);
    if (rx !== ry) parent[Math.max(rx, ry)] = Math.min(rx, ry);
  };
  const ranked = edges
    .filter((edge) => edge.probability > 0.5)
    .sort((x, y) => y.probability - x.probability || COLLATOR.compare(addresses[x.earlier].address, addresses[y.earlier].address) || COLLATOR.compare(addresses[x.later].address, addresses[y.later].address));
  const kept: BleLinkEdge[] = [];
  for (const edge of ranked) {
    if (successor[edge.earlier] >= 0 || predecessor[edge.later] >= 0) continue;
    successor[edge.earlier] = edge.later;
    predecessor[edge.later] = edge.earlier;
    union(edge.earlier, edge.later);
    kept.push(edge);
  }
  const byKey = new Map<number, number>();
  addresses.forEach((address, index) => {
    if (address.irk < 0) return;
    const first = byKey.get(address.irk);
    if (first === undefined) byKey.set(address.irk, index);
    else union(first, index);
  });

  const groups = new Map<number, number[]>();
  addresses.forEach((_, index) => {
    const root = find(index);
    const list = groups.get(root);
    if (list) list.push(index);
    else groups.set(root, [index]);
  });
  const keptByMember = new Map<number, BleLinkEdge[]>();
  for (const edge of kept) {
    const root = find(edge.earlier);
    const list = keptByMember.get(root);
    if (list) list.push(edge);
    else keptByMember.set(root, [edge]);
  }

  const clusters: AddressCluster[] = [];
  for (const [root, members] of groups) {
    if (members.length < 2) continue;
    members.sort((x, y) => addresses[x].profile.firstMs - addresses[y].profile.firstMs || COLLATOR.compare(addresses[x].address, addresses[y].address));
    const chainEdges = keptByMember.get(root) ?? [];
    clusters.push(describeCluster(addresses, members, chainEdges, irkLabels));
  }
  clusters.sort((x, y) => COLLATOR.compare(x.clusterId, y.clusterId));
  return clusters;
}

// Per-cluster code below uses plain loops rather than array callbacks: it runs for every
// cluster, and closures made per call are a large share of its cost.

/** The largest printed probability of a link that no IRK proves (three decimals, like every cell). */
const MAX_UNPROVEN_PROBABILITY = 0.999;

function describeCluster(addresses: ReadonlyArray<BleLinkableAddress>, members: number[], chainEdges: BleLinkEdge[], irkLabels: ReadonlyArray<string>): AddressCluster {
  const size = members.length;
  const position = new Map<number, number>();
  for (let index = 0; index < size; index++) position.set(members[index], index);
  // Strongest-path products: max-product Floyd–Warshall over the cluster (clusters are small).
  const best: number[][] = new Array(size);
  for (let i = 0; i < size; i++) {
    const row: number[] = new Array(size).fill(0);
    row[i] = 1;
    best[i] = row;
  }
  for (const edge of chainEdges) {
    const i = position.get(edge.earlier)!;
    const j = position.get(edge.later)!;
    best[i][j] = best[j][i] = Math.max(best[i][j], edge.probability);
  }
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      const ki = addresses[members[i]].irk;
      if (ki >= 0 && ki === addresses[members[j]].irk) best[i][j] = best[j][i] = 1;
    }
  }
  for (let via = 0; via < size; via++) {
    const viaRow = best[via];
    for (let i = 0; i < size; i++) {
      const row = best[i];
      const toVia = row[via];
      if (toVia === 0) continue;
      for (let j = 0; j < size; j++) {
        const through = toVia * viaRow[j];
        if (through > row[j]) row[j] = through;
      }
    }
  }
  const matrix: number[][] = new Array(size);
  const memberAddresses: string[] = new Array(size);
  let kind: string = addresses[members[0]].type;
  for (let i = 0; i < size; i++) {
    const row = best[i];
    const rounded: number[] = new Array(size);
    const irk = addresses[members[i]].irk;
    for (let j = 0; j < size; j++) {
      const proven = i === j || (irk >= 0 && irk === addresses[members[j]].irk);
      // Only an IRK (or the diagonal) proves a link; a behavioural score never prints as certainty.
      rounded[j] = proven ? 1 : Math.min(MAX_UNPROVEN_PROBABILITY, Math.round(row[j] * 1000) / 1000);
    }
    matrix[i] = rounded;
    memberAddresses[i] = addresses[members[i]].address;
    if (addresses[members[i]].type !== kind) kind = 'mixed';
  }
  const first = addresses[members[0]].address.replace(/:/g, '');
  return {
    clusterId: `cluster_${kind}_${first}`,
    addresses: memberAddresses,
    matrix,
    rationale: clusterRationale(addresses, members, chainEdges, irkLabels),
  };
}

/** The factors of one name across the edges, in edge order. */
function factorsNamed(edges: ReadonlyArray<BleLinkEdge>, name: BleLinkFactor['name']): BleLinkFactor[] {
  const found: BleLinkFactor[] = [];
  for (const edge of edges) for (const factor of edge.factors) if (factor.name === name) found.push(factor);
  return found;
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

function joinedTexts(factors: ReadonlyArray<BleLinkFactor>): string {
  let text = '';
  for (let index = 0; index < factors.length; index++) text += (index > 0 ? '; ' : '') + factors[index].text;
  return text;
}

function clusterRationale(addresses: ReadonlyArray<BleLinkableAddress>, members: number[], chainEdges: BleLinkEdge[], irkLabels: ReadonlyArray<string>): string[] {
  const lines: string[] = [];
  const keys = new Set<number>();
  for (const member of members) if (addresses[member].irk >= 0) keys.add(addresses[member].irk);
  for (const key of keys) {
    let count = 0;
    for (const member of members) if (addresses[member].irk === key) count++;
    lines.push(`irk_resolution: ${count} addresses resolve under IRK '${irkLabels[key]}' (probability 1)`);
  }
  if (chainEdges.length > 0) {
    const gaps: number[] = [];
    const lifetimes: number[] = [];
    let overlaps = 0;
    let minimum = Infinity;
    for (const edge of chainEdges) {
      gaps.push(edge.gapS);
      if (edge.gapS < -1) overlaps++;
      const earlier = addresses[edge.earlier].profile;
      lifetimes.push((earlier.lastMs - earlier.firstMs) / 60_000);
      if (edge.probability < minimum) minimum = edge.probability;
    }
    lines.push(
      `rotation_interval_fit: ${overlaps === 0 ? 'sequential non-overlapping activity windows' : 'hand-offs'} consistent with RPA rotation; hand-off gaps ${printedRange(gaps, 1)} s, address lifetimes ${printedRange(lifetimes, 1)} min`,
    );
    const rssi = factorsNamed(chainEdges, 'rssi_continuity');
    if (rssi.length > 0) {
      let positive = 0;
      for (const factor of rssi) if (factor.llr > 0) positive++;
      lines.push(`rssi_continuity: ${positive} of ${rssi.length} hand-offs continuous in RSSI (${joinedTexts(rssi)})`);
    }
    const payload = factorsNamed(chainEdges, 'payload_signature_match');
    if (payload.length > 0) {
      let exact = 0;
      for (const factor of payload) if (factor.text.startsWith('same payload signature')) exact++;
      lines.push(
        exact === payload.length
          ? `payload_signature_match: identical payload signature carried across all ${members.length} addresses`
          : `payload_signature_match: ${joinedTexts(payload)}`,
      );
    }
    const interval = factorsNamed(chainEdges, 'adv_interval_similarity');
    if (interval.length > 0) lines.push(`adv_interval_similarity: ${joinedTexts(interval)}`);
    lines.push(
      overlaps === 0
        ? 'co_occurrence: no two members active at the same time (evidence against linkage absent)'
        : `co_occurrence: ${overlaps} hand-offs overlap in time (one phone can advertise several sets at once)`,
    );
    lines.push(`weakest hand-off probability ${Math.min(MAX_UNPROVEN_PROBABILITY, minimum).toFixed(3)}; non-adjacent cells are products along the chain`);
  }
  return lines;
}
