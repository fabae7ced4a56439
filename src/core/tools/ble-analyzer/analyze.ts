import type { SelectedData } from '../../data/selection-types.ts';
import type { AddressCluster, BleAnalysis, BleAnalysisOptions, LinkCandidate, TravelledTogether } from './shared/analysis-types.ts';
import { formatBleCount as formatCount } from './shared/count-format.ts';
import { compareAscending } from './shared/number-order.ts';
import { BleScanner } from './scan/observations.ts';
import type { BleObservationStore } from './scan/observation-store.ts';
import { scanPauseWarnings, scanWarnings } from './scan/scan-warnings.ts';
import { findScanPauses } from './scan/scan-pauses.ts';
import { profileAddresses } from './profile/profile-addresses.ts';
import { foldAddresses } from './profile/fold-addresses.ts';
import { activitySegments } from './profile/activity-segments.ts';
import { resolveIrks } from './classify/resolve-irks.ts';
import { BleAddressClassifier } from './classify/classify-addresses.ts';
import { BLE_NEUTRAL_ROTATION, bleRotationModel, type BleRotationModel } from './classify/rotation-model.ts';
import { linkableAddresses, linkHandoffs } from './handoff/link-handoffs.ts';
import { clockSkewWarnings, measureClockSkewMs } from './handoff/clock-skew.ts';
import { measureRssiLevelDrift } from './handoff/rssi-level-drift.ts';
import { scoreChainPairs } from './co-location/co-location.ts';
import { addressClockRates } from './co-location/clock-rate.ts';
import { buildChains, buildClusters } from './cluster/clusters.ts';
import { travelRelations } from './cluster/travelled-together.ts';
import { companionEvidence } from './cluster/companion-evidence.ts';
import { candidateList } from './output/candidate-list.ts';
import { recognizeTrackers } from './trackers/recognize-trackers.ts';
import { describeTrackerClusters, markTrackerClassification, markTrackerRelations } from './trackers/tracker-findings.ts';

/**
 * The whole analysis, stage by stage (each in its folder): scan → profiles → folding of
 * corrupted copies → IRK resolution → classification → hand-off linkage → co-location of
 * concurrent chains → clusters and travelled-together relations → activity segments. Pure and
 * deterministic: the same rows in the same order give the same result, however they are split
 * into batches.
 */
export function analyzeBle(selection: SelectedData, options: BleAnalysisOptions): BleAnalysis {
  const scanner = new BleScanner({ columns: options.addressColumns, includeCrcBad: options.includeCrcBad ?? false });
  for (const batch of selection.batches) scanner.add(batch);
  return analyzeBleStore(scanner.finish(), options);
}

export function analyzeBleStore(store: BleObservationStore, options: BleAnalysisOptions): BleAnalysis {
  const warnings = scanWarnings(store);
  const profiled = profileAddresses(store);
  const folding = foldAddresses(store, profiled.observed, options.minObservationCount, warnings);
  const irkLabels = (options.irks ?? []).map((key) => key.label);
  const irkOf = resolveIrks(store, folding.isFolded, options.irks ?? []);
  const model0: BleRotationModel = options.rotationModel === 'learned' ? BLE_NEUTRAL_ROTATION : bleRotationModel(options.rotationModel);
  const classifier = new BleAddressClassifier(store, profiled, folding, irkOf, irkLabels, options.minObservationCount, model0);
  classifier.classify(model0);
  const trackers = recognizeTrackers(profiled.byAddress, folding.isFolded, classifier.typeOf, store, warnings);

  let candidates: LinkCandidate[] = [];
  let candidatePairs = 0;
  let clusters: AddressCluster[] = [];
  let travelledTogether: TravelledTogether[] = [];
  let model = model0;
  if (options.mode !== 'classification') {
    const { dataStartMs, dataEndMs } = profiled;
    const linkable = linkableAddresses(store, profiled, classifier.typeOf, folding.isFolded, irkOf, trackers.kindOf);
    const pauses = findScanPauses(store.events.time, profiled.byAddress);
    warnings.push(...scanPauseWarnings(pauses, options.linkageWindowS));
    const clockSkewMs = measureClockSkewMs(store.events, profiled.byAddress, profiled.receivers, store.receiverNames.length);
    warnings.push(...clockSkewWarnings(clockSkewMs));
    // Each address's clock rate from its own packets (sub-millisecond timestamps only): a hand-off and a co-location term.
    const clockRates = addressClockRates(linkable, store.events, store.receiverNames.length);
    // How much one emitter's level moves in this capture: rssi_continuity's scale (rssi-level-drift.ts).
    const rssiLevelDrift = measureRssiLevelDrift(linkable, store.events, store.receiverNames.length);
    const context = { clockRates, rssiLevelDrift, linkageWindowS: options.linkageWindowS, model: model0, payloads: store, receiverNames: store.receiverNames, receivers: profiled.receivers, dataStartMs, dataEndMs, pauses, clockSkewMs, irkLabels, uncalibrated: options.uncalibrated ?? false, describeCandidates: options.includeCandidates ?? false };
    const handoffs = linkHandoffs(linkable, context, options, warnings);
    const links = handoffs.links;
    if (options.rotationModel === 'learned') {
      // Classified again under the learned model.
      model = handoffs.model;
      classifier.classify(model);
    }
    const chained = buildChains(linkable, links);
    const { pairs, rates, active } = scoreChainPairs(chained.chains, linkable, store.events, store.receiverNames, dataStartMs, dataEndMs, profiled.receiverFloors, options.uncalibrated ?? false, clockRates);
    candidatePairs = links.earlier.length + pairs.length;
    clusters = buildClusters(linkable, chained, pairs, irkLabels, links.handoffs);
    if (options.includeCandidates) candidates = candidateList(linkable, links, pairs, clusters);
    describeTrackerClusters(clusters, linkable, chained, links.trackers, trackers);
    const companion = companionEvidence(chained.chains, chained.chainOf, chained.pairs, pairs, rates, active);
    travelledTogether = travelRelations(linkable, chained.chains, pairs, clusters, companion);
    markTrackerRelations(travelledTogether, linkable);
  }
  const sparse = classifier.sparse;
  if (sparse > 0) {
    warnings.push({
      code: 'SPARSE_ADDRESSES',
      message: `${formatCount(sparse)} addresses have fewer than ${options.minObservationCount} observations: classified unknown${options.mode === 'classification' ? '' : ' and left out of linkage'}`,
    });
  }

  const segments = activitySegments(store, profiled.segments, folding.isFolded);
  const classification = classifier.classification;
  markTrackerClassification(classification, store.addressIds, trackers, (id) => profiled.byAddress[id]?.dominantPayload ?? -1);
  // Nearly in order already (addresses get their ids by first packet): the sort builtin's runs beat itemsByKey here.
  classification.sort((x, y) => compareAscending(x.firstSeenMs, y.firstSeenMs) || (x.address < y.address ? -1 : 1));
  return {
    observations: store.eventCount,
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
    foldedAddresses: folding.folded.size,
    timeOrigins: [...store.captures].map(([captureId, timeOrigin]) => ({ captureId, timeOrigin })),
  };
}
