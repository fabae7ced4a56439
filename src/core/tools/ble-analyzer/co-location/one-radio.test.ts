/**
 * Same device needs evidence a companion cannot produce (issue 22): generated captures whose
 * radio features are taken away or made useless, and what the analysis makes of them.
 */
import { describe, expect, it } from 'vitest';
import { planBleScenario } from '../../../demo/ble-scenario/ble-scenario-plan.ts';
import { renderBleObservations, type BleObservations } from '../../../demo/ble-scenario/ble-render.ts';
import { bleScenarioConfig, type BleScenarioConfig, type BleScenarioName } from '../../../demo/ble-scenario/ble-scenarios.ts';
import { BLE_SCENARIO_DEFAULT_START_MS, bleScenarioCaptures } from '../../../demo/ble-scenario/generate-ble-scenario.ts';
import { buildBleTruth, type BleScenarioTruth } from '../../../demo/ble-scenario/ble-truth.ts';
import type { SelectedData } from '../../../data/selection-types.ts';
import type { BleAnalysis } from '../shared/analysis-types.ts';
import { analyzeBle } from '../analyze.ts';
import { bleAnalysisOptions } from '../shared/test-support.ts';
import { ONE_RADIO_MIN_LLR } from './co-location-model.ts';

const OPTIONS = bleAnalysisOptions({ includeCandidates: true });

interface RadioChanges {
  overrides?: Partial<BleScenarioConfig>;
  /** Whether each device's sets share its controller's slot grid (the generator's default). */
  advertisingClock?: boolean;
  /** Changes the rendered packets (their times, their RSSI) before the captures are written. */
  retouch?: (observations: BleObservations) => void;
}

/** A generated scenario with its radio changed, analysed, with its truth. */
function analysed(name: BleScenarioName, seed: number, changes: RadioChanges): { analysis: BleAnalysis; truth: BleScenarioTruth } {
  const config = { ...bleScenarioConfig(name), ...changes.overrides };
  const plan = planBleScenario(config, seed, BLE_SCENARIO_DEFAULT_START_MS);
  if (changes.advertisingClock === false) plan.radio.advertisingClock = false;
  const observations = renderBleObservations(plan, seed);
  changes.retouch?.(observations);
  const prefix = `ble_${name}_s${seed}`;
  const meta = { prefix, layout: 'per_receiver' as const, description: 'test', source: 'test', generator: '{}' };
  const captures = bleScenarioCaptures(plan, observations, meta);
  const truth = buildBleTruth(plan, observations, { scenario: name, seed, captureIdOf: (index) => `${prefix}_${plan.receivers[index].name.replace(/[^A-Za-z0-9]+/g, '_')}` });
  const batches = captures.flatMap((capture) => capture.table.batches.map((batch) => ({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows })));
  const selection: SelectedData = { batches, rowCount: batches.reduce((sum, batch) => sum + batch.selectedCount, 0) };
  return { analysis: analyzeBle(selection, OPTIONS), truth };
}

/** Times to the whole millisecond: what an HCI log's host stamps give (no advertising clock to read). */
function wholeMilliseconds(observations: BleObservations): void {
  for (let index = 0; index < observations.count; index++) observations.tsMs[index] = Math.round(observations.tsMs[index]);
}

/** The same-device values a term got in the co-location candidates that report it. */
function termValues(analysis: BleAnalysis, term: string): number[] {
  const values: number[] = [];
  for (const candidate of analysis.candidates) {
    if (candidate.relation !== 'co_location') continue;
    const factor = candidate.factors.find((text) => text.startsWith(`${term}: `));
    const match = factor?.match(/\(same device ([+−])(\d+\.\d)/);
    if (match) values.push((match[1] === '−' ? -1 : 1) * Number(match[2]));
  }
  return values;
}

describe('same device needs evidence of one radio', () => {
  it('never folds a companion into its phone on co-movement alone (no multipath, whole-millisecond times)', () => {
    const { analysis, truth } = analysed('companions', 1, { overrides: { multipathDb: 0 }, advertisingClock: false, retouch: wholeMilliseconds });
    const together = new Set(truth.travelled_together.map((pair) => [pair.device_a, pair.device_b].sort().join('|')));
    expect(together.size).toBeGreaterThan(0);
    for (const cluster of analysis.clusters) {
      const devices = [...new Set(cluster.addresses.map((address) => truth.address_to_device[address]))].sort();
      for (let i = 0; i < devices.length; i++) for (let j = i + 1; j < devices.length; j++) expect(together.has(`${devices[i]}|${devices[j]}`)).toBe(false);
    }
    // They are found, as travelled together, and the rationale says why not one device.
    const found = analysis.travelledTogether.filter((relation) => together.has([truth.address_to_device[relation.a[0]], truth.address_to_device[relation.b[0]]].sort().join('|')));
    expect(found.length).toBeGreaterThan(0);
    expect(found.some((relation) => relation.rationale.some((line) => line.includes('no evidence of one radio: co-movement alone gives travelled together')))).toBe(true);
    // Each relation says what it was weighed against and what separated the two.
    for (const relation of analysis.travelledTogether) {
      expect(relation.sameDeviceProbability).toBeLessThan(relation.probability);
      expect(relation.separatedBy.length).toBeGreaterThan(0);
    }
    expect(found.some((relation) => relation.separatedBy.startsWith('no evidence of one radio: co-movement alone gives travelled together'))).toBe(true);
  });

  it('gives the channel pattern no weight where every device shows the same one (a receiver\'s own response, no multipath)', () => {
    // Each receiver hears channel 37 4 dB up and 38 3 dB down, whoever sends: a pattern, but not a spot's.
    const receiverPattern = [
      [4, -3, 0],
      [-2, 3, -1],
    ];
    const retouch = (observations: BleObservations) => {
      wholeMilliseconds(observations);
      for (let index = 0; index < observations.count; index++) {
        const slot = observations.channel[index] - 37;
        if (slot >= 0 && slot < 3) observations.rssi[index] += receiverPattern[observations.receiver[index] % 2][slot];
      }
    };
    const { analysis } = analysed('android_multi_set', 1, { overrides: { multipathDb: 0 }, advertisingClock: false, retouch });
    const values = termValues(analysis, 'channel_signature');
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).toBeLessThan(ONE_RADIO_MIN_LLR);
    // With each spot's own multipath the same term does speak for a phone's sets.
    const { analysis: withMultipath } = analysed('android_multi_set', 1, { advertisingClock: false, retouch: wholeMilliseconds });
    expect(Math.max(...termValues(withMultipath, 'channel_signature'))).toBeGreaterThan(3);
  });

  it('gives the advertising clock no weight where timestamps sit on a coarse grid (every pair lines up modulo 625 µs)', () => {
    const grid = 1.25;
    const coarse = (observations: BleObservations) => {
      for (let index = 0; index < observations.count; index++) observations.tsMs[index] = Math.round(observations.tsMs[index] / grid) * grid;
    };
    const { analysis } = analysed('android_multi_set', 1, { overrides: { multipathDb: 0 }, retouch: coarse });
    const values = termValues(analysis, 'advertising_clock');
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value).toBeLessThan(ONE_RADIO_MIN_LLR);
    // The same capture with its microsecond times: the clock speaks.
    const { analysis: precise } = analysed('android_multi_set', 1, { overrides: { multipathDb: 0 } });
    expect(Math.max(...termValues(precise, 'advertising_clock'))).toBeGreaterThan(3);
  });
});
