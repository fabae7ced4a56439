// Public surface of the core: the UI, the workers and the command-line runner import from here only.

export type { JsonObject, JsonValue } from './util/json.ts';
export { isJsonObject, safeParseJson, jsonByteLength } from './util/json.ts';
export type { JsonLimitCheck, JsonLimitKind, JsonLimitOptions, JsonLimitViolation, JsonMeasure, JsonPathSegment } from './util/json-limits.ts';
export { checkJsonLimits, describeJsonPath, stripByteOrderMark } from './util/json-limits.ts';
export { csvCell, csvRow, csvDocument } from './util/csv.ts';
export type { Limits } from './util/limits.ts';
export { LIMITS } from './util/limits.ts';
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
  IdentityKey,
  IdentityKeySource,
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
export { digestToolResult, digestToolResultText, genericDigest, compactJson } from './tools/result-digest.ts';
export type { ToolDigest, DigestingTool } from './tools/result-digest.ts';
export { digestRegressionOutput } from './tools/regression/digest.ts';
export { digestBleOutput } from './tools/ble-analyzer/digest.ts';
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
  limitWarning,
  LIMIT_WARNING_PREFIX,
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

// MCP both ways (issue 13)
export type {
  McpToolDefinition,
  McpToolProblem,
  McpToolList,
  McpFailure,
  McpAnswer,
  McpRequestOptions,
  McpConnection,
  ListToolsOutcome,
  McpCallRecord,
  McpCallOptions,
  McpCheckOutcome,
  McpCheckRow,
  McpCheckOptions,
  McpListedTool,
  McpCallAnswer,
  McpRunBinding,
  McpRunnerOptions,
  McpPlannerServer,
  McpPlannerTool,
} from './mcp/index.ts';
export {
  readToolEntries,
  listMcpTools,
  toolResultFromMcp,
  toolResultFromFailure,
  describeMcpFailure,
  contentText,
  DEFAULT_MAX_RESULT_BYTES,
  validateMcpArguments,
  callMcpTool,
  mcpCheckCases,
  checkMcpTool,
  formatCheckTable,
  createSdkConnection,
  failureFromError,
  MCP_CORS_HINT,
  mcpToolForManifest,
  invocationFromMcpCall,
  mcpTextContent,
  mcpAnswerFromToolResult,
  captureResourceUri,
  captureIdFromUri,
  captureResourceEntry,
  captureResourceContent,
  MCP_DEFAULT_TIMEOUT_MS,
  createMcpRunner,
  mcpPlannerTools,
  MCP_PLANNER_TOOL_VERSION,
} from './mcp/index.ts';
// Case reports (issue 15): the report model, its HTML rendering and verification.
export type {
  RunDocument,
  RunStep,
  PlannerRunSummary,
  PlannerTimelineEntry,
  HashBasis,
  ReportCapture,
  ReportStep,
  ReportSelection,
  CaseReport,
  CaptureProvenance,
  BuildReportOptions,
  VerifyDependencies,
  VerifyOutcome,
  CaptureCheck,
  StepCheck,
  CaptureFingerprint,
} from './report/index.ts';
export type { RecordedFingerprint } from './report/index.ts';
export { buildCaseReport, parseRunDocument, parseCaseReport, renderReportHtml, verifyReport, builtinCaptureFingerprint, captureProvenance, redactKeys, selectionOf, BLE_CAVEATS } from './report/index.ts';
export type { TimelineStep, TimelineStepKind, RecordedEvent, AccountingRow, AccountingTotals, RunSummary, SummarizableRun } from './planner/record/index.ts';
export { timelineFromEvents, accountingRows, accountingTotals, formatCost, summarizeRun, failedInvocations } from './planner/record/index.ts';
