export type { FetchFunction, LlmProvider, PlannerClock, ProviderKind, ProviderTarget, StreamDelta } from './provider-types.ts';
export { createHttpProvider } from './providers/index.ts';
export type {
  PlannerConfig,
  PlannerConfigError,
  PlannerConfigLayer,
  PlannerEvent,
  PlannerSessionResult,
  PlannerSettings,
} from './loop/index.ts';
export {
  DEFAULT_PLANNER_SETTINGS,
  PLANNER_EVENT_SCHEMA_VERSION,
  PLANNER_TRANSPORTS,
  REPORT_FORMATS,
  checkPlannerEvent,
  checkPlannerSettings,
  createScriptedProvider,
  parseProviderScript,
  repairInvocationOffline,
  resolvePlannerConfig,
  runPlannerSession,
} from './loop/index.ts';
export { PLANNER_DEMO_BLE_TOOL, PLANNER_DEMO_MODEL, PLANNER_DEMO_QUESTION, plannerDemoScript } from './demo/index.ts';
