// The planner loop: session, scripted provider, offline repairer, settings and XML transport.

export type {
  PlannerSettings,
  PlannerTransport,
  ReportFormat,
  PlannerConfigLayer,
  PlannerConfig,
  PlannerConfigError,
  PlannerConfigErrorCode,
  ConfiguredTarget,
} from './planner-settings.ts';
export {
  DEFAULT_PLANNER_SETTINGS,
  DEFAULT_CONTEXT_WINDOWS,
  PLANNER_TRANSPORTS,
  REPORT_FORMATS,
  MIN_TOOL_RESPONSE_MAX_BYTES,
  checkPlannerSettings,
  expandVariables,
  resolvePlannerConfig,
  plannerSettingsWith,
  contextWindowFor,
} from './planner-settings.ts';
export type { ScriptEntry, ScriptProblem, ScriptedProvider } from './scripted-provider.ts';
export { createScriptedProvider, parseProviderScript, SCRIPTED_FAILURE_KINDS } from './scripted-provider.ts';
export type { ToolDiscovery } from './tool-definitions.ts';
export {
  FINAL_REPORT_TOOL,
  discoverTools,
  envelopeToolDefinition,
  finalReportToolDefinition,
  estimateTokens,
  estimateJsonTokens,
  utf8ByteLength,
} from './tool-definitions.ts';
export type { ParsedToolArguments } from './tool-arguments.ts';
export { parseToolArguments } from './tool-arguments.ts';
export type { TruncatedResponse } from './truncate-response.ts';
export { truncateToolResponse, truncationNotice, utf8Prefix } from './truncate-response.ts';
export type { RepairChange, RepairProposal, RepairContext, InvocationRepairer } from './offline-repairer.ts';
export { repairInvocationOffline } from './offline-repairer.ts';
export type { XmlToolCall, XmlFinalReport, XmlParseResult, XmlNextOptions, XmlPastEntry } from './xml-transport.ts';
export { XML_TAG_PREFIX, xmlSlotId, xmlFinalSlotId, parseXmlReply, unclosedFinalDecision, xmlNextMessage, xmlPastMessage } from './xml-transport.ts';
export type { FinalReportOutcome } from './final-report.ts';
export { acceptFinalReport, makeFinalReport } from './final-report.ts';
export { plannerSystemPrompt, describeCapturesForPrompt, EMPTY_RESPONSE_NOTICE, continueNotice, forcedFinalNotice } from './system-prompt.ts';
export type {
  FinalReportSource,
  PlannerFinalReport,
  LlmAccountingEntry,
  ToolAccountingEntry,
  AccountingEntry,
  PlannerSessionResult,
  InvocationValidation,
  ForcedFinalReason,
  PlannerEvent,
  PlannerEventType,
} from './session-types.ts';
export type { PlannerSessionOptions } from './planner-session.ts';
export { runPlannerSession, CONTEXT_BUDGET_STUB, TOOL_TIMEOUT_MESSAGE } from './planner-session.ts';
export type { CheckedPlannerEvent } from './event-schema.ts';
export { PLANNER_EVENT_SCHEMA_VERSION, checkPlannerEvent } from './event-schema.ts';
