// Public surface of the synthetic BLE scenario generator and the built-in BLE demo captures
// (docs/ble-scenarios.md). Re-exported by src/core/index.ts.

export type { BleScenarioOptions, BleScenario, BleScenarioProblem } from './generate-ble-scenario.ts';
export { generateBleScenario, BLE_SCENARIO_DEFAULT_START_MS } from './generate-ble-scenario.ts';
export type { BleScenarioName, BleScenarioConfig, BleRotationRegime } from './ble-scenarios.ts';
export { BLE_SCENARIO_NAMES, BLE_RADIO_FEATURES_OFF, bleScenarioConfig, isBleScenarioName } from './ble-scenarios.ts';
export type { BleScenarioTruth, BleTruthAddress, BleTruthDevice, BleTruthRotation, BleTruthReceiver, BleTruthTravel } from './ble-truth.ts';
export { BLE_TRUTH_FORMAT } from './ble-truth.ts';
export type { BleTruthAddressType } from './ble-address.ts';
export { bleParseAddress, truthRandomSubtype } from './ble-address.ts';
export type { BleDeviceProfile, BleDeviceClass } from './ble-plan-types.ts';
export { BLE_GENERATOR_METADATA } from './ble-table-writer.ts';
export type { BleBenchmarkInput, BleBenchmarkInputOptions } from './ble-benchmark-input.ts';
export { generateBleBenchmarkInput } from './ble-benchmark-input.ts';
export { bleLabFloorScenario, bleLabFloorCaptures, BLE_DEMO_CAPTURE_IDS, BLE_DEMO_RECEIVERS, BLE_DEMO_SPAN, BLE_DEMO_ROTATION } from './lab-floor-captures.ts';
