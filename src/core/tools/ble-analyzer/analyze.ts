import type { ToolWarning } from '../../contract/tool-error.ts';
import type { SelectedData } from '../../data/selection-types.ts';
import type { ActivitySegment, AddressClassification, AddressCluster, AddressType, BleAnalysis, BleAnalysisOptions, LinkCandidate, TravelledTogether } from './analysis-types.ts';
import { bleAhFor, resolvesUnder, type BleAhFunction } from './ah.ts';
import { buildAddressProfiles, type BleAddressProfile } from './address-profiles.ts';
import { classifyBleAddress } from './classify.ts';
import { buildChains, buildClusters } from './clusters.ts';
import { scoreChainPairs, type BleChainPair } from './co-location.ts';
import { foldCorruptedAddresses } from './corruption.ts';
import { bleLinkEdge, linkAddresses, type BleLinkableAddress, type BleLinkEdge, type BleLinks } from './linkage.ts';
import { BleScanner, type BleObservationStore } from './observations.ts';
import { BLE_NEUTRAL_ROTATION, bleRotationModel, describeLifetimeRange, learnRotationModel, type BleRotationModel } from './rotation-model.ts';

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

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** `toLocaleString('en-US')`, with the formatter made once. */
function formatCount(value: number): string {
  return COUNT_FORMAT.format(value);
}

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

  const profiles = buildAddressProfiles(store);
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
  const observationCount = (id: number) => (profiles[id]?.count ?? 0) + roles[id * ROLES + 3];

  // Corrupted copies of well-observed addresses.
  const foldInput = store.addressTexts.map((_, id) => ({ id, value: store.addressValues.values[id], count: observationCount(id) }));
  const folded = foldCorruptedAddresses(foldInput, Math.max(10, options.minObservationCount), options.minObservationCount);
  // With CRC-bad packets kept: a sparse address seen mostly in CRC-bad packets is a phantom.
  let phantoms = 0;
  let phantomPackets = 0;
  for (let id = 0; id < store.addressCount; id++) {
    const count = observationCount(id);
    if (folded.has(id) || count >= options.minObservationCount || 2 * store.crcBadRows.values[id] <= count) continue;
    folded.set(id, -1);
    phantoms++;
    phantomPackets += count;
  }
  const foldedInto = new Map<number, { addresses: number; packets: number }>();
  for (const [child, parent] of folded) {
    if (parent < 0) continue;
    const entry = foldedInto.get(parent) ?? { addresses: 0, packets: 0 };
    entry.addresses++;
    entry.packets += observationCount(child);
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
    const packets = bitFlipped.reduce((sum, id) => sum + observationCount(id), 0);
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
  const typeOf = new Array<AddressType>(store.addressCount).fill('unknown');
  let sparse = 0;
  const classify = (model: BleRotationModel) => {
    classification.length = 0;
    sparse = 0;
    for (let id = 0; id < store.addressCount; id++) {
      if (folded.has(id)) continue;
      const profile = profiles[id];
      const verdict = classifyBleAddress({
        address: store.addressTexts[id],
        value: store.addressValues.values[id],
        votes: votes.subarray(id * VOTES, id * VOTES + VOTES),
        roles: roles.subarray(id * ROLES, id * ROLES + ROLES),
        profile,
        observations: observationCount(id),
        minObservationCount: options.minObservationCount,
        rotationModel: model,
        dataSpanMs: dataEndMs - dataStartMs,
        irkLabel: irkOf[id] >= 0 ? irkLabels[irkOf[id]] : undefined,
        foldedCopies: foldedInto.get(id),
        payloadNote: profile ? payloadNote(store, profile) : undefined,
      });
      typeOf[id] = verdict.type;
      if (observationCount(id) < options.minObservationCount) sparse++;
      classification.push({
        address: store.addressTexts[id],
        type: verdict.type,
        confidence: verdict.confidence,
        evidence: verdict.evidence,
        observations: observationCount(id),
        firstSeenMs: profile?.firstMs ?? Number.NaN,
        lastSeenMs: profile?.lastMs ?? Number.NaN,
      });
    }
  };
  // Resolve before classifying so evidence can name the key.
  if (keys.length > 0) {
    for (let id = 0; id < store.addressCount; id++) {
      const value = store.addressValues.values[id];
      if (folded.has(id) || !Number.isFinite(value) || votes[id * VOTES + 1] === 0) continue;
      const index = keys.findIndex((key) => resolvesUnder(value, key));
      irkOf[id] = index;
    }
  }
  classify(model0);

  let candidates: LinkCandidate[] = [];
  let clusters: BleAnalysis['clusters'] = [];
  let travelledTogether: TravelledTogether[] = [];
  let model = model0;
  if (options.mode !== 'classification') {
    const linkable: BleLinkableAddress[] = [];
    for (let id = 0; id < store.addressCount; id++) {
      const profile = profiles[id];
      const type = typeOf[id];
      if (!profile || folded.has(id) || (type !== 'rpa' && type !== 'nrpa')) continue;
      linkable.push({ profile, address: store.addressTexts[id], type, irk: irkOf[id] });
    }
    linkable.sort((x, y) => (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
    const context = { linkageWindowS: options.linkageWindowS, model: model0, payloadFeatures: (payload: number) => store.payloadFeatures(payload), receiverNames: store.receiverNames, dataStartMs, dataEndMs, irkLabels, uncalibrated: options.uncalibrated ?? false };
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
    candidates = new Array<LinkCandidate>(links.earlier.length);
    // Clusters only take pairs with p > 0.5: only those become edge objects.
    const likely: BleLinkEdge[] = [];
    for (let e = 0; e < links.earlier.length; e++) {
      const factors = links.factors[e];
      candidates[e] = {
        earlier: linkable[links.earlier[e]].address,
        later: linkable[links.later[e]].address,
        probability: links.probability[e],
        factors: factors ? factors.map((factor) => `${factor.name}: ${factor.text}`) : [],
      };
      if (links.probability[e] > 0.5) likely.push(bleLinkEdge(linkable, links, e));
    }
    const chained = buildChains(linkable, likely);
    const { pairs } = scoreChainPairs(chained.chains, linkable, store.events, store.receiverNames, dataStartMs, dataEndMs, options.uncalibrated ?? false);
    for (const pair of pairs) {
      const [x, y] = linkable[pair.memberA].profile.firstMs <= linkable[pair.memberB].profile.firstMs ? [pair.memberA, pair.memberB] : [pair.memberB, pair.memberA];
      candidates.push({
        earlier: linkable[x].address,
        later: linkable[y].address,
        probability: pair.same,
        factors: pair.terms ? pair.terms.map((term) => `${term.name}: ${term.text}`) : [],
        relation: 'co_location',
      });
    }
    clusters = buildClusters(linkable, chained, pairs, irkLabels);
    travelledTogether = travelRelations(linkable, chained.chains, pairs, clusters);
  }
  if (sparse > 0) {
    warnings.push({
      code: 'SPARSE_ADDRESSES',
      message: `${formatCount(sparse)} addresses have fewer than ${options.minObservationCount} observations: classified unknown${options.mode === 'classification' ? '' : ' and left out of linkage'}`,
    });
  }

  const segments = activitySegments(store, profiles, folded);
  classification.sort((x, y) => (x.firstSeenMs - y.firstSeenMs) || (x.address < y.address ? -1 : 1));
  return {
    observations,
    classification,
    candidates,
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
  relations.sort((x, y) => y.probability - x.probability || (x.a[0] < y.a[0] ? -1 : x.a[0] > y.a[0] ? 1 : 0));
  return relations;
}

function payloadNote(store: BleObservationStore, profile: BleAddressProfile): string | undefined {
  if (profile.dominantPayload < 0) return undefined;
  const features = store.payloadFeatures(profile.dominantPayload);
  const what = features.manufacturerData ? 'manufacturer data' : features.serviceUuids ? 'service UUID' : 'advertising data';
  if (profile.distinctPayloads === 1) return `Stable ${what} payload signature`;
  if (profile.dominantShare >= 0.8) return `Mostly stable ${what} payload signature (${Math.round(profile.dominantShare * 100)}% of packets)`;
  return `${profile.distinctPayloads} payload signatures (rotating ${what} content)`;
}

/**
 * Activity segments: each address's packets split where they pause for longer than
 * max(30 s, 20 advertising intervals). activity_score = ½·duty + ½·min(1, rate / reference):
 * duty = share of the segment's whole seconds with a packet, rate = packets per second
 * (duration at least 1 s), reference = the 95th percentile of segment rates in this run.
 * Comparable within one run only, as §7.2 says.
 */
function activitySegments(store: BleObservationStore, profiles: ReadonlyArray<BleAddressProfile | undefined>, folded: ReadonlyMap<number, number>): ActivitySegment[] {
  const raw: Array<{ address: string; startMs: number; endMs: number; rate: number; duty: number }> = [];
  profiles.forEach((profile, id) => {
    if (!profile || folded.has(id)) return;
    for (const segment of profile.segments) {
      const seconds = Math.max(1, (segment.endMs - segment.startMs) / 1000);
      const slots = Math.floor(segment.endMs / 1000) - Math.floor(segment.startMs / 1000) + 1;
      raw.push({ address: store.addressTexts[id], startMs: segment.startMs, endMs: segment.endMs, rate: segment.count / seconds, duty: segment.occupiedSeconds / slots });
    }
  });
  const rates = raw.map((segment) => segment.rate).sort((a, b) => a - b);
  const reference = rates.length > 0 ? rates[Math.min(rates.length - 1, Math.floor(0.95 * (rates.length - 1)))] : 1;
  raw.sort((x, y) => x.startMs - y.startMs || (x.address < y.address ? -1 : x.address > y.address ? 1 : 0));
  return raw.map((segment) => ({
    address: segment.address,
    startMs: segment.startMs,
    endMs: segment.endMs,
    activityScore: Math.round((0.5 * segment.duty + 0.5 * Math.min(1, segment.rate / reference)) * 1000) / 1000,
  }));
}
