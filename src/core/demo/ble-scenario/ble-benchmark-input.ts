/**
 * Large inputs for the analyzer benchmark: the `dense` scenario's mix of devices with fast
 * rotation (U(60, 300) s), scaled to about `addresses` heard addresses per `durationS`, and its
 * observation rate set so that rendering gives a little more than `observations` rows, then
 * thinned evenly to exactly that many.
 */
import type { Capture } from '../../data/capture.ts';
import type { BleScenarioPlan } from './ble-plan-types.ts';
import { renderBleObservations, type BleObservations } from './ble-render.ts';
import { planBleScenario } from './ble-scenario-plan.ts';
import { bleScenarioConfig, type BleScenarioConfig } from './ble-scenarios.ts';
import { bleScenarioCaptures, BLE_SCENARIO_DEFAULT_START_MS } from './generate-ble-scenario.ts';
import { buildBleTruth, type BleScenarioTruth } from './ble-truth.ts';

export interface BleBenchmarkInputOptions {
  seed: number;
  /** Exact number of rows. */
  observations: number;
  /** Addresses to aim for (the result is within a few per cent). */
  addresses: number;
  /** Span of the capture, seconds (default 3600). */
  durationS?: number;
  /** Default `combined`: one capture with every receiver. */
  layout?: 'combined' | 'per_receiver';
}

export interface BleBenchmarkInput {
  captures: Capture[];
  truth: BleScenarioTruth;
  /** Distinct addresses in the rows (intact, CRC-good or not). */
  addressesHeard: number;
}

/** Addresses heard at all, and rows expected before losses, of a plan. */
function measurePlan(plan: BleScenarioPlan): { addresses: number; rows: number } {
  let addresses = 0;
  let rows = 0;
  for (const device of plan.devices) {
    const from = Math.max(device.presentFromMs, plan.startMs);
    const to = Math.min(device.presentToMs, plan.endMs);
    for (const set of device.sets) {
      for (const epoch of set.epochs) {
        const overlap = Math.min(to, epoch.endMs) - Math.max(from, epoch.startMs);
        if (overlap <= 0) continue;
        addresses++;
        rows += (overlap / set.emitIntervalMs) * plan.receivers.length;
      }
    }
  }
  return { addresses, rows };
}

/** Keeps exactly `target` rows spread evenly over the rendered ones (row i kept when ⌊(i+1)t/n⌋ > ⌊it/n⌋). */
function thin(observations: BleObservations, target: number): BleObservations {
  const count = observations.count;
  if (count <= target) return observations;
  const keep: number[] = [];
  for (let row = 0; row < count; row++) if (Math.floor(((row + 1) * target) / count) > Math.floor((row * target) / count)) keep.push(row);
  const pick = <T extends Float64Array | Uint8Array | Int8Array | Int32Array | Int16Array>(values: T): T => {
    const out = new (values.constructor as new (length: number) => T)(keep.length);
    keep.forEach((row, at) => (out[at] = values[row]));
    return out;
  };
  return {
    count: keep.length,
    tsMs: pick(observations.tsMs),
    receiver: pick(observations.receiver),
    channel: pick(observations.channel),
    rssi: pick(observations.rssi),
    address: pick(observations.address),
    payload: pick(observations.payload),
    advType: pick(observations.advType),
    crcBad: pick(observations.crcBad),
    addressFlip: pick(observations.addressFlip),
    addressFlip2: pick(observations.addressFlip2),
    payloadFlip: pick(observations.payloadFlip),
    addresses: observations.addresses,
  };
}

export function generateBleBenchmarkInput(options: BleBenchmarkInputOptions): BleBenchmarkInput {
  const seed = options.seed >>> 0;
  const durationS = options.durationS ?? 3600;
  const startMs = BLE_SCENARIO_DEFAULT_START_MS;
  const base: BleScenarioConfig = { ...bleScenarioConfig('dense'), name: 'benchmark', rotation: 'fast', durationS, transientShare: 0.3 };
  // Scale the population to the address target, then the rate to the row target.
  const probe = measurePlan(planBleScenario(base, seed, startMs));
  const scale = options.addresses / Math.max(1, probe.addresses);
  const population = Object.fromEntries(Object.entries(base.population).map(([profile, count]) => [profile, Math.max(1, Math.round(count * scale))])) as BleScenarioConfig['population'];
  const scaled: BleScenarioConfig = { ...base, population };
  const planned = measurePlan(planBleScenario(scaled, seed, startMs));
  // Rendering loses packets (channel loss, sensitivity): aim 25% above the target, then thin.
  const rate = Math.min(50, (scaled.observationRatePerS * (options.observations * 1.25)) / Math.max(1, planned.rows));
  const config: BleScenarioConfig = { ...scaled, observationRatePerS: rate };
  const plan = planBleScenario(config, seed, startMs);
  const observations = thin(renderBleObservations(plan, seed), options.observations);
  const layout = options.layout ?? 'combined';
  const prefix = `ble_benchmark_${options.observations}`;
  const captures = bleScenarioCaptures(plan, observations, {
    prefix,
    layout,
    description: `Synthetic BLE benchmark input: ${options.observations} observations`,
    source: 'bench/ble-analyzer-bench.ts',
    generator: JSON.stringify({ generator: 'sextant-ble-scenario/1', scenario: 'benchmark', seed: options.seed, observations: options.observations, addresses: options.addresses }),
  });
  const truth = buildBleTruth(plan, observations, {
    scenario: 'benchmark',
    seed: options.seed,
    captureIdOf: (index) => (layout === 'combined' ? prefix : `${prefix}_${plan.receivers[index].name.replace(/[^A-Za-z0-9]+/g, '_')}`),
  });
  const heard = new Set<number>();
  for (let row = 0; row < observations.count; row++) heard.add(observations.address[row]);
  return { captures, truth, addressesHeard: heard.size };
}
