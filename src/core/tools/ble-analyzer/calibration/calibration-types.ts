/** The calibration's shapes, apart from its code so that the generated table can name them without an import loop. */

export type BleCalibrationRelation = 'handoff' | 'co_location';

export interface BleCalibrationCurve {
  /** Raw probabilities (ascending) and the calibrated value at each. */
  x: number[];
  y: number[];
}

export type BleCalibrationTable = Record<BleCalibrationRelation, BleCalibrationCurve>;
