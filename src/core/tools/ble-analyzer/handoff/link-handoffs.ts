import type { ToolWarning } from '../../../contract/tool-error.ts';
import type { AddressType, BleAnalysisOptions } from '../shared/analysis-types.ts';
import { bleRotationModel, describeLifetimeRange, learnRotationModel, type BleRotationModel } from '../classify/rotation-model.ts';
import type { BleProfiledAddresses } from '../profile/profile-addresses.ts';
import type { BleObservationStore } from '../scan/observation-store.ts';
import { itemsByKey } from '../shared/index-order.ts';
import type { BleLinkableAddress, BleLinkContext } from './handoff-types.ts';
import type { BleTrackerKind } from '../shared/tracker-kind.ts';
import { linkAddressesWithTrackers, type BleLinksWithTrackers } from '../trackers/link-with-trackers.ts';

/**
 * The private addresses linkage works on (RPAs and NRPAs with a profile, not folded), and the
 * tracker tags (`trackerOf`, by address id: any random address, e.g. Find My's random-static-looking
 * ones), in the order of their texts.
 */
export function linkableAddresses(
  store: BleObservationStore,
  profiled: BleProfiledAddresses,
  typeOf: ReadonlyArray<AddressType>,
  isFolded: Uint8Array,
  irkOf: Int32Array,
  trackerOf: ReadonlyArray<BleTrackerKind | undefined> = [],
): BleLinkableAddress[] {
  const profiles = profiled.byAddress;
  const listed: BleLinkableAddress[] = [];
  const values = new Float64Array(store.addressCount);
  for (let id = 0; id < store.addressCount; id++) {
    const profile = profiles[id];
    const type = typeOf[id];
    const tracker = trackerOf[id];
    if (!profile || isFolded[id] || (type !== 'rpa' && type !== 'nrpa' && !(tracker && type === 'random_static'))) continue;
    values[listed.length] = store.addressValues.values[id];
    listed.push(tracker ? { profile, address: store.addressTexts[id], type, irk: irkOf[id], tracker } : { profile, address: store.addressTexts[id], type, irk: irkOf[id] });
  }
  return byAddressText(listed, values.subarray(0, listed.length));
}

/**
 * The hand-off links under the chosen rotation model. With `learned`: linked first under a
 * neutral model, the lifetimes of the confident hand-offs give the model (or the specification's
 * range, when there are too few), then linked again under it; its warning goes to `warnings`.
 */
export function linkHandoffs(linkable: ReadonlyArray<BleLinkableAddress>, context: BleLinkContext, options: BleAnalysisOptions, warnings: ToolWarning[]): { links: BleLinksWithTrackers; model: BleRotationModel } {
  const links = linkAddressesWithTrackers(linkable, context);
  if (options.rotationModel !== 'learned') return { links, model: context.model };
  const lifetimes: number[] = [];
  for (let e = 0; e < links.earlier.length; e++) {
    // Tags rotate on their own schedules (trackers/), not the RPA model being learned.
    if (linkable[links.earlier[e]].tracker) continue;
    const earlier = linkable[links.earlier[e]].profile;
    if (links.probability[e] > 0.7 && earlier.firstMs - context.dataStartMs > 5_000) lifetimes.push((earlier.lastMs - earlier.firstMs) / 1000);
  }
  const learned = learnRotationModel(lifetimes);
  let model: BleRotationModel;
  if (learned) {
    model = learned;
    warnings.push({
      code: 'ROTATION_MODEL_LEARNED',
      message: `learned rotation model: RPA lifetimes ${describeLifetimeRange(learned)} (p10–p90 of ${learned.basedOnLifetimes} confidently linked lifetimes, widened 10%)`,
    });
  } else {
    model = { ...bleRotationModel('spec_default'), name: 'learned' };
    warnings.push({
      code: 'ROTATION_MODEL_FALLBACK',
      message: `too few confident hand-offs (${lifetimes.length}, need 5) to learn RPA lifetimes; used the spec_default range ${describeLifetimeRange(model)}`,
    });
  }
  return { links: linkAddressesWithTrackers(linkable, { ...context, model }), model };
}

/**
 * The linkable addresses in the order of their texts. Uniform "AA:BB:…" texts sort as their
 * 48-bit values (`values`, aligned with `listed`), which are compared inline (itemsByKey); the
 * texts then only confirm the order, one comparison per neighbour (texts in any other form fail
 * it and are sorted by text, as a comparator sort did for all of them).
 */
function byAddressText(listed: BleLinkableAddress[], values: Float64Array): BleLinkableAddress[] {
  const sorted = itemsByKey(listed, values, () => false);
  let confirmed = sorted !== undefined;
  for (let index = 1; sorted && confirmed && index < sorted.length; index++) confirmed = sorted[index - 1].address < sorted[index].address;
  return sorted && confirmed ? sorted : listed.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
}
