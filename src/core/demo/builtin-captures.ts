import { describeCapture, type Capture } from '../data/capture.ts';
import { bleLabFloorCaptures } from './ble-scenario/lab-floor-captures.ts';
import { generateTelemetryCapture } from './telemetry-capture.ts';

/**
 * The demo captures every Sextant installation has, available by id with no import step: the
 * telemetry capture of the regression example (§4) and the two BLE lab-floor captures of the
 * BLE analyzer example (§7.4; docs/ble-scenarios.md).
 */
export function builtinCaptures(): Capture[] {
  const table = generateTelemetryCapture();
  const described = describeCapture(table);
  // The generator writes every metadata key describeCapture needs; failing here is a bug.
  if (!described.ok) throw new Error(described.error.message);
  return [{ info: described.value, table }, ...bleLabFloorCaptures()];
}
