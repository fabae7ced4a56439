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

/**
 * The issue-22 families: each runs with the generator's separating radio features on (as the
 * scenario defines them) and off (`BLE_RADIO_FEATURES_OFF`), under every window listed (the
 * default 180 s, plus the one an analyst would set where the default cannot work).
 */
export const BLE_FAMILY_GRID: ReadonlyArray<{ scenario: string; model: RpaRotationModelName; windowsS: readonly number[] }> = [
  { scenario: 'group_walk', model: 'spec_default', windowsS: [180] },
  { scenario: 'handover', model: 'spec_default', windowsS: [180] },
  { scenario: 'trackers', model: 'spec_default', windowsS: [180] },
  { scenario: 'multi_set_crowd', model: 'spec_default', windowsS: [180] },
];
