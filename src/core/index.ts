// Public surface of the core: the UI, the workers and the command-line runner import from here only.

export type { JsonObject, JsonValue } from './util/json.ts';
export { isJsonObject, safeParseJson, jsonByteLength } from './util/json.ts';
export { checkJsonLimits, describeJsonPath } from './util/json-limits.ts';
export { textLines } from './util/text-lines.ts';
export { DeadlineError, runWithDeadline, startDeadline, timerClock } from './util/deadline.ts';
export type { Clock, Deadline, DeadlineOptions, DeadlineOutcome, DeadlineReason } from './util/deadline.ts';
export { DEFAULT_QUEUE, QueueSet, WorkQueue } from './util/work-queue.ts';
export type { QueueAdmission, QueueBinding, QueueConfig, QueueSetResult, QueueSnapshot } from './util/work-queue.ts';
export type { Result } from './util/result.ts';
export { err, ok } from './util/result.ts';

export type { TimeRange, ToolArtifact, ToolInvocation, ToolManifest, ToolResult } from './contract/types.ts';
export type { ToolError, ToolWarning } from './contract/tool-error.ts';
export { toolManifestSchema, toolResultSchema } from './contract/schemas.ts';

export type { ColumnSchema } from './data/columns.ts';
export { numericColumn } from './data/columns.ts';
export { checkTimestamps } from './data/import-warnings.ts';
export type { ImportWarning } from './data/import-warnings.ts';
export { DATASET_FORMAT, MANIFEST_FILE, PARTS_DIR, PARTITION_COLUMNS, NULL_PARTITION, emptyManifest, manifestParts, parseManifest, partitionDirectory, splitByHour } from './data/dataset/index.ts';
export type { DatasetManifest, DatasetPart, DatasetProblem, DatasetSource } from './data/dataset/index.ts';
export { conformToDatasetSchema } from './data/dataset/index.ts';
export { batchesOfRuns, orderRuns, partOverlapsWindow, runsInWindow } from './data/dataset/index.ts';
export type { DatasetTimeWindow } from './data/dataset/index.ts';
export type { RowRun } from './data/dataset/index.ts';
export { detectTabularFormat } from './data/tabular/index.ts';
export type { ConformProblem, Conformed } from './data/dataset/index.ts';
export type { Capture, CaptureInfo } from './data/capture.ts';
export { CAPTURE_METADATA, describeCapture } from './data/capture.ts';
export { CaptureCatalog } from './data/catalog.ts';
export type { CaptureLookup, NormalizedSelection } from './data/selection.ts';
export { readCaptureSelection, selectionOfInvocation, selectedCaptureIds, selectionRowFilter, isBleSelectionShape, normalizeCaptureSelection, checkSelection } from './data/selection.ts';
export { readCaptureFile, readCaptureSource } from './data/capture-files.ts';
export type { CaptureFileProblem } from './data/capture-files.ts';
export type { IdentityKey, IdentityKeySource } from './data/ble/index.ts';
export { BLE_RECORD_COLUMNS, createBleImporter, describeBleRecord, detectBleContainer, formatShare, importIntegrity } from './data/ble/index.ts';
export type { CaptureImportProblem } from './data/ble/index.ts';
export type { ImportIntegrity, ImportIntegrityStatus, PacketDetails } from './data/ble/index.ts';
export type { CaptureSource, CaptureImportReport, ImportedFile } from './data/capture-import.ts';
export { importCaptureSource, mapToCapture } from './data/capture-import.ts';
export { PART_BATCH_ROWS, importDatasetWindow } from './data/dataset-window-import.ts';
export type { DatasetFileReader, DatasetWindowFailure, DatasetWindowProvenance, DatasetWindowRequest, PartDecoder } from './data/dataset-window-import.ts';
export type { ColumnMapping, TimeUnitName } from './data/tabular/index.ts';

export { builtinCaptures } from './demo/builtin-captures.ts';
export { seededRandom } from './demo/seeded-random.ts';

export type { ToolImplementation, ToolOutcome } from './tools/tool.ts';
export { ToolRegistry } from './tools/registry.ts';
export { compareVersions } from './tools/semver.ts';
export { builtinTools } from './tools/builtin-tools.ts';
export { regressionManifest } from './tools/regression/index.ts';
export { bleAddressAnalyzerManifest } from './tools/ble-analyzer/tool/manifest.ts';
export type { DigestingTool } from './tools/result-digest.ts';

export type { RunRequest, RunnerResponse, RunOptions, ToolRunner } from './executor/runner.ts';
export { createInProcessRunner } from './executor/in-process-runner.ts';
export { createEndpointRunner } from './executor/endpoint-runner.ts';
export type { Executor, ExecutionRecord } from './executor/executor.ts';
export { createExecutor } from './executor/executor.ts';
export { validationWarmUp, closedByDefault, argumentSchemaErrors } from './executor/validate-invocation.ts';
export { validateAgainstSchema } from './validation/schema-validator.ts';
export { formatFieldPath } from './validation/field-path.ts';

export {
  SPEC_EXAMPLES,
  regressionExampleInvocation,
  invalidPlanExample,
  invalidPlanExpectedResult,
  correctedPlanExample,
  bleExampleInvocation,
} from './examples/spec-examples.ts';
export { ToolHost } from './executor/tool-host.ts';
export type { CaptureView } from './executor/tool-host.ts';
export type { CellValue } from './data/explore.ts';
export { isAddressColumn } from './data/filter/index.ts';

