import type { ToolWarning } from '../../contract/tool-error.ts';
import type { SelectedData } from '../../data/selection-types.ts';
import type { ActivitySegment, AddressClassification, AddressCluster, AddressType, BleAnalysis, BleAnalysisOptions, LinkCandidate, TravelledTogether } from './shared/analysis-types.ts';
import { bleAhFor, resolvesUnder, type BleAhFunction } from './shared/ah.ts';
import { buildAddressProfiles, type BleAddressProfile, type BleProfileSegments } from './profile/address-profiles.ts';
import { classifyBleAddress, type BleClassInput } from './classify/classify.ts';
import { formatBleCount } from './shared/count-format.ts';
import { BleKeyedTexts } from './shared/keyed-texts.ts';
import { compareAscending } from './shared/number-order.ts';
import { itemsByKey } from './shared/index-order.ts';
import { BleTextPool } from './shared/text-pool.ts';
import { flatText } from './shared/flat-text.ts';
import { buildChains, buildClusters } from './cluster/clusters.ts';
import { scoreChainPairs } from './co-location/co-location.ts';
import type { BleChainPair } from './co-location/co-location-types.ts';
import { foldCorruptedAddresses } from './profile/corruption.ts';
import { selectKth } from './shared/quickselect.ts';
import { linkAddresses, type BleLinks } from './handoff/linkage.ts';
import type { BleLinkableAddress } from './handoff/handoff-types.ts';
import type { BleObservationStore } from './scan/observation-store.ts';
import { BleScanner } from './scan/observations.ts';
import { BLE_NEUTRAL_ROTATION, bleRotationModel, describeLifetimeRange, learnRotationModel, type BleRotationModel } from './classify/rotation-model.ts';

/**
 * The whole analysis: scan → per-address profiles → corruption folding → classification →
 * (IRK resolution, linkage, clusters) → activity segments. Pure and deterministic: the same
 * rows in the same order give the same result, however they are split into batches.
 */
export function analyzeBle(selection: SelectedData, options: BleAnalysisOptions): BleAnalysis {
  const scanner = new BleScanner({ columns: options.addressColumns, includeCrcBad: options.includeCrcBad ?? false });
  for (const batch of selection.batches) scanner.add(batch);
  const store = scanner.finish();
  return analyzeBleStore(store, options);
}

const VOTES = 4;
const ROLES = 4;

const formatCount = formatBleCount;

