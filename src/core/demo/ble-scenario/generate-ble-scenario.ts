/**
 * The synthetic BLE scenario generator: a named scenario and a seed in, normalized BLE captures
 * (one per receiver, or one with a `receiver` column) and their ground truth out. Pure and
 * deterministic: the same options give bit-identical tables in Node, workers and browsers.
 */
import type { Table } from 'apache-arrow';
import { describeCapture, type Capture } from '../../data/capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import type { BleScenarioPlan } from './ble-plan-types.ts';
import { renderBleObservations, type BleObservations } from './ble-render.ts';
import { planBleScenario } from './ble-scenario-plan.ts';
import { BLE_SCENARIO_NAMES, bleScenarioConfig, isBleScenarioName, type BleScenarioConfig, type BleScenarioName } from './ble-scenarios.ts';
import { writeBleCaptureTable } from './ble-table-writer.ts';
import { buildBleTruth, type BleScenarioTruth } from './ble-truth.ts';

/** Where generated scenarios start unless told otherwise: 2024-04-03T08:00:00Z, as the demo. */
export const BLE_SCENARIO_DEFAULT_START_MS = 1712131200000;

export interface BleScenarioOptions {
  /** Any integer; taken modulo 2³². */
  seed: number;
  /** Default `default`. */
  scenario?: string;
  /** `per_receiver` (default): one capture per receiver; `combined`: one capture, receivers in the `receiver` column. */
  layout?: 'per_receiver' | 'combined';
  startMs?: number;
  /** Capture ids are `<prefix>` (combined) or `<prefix>_<receiver>`; default `ble_<scenario>_s<seed>`. */
  captureIdPrefix?: string;
  /** Changes to the scenario's knobs (the benchmark scales a scenario this way). */
  overrides?: Partial<BleScenarioConfig>;
}

export interface BleScenario {
  config: BleScenarioConfig;
  captures: Capture[];
  truth: BleScenarioTruth;
}

export type BleScenarioProblem = { code: 'UNKNOWN_SCENARIO' | 'INVALID_SCENARIO_OPTIONS'; message: string };

