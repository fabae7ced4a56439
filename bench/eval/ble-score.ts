/**
 * Scores one analyzer run on one generated scenario, next to the naive baseline: the glue
 * between the generator's truth, the analyzer's `BleAnalysis` and the metrics.
 */
import type { Table } from 'apache-arrow';
import type { BleAnalysis, BleScenarioTruth } from '../../src/core/index.ts';
import { naiveHandoffLabels } from './ble-baseline.ts';
import { adjustedRandIndex, pairwiseCounts, type AddressActivity, type PairCounts } from './ble-metrics.ts';

/** Profiles whose devices are tracker tags (the tracker F1's pairs involve one of them). */
export const BLE_TRACKER_PROFILES: ReadonlySet<string> = new Set(['tracker', 'find_my_tag', 'fmdn_tag', 'smarttag']);

/** CRC-good observations, first and last time of every advertiser address in the tables. */
export function addressActivity(tables: ReadonlyArray<Table>): AddressActivity[] {
  const byAddress = new Map<string, AddressActivity>();
  for (const table of tables) {
    for (const batch of table.batches) {
      const addresses = batch.getChild('advertiser_addr');
      const ts = batch.getChild('ts_ms');
      const crc = batch.getChild('crc_ok');
      if (!addresses || !ts || !crc) throw new Error('not a normalized BLE table: advertiser_addr, ts_ms and crc_ok are required');
      for (let row = 0; row < batch.numRows; row++) {
        if (crc.get(row) === false) continue;
        const address = addresses.get(row) as string | null;
        const time = ts.get(row) as number | null;
        if (address === null || time === null) continue;
        const known = byAddress.get(address);
        if (known) {
          known.observations++;
          if (time < known.firstMs) known.firstMs = time;
          if (time > known.lastMs) known.lastMs = time;
        } else {
          byAddress.set(address, { address, observations: 1, firstMs: time, lastMs: time });
        }
      }
    }
  }
  return [...byAddress.values()];
}

export interface RunScore {
  /** Addresses with at least `min_observation_count` CRC-good observations that the truth knows. */
  eligible: number;
  devices: number;
  predictedClusters: number;
  analyzer: PairCounts;
  baseline: PairCounts;
  ari: number;
  baselineAri: number;
  /** Candidate pairs with a known label: their probabilities and whether they are one device. */
  candidateProbabilities: number[];
  candidateLabels: boolean[];
  /** Candidates naming an address the truth does not know (corrupted copies). */
  candidatesUnknown: number;
  classified: number;
  classifiedCorrectly: number;
  /** Travelled together, over eligible address pairs of distinct devices active together ≥ 60 s. */
  travel: PairCounts;
  /** The same, over the pairs the truth does not call `group` (one person's devices vs strangers). */
  travelCarried: PairCounts;
  /** The same, over the pairs the truth does not call `carried` (members of a walking group vs strangers). */
  travelGroup: PairCounts;
  /** Same device, over the pairs within the window with at least one address of a tracker tag. */
  tracker: PairCounts;
  /** Per tracker-tag profile: the truth's rotations between two eligible addresses, and how many of them ended in one cluster. */
  tagRotations: Record<string, { linked: number; total: number }>;
  /** IRK devices: pairs with an address of a keyed device, linked at p = 1 vs same device. */
  irk: PairCounts;
}

/**
 * Travelled-together pairs: every pair of eligible addresses of two distinct devices, both heard
 * together for at least a minute; the truth says whether the two devices travelled together, the
 * analysis whether a travelled-together relation joins their sides.
 */
function travelCounts(truth: BleScenarioTruth, analysis: BleAnalysis, eligible: ReadonlyArray<AddressActivity>, leaveOut?: 'carried' | 'group'): PairCounts {
  const device = (address: string) => truth.address_to_device[address];
  const kindOf = (pair: { kind?: 'carried' | 'group' }) => pair.kind ?? 'carried';
  const together = new Set((truth.travelled_together ?? []).filter((pair) => kindOf(pair) !== leaveOut).map((pair) => [pair.device_a, pair.device_b].sort().join('|')));
  const leftOut = new Set((truth.travelled_together ?? []).filter((pair) => kindOf(pair) === leaveOut).map((pair) => [pair.device_a, pair.device_b].sort().join('|')));
  const predicted = new Set<string>();
  for (const relation of analysis.travelledTogether) for (const a of relation.a) for (const b of relation.b) predicted.add([a, b].sort().join('|'));
  const counts: PairCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0, pairs: 0 };
  for (let i = 0; i < eligible.length; i++) {
    for (let j = i + 1; j < eligible.length; j++) {
      const x = eligible[i];
      const y = eligible[j];
      const dx = device(x.address);
      const dy = device(y.address);
      if (dx === dy || Math.min(x.lastMs, y.lastMs) - Math.max(x.firstMs, y.firstMs) < 60_000) continue;
      const devicePair = [dx, dy].sort().join('|');
      if (leftOut.has(devicePair)) continue;
      counts.pairs++;
      const truthSays = together.has(devicePair);
      const says = predicted.has([x.address, y.address].sort().join('|'));
      if (says && truthSays) counts.truePositives++;
      else if (says) counts.falsePositives++;
      else if (truthSays) counts.falseNegatives++;
    }
  }
  return counts;
}