export function analyzeBleStore(store: BleObservationStore, options: BleAnalysisOptions): BleAnalysis {
  const warnings: ToolWarning[] = [];
  if (store.crcBadExcluded > 0) {
    warnings.push({
      code: 'CRC_BAD_EXCLUDED',
      message: `${formatCount(store.crcBadExcluded)} of ${formatCount(store.selectedRows)} selected packets failed their CRC and were left out (their addresses may be bit-flipped); set include_crc_bad to keep them`,
    });
  }
  if (store.crcBadIncluded > 0) {
    warnings.push({ code: 'CRC_BAD_INCLUDED', message: `${formatCount(store.crcBadIncluded)} packets with a failed CRC were analysed (include_crc_bad)` });
  }
  if (store.noTimestamp > 0) warnings.push({ code: 'ROWS_DROPPED', message: `${formatCount(store.noTimestamp)} selected packets have no timestamp and were skipped` });
  if (store.noAddress > 0) warnings.push({ code: 'NO_ADDRESS', message: `${formatCount(store.noAddress)} selected packets carry no transmitter address (reserved PDU types, anonymous advertising) and were skipped` });

  const { byAddress: profiles, receivers, segments: segmentColumns, receiverFloors } = buildAddressProfiles(store);
  const observations = store.eventCount;
  let dataStartMs = Infinity;
  let dataEndMs = -Infinity;
  for (const profile of profiles) {
    if (!profile) continue;
    dataStartMs = Math.min(dataStartMs, profile.firstMs);
    dataEndMs = Math.max(dataEndMs, profile.lastMs);
  }
  const votes = store.votes.values;
  const roles = store.roles.values;
  const addressCount = store.addressCount;
  // Observations of each address: its own packets and the packets that name it as their target.
  const observed = new Int32Array(addressCount);
  for (let id = 0; id < addressCount; id++) observed[id] = (profiles[id]?.count ?? 0) + roles[id * ROLES + 3];

  // Corrupted copies of well-observed addresses.
  const folded = foldCorruptedAddresses(store.addressValues.values, observed, addressCount, Math.max(10, options.minObservationCount), options.minObservationCount);
  // With CRC-bad packets kept: a sparse address seen mostly in CRC-bad packets is a phantom.
  let phantoms = 0;
  let phantomPackets = 0;
  for (let id = 0; id < addressCount; id++) {
    const count = observed[id];
    if (folded.has(id) || count >= options.minObservationCount || 2 * store.crcBadRows.values[id] <= count) continue;
    folded.set(id, -1);
    phantoms++;
    phantomPackets += count;
  }
  // Folded or phantom: never a device (a flag per address, read by every later loop).
  const isFolded = new Uint8Array(addressCount);
  for (const id of folded.keys()) isFolded[id] = 1;
  const foldedInto = new Map<number, { addresses: number; packets: number }>();
  for (const [child, parent] of folded) {
    if (parent < 0) continue;
    const entry = foldedInto.get(parent) ?? { addresses: 0, packets: 0 };
    entry.addresses++;
    entry.packets += observed[child];
    foldedInto.set(parent, entry);
  }
  if (phantoms > 0) {
    warnings.push({
      code: 'PHANTOM_ADDRESSES_DROPPED',
      message: `${formatCount(phantoms)} sparse addresses (${formatCount(phantomPackets)} packets) were seen mostly in CRC-bad packets and were treated as corruption, not devices`,
    });
  }
  if (folded.size > phantoms) {
    const bitFlipped = [...folded].filter(([, parent]) => parent >= 0).map(([id]) => id);
    const packets = bitFlipped.reduce((sum, id) => sum + observed[id], 0);
    warnings.push({
      code: 'CORRUPTED_ADDRESSES_FOLDED',
      message: `${formatCount(bitFlipped.length)} addresses (${formatCount(packets)} packets) lie 1–2 bit flips from a well-observed address and were treated as corrupted copies, not devices`,
    });
  }

  // IRK resolution, cached per address: one AES block per (RPA, key).
  const keys: BleAhFunction[] = (options.irks ?? []).map((key) => bleAhFor(key.irk));
  const irkLabels = (options.irks ?? []).map((key) => key.label);
  const irkOf = new Int32Array(store.addressCount).fill(-1);

  const model0: BleRotationModel = options.rotationModel === 'learned' ? BLE_NEUTRAL_ROTATION : bleRotationModel(options.rotationModel);
  const classification: AddressClassification[] = [];
  const typeOf = new Array<AddressType>(addressCount).fill('unknown');
  let sparse = 0;
  // One address's votes and roles, copied into reused arrays (classifyBleAddress only reads them
  // during the call): a subarray view per address was two allocations each.
  const addressVotes = new Int32Array(VOTES);
  const addressRoles = new Int32Array(ROLES);
  // Evidence lines repeat across addresses (a few hundred distinct in thousands): the result keeps one copy of each.
  const evidenceTexts = new BleTextPool();
  // …and most of the repeated ones are built once, keyed by their counts.
  const keyedTexts = new BleKeyedTexts();
  // One input and one evidence list for every address, filled in turn: classifyBleAddress reads
  // them only during the call, and the evidence kept is copied (evidenceTexts.shareAll).
  const input: BleClassInput = {
    address: '',
    value: Number.NaN,
    votes: addressVotes,
    roles: addressRoles,
    profile: undefined,
    observations: 0,
    minObservationCount: options.minObservationCount,
    rotationModel: model0,
    dataSpanMs: dataEndMs - dataStartMs,
    irkLabel: undefined,
    foldedCopies: undefined,
    payloadNote: undefined,
    texts: keyedTexts,
    evidence: [],
  };
  const classify = (model: BleRotationModel) => {
    classification.length = 0;
    sparse = 0;
    input.rotationModel = model;
    for (let id = 0; id < addressCount; id++) {
      if (isFolded[id]) continue;
      const profile = profiles[id];
      for (let index = 0; index < VOTES; index++) addressVotes[index] = votes[id * VOTES + index];
      for (let index = 0; index < ROLES; index++) addressRoles[index] = roles[id * ROLES + index];
      input.address = store.addressTexts[id];
      input.value = store.addressValues.values[id];
      input.profile = profile;
      input.observations = observed[id];
      input.irkLabel = irkOf[id] >= 0 ? irkLabels[irkOf[id]] : undefined;
      input.foldedCopies = foldedInto.get(id);
      input.payloadNote = profile ? payloadNote(store, profile, keyedTexts) : undefined;
      const verdict = classifyBleAddress(input);
      typeOf[id] = verdict.type;
      if (observed[id] < options.minObservationCount) sparse++;
      classification.push({
        address: store.addressTexts[id],
        type: verdict.type,
        confidence: verdict.confidence,
        evidence: evidenceTexts.shareAll(verdict.evidence),
        observations: observed[id],
        firstSeenMs: profile?.firstMs ?? Number.NaN,
        lastSeenMs: profile?.lastMs ?? Number.NaN,
      });
    }
  };
  // Resolve before classifying so evidence can name the key.
  if (keys.length > 0) {
    for (let id = 0; id < addressCount; id++) {
      const value = store.addressValues.values[id];
      if (isFolded[id] || !Number.isFinite(value) || votes[id * VOTES + 1] === 0) continue;
      const index = keys.findIndex((key) => resolvesUnder(value, key));
      irkOf[id] = index;
    }
  }
  classify(model0);

  let candidates: LinkCandidate[] = [];
  let candidatePairs = 0;
  let clusters: BleAnalysis['clusters'] = [];
  let travelledTogether: TravelledTogether[] = [];
  let model = model0;
  if (options.mode !== 'classification') {
    const listed: BleLinkableAddress[] = [];
    const values = new Float64Array(addressCount);
    for (let id = 0; id < addressCount; id++) {
      const profile = profiles[id];
      const type = typeOf[id];
      if (!profile || isFolded[id] || (type !== 'rpa' && type !== 'nrpa')) continue;
      values[listed.length] = store.addressValues.values[id];
      listed.push({ profile, address: store.addressTexts[id], type, irk: irkOf[id] });
    }
    const linkable = byAddressText(listed, values.subarray(0, listed.length));
    const context = { linkageWindowS: options.linkageWindowS, model: model0, payloads: store, receiverNames: store.receiverNames, receivers, dataStartMs, dataEndMs, irkLabels, uncalibrated: options.uncalibrated ?? false, describeCandidates: options.includeCandidates ?? false };
    let links: BleLinks = linkAddresses(linkable, context);
    if (options.rotationModel === 'learned') {
      const lifetimes: number[] = [];
      for (let e = 0; e < links.earlier.length; e++) {
        const earlier = linkable[links.earlier[e]].profile;
        if (links.probability[e] > 0.7 && earlier.firstMs - dataStartMs > 5_000) lifetimes.push((earlier.lastMs - earlier.firstMs) / 1000);
      }
      const learned = learnRotationModel(lifetimes);
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
      links = linkAddresses(linkable, { ...context, model });
      classify(model);
    }
    const chained = buildChains(linkable, links);
    const { pairs } = scoreChainPairs(chained.chains, linkable, store.events, store.receiverNames, dataStartMs, dataEndMs, receiverFloors, options.uncalibrated ?? false);
    candidatePairs = links.earlier.length + pairs.length;
    if (options.includeCandidates) candidates = candidateList(linkable, links, pairs);
    clusters = buildClusters(linkable, chained, pairs, irkLabels, links.handoffs);
    travelledTogether = travelRelations(linkable, chained.chains, pairs, clusters);
  }
  if (sparse > 0) {
    warnings.push({
      code: 'SPARSE_ADDRESSES',
      message: `${formatCount(sparse)} addresses have fewer than ${options.minObservationCount} observations: classified unknown${options.mode === 'classification' ? '' : ' and left out of linkage'}`,
    });
  }

  const segments = activitySegments(store, segmentColumns, isFolded);
  // Nearly in order already (addresses get their ids by first packet): the sort builtin's runs beat itemsByKey here.
  classification.sort((x, y) => compareAscending(x.firstSeenMs, y.firstSeenMs) || (x.address < y.address ? -1 : 1));
  return {
    observations,
    classification,
    candidates,
    candidatePairs,
    clusters,
    travelledTogether,
    segments,
    rotationModel: { name: model.name, lifetimeMinS: model.lifetimeMinS, lifetimeMaxS: model.lifetimeMaxS, ...(model.basedOnLifetimes !== undefined ? { basedOnLifetimes: model.basedOnLifetimes } : {}) },
    warnings,
    sparseAddresses: sparse,
    crcBadExcluded: store.crcBadExcluded,
    foldedAddresses: folded.size,
    timeOrigins: [...store.captures].map(([captureId, timeOrigin]) => ({ captureId, timeOrigin })),
  };
}

