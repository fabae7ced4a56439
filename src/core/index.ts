// Public surface of the core: the UI, the workers and the command-line runner import from here only.

export type { JsonObject, JsonValue } from './util/json.ts';
export { isJsonObject, safeParseJson, jsonByteLength } from './util/json.ts';
export type { Result } from './util/result.ts';
export { assertNever } from './util/result.ts';

export type {
  ToolManifest,
  ToolInvocation,
  ToolResult,
  ToolStatus,
  ToolArtifact,
  CaptureSelection,
  GenericCaptureSelection,
  BleCaptureSelection,
  TimeRange,
  JsonSchema,
} from './contract/types.ts';
export type { ToolError, ToolErrorCode, ToolWarning } from './contract/tool-error.ts';
export { TOOL_ERROR_CODES, VALIDATION_ERROR_CODES, normalizeErrorCode } from './contract/tool-error.ts';
export { toolManifestSchema, toolInvocationSchema, toolResultSchema } from './contract/schemas.ts';

export type { ColumnKind, ColumnSchema } from './data/columns.ts';
export type { Capture, CaptureInfo, DescribeOptions, DescribeProblem } from './data/capture.ts';
export { describeCapture, CAPTURE_METADATA } from './data/capture.ts';
export { CaptureCatalog } from './data/catalog.ts';
export type { NormalizedSelection, CaptureLookup } from './data/selection.ts';
export { readCaptureFile, readCaptureSource, bytesCaptureSource } from './data/capture-files.ts';
export type { CaptureFile } from './data/capture-files.ts';
export type {
  BleImport,
  BleImporter,
  BleImportOptions,
  BleContainer,
  CaptureImportProblem,
  CaptureImportProblemCode,
  ImportReport,
  AdvTypeName,
} from './data/ble/index.ts';
export {
  createBleImporter,
  importBleCapture,
  detectBleContainer,
  BLE_METADATA,
  BLE_RECORDS_FORMAT,
  BLE_RECORD_COLUMNS,
  ADV_TYPE_NAMES,
  LINKTYPE,
  SUPPORTED_LINK_TYPES,
  channelIndexOfRfChannel,
} from './data/ble/index.ts';
export type {
  CaptureSource,
  CaptureImportOptions,
  CaptureImportFailure,
  CaptureImportFailureCode,
  CaptureImportReport,
  CaptureFileFormat,
  ImportProvenance,
  ImportReportCommon,
  ImportedFile,
} from './data/capture-import.ts';
export type { ImportWarning, ImportWarningCode } from './data/import-warnings.ts';
export { TIMESTAMP_PLAUSIBILITY } from './data/import-warnings.ts';
export { importCaptureSource, mapToCapture } from './data/capture-import.ts';
export type {
  TabularFormat,
  TabularColumnReport,
  TabularImportReport,
  TabularImportProblem,
  TabularImportProblemCode,
  TabularImport,
  CsvImportOptions,
  CsvImporter,
  ParquetImportOptions,
  ParquetByteSource,
  ArrowImportOptions,
  ColumnMapping,
  TimeUnitName,
  BleAddressColumn,
  AppliedColumnMapping,
} from './data/tabular/index.ts';
export {
  createCsvImporter,
  readCsv,
  MAX_CSV_COLUMNS,
  readParquet,
  readArrowIpc,
  detectTabularFormat,
  applyColumnMapping,
  suggestColumnMapping,
  hasNormalizedBleColumns,
  normalizeBleAddress,
  BLE_ADDRESS_COLUMNS,
  COLUMN_MAPPING_METADATA,
  SOURCE_FORMAT_METADATA,
} from './data/tabular/index.ts';
export type { CaptureFileProblem, CaptureFileOptions } from './data/capture-files.ts';

export { builtinCaptures } from './demo/builtin-captures.ts';
export { TELEMETRY_CAPTURE_ID } from './demo/telemetry-capture.ts';
export { seededRandom } from './demo/seeded-random.ts';
export type { SeededRandom } from './demo/seeded-random.ts';

export type { ToolImplementation, ToolOutcome, ArtifactContent, CaptureDescription } from './tools/tool.ts';
export { ToolRegistry } from './tools/registry.ts';
export { compareVersions, resolveVersion } from './tools/semver.ts';
export { builtinTools } from './tools/builtin-tools.ts';
export type { BuiltinToolOptions } from './tools/builtin-tools.ts';

export type { RunRequest, RunnerResponse, RunOptions, ToolRunner } from './executor/runner.ts';
export type { RunEnvironment } from './executor/run-tool.ts';
export { runTool } from './executor/run-tool.ts';
export { createInProcessRunner } from './executor/in-process-runner.ts';
export { createEndpointRunner } from './executor/endpoint-runner.ts';
export type { EndpointRunnerOptions } from './executor/endpoint-runner.ts';
export type { ExecutorSettings } from './executor/validate-invocation.ts';
export { DEFAULT_EXECUTOR_SETTINGS, validateInvocation } from './executor/validate-invocation.ts';
export type { Executor, ExecutionRecord, ExecuteOptions } from './executor/executor.ts';
export { createExecutor } from './executor/executor.ts';

export type { SpecExample } from './examples/spec-examples.ts';
export {
  SPEC_EXAMPLES,
  regressionExampleInvocation,
  invalidPlanExample,
  invalidPlanExpectedResult,
  correctedPlanExample,
  bleExampleInvocation,
} from './examples/spec-examples.ts';
export { ToolHost } from './executor/tool-host.ts';
export type { ToolHostOptions, CaptureView } from './executor/tool-host.ts';
export type { AddressSummary, CellValue, ColumnSummary, TimeHistogram } from './data/explore.ts';

export type {
  SourceFormat,
  ToolCapability,
  ToolSecurity,
  CanonicalTool,
  CanonicalizationResult,
  FormatConfidence,
  FormatDetection,
  CanonicalizeOptions,
  CanonicalizedDefinitions,
  EmitTarget,
  ManifestDraft,
  ReviewItem,
  InternalToolDefinition,
  InternalDefinitionProblem,
  ManifestExportTarget,
} from './toolcanon/index.ts';
export {
  SOURCE_FORMATS,
  EMIT_TARGETS,
  detectFormat,
  canonicalize,
  canonicalizeDefinitions,
  emit,
  toManifest,
  fromManifest,
  toInternalToolDefinition,
  exportManifest,
  MANIFEST_EXPORT_TARGETS,
} from './toolcanon/index.ts';
export type { ManifestProblem, ManifestProblemCode, ChangeKind, ChangeReason, ChangeClassification } from './manifests/index.ts';
export { lintManifest, lintManifestText, isCleanManifest, classifyChange } from './manifests/index.ts';
export type { ConformanceCase, ConformanceExpectation, ConformanceRow, ConformanceActual, ConformanceOptions } from './manifests/index.ts';
export { generateConformanceCases, judgeConformance } from './manifests/index.ts';

export * from './tools/ble-analyzer/index.ts';
export * from './demo/ble-scenario/index.ts';
export * from './planner/index.ts';
