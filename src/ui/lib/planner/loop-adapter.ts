import {
  createHttpProvider,
  createScriptedProvider,
  repairInvocationOffline,
  runPlannerSession,
  type LlmProvider,
  type PlannerEvent,
  type PlannerSettings,
  type ProviderTarget,
  type StreamDelta,
} from '../../../core/index.ts';
import type { PlannerRunResult } from './run-store.ts';
import type { PlannerEnvironment } from './runtime.ts';
import { toJson } from './json.ts';

export interface PlannerLoopInput {
  question: string;
  /** With their keys: used here to build the providers, never recorded. */
  targets: ProviderTarget[];
  settings: Partial<PlannerSettings>;
  /** Let the offline repairer fix failed invocations before the model sees them. */
  offlineRepairer: boolean;
  environment: PlannerEnvironment;
  signal: AbortSignal;
  onEvent: (event: PlannerEvent) => void;
  /** Text, reasoning and tool names as a response streams in: for the page, never recorded. */
  onDelta?: (delta: StreamDelta) => void;
}

function providerFor(target: ProviderTarget, environment: PlannerEnvironment): LlmProvider {
  if (target.provider === 'scripted') return createScriptedProvider(target);
  return createHttpProvider(target, { fetch: environment.fetch, pageOrigin: environment.pageOrigin, now: environment.clock.now, clock: environment.clock });
}

/** The one place that calls the core's planner session. */
export async function runPlannerLoop(input: PlannerLoopInput): Promise<PlannerRunResult> {
  const { environment } = input;
  const result = await runPlannerSession({
    question: input.question,
    targets: input.targets.map((target) => providerFor(target, environment)),
    executor: environment.executor,
    manifests: environment.manifests,
    captures: environment.captures,
    ...(environment.digestFor ? { digestFor: environment.digestFor } : {}),
    settings: input.settings,
    clock: environment.clock,
    signal: input.signal,
    onEvent: input.onEvent,
    ...(input.onDelta ? { onDelta: input.onDelta } : {}),
    ...(input.offlineRepairer ? { repairer: repairInvocationOffline } : {}),
  });
  return {
    success: result.success,
    ...(result.error !== undefined ? { error: result.error } : {}),
    ...(result.errorKind !== undefined ? { errorKind: result.errorKind } : {}),
    ...(result.finalReport !== undefined ? { finalReport: toJson(result.finalReport) } : {}),
    accounting: result.accounting.map(toJson),
    conversation: result.conversation.map(toJson),
    turns: result.turns,
  };
}
