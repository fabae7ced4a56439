import { createExecutor, type Executor } from '../../executor/executor.ts';
import { createInProcessRunner } from '../../executor/in-process-runner.ts';
import type { ToolRunner } from '../../executor/runner.ts';
import { demoCatalog } from '../../executor/test-support.ts';
import { builtinTools } from '../../tools/builtin-tools.ts';
import { ToolRegistry } from '../../tools/registry.ts';
import type { JsonObject, JsonValue } from '../../util/json.ts';
import type { QueueSet } from '../../util/work-queue.ts';
import type { LlmProvider, PlannerClock } from '../provider-types.ts';
import type { InvocationRepairer } from './offline-repairer.ts';
import { runPlannerSession } from './planner-session.ts';
import type { PlannerSettings } from './planner-settings.ts';
import { createScriptedProvider } from './scripted-provider.ts';
import type { PlannerEvent, PlannerSessionResult } from './session-types.ts';

/**
 * A clock for the scenario suite. Sleeps the `hold` predicate picks (the tool timer) wait until
 * `advance` passes their deadline or their signal aborts; every other sleep (retry waits)
 * returns at once, moving time forward and recorded in `waits`.
 */
export class FakeClock implements PlannerClock {
  time = 1_767_225_600_000;
  readonly waits: number[] = [];
  private held: Array<{ deadline: number; resolve: () => void }> = [];

  constructor(private readonly hold: (ms: number) => boolean = () => false) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    if (!this.hold(ms)) {
      this.waits.push(ms);
      this.time += ms;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = { deadline: this.time + ms, resolve };
      this.held.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.held = this.held.filter((item) => item !== timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Sleeps waiting on this clock now. */
  pending(): number {
    return this.held.length;
  }

  advance(ms: number): void {
    this.time += ms;
    const due = this.held.filter((timer) => timer.deadline <= this.time);
    this.held = this.held.filter((timer) => timer.deadline > this.time);
    for (const timer of due) timer.resolve();
  }
}

export const TEST_TOOL_TIMEOUT = 30_000;
export const ECHO_SELECTION: JsonObject = { capture_id: 'cap_2026_03_14_a' };

/** A `test_echo` tool call as a model sends it (envelope without tool_name and request_id). */
export function echoCall(id: string, args: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return { id, name: 'test_echo', arguments: { capture_selection: ECHO_SELECTION, arguments: args, ...extra } };
}

export function finalCall(id: string, content = 'Done.', extra: JsonObject = {}): JsonObject {
  return { id, name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: content, ...extra } };
}

export function turnOf(...calls: JsonObject[]): JsonObject {
  return { tool_calls: calls, usage: { input_tokens: 100, output_tokens: 20 } };
}

export interface HarnessOptions {
  scripts: JsonValue[][];
  question?: string;
  settings?: Partial<PlannerSettings>;
  repairer?: InvocationRepairer;
  runner?: ToolRunner;
  clock?: FakeClock;
  signal?: AbortSignal;
  targets?: LlmProvider[];
  contextWindows?: Array<number | undefined>;
  queues?: QueueSet;
  queueFor?: (toolName: string) => string;
}

export interface HarnessRun {
  result: PlannerSessionResult;
  events: PlannerEvent[];
  clock: FakeClock;
  executor: Executor;
  targets: LlmProvider[];
}

/** The real executor over the built-in tools (test tools on) and captures; in process unless a runner is given. */
export function harnessExecutor(runner?: ToolRunner): { executor: Executor; registry: ToolRegistry } {
  const registry = new ToolRegistry(builtinTools({ testTools: true }));
  const catalog = demoCatalog();
  return { executor: createExecutor({ registry, catalog, runner: runner ?? createInProcessRunner({ registry, capture: (id) => catalog.capture(id) }) }), registry };
}

/** Starts a session through scripted targets; `run.done` resolves with the result and recording. */
export function startSession(options: HarnessOptions): { done: Promise<HarnessRun>; clock: FakeClock; events: PlannerEvent[] } {
  const clock = options.clock ?? new FakeClock((ms) => ms === (options.settings?.toolTimeout ?? TEST_TOOL_TIMEOUT));
  const { executor, registry } = harnessExecutor(options.runner);
  const targets =
    options.targets ??
    options.scripts.map((script, index) =>
      createScriptedProvider({ provider: 'scripted', model: `script-${index + 1}`, script, contextWindow: options.contextWindows?.[index] }),
    );
  const events: PlannerEvent[] = [];
  const done = runPlannerSession({
    question: options.question ?? 'Echo something, then report.',
    targets,
    executor,
    manifests: registry.manifests(),
    captures: demoCatalog().list(),
    settings: { toolTimeout: TEST_TOOL_TIMEOUT, ...options.settings },
    clock,
    signal: options.signal,
    onEvent: (event) => events.push(event),
    repairer: options.repairer,
    digestFor: (name) => registry.latest(name),
    nonce: 'c0ffee42',
    ...(options.queues ? { queues: options.queues } : {}),
    ...(options.queueFor ? { queueFor: options.queueFor } : {}),
  }).then((result) => ({ result, events, clock, executor, targets }));
  return { done, clock, events };
}

export function runSession(options: HarnessOptions): Promise<HarnessRun> {
  return startSession(options).done;
}

export function eventsOf<T extends PlannerEvent['type']>(events: ReadonlyArray<PlannerEvent>, type: T): Array<Extract<PlannerEvent, { type: T }>> {
  return events.filter((event): event is Extract<PlannerEvent, { type: T }> => event.type === type);
}