export type { SourceFormat, CanonicalizationResult, ManifestDraft, ReviewItem, ManifestExportTarget } from './toolcanon/index.ts';
export {
  SOURCE_FORMATS,
  canonicalize,
  canonicalizeDefinitions,
  LIMIT_WARNING_PREFIX,
  emit,
  toManifest,
  exportManifest,
  MANIFEST_EXPORT_TARGETS,
} from './toolcanon/index.ts';
export type { ManifestProblem, ChangeClassification } from './manifests/index.ts';
export { lintManifest, lintManifestText, isCleanManifest, classifyChange } from './manifests/index.ts';
export type { ConformanceRow } from './manifests/index.ts';
export { generateConformanceCases, judgeConformance } from './manifests/index.ts';

export type { BleAnalysis, BleAnalysisOptions, RpaRotationModelName } from './tools/ble-analyzer/index.ts';
export { analyzeBle, parseIrk, WindowStitcher, weakestJoin } from './tools/ble-analyzer/index.ts';
export type { BleWindowOutput, StitchedAnalysis, StitchedCluster, StitchConflict, StitchedRelation } from './tools/ble-analyzer/index.ts';
export { ANALYSIS_FILE, STITCHED_FILES, StitchedDevices, openStitchedAnalysis, parseAnalysisOverview, parseStitchedLine, parseWindowResult } from './tools/ble-analyzer/index.ts';
export type { AnalysedWindowEntry, AnalysisFiles, DatasetAnalysisOverview, DeviceDetail, DeviceFilter, DeviceOrder, DevicePage, DeviceQuery, DeviceRow, OpenedAnalysis, StitchedFile, StitchedLine, StitchedOutputProblem } from './tools/ble-analyzer/index.ts';
export type { BleScenarioTruth } from './demo/ble-scenario/index.ts';
export {
  BLE_SCENARIO_NAMES,
  BLE_TRUTH_FORMAT,
  bleScenarioConfig,
  generateBleBenchmarkInput,
  generateBleScenario,
} from './demo/ble-scenario/index.ts';
export type {
  FetchFunction,
  LlmProvider,
  PlannerClock,
  PlannerConfig,
  PlannerConfigError,
  PlannerConfigLayer,
  PlannerEvent,
  PlannerSessionResult,
  PlannerSettings,
  ProviderKind,
  ProviderTarget,
  StreamDelta,
} from './planner/index.ts';
export {
  DEFAULT_PLANNER_SETTINGS,
  PLANNER_DEMO_BLE_TOOL,
  PLANNER_DEMO_MODEL,
  PLANNER_DEMO_QUESTION,
  PLANNER_EVENT_SCHEMA_VERSION,
  PLANNER_TRANSPORTS,
  REPORT_FORMATS,
  checkPlannerEvent,
  checkPlannerSettings,
  createHttpProvider,
  createScriptedProvider,
  parseProviderScript,
  plannerDemoScript,
  repairInvocationOffline,
  resolvePlannerConfig,
  runPlannerSession,
} from './planner/index.ts';

// MCP both ways (issue 13)
export type {
  McpToolDefinition,
  McpToolProblem,
  McpToolList,
  McpFailure,
  McpAnswer,
  McpConnection,
  McpCallRecord,
  McpCheckRow,
  McpRunBinding,
  McpServerConfig,
  McpOfferedServer,
} from './mcp/index.ts';
export {
  readToolEntries,
  listMcpTools,
  toolResultFromFailure,
  describeMcpFailure,
  callMcpTool,
  mcpCheckCases,
  checkMcpTool,
  formatCheckTable,
  createSdkConnection,
  failureFromError,
  mcpToolForManifest,
  invocationFromMcpCall,
  mcpAnswerFromToolResult,
  captureIdFromUri,
  captureResourceEntry,
  captureResourceContent,
  createMcpRunner,
  mcpPlannerTools,
  mcpPlannerToolSet,
  checkMcpServers,
  describeMcpServerConfig,
} from './mcp/index.ts';
// Case reports (issue 15): the report model, its HTML rendering and verification.
export type {
  RunDocument,
  RunStep,
  PlannerTimelineEntry,
  CaseReport,
  CaptureProvenance,
  VerifyOutcome,
  CaptureFingerprint,
  TwinCheck,
} from './report/index.ts';
export {
  buildCaseReport,
  parseRunDocument,
  parseCaseReport,
  renderReportHtml,
  caseReportFiles,
  checkJsonTwin,
  readReportHtml,
  verifyReport,
  builtinCaptureFingerprint,
  captureProvenance,
  redactKeys,
  selectionOf,
  scatterSvg,
  probabilityRgb,
  NOT_REPORTED_RGB,
  captureEdgeNotes,
} from './report/index.ts';
export type { CaptureEdgeNote } from './report/index.ts';
export type { TimelineStep, RecordedEvent, AccountingRow } from './planner/record/index.ts';
export { timelineFromEvents, accountingRows, accountingTotals, formatCost, summarizeRun, failedInvocations } from './planner/record/index.ts';
