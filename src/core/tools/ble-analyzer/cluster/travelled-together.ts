import type { AddressCluster, TravelledTogether } from '../shared/analysis-types.ts';
import type { BleChainPair } from '../co-location/co-location-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import { compareAscending } from '../shared/number-order.ts';
import { chainTracker, trackerKindsDiffer } from '../co-location/co-location.ts';
import type { CompanionEvidence } from './companion-evidence.ts';

/**
 * The travelled-together relation between the final devices (clusters, or single addresses):
 * chain pairs where "two devices on one path" is the likeliest story, grouped by the devices
 * they connect; each device pair keeps its strongest chain pair and the whole time they were
 * heard together, the same-device probability it was weighed against and what separated the two
 * (the pair's one_radio verdict, co-location-model.ts). With `companion`, a pair's probability
 * counts what the companion showed beside the chains before and after it (companion-evidence.ts).
 */
export function travelRelations(
  addresses: ReadonlyArray<BleLinkableAddress>,
  chains: ReadonlyArray<{ members: number[] }>,
  pairs: ReadonlyArray<BleChainPair>,
  clusters: ReadonlyArray<AddressCluster>,
  companion?: CompanionEvidence,
): TravelledTogether[] {
  const clusterOf = new Map<string, AddressCluster>();
  for (const cluster of clusters) for (const address of cluster.addresses) clusterOf.set(address, cluster);
  const entity = (chain: number): { key: string; addresses: string[]; cluster?: string } => {
    const first = addresses[chains[chain].members[0]].address;
    const cluster = clusterOf.get(first);
    return cluster ? { key: cluster.clusterId, addresses: cluster.addresses, cluster: cluster.clusterId } : { key: first, addresses: [first] };
  };
  const byPair = new Map<string, TravelledTogether & { best: BleChainPair; bestIndex: number; shownIndex: number }>();
  const travelOf = (index: number) => (companion ? companion.travel[index] : pairs[index].travel);
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    const travel = travelOf(index);
    if (!(travel > 0.5)) continue;
    const x = entity(pair.a);
    const y = entity(pair.b);
    if (x.key === y.key) continue;
    const [a, b] = x.key < y.key ? [x, y] : [y, x];
    const key = `${a.key}|${b.key}`;
    const known = byPair.get(key);
    if (known) {
      known.fromMs = Math.min(known.fromMs, pair.overlapFromMs);
      known.toMs = Math.max(known.toMs, pair.overlapToMs);
      if (travel > travelOf(known.bestIndex)) {
        known.best = pair;
        known.bestIndex = index;
      }
      if (pair.terms && (!pairs[known.shownIndex].terms || travel > travelOf(known.shownIndex))) known.shownIndex = index;
      continue;
    }
    byPair.set(key, {
      a: a.addresses,
      b: b.addresses,
      ...(a.cluster ? { clusterA: a.cluster } : {}),
      ...(b.cluster ? { clusterB: b.cluster } : {}),
      probability: 0,
      fromMs: pair.overlapFromMs,
      toMs: pair.overlapToMs,
      rationale: [],
      sameDeviceProbability: 0,
      separatedBy: '',
      best: pair,
      bestIndex: index,
      shownIndex: index,
    });
  }
  const relations: TravelledTogether[] = [];
  for (const { best, bestIndex, shownIndex, ...relation } of byPair.values()) {
    const minutes = Math.round((relation.toMs - relation.fromMs) / 60_000);
    relation.probability = Math.min(0.999, travelOf(bestIndex));
    relation.sameDeviceProbability = Math.min(0.999, best.same);
    // The terms of the strongest chain pair that has them: one raised only by its neighbours' evidence has none of its own.
    const shown = pairs[shownIndex];
    const verdicts = (shown.terms ?? []).filter((term) => term.name === 'one_radio');
    // The last one_radio verdict: a join the device-size bound refused adds its own after the score's.
    relation.separatedBy = verdicts.length > 0 ? verdicts[verdicts.length - 1].text : undescribedVerdict(chains[best.a], chains[best.b], addresses);
    relation.rationale = [
      `moved with each other for ${minutes} minute${minutes === 1 ? '' : 's'} (P(travelled together) ${relation.probability.toFixed(3)}, P(same device) ${best.same.toFixed(3)})`,
      ...(!best.terms && shown.terms ? [`terms of another chain pair of these two devices (heard together ${overlapMinutes(shown)}, P(travelled together) ${travelOf(shownIndex).toFixed(3)}): the likeliest pair was raised by its neighbours' evidence and has none of its own`] : []),
      ...(shown.terms ?? []).map((term) => `${term.name}: ${term.text}`),
      ...(companion ? acrossHandoffsLine(best, companion, bestIndex) : []),
    ];
    relations.push(relation);
  }
  relations.sort((x, y) => compareAscending(y.probability, x.probability) || (x.a[0] < y.a[0] ? -1 : x.a[0] > y.a[0] ? 1 : 0));
  return relations;
}

/**
 * What separated a pair whose terms were not described (raised above 0.5 only by its neighbours'
 * evidence, companion-evidence.ts): a tag beside a chain of another kind, or co-movement alone.
 */
function undescribedVerdict(a: { members: number[] }, b: { members: number[] }, addresses: ReadonlyArray<BleLinkableAddress>): string {
  const trackerA = chainTracker(a, addresses);
  const trackerB = chainTracker(b, addresses);
  return trackerA !== trackerB ? trackerKindsDiffer(trackerA, trackerB) : 'co-movement without evidence of one radio';
}

function overlapMinutes(pair: BleChainPair): string {
  const minutes = Math.round((pair.overlapToMs - pair.overlapFromMs) / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The rationale's line on the evidence the chains before and after added, when it moved the pair. */
function acrossHandoffsLine(pair: BleChainPair, companion: CompanionEvidence, index: number): string[] {
  const added = companion.addedLogOdds[index];
  if (Math.abs(added) < 0.05) return [];
  const signedText = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
  return [
    `across_handoffs: ${signedText(added)} from the chains either side hands off to and from (each weighed by the chance it is the same device), beside this pair's own ${signedText(pair.evidenceT)}; on its own P(travelled together) ${pair.travel.toFixed(3)}`,
  ];
}
