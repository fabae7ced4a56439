import type { ToolResult } from '../../../contract/types.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../../util/json.ts';
import { compactJson, genericDigest, roundNumber } from '../../result-digest.ts';

/** How many classifications the model sees by name; the rest are counted by type. */
const MAX_CLASSIFICATIONS = 40;
/** Strongest pairwise links shown per cluster. */
const MAX_LINKS = 5;
/** Rationale lines per cluster. */
const MAX_RATIONALE = 6;
const MAX_CLUSTERS = 20;
/** Travelled-together relations shown by name (the strongest first); the rest are counted. */
const MAX_RELATIONS = 15;
/** Rationale lines per relation: the summary and the evidence that told it from one device. */
const MAX_RELATION_RATIONALE = 3;

const str = (value: JsonValue | undefined): string | null => (typeof value === 'string' ? value : null);
const num = (value: JsonValue | undefined): number | null => (typeof value === 'number' ? value : null);

/** The strongest pairs of a cluster from its probability matrix. */
function strongestLinks(addresses: ReadonlyArray<JsonValue>, matrix: JsonValue | undefined): JsonValue[] {
  if (!Array.isArray(matrix)) return [];
  const pairs: Array<{ a: JsonValue; b: JsonValue; p: number }> = [];
  for (let i = 0; i < addresses.length; i += 1) {
    const row = matrix[i];
    if (!Array.isArray(row)) continue;
    for (let j = i + 1; j < addresses.length; j += 1) {
      const p = num(row[j]);
      if (p !== null) pairs.push({ a: addresses[i], b: addresses[j], p });
    }
  }
  return pairs
    .sort((x, y) => y.p - x.p)
    .slice(0, MAX_LINKS)
    .map((pair) => [pair.a, pair.b, roundNumber(pair.p)]);
}

function clusterDigest(cluster: JsonValue): JsonValue {
  if (!isJsonObject(cluster)) return compactJson(cluster);
  const addresses = Array.isArray(cluster.addresses) ? cluster.addresses : [];
  const out: JsonObject = { cluster_id: cluster.cluster_id ?? null, addresses };
  const links = strongestLinks(addresses, cluster.pairwise_probability_matrix);
  if (links.length > 0) out.strongest_links = links;
  for (const [key, value] of Object.entries(cluster)) {
    if (key === 'cluster_id' || key === 'addresses' || key === 'pairwise_probability_matrix') continue;
    if (key === 'rationale' && Array.isArray(value)) {
      out.rationale = value.slice(0, MAX_RATIONALE).map((line) => compactJson(line, { maxItems: 0, keepItems: 0, maxString: 220, maxDepth: 1 }));
      if (value.length > MAX_RATIONALE) out.rationale_lines = value.length;
    } else {
      out[key] = compactJson(value, { maxItems: 8, keepItems: 4, maxString: 200, maxDepth: 3 });
    }
  }
  return out;
}

/** One side of a relation: its cluster, or its address (with how many more it has). */
function sideLabel(cluster: JsonValue | undefined, addresses: JsonValue | undefined): JsonValue {
  if (typeof cluster === 'string') return cluster;
  const list = Array.isArray(addresses) ? addresses : [];
  return list.length <= 1 ? (list[0] ?? null) : `${String(list[0])} (+${list.length - 1})`;
}

/**
 * The travelled-together relations (distinct devices that moved together): the strongest by
 * name, with probability, span and the first rationale lines, so the planner can say "this tag
 * moved with this phone for 40 minutes" without being tempted to call them one device.
 */
function travelDigest(relations: ReadonlyArray<JsonValue>): JsonObject {
  const ranked = relations.filter(isJsonObject).sort((x, y) => (num(y.probability) ?? 0) - (num(x.probability) ?? 0));
  const out: JsonObject = {
    count: relations.length,
    note: 'distinct devices that moved together (companions, a tag and its carrier, a group): never the same device',
    relations: ranked.slice(0, MAX_RELATIONS).map((relation) => {
      const entry: JsonObject = { a: sideLabel(relation.cluster_a, relation.addresses_a), b: sideLabel(relation.cluster_b, relation.addresses_b) };
      const probability = num(relation.probability);
      if (probability !== null) entry.probability = roundNumber(probability);
      for (const key of ['duration_s', 'start_ts', 'end_ts'] as const) if (relation[key] !== undefined) entry[key] = relation[key];
      if (Array.isArray(relation.rationale)) {
        entry.rationale = relation.rationale.slice(0, MAX_RELATION_RATIONALE).map((line) => compactJson(line, { maxItems: 0, keepItems: 0, maxString: 220, maxDepth: 1 }));
      }
      for (const [key, value] of Object.entries(relation)) {
        if (!(key in entry) && !['addresses_a', 'addresses_b', 'cluster_a', 'cluster_b', 'rationale'].includes(key)) entry[key] = compactJson(value, { maxItems: 6, keepItems: 3, maxString: 200, maxDepth: 2 });
      }
      return entry;
    }),
  };
  if (relations.length > MAX_RELATIONS) out.relations_not_shown = relations.length - MAX_RELATIONS;
  return out;
}

