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
} from './analysis-types.ts';
export { ah, bleAhFor, parseIrk, resolvesUnder, parseBleAddress, formatBleAddress } from './ah.ts';
export type { BleAhFunction } from './ah.ts';
export { classifyRandomBits } from './address-bits.ts';
export type { BleBitVerdict } from './address-bits.ts';
export { analyzeBle } from './analyze.ts';
export { bleAddressAnalyzerTool, parseBleAnalyzerArguments, checkBleAnalyzerArguments, bleAnalysisSummary } from './ble-tool.ts';
export { bleAddressAnalyzerManifest, bleAnalyzerInputSchema, bleAnalyzerOutputSchema } from './manifest.ts';
export { bleRotationModel } from './rotation-model.ts';