/** Pairs with an eligible address of a keyed device: linked at exactly p = 1 in one cluster vs same device. */
function irkCounts(truth: BleScenarioTruth, analysis: BleAnalysis, eligible: ReadonlyArray<AddressActivity>): PairCounts {
  const device = (address: string) => truth.address_to_device[address];
  const keyed = new Set(truth.devices.filter((entry) => entry.irk !== undefined).map((entry) => entry.device_id));
  const cell = new Map<string, number>();
  for (const cluster of analysis.clusters) {
    cluster.addresses.forEach((a, i) => cluster.addresses.forEach((b, j) => cell.set(`${a}|${b}`, cluster.matrix[i][j])));
  }
  const counts: PairCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0, pairs: 0 };
  if (keyed.size === 0) return counts;
  for (let i = 0; i < eligible.length; i++) {
    for (let j = i + 1; j < eligible.length; j++) {
      const x = eligible[i].address;
      const y = eligible[j].address;
      if (!keyed.has(device(x)) && !keyed.has(device(y))) continue;
      counts.pairs++;
      const same = device(x) === device(y);
      const linked = cell.has(`${x}|${y}`);
      const certain = cell.get(`${x}|${y}`) === 1;
      if (same && certain) counts.truePositives++;
      else if (linked && !same) counts.falsePositives++;
      else if (same) counts.falseNegatives++;
    }
  }
  return counts;
}

/** Rotations of tracker tags (a Find My-style daily swap, an FMDN or SmartTag-style rotation) whose two addresses share a cluster. */
function tagRotationCounts(truth: BleScenarioTruth, eligible: ReadonlySet<string>, predicted: (address: string) => string): Record<string, { linked: number; total: number }> {
  const profileOf = new Map(truth.devices.map((entry) => [entry.device_id, entry.profile as string]));
  const counts: Record<string, { linked: number; total: number }> = {};
  for (const rotation of truth.rotations) {
    const profile = profileOf.get(rotation.device_id)!;
    if (!BLE_TRACKER_PROFILES.has(profile) || !eligible.has(rotation.from) || !eligible.has(rotation.to)) continue;
    const entry = (counts[profile] ??= { linked: 0, total: 0 });
    entry.total++;
    if (predicted(rotation.from) === predicted(rotation.to)) entry.linked++;
  }
  return counts;
}

export function scoreRun(truth: BleScenarioTruth, analysis: BleAnalysis, activities: ReadonlyArray<AddressActivity>, options: { windowS: number; minObservations: number }): RunScore {
  const device = (address: string) => truth.address_to_device[address];
  const eligible = activities.filter((activity) => activity.observations >= options.minObservations && device(activity.address) !== undefined);
  const windowMs = options.windowS * 1000;

  const clusterOf = new Map<string, string>();
  for (const cluster of analysis.clusters) for (const address of cluster.addresses) clusterOf.set(address, cluster.clusterId);
  const predicted = (address: string) => clusterOf.get(address) ?? `single:${address}`;
  const baselineLabels = naiveHandoffLabels(eligible, windowMs);
  const baseline = (address: string) => baselineLabels.get(address) ?? address;

  const candidateProbabilities: number[] = [];
  const candidateLabels: boolean[] = [];
  let candidatesUnknown = 0;
  for (const candidate of analysis.candidates) {
    const earlier = device(candidate.earlier);
    const later = device(candidate.later);
    if (earlier === undefined || later === undefined) {
      candidatesUnknown++;
      continue;
    }
    candidateProbabilities.push(candidate.probability);
    candidateLabels.push(earlier === later);
  }

  const typeOf = new Map(analysis.classification.map((entry) => [entry.address, entry.type]));
  const truthType = new Map(truth.addresses.map((address) => [address.address, address.type]));
  let classifiedCorrectly = 0;
  for (const activity of eligible) if (typeOf.get(activity.address) === truthType.get(activity.address)) classifiedCorrectly++;

  const addresses = eligible.map((activity) => activity.address);
  const trackers = new Set(truth.devices.filter((entry) => BLE_TRACKER_PROFILES.has(entry.profile)).map((entry) => entry.device_id));
  return {
    eligible: eligible.length,
    devices: new Set(addresses.map(device)).size,
    predictedClusters: new Set(addresses.map(predicted)).size,
    analyzer: pairwiseCounts(eligible, windowMs, predicted, device),
    baseline: pairwiseCounts(eligible, windowMs, baseline, device),
    ari: adjustedRandIndex(addresses.map(predicted), addresses.map(device)),
    baselineAri: adjustedRandIndex(addresses.map(baseline), addresses.map(device)),
    candidateProbabilities,
    candidateLabels,
    candidatesUnknown,
    classified: eligible.length,
    classifiedCorrectly,
    travel: travelCounts(truth, analysis, eligible),
    travelCarried: travelCounts(truth, analysis, eligible, 'group'),
    travelGroup: travelCounts(truth, analysis, eligible, 'carried'),
    tracker: pairwiseCounts(eligible, windowMs, predicted, device, (a, b) => trackers.has(device(a)) || trackers.has(device(b))),
    tagRotations: tagRotationCounts(truth, new Set(addresses), predicted),
    irk: irkCounts(truth, analysis, eligible),
  };
}