function classificationDigest(entry: JsonValue): JsonValue {
  if (!isJsonObject(entry)) return compactJson(entry);
  const out: JsonObject = { address: entry.address ?? null, type: entry.type ?? null };
  const confidence = num(entry.confidence);
  if (confidence !== null) out.confidence = roundNumber(confidence);
  return out;
}

function countBy(items: ReadonlyArray<JsonValue>, key: string): JsonObject {
  const counts: JsonObject = {};
  for (const item of items) {
    const value = isJsonObject(item) ? (str(item[key]) ?? 'unknown') : 'unknown';
    counts[value] = ((counts[value] as number | undefined) ?? 0) + 1;
  }
  return counts;
}

function timelineDigest(segments: ReadonlyArray<JsonValue>): JsonObject {
  const starts = segments.map((segment) => (isJsonObject(segment) ? str(segment.start_ts) : null)).filter((value): value is string => value !== null).sort();
  const ends = segments.map((segment) => (isJsonObject(segment) ? str(segment.end_ts) : null)).filter((value): value is string => value !== null).sort();
  const addresses = new Set(segments.map((segment) => (isJsonObject(segment) ? str(segment.address) : null)).filter(Boolean));
  return { segments: segments.length, addresses: addresses.size, ...(starts.length > 0 ? { from: starts[0], to: ends.at(-1) ?? null } : {}), note: 'per-address activity segments are in the full result' };
}

/**
 * The BLE analyzer's digest: address counts by type, every cluster with its addresses, strongest
 * links and rationale, the top classifications (clustered addresses first, then by confidence),
 * the travelled-together relations (strongest first) and the timeline as counts. Written
 * defensively: the output may grow, so any field it does not know is compacted generically,
 * never dropped.
 */
export function digestBleOutput(output: JsonObject, _result?: ToolResult): JsonObject {
  if (!Array.isArray(output.address_classification) && !Array.isArray(output.probabilistic_links)) return genericDigest(output);
  const digest: JsonObject = {};
  const clusters = Array.isArray(output.probabilistic_links) ? output.probabilistic_links : [];
  const clustered = new Set<string>();
  for (const cluster of clusters) {
    if (isJsonObject(cluster) && Array.isArray(cluster.addresses)) for (const address of cluster.addresses) if (typeof address === 'string') clustered.add(address);
  }
  for (const [key, value] of Object.entries(output)) {
    if (key === 'address_classification' && Array.isArray(value)) {
      const ranked = [...value].sort((a, b) => {
        const inA = isJsonObject(a) && clustered.has(str(a.address) ?? '') ? 1 : 0;
        const inB = isJsonObject(b) && clustered.has(str(b.address) ?? '') ? 1 : 0;
        if (inA !== inB) return inB - inA;
        return (isJsonObject(b) ? (num(b.confidence) ?? 0) : 0) - (isJsonObject(a) ? (num(a.confidence) ?? 0) : 0);
      });
      digest.address_counts = { total: value.length, by_type: countBy(value, 'type') };
      digest.top_classifications = ranked.slice(0, MAX_CLASSIFICATIONS).map(classificationDigest);
      if (value.length > MAX_CLASSIFICATIONS) digest.classifications_not_shown = value.length - MAX_CLASSIFICATIONS;
    } else if (key === 'probabilistic_links' && Array.isArray(value)) {
      digest.cluster_count = value.length;
      digest.clusters = value.slice(0, MAX_CLUSTERS).map(clusterDigest);
      if (value.length > MAX_CLUSTERS) digest.clusters_not_shown = value.length - MAX_CLUSTERS;
    } else if (key === 'travelled_together' && Array.isArray(value)) {
      digest.travelled_together = travelDigest(value);
    } else if (key === 'timeline_segments' && Array.isArray(value)) {
      digest.timeline = timelineDigest(value);
    } else {
      // Fields this digest does not know: kept, compacted.
      digest[key] = compactJson(value, { maxItems: 10, keepItems: 5, maxString: 200, maxDepth: 4 });
    }
  }
  return digest;
}