/** Hand-off candidates, then co-location candidates, in one array of its final length. */
function candidateList(linkable: ReadonlyArray<BleLinkableAddress>, links: BleLinks, pairs: ReadonlyArray<BleChainPair>): LinkCandidate[] {
  const candidates = new Array<LinkCandidate>(links.earlier.length + pairs.length);
  for (let e = 0; e < links.earlier.length; e++) {
    const factors = links.factors[e];
    candidates[e] = {
      earlier: linkable[links.earlier[e]].address,
      later: linkable[links.later[e]].address,
      probability: links.probability[e],
      factors: factors ? namedTexts(factors) : [],
    };
  }
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    const aFirst = linkable[pair.memberA].profile.firstMs <= linkable[pair.memberB].profile.firstMs;
    candidates[links.earlier.length + index] = {
      earlier: linkable[aFirst ? pair.memberA : pair.memberB].address,
      later: linkable[aFirst ? pair.memberB : pair.memberA].address,
      probability: pair.same,
      factors: pair.terms ? namedTexts(pair.terms) : [],
      relation: 'co_location',
    };
  }
  return candidates;
}

/**
 * The travelled-together relation between the final devices (clusters, or single addresses):
 * chain pairs where "two devices on one path" is the likeliest story, grouped by the devices
 * they connect; each device pair keeps its strongest chain pair and the whole time they were
 * heard together.
 */
