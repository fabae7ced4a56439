import { describeCapture, type Capture } from '../data/capture.ts';
import { generateTelemetryCapture } from './telemetry-capture.ts';

/** The demo captures every Sextant installation has, available by id with no import step. */
export function builtinCaptures(): Capture[] {
  const table = generateTelemetryCapture();
  const described = describeCapture(table);
  // The generator writes every metadata key describeCapture needs; failing here is a bug.
  if (!described.ok) throw new Error(described.error.message);
  return [{ info: described.value, table }];
}
