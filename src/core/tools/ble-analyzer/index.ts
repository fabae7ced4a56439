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
export { ANALYSIS_FILE, STITCHED_FILES, parseAnalysisOverview, parseStitchedLine, parseWindowResult } from './stitch/stitched-output.ts';
export type { AnalysedWindowEntry, DatasetAnalysisOverview, StitchedFile, StitchedLine, StitchedOutputProblem } from './stitch/stitched-output.ts';
export { StitchedDevices } from './stitch/stitched-devices.ts';
export type { DeviceDetail, DeviceFilter, DeviceOrder, DevicePage, DeviceQuery, DeviceRow } from './stitch/stitched-devices.ts';
export { openStitchedAnalysis } from './stitch/open-stitched-analysis.ts';
export type { AnalysisFiles, OpenedAnalysis } from './stitch/open-stitched-analysis.ts';
