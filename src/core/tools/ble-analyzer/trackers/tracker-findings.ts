import type { AddressClassification, AddressCluster, TravelledTogether } from '../shared/analysis-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleChains } from '../cluster/clusters.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import type { BleTrackerRecognition } from './recognize-trackers.ts';
import type { BleTrackerPairs } from './link-with-trackers.ts';
import type { BleTrackerReading } from './tracker-payloads.ts';
import { TRACKER_KIND_NAMES } from './link-trackers.ts';

/**
 * What the analysis reports of the trackers: the kind on their classification rows (with an
 * evidence line saying what the payload showed), and on the clusters a tag's rotations built,
 * a rationale line naming the rotation and the evidence each link rests on.
 */

/** A reading in words, for the evidence line. */
function readingText(reading: BleTrackerReading): string {
  switch (reading.kind) {
    case 'find_my':
      return `Find My-style tracker payload (Apple offline finding, ${reading.mode === 'separated' ? 'separated mode: one address a day' : 'near its owner: an address every 15 min'}, status 0x${reading.status.toString(16).padStart(2, '0')})`;
    case 'fmdn':
      return `FMDN-style tracker payload (Find My Device Network frame 0x${reading.frameType.toString(16)}${reading.frameType === 0x41 ? ', unwanted-tracking protection on' : ''}, ${reading.eidBytes}-byte ephemeral identifier rotating every 1024 s)`;
    case 'smarttag':
      return `SmartTag-style tracker payload (Samsung offline finding, aging counter ${reading.agingCounter}, rotating about every 15 min)`;
    default:
      return '';
  }
}

/** The rotation a kind's link crosses, in words. */
function rotationWords(kind: BleTrackerKind, reading: BleTrackerReading): string {
  if (kind === 'find_my') return reading.kind === 'find_my' && reading.mode === 'near_owner' ? '15-minute rotation' : 'daily rotation';
  if (kind === 'fmdn') return '1024 s rotation';
  return 'rotation';
}

/** Sets `trackerKind` on the classification rows of recognized tags and adds their payload evidence. */
export function markTrackerClassification(classification: AddressClassification[], addressIds: ReadonlyMap<string, number>, recognition: BleTrackerRecognition, dominantPayload: (id: number) => number): void {
  const { find_my, fmdn, smarttag } = recognition.counts;
  if (find_my + fmdn + smarttag === 0) return;
  for (const item of classification) {
    const id = addressIds.get(item.address);
    if (id === undefined) continue;
    const kind = recognition.kindOf[id];
    if (!kind) continue;
    item.trackerKind = kind;
    const text = readingText(recognition.reading(dominantPayload(id)));
    // A new list: evidence lists are shared between addresses through the classifier's text pool.
    if (text) item.evidence = [...item.evidence, text];
  }
}

/**
 * Adds to each cluster that holds tracker links a first rationale line per tag (per hand-off
 * chain of tracker links): the tag, how many of its rotations were linked, and each link with
 * its probability and evidence. A cluster made only of one kind's tags gets that kind.
 */
export function describeTrackerClusters(
  clusters: AddressCluster[],
  linkable: ReadonlyArray<BleLinkableAddress>,
  chained: BleChains,
  trackers: BleTrackerPairs | undefined,
  recognition: BleTrackerRecognition,
): void {
  if (!trackers || clusters.length === 0) return;
  const { pairs, kept, chainOf } = chained;
  // Tracker links by the address they start from, grouped per chain below.
  const linksFrom = new Map<string, number>();
  for (const e of kept) if (e >= trackers.from) linksFrom.set(linkable[pairs.earlier[e]].address, e);
  if (linksFrom.size === 0) return;
  const indexOf = new Map<string, number>();
  for (let index = 0; index < linkable.length; index++) if (linkable[index].tracker) indexOf.set(linkable[index].address, index);
  for (const cluster of clusters) {
    const byChain = new Map<number, number[]>();
    for (const address of cluster.addresses) {
      const e = linksFrom.get(address);
      if (e === undefined) continue;
      const chain = chainOf[pairs.earlier[e]];
      const list = byChain.get(chain);
      if (list) list.push(e);
      else byChain.set(chain, [e]);
    }
    if (byChain.size === 0) continue;
    const lines: string[] = [];
    for (const edges of byChain.values()) {
      edges.sort((x, y) => linkable[pairs.earlier[x]].profile.firstMs - linkable[pairs.earlier[y]].profile.firstMs || x - y);
      const kind = trackers.kind[edges[0] - trackers.from];
      const rotation = rotationWords(kind, recognition.reading(linkable[pairs.earlier[edges[0]]].profile.tailPayload));
      const links = edges.map((e) => `${linkable[pairs.earlier[e]].address} → ${linkable[pairs.later[e]].address} p=${pairs.probability[e].toFixed(3)} (${trackers.evidence[e - trackers.from] || 'tracker evidence below the description threshold'})`);
      lines.push(`tracker_rotation: ${TRACKER_KIND_NAMES[kind]} linked across ${edges.length} ${rotation}${edges.length === 1 ? '' : 's'}: ${links.join('; ')}`);
    }
    cluster.rationale.unshift(...lines);
    let kind: BleTrackerKind | undefined;
    let single = true;
    for (const address of cluster.addresses) {
      const index = indexOf.get(address);
      const memberKind = index === undefined ? undefined : linkable[index].tracker;
      if (!memberKind || (kind && memberKind !== kind)) single = false;
      kind = memberKind;
    }
    if (single && kind) cluster.trackerKind = kind;
  }
}

/** The tracker kind all of `addresses` carry, if they are tags of one kind. */
function sideKind(addresses: ReadonlyArray<string>, kindOf: ReadonlyMap<string, BleTrackerKind>): BleTrackerKind | undefined {
  let kind: BleTrackerKind | undefined;
  for (const address of addresses) {
    const own = kindOf.get(address);
    if (!own || (kind && own !== kind)) return undefined;
    kind = own;
  }
  return kind;
}

/** Sets `trackerKind` on the travelled-together relations one side of which is a tag (of one kind). */
export function markTrackerRelations(relations: TravelledTogether[], linkable: ReadonlyArray<BleLinkableAddress>): void {
  if (relations.length === 0) return;
  const kindOf = new Map<string, BleTrackerKind>();
  for (const address of linkable) if (address.tracker) kindOf.set(address.address, address.tracker);
  if (kindOf.size === 0) return;
  for (const relation of relations) {
    const kind = sideKind(relation.a, kindOf) ?? sideKind(relation.b, kindOf);
    if (kind) relation.trackerKind = kind;
  }
}
