import type { BleLinkableAddress, BleLinkContext, BleLinkFactor } from '../handoff/handoff-types.ts';
import { linkAddresses, type BleLinks } from '../handoff/linkage.ts';
import { BleHandoffDescriber, type BleHandoffFactors, type BleHandoffTexts } from '../handoff/handoff-description.ts';
import { BlePayloadRarity } from '../handoff/payload-rarity.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import { DESCRIBE_TRACKER_ABOVE, linkTrackers } from './link-trackers.ts';

/** The tracker pairs of merged links: pairs `from` … end, with their kinds and evidence texts. */
export interface BleTrackerPairs {
  from: number;
  kind: BleTrackerKind[];
  evidence: string[];
}

/** Hand-off links with the tracker links merged in (`trackers` undefined when no tag was recognized). */
export interface BleLinksWithTrackers extends BleLinks {
  trackers?: BleTrackerPairs;
}

/**
 * All hand-off links of the linkable addresses: tags (addresses with `tracker` set) are linked by
 * their own rotation models (link-trackers.ts) and only to tags of their kind; every other address
 * by the general hand-off linkage, which never sees the tags (a tag is its own radio: no phone
 * hands its address over to it, and a tag's daily or 1024 s rotation is not an RPA's). The
 * general pairs come first, then the tracker pairs, all indexed into `addresses`; without tags
 * this is the general linkage itself.
 */
export function linkAddressesWithTrackers(addresses: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext): BleLinksWithTrackers {
  let tags = 0;
  for (const address of addresses) if (address.tracker) tags++;
  if (tags === 0) return linkAddresses(addresses, context);
  const generalIndex = new Int32Array(addresses.length - tags);
  const general: BleLinkableAddress[] = [];
  for (let index = 0; index < addresses.length; index++) {
    if (addresses[index].tracker) continue;
    generalIndex[general.length] = index;
    general.push(addresses[index]);
  }
  const links = linkAddresses(general, context);
  const tracked = linkTrackers(addresses, context);
  const from = links.earlier.length;
  const count = from + tracked.earlier.length;
  const earlier = new Int32Array(count);
  const later = new Int32Array(count);
  const probability = new Float64Array(count);
  for (let e = 0; e < from; e++) {
    earlier[e] = generalIndex[links.earlier[e]];
    later[e] = generalIndex[links.later[e]];
  }
  probability.set(links.probability);
  earlier.set(tracked.earlier, from);
  later.set(tracked.later, from);
  probability.set(tracked.probability, from);
  const every = context.describeCandidates ?? false;
  const factors: Array<BleLinkFactor[] | undefined> = every ? [...links.factors, ...tracked.factors] : [];
  const described = new Uint8Array(tracked.earlier.length);
  for (let e = 0; e < described.length; e++) described[e] = tracked.probability[e] >= DESCRIBE_TRACKER_ABOVE ? 1 : 0;
  const rarity = new BlePayloadRarity(
    addresses.map((address) => address.profile),
    context.payloads,
  );
  // Clusters quote the RSSI, payload and interval texts of the tracker hand-offs as of any other.
  const trackerTexts = new BleHandoffDescriber(addresses, context, rarity, { earlier: tracked.earlier, later: tracked.later }, described, []);
  return {
    earlier,
    later,
    probability,
    factors,
    handoffs: new MergedHandoffFactors(links.handoffs, trackerTexts, from),
    trackers: { from, kind: tracked.kind, evidence: tracked.evidence },
  };
}

/** The described factors of merged links: pairs below `from` are the general linkage's, the rest the trackers'. */
class MergedHandoffFactors implements BleHandoffFactors {
  constructor(
    private readonly general: BleHandoffFactors,
    private readonly trackers: BleHandoffFactors,
    private readonly from: number,
  ) {}

  described(pair: number): boolean {
    return pair < this.from ? this.general.described(pair) : this.trackers.described(pair - this.from);
  }

  appendClusterTexts(pair: number, payloadText: boolean, texts: BleHandoffTexts): void {
    if (pair < this.from) this.general.appendClusterTexts(pair, payloadText, texts);
    else this.trackers.appendClusterTexts(pair - this.from, payloadText, texts);
  }
}