function travelRelations(addresses: ReadonlyArray<BleLinkableAddress>, chains: ReadonlyArray<{ members: number[] }>, pairs: ReadonlyArray<BleChainPair>, clusters: ReadonlyArray<AddressCluster>): TravelledTogether[] {
  const clusterOf = new Map<string, AddressCluster>();
  for (const cluster of clusters) for (const address of cluster.addresses) clusterOf.set(address, cluster);
  const entity = (chain: number): { key: string; addresses: string[]; cluster?: string } => {
    const first = addresses[chains[chain].members[0]].address;
    const cluster = clusterOf.get(first);
    return cluster ? { key: cluster.clusterId, addresses: cluster.addresses, cluster: cluster.clusterId } : { key: first, addresses: [first] };
  };
  const byPair = new Map<string, TravelledTogether & { best: BleChainPair }>();
  for (const pair of pairs) {
    if (!(pair.travel > 0.5)) continue;
    const x = entity(pair.a);
    const y = entity(pair.b);
    if (x.key === y.key) continue;
    const [a, b] = x.key < y.key ? [x, y] : [y, x];
    const key = `${a.key}|${b.key}`;
    const known = byPair.get(key);
    if (known) {
      known.fromMs = Math.min(known.fromMs, pair.overlapFromMs);
      known.toMs = Math.max(known.toMs, pair.overlapToMs);
      if (pair.travel > known.best.travel) known.best = pair;
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
      best: pair,
    });
  }
  const relations: TravelledTogether[] = [];
  for (const { best, ...relation } of byPair.values()) {
    const minutes = Math.round((relation.toMs - relation.fromMs) / 60_000);
    relation.probability = Math.min(0.999, best.travel);
    relation.rationale = [
      `moved with each other for ${minutes} minute${minutes === 1 ? '' : 's'} (P(travelled together) ${relation.probability.toFixed(3)}, P(same device) ${best.same.toFixed(3)})`,
      ...(best.terms ?? []).map((term) => `${term.name}: ${term.text}`),
    ];
    relations.push(relation);
  }
  relations.sort((x, y) => compareAscending(y.probability, x.probability) || (x.a[0] < y.a[0] ? -1 : x.a[0] > y.a[0] ? 1 : 0));
  return relations;
}

type PayloadContent = 'manufacturer data' | 'service UUID' | 'advertising data';
const PAYLOAD_CONTENTS: ReadonlyArray<PayloadContent> = ['manufacturer data', 'service UUID', 'advertising data'];