function captureIdOf(prefix: string, layout: 'per_receiver' | 'combined', receiver: string): string {
  return layout === 'combined' ? prefix : `${prefix}_${receiver.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

function checkOptions(options: BleScenarioOptions, config: BleScenarioConfig): string | null {
  if (!Number.isSafeInteger(options.seed)) return `seed must be an integer, got ${options.seed}`;
  if (options.startMs !== undefined && !Number.isFinite(options.startMs)) return 'startMs must be a finite number';
  if (!(config.durationS > 0) || config.durationS > 7 * 24 * 3600) return `durationS must be in (0, 604800], got ${config.durationS}`;
  if (!Number.isInteger(config.receivers) || config.receivers < 1 || config.receivers > 16) return `receivers must be 1–16, got ${config.receivers}`;
  if (!(config.observationRatePerS > 0) || config.observationRatePerS > 50) return `observationRatePerS must be in (0, 50], got ${config.observationRatePerS}`;
  if (!(config.crcBadRate >= 0 && config.crcBadRate < 1)) return `crcBadRate must be in [0, 1), got ${config.crcBadRate}`;
  return checkFamilyKnobs(config);
}

/** The issue-22 families' knobs (each null unless the scenario is that family or overrides set them). */
function checkFamilyKnobs(config: BleScenarioConfig): string | null {
  const { groupWalk, handover, scanDuty, trackers } = config;
  if (groupWalk) {
    if (!Number.isInteger(groupWalk.people) || groupWalk.people < 1 || groupWalk.people > 200) return `groupWalk.people must be 1–200, got ${groupWalk.people}`;
    if (!Number.isInteger(groupWalk.perRow) || groupWalk.perRow < 1 || !(groupWalk.spacingM > 0)) return 'groupWalk.perRow must be a positive integer and spacingM positive';
    if ((groupWalk.perRow - 1) * groupWalk.spacingM + 3 > 40 || (Math.ceil(groupWalk.people / groupWalk.perRow) - 1) * groupWalk.spacingM + 3 > 20) return 'groupWalk: the formation does not fit the 40 × 20 m floor';
  }
  if (handover && config.receivers < 2) return `handover needs at least 2 receivers, got ${config.receivers}`;
  if (handover && !(handover.spacingM > 0 && handover.depthM > 2 && handover.stayS[0] >= 0 && handover.stayS[1] >= handover.stayS[0])) return 'handover: spacingM > 0, depthM > 2 and 0 ≤ stayS[0] ≤ stayS[1] required';
  if (scanDuty && !(scanDuty.windowS[0] > 0 && scanDuty.windowS[1] >= scanDuty.windowS[0] && scanDuty.periodS - scanDuty.periodJitterS > scanDuty.windowS[1])) return 'scanDuty: scans must be shorter than the time between them';
  if (trackers && !(trackers.tagRatePerS > 0 && trackers.tagRatePerS <= 50)) return `trackers.tagRatePerS must be in (0, 50], got ${trackers.tagRatePerS}`;
  return null;
}

/** Captures (Arrow tables with the normalized BLE columns and capture metadata) of a rendered plan. */
export function bleScenarioCaptures(
  plan: BleScenarioPlan,
  observations: BleObservations,
  meta: { prefix: string; layout: 'per_receiver' | 'combined'; description: string; source: string; generator: string },
): Capture[] {
  const groups =
    meta.layout === 'combined'
      ? [{ id: meta.prefix, receivers: plan.receivers.map((_, index) => index) }]
      : plan.receivers.map((receiver, index) => ({ id: captureIdOf(meta.prefix, 'per_receiver', receiver.name), receivers: [index] }));
  return groups.map((group) => {
    const names = group.receivers.map((index) => plan.receivers[index].name).join(', ');
    const table: Table = writeBleCaptureTable(plan, observations, {
      captureId: group.id,
      receivers: group.receivers,
      description: `${meta.description} (receiver${group.receivers.length > 1 ? 's' : ''} ${names})`,
      source: meta.source,
      generator: meta.generator,
    });
    const described = describeCapture(table);
    // The writer sets every metadata key describeCapture needs; failing here is a bug.
    if (!described.ok) throw new Error(described.error.message);
    return { info: described.value, table };
  });
}

/** Generates a scenario; an unknown scenario or bad options come back as a coded problem. */
export function generateBleScenario(options: BleScenarioOptions): Result<BleScenario, BleScenarioProblem> {
  const name = options.scenario ?? 'default';
  if (!isBleScenarioName(name)) {
    return err({ code: 'UNKNOWN_SCENARIO', message: `Unknown scenario '${name}'; known: ${BLE_SCENARIO_NAMES.join(', ')}` });
  }
  const config: BleScenarioConfig = { ...bleScenarioConfig(name as BleScenarioName), ...options.overrides };
  const problem = checkOptions(options, config);
  if (problem) return err({ code: 'INVALID_SCENARIO_OPTIONS', message: problem });
  const seed = options.seed >>> 0;
  const layout = options.layout ?? 'per_receiver';
  const prefix = options.captureIdPrefix ?? `ble_${name}_s${options.seed}`;
  const plan = planBleScenario(config, seed, options.startMs ?? BLE_SCENARIO_DEFAULT_START_MS);
  const observations = renderBleObservations(plan, seed);
  const captures = bleScenarioCaptures(plan, observations, {
    prefix,
    layout,
    description: `Synthetic BLE scenario ${name}, seed ${options.seed}`,
    source: `sextant generate ble --scenario ${name} --seed ${options.seed}`,
    generator: JSON.stringify({ generator: 'sextant-ble-scenario/1', scenario: name, seed: options.seed, layout }),
  });
  const truth = buildBleTruth(plan, observations, {
    scenario: name,
    seed: options.seed,
    captureIdOf: (index) => captureIdOf(prefix, layout, plan.receivers[index].name),
  });
  return ok({ config, captures, truth });
}
