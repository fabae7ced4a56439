import type { AddressCluster, LinkCandidate } from '../shared/analysis-types.ts';
import type { BleChainPair } from '../co-location/co-location-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleLinks } from '../handoff/linkage.ts';
import { MAX_UNPROVEN_PROBABILITY } from '../cluster/cluster-links.ts';

/**
 * Hand-off candidates, then co-location candidates, in one array of its final length. A
 * candidate's probability is that its two addresses are one emitter: its own where they ended in
 * different clusters, else their cluster's matrix entry, which weighs every link between them (A
 * and C two hand-offs apart are one emitter at about the product of both links, though C is not
 * A's successor); an added `cluster` factor then says so, with the pair's own probability.
 */
export function candidateList(linkable: ReadonlyArray<BleLinkableAddress>, links: BleLinks, pairs: ReadonlyArray<BleChainPair>, clusters: ReadonlyArray<AddressCluster>): LinkCandidate[] {
  const placeOf = clusterPlaces(clusters);
  const candidates = new Array<LinkCandidate>(links.earlier.length + pairs.length);
  for (let e = 0; e < links.earlier.length; e++) {
    const factors = links.factors[e];
    candidates[e] = inCluster(
      {
        earlier: linkable[links.earlier[e]].address,
        later: linkable[links.later[e]].address,
        probability: links.probability[e],
        ...(links.raw && !Number.isNaN(links.raw[e]) ? { rawProbability: links.raw[e] } : {}),
        factors: factors ? namedTexts(factors) : [],
      },
      placeOf,
      clusters,
    );
  }
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    const aFirst = linkable[pair.memberA].profile.firstMs <= linkable[pair.memberB].profile.firstMs;
    candidates[links.earlier.length + index] = inCluster(
      {
        earlier: linkable[aFirst ? pair.memberA : pair.memberB].address,
        later: linkable[aFirst ? pair.memberB : pair.memberA].address,
        probability: pair.same,
        rawProbability: pair.rawSame,
        factors: pair.terms ? namedTexts(pair.terms) : [],
        relation: 'co_location',
      },
      placeOf,
      clusters,
    );
  }
  return candidates;
}

/** Each clustered address's cluster and place in it. */
function clusterPlaces(clusters: ReadonlyArray<AddressCluster>): Map<string, { cluster: number; index: number }> {
  const places = new Map<string, { cluster: number; index: number }>();
  clusters.forEach((cluster, at) => cluster.addresses.forEach((address, index) => places.set(address, { cluster: at, index })));
  return places;
}

/** The candidate at its cluster's matrix entry when both addresses are in one cluster (and a factor saying so where that differs). */
function inCluster(candidate: LinkCandidate, placeOf: Map<string, { cluster: number; index: number }>, clusters: ReadonlyArray<AddressCluster>): LinkCandidate {
  const a = placeOf.get(candidate.earlier);
  const b = placeOf.get(candidate.later);
  if (a === undefined || b === undefined || a.cluster !== b.cluster) return candidate;
  const cluster = clusters[a.cluster];
  const probability = cluster.matrix[a.index][b.index];
  // The cluster joins them by this very link: its cell is the pair's own probability as cells are printed (1: an IRK proves both).
  if (probability === (candidate.probability === 1 ? 1 : Math.min(MAX_UNPROVEN_PROBABILITY, Math.round(candidate.probability * 1000) / 1000))) return candidate;
  const own = candidate.probability < 0.001 ? candidate.probability.toExponential(1) : candidate.probability.toFixed(3);
  const factor = `cluster: both in ${cluster.clusterId}, one emitter at ${probability.toFixed(3)} over the links that join them there (this pair's own evidence alone: ${own})`;
  // No longer the calibration of the pair's own raw probability: the fit leaves it out.
  const { rawProbability: _own, ...rest } = candidate;
  return { ...rest, probability, factors: [...candidate.factors, factor] };
}

/** "name: text" of each factor or term, in order (the candidates' printed factors). */
function namedTexts(factors: ReadonlyArray<{ name: string; text: string }>): string[] {
  const texts = new Array<string>(factors.length);
  for (let index = 0; index < factors.length; index++) texts[index] = `${factors[index].name}: ${factors[index].text}`;
  return texts;
}