/** The note of a single-payload address, per kind of content: one string each, not one per address. */
const STABLE_PAYLOAD_NOTE: Readonly<Record<PayloadContent, string>> = {
  'manufacturer data': 'Stable manufacturer data payload signature',
  'service UUID': 'Stable service UUID payload signature',
  'advertising data': 'Stable advertising data payload signature',
};

/** BleKeyedTexts kinds of the payload notes (apart from those of classify.ts). */
const MOSTLY_STABLE_NOTE = 100;
const ROTATING_NOTE = 101;

function payloadNote(store: BleObservationStore, profile: BleAddressProfile, texts: BleKeyedTexts): string | undefined {
  if (profile.dominantPayload < 0) return undefined;
  const features = store.payloadFeatures(profile.dominantPayload);
  const content = features.manufacturerData ? 0 : features.serviceUuids ? 1 : 2;
  const what = PAYLOAD_CONTENTS[content];
  if (profile.distinctPayloads === 1) return STABLE_PAYLOAD_NOTE[what];
  // Flat strings (flat-text.ts), built once per analysis for each content and count.
  if (profile.dominantShare >= 0.8) {
    const percent = Math.round(profile.dominantShare * 100);
    let note = texts.get(MOSTLY_STABLE_NOTE, content, percent);
    if (note === undefined) texts.set(MOSTLY_STABLE_NOTE, content, percent, (note = flatText('Mostly stable ', what, ' payload signature (', percent, '% of packets)')));
    return note;
  }
  let note = texts.get(ROTATING_NOTE, content, profile.distinctPayloads);
  if (note === undefined) texts.set(ROTATING_NOTE, content, profile.distinctPayloads, (note = flatText(profile.distinctPayloads, ' payload signatures (rotating ', what, ' content)')));
  return note;
}

/** "name: text" of each factor or term, in order (the candidates' printed factors). */
function namedTexts(factors: ReadonlyArray<{ name: string; text: string }>): string[] {
  const texts = new Array<string>(factors.length);
  for (let index = 0; index < factors.length; index++) texts[index] = `${factors[index].name}: ${factors[index].text}`;
  return texts;
}

/**
 * Activity segments: each address's packets split where they pause for longer than
 * max(30 s, 20 advertising intervals). activity_score = ½·duty + ½·min(1, rate / reference):
 * duty = share of the segment's whole seconds with a packet, rate = packets per second
 * (duration at least 1 s), reference = the 95th percentile of segment rates in this run.
 * Comparable within one run only, as §7.2 says.
 */
function activitySegments(store: BleObservationStore, columns: BleProfileSegments, isFolded: Uint8Array): ActivitySegment[] {
  const { from, startMs, endMs, count, occupiedSeconds } = columns;
  const addresses = from.length - 1;
  // Two passes over the profiles' segments: the rates (for the reference), then the results.
  let total = 0;
  for (let id = 0; id < addresses; id++) if (!isFolded[id]) total += from[id + 1] - from[id];
  const rates = new Float64Array(total);
  let at = 0;
  for (let id = 0; id < addresses; id++) {
    if (isFolded[id]) continue;
    for (let row = from[id]; row < from[id + 1]; row++) rates[at++] = segmentRate(startMs[row], endMs[row], count[row]);
  }
  const reference = total > 0 ? selectKth(rates, 0, total, Math.min(total - 1, Math.floor(0.95 * (total - 1)))) : 1;
  const segments = new Array<ActivitySegment>(total);
  at = 0;
  for (let id = 0; id < addresses; id++) {
    if (isFolded[id] || from[id + 1] === from[id]) continue;
    const address = store.addressTexts[id];
    for (let row = from[id]; row < from[id + 1]; row++) {
      const slots = Math.floor(endMs[row] / 1000) - Math.floor(startMs[row] / 1000) + 1;
      const duty = occupiedSeconds[row] / slots;
      segments[at++] = {
        address,
        startMs: startMs[row],
        endMs: endMs[row],
        activityScore: Math.round((0.5 * duty + 0.5 * Math.min(1, segmentRate(startMs[row], endMs[row], count[row]) / reference)) * 1000) / 1000,
      };
    }
  }
  segments.sort((x, y) => compareAscending(x.startMs, y.startMs) || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
  return segments;
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

/** Packets per second of a segment (its duration counted as at least 1 s). */
function segmentRate(startMs: number, endMs: number, count: number): number {
  return count / Math.max(1, (endMs - startMs) / 1000);
}
