export type {
  AddressType,
  RpaRotationModelName,
  BleAnalysisOptions,
  AddressClassification,
  LinkCandidate,
  AddressCluster,
  TravelledTogether,
  ActivitySegment,
  RotationModelReport,
  BleAnalysis,
} from './shared/analysis-types.ts';
export { ah, bleAhFor, parseIrk, resolvesUnder, parseBleAddress, formatBleAddress } from './shared/ah.ts';
export type { BleAhFunction } from './shared/ah.ts';
export { classifyRandomBits } from './classify/address-bits.ts';
export type { BleBitVerdict } from './classify/address-bits.ts';
export { analyzeBle } from './analyze.ts';
export { bleAddressAnalyzerTool, parseBleAnalyzerArguments, checkBleAnalyzerArguments, bleAnalysisSummary } from './tool/ble-tool.ts';
export { bleAddressAnalyzerManifest, bleAnalyzerInputSchema, bleAnalyzerOutputSchema } from './tool/manifest.ts';
export { bleRotationModel } from './classify/rotation-model.ts';
export { WindowStitcher, weakestJoin } from './stitch/stitch-windows.ts';
export type { BleWindowOutput, StitchedAnalysis, StitchedCluster, StitchConflict, StitchedRelation } from './stitch/stitch-windows.ts';
