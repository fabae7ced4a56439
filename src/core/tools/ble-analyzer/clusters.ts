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
    .sort((x, y) => y.probability - x.probability || addresses[x.earlier].address.localeCompare(addresses[y.earlier].address) || addresses[x.later].address.localeCompare(addresses[y.later].address));
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
    members.sort((x, y) => addresses[x].profile.firstMs - addresses[y].profile.firstMs || addresses[x].address.localeCompare(addresses[y].address));
    const chainEdges = keptByMember.get(root) ?? [];
    clusters.push(describeCluster(addresses, members, chainEdges, irkLabels));
  }
  clusters.sort((x, y) => x.clusterId.localeCompare(y.clusterId));
  return clusters;
}

function describeCluster(addresses: ReadonlyArray<BleLinkableAddress>, members: number[], chainEdges: BleLinkEdge[], irkLabels: ReadonlyArray<string>): AddressCluster {
  const size = members.length;
  const position = new Map(members.map((member, index) => [member, index]));
  // Strongest-path products: max-product Floyd–Warshall over the cluster (clusters are small).
  const best: number[][] = Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => (i === j ? 1 : 0)));
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
    for (let i = 0; i < size; i++) {
      if (best[i][via] === 0) continue;
      for (let j = 0; j < size; j++) {
        const through = best[i][via] * best[via][j];
        if (through > best[i][j]) best[i][j] = through;
      }
    }
  }
  const matrix = best.map((row) => row.map((value) => Math.round(value * 1000) / 1000));
  const kinds = new Set(members.map((member) => addresses[member].type));
  const kind = kinds.size === 1 ? [...kinds][0] : 'mixed';
  const first = addresses[members[0]].address.replace(/:/g, '');
  return {
    clusterId: `cluster_${kind}_${first}`,
    addresses: members.map((member) => addresses[member].address),
    matrix,
    rationale: clusterRationale(addresses, members, chainEdges, irkLabels),
  };
}

function factorsNamed(edges: ReadonlyArray<BleLinkEdge>, name: BleLinkFactor['name']): BleLinkFactor[] {
  return edges.flatMap((edge) => edge.factors.filter((factor) => factor.name === name));
}

function clusterRationale(addresses: ReadonlyArray<BleLinkableAddress>, members: number[], chainEdges: BleLinkEdge[], irkLabels: ReadonlyArray<string>): string[] {
  const lines: string[] = [];
  const keys = new Set(members.map((member) => addresses[member].irk).filter((key) => key >= 0));
  for (const key of keys) {
    const count = members.filter((member) => addresses[member].irk === key).length;
    lines.push(`irk_resolution: ${count} addresses resolve under IRK '${irkLabels[key]}' (probability 1)`);
  }
  if (chainEdges.length > 0) {
    const gaps = chainEdges.map((edge) => edge.gapS);
    const overlaps = gaps.filter((gap) => gap < -1);
    const lifetimes = chainEdges.map((edge) => (addresses[edge.earlier].profile.lastMs - addresses[edge.earlier].profile.firstMs) / 60_000);
    const range = (values: number[], digits: number) => {
      const low = Math.min(...values).toFixed(digits);
      const high = Math.max(...values).toFixed(digits);
      return low === high ? low : `${low}–${high}`;
    };
    lines.push(
      `rotation_interval_fit: ${overlaps.length === 0 ? 'sequential non-overlapping activity windows' : 'hand-offs'} consistent with RPA rotation; hand-off gaps ${range(gaps, 1)} s, address lifetimes ${range(lifetimes, 1)} min`,
    );
    const rssi = factorsNamed(chainEdges, 'rssi_continuity');
    if (rssi.length > 0) {
      const positive = rssi.filter((factor) => factor.llr > 0).length;
      lines.push(`rssi_continuity: ${positive} of ${rssi.length} hand-offs continuous in RSSI (${rssi.map((factor) => factor.text).join('; ')})`);
    }
    const payload = factorsNamed(chainEdges, 'payload_signature_match');
    if (payload.length > 0) {
      const exact = payload.filter((factor) => factor.text.startsWith('same payload signature')).length;
      lines.push(
        exact === payload.length
          ? `payload_signature_match: identical payload signature carried across all ${members.length} addresses`
          : `payload_signature_match: ${payload.map((factor) => factor.text).join('; ')}`,
      );
    }
    const interval = factorsNamed(chainEdges, 'adv_interval_similarity');
    if (interval.length > 0) lines.push(`adv_interval_similarity: ${interval.map((factor) => factor.text).join('; ')}`);
    lines.push(
      overlaps.length === 0
        ? 'co_occurrence: no two members active at the same time (evidence against linkage absent)'
        : `co_occurrence: ${overlaps.length} hand-offs overlap in time (one phone can advertise several sets at once)`,
    );
    const minimum = Math.min(...chainEdges.map((edge) => edge.probability));
    lines.push(`weakest hand-off probability ${minimum.toFixed(2)}; non-adjacent cells are products along the chain`);
  }
  return lines;
}
