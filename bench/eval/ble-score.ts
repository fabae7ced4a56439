/**
 * Scores one analyzer run on one generated scenario, next to the naive baseline: the glue
 * between the generator's truth, the analyzer's `BleAnalysis` and the metrics.
 */
import type { Table } from 'apache-arrow';
import type { BleAnalysis, BleScenarioTruth } from '../../src/core/index.ts';
import { naiveHandoffLabels } from './ble-baseline.ts';
import { adjustedRandIndex, pairwiseCounts, type AddressActivity, type PairCounts } from './ble-metrics.ts';

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
  };
}
