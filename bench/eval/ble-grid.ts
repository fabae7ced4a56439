import type { RpaRotationModelName } from '../../src/core/index.ts';

/**
 * The eval:ble grid: every named scenario with its matching rotation model, and `default` again
 * under `learned`. The calibration fit (bench/fit-ble-calibration.ts) runs the same grid on
 * other seeds.
 */
export const BLE_EVAL_GRID: ReadonlyArray<{ scenario: string; model: RpaRotationModelName }> = [
  { scenario: 'default', model: 'spec_default' },
  { scenario: 'default', model: 'learned' },
  { scenario: 'same_template_crowd', model: 'spec_default' },
  { scenario: 'fast_rotation', model: 'fast_rotation' },
  { scenario: 'slow_rotation', model: 'slow_rotation' },
  { scenario: 'dense', model: 'spec_default' },
  { scenario: 'gaps', model: 'spec_default' },
  { scenario: 'drift', model: 'spec_default' },
  { scenario: 'android_multi_set', model: 'spec_default' },
  { scenario: 'crc_noise', model: 'spec_default' },
  { scenario: 'companions', model: 'spec_default' },
  { scenario: 'irk', model: 'spec_default' },
];

/** One analysis setting of a family row: the linkage window and `min_observation_count`. */
export interface BleFamilySetting {
  windowS: number;
  minObservations: number;
}

const DEFAULT_SETTING: BleFamilySetting = { windowS: 180, minObservations: 25 };

/**
 * The issue-22 families: each runs with the generator's separating radio features on (as the
 * scenario defines them) and off (`BLE_RADIO_FEATURES_OFF`), under every setting listed: the
 * analyzer's defaults, plus what an analyst would set where the defaults cannot work (a phone
 * that scans 20–30 s every 15 min: a window longer than the 15-min scan period, and fewer
 * observations per address, as a tag heard for one scan sends 10–25 packets).
 */
export const BLE_FAMILY_GRID: ReadonlyArray<{ scenario: string; model: RpaRotationModelName; settings: readonly BleFamilySetting[] }> = [
  { scenario: 'group_walk', model: 'spec_default', settings: [DEFAULT_SETTING] },
  { scenario: 'handover', model: 'spec_default', settings: [DEFAULT_SETTING] },
  { scenario: 'trackers', model: 'spec_default', settings: [DEFAULT_SETTING] },
  { scenario: 'sparse_scan', model: 'spec_default', settings: [DEFAULT_SETTING, { windowS: 1200, minObservations: 10 }] },
  { scenario: 'multi_set_crowd', model: 'spec_default', settings: [DEFAULT_SETTING] },
];
