import { capMessage, MAX_ERROR_MESSAGE_CHARS } from '../util/message-value.ts';
import { toolError, type ToolError } from '../contract/tool-error.ts';
import type { ToolResult } from '../contract/types.ts';
import type { CaptureLookup } from '../data/selection.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { finalizeResult, validationFailure } from './finalize-result.ts';
import { cleanMessage } from './run-tool.ts';
import type { ToolRunner } from './runner.ts';
import { DEFAULT_EXECUTOR_SETTINGS, validateInvocation, type ExecutorSettings } from './validate-invocation.ts';

/** What happened to one invocation: its result, and whether anything ran. */
export interface ExecutionRecord {
  /** The invocation's `request_id`, when it had a readable one. */
  requestId: string | null;
  toolName: string | null;
  /** The installed version it ran on (after version resolution), when it got that far. */
  resolvedVersion: string | null;
  /** `validation`: rejected before anything ran; `execution`: the tool ran (or was stopped). */
  phase: 'validation' | 'execution';
  result: ToolResult;
  /** Wall time of validation plus execution, in milliseconds. */
  durationMs: number;
}

export interface ExecuteOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Called once when the tool starts running (never for an invocation that fails validation); worker start-up comes before it. */
  onStarted?: () => void;
  /** When the request was made, if earlier (it waited in a queue): the runner's deadline counts from it. */
  requestedAt?: number;
}

export interface ExecutorDependencies {
  registry: ToolRegistry;
  catalog: CaptureLookup;
  runner: ToolRunner;
  settings?: ExecutorSettings;
  now?: () => number;
}

/** The lifecycle's validate → execute steps (tool-contract.md §6) for one invocation or an ordered plan. */
export interface Executor {
  execute(invocation: unknown, options?: ExecuteOptions): Promise<ExecutionRecord>;
  /**
   * Runs a plan's steps in order. Each step is validated before it runs and an invalid step
   * executes nothing; the valid steps still run, so repair can regenerate only what failed.
   */
  executePlan(plan: ReadonlyArray<unknown>, options?: ExecuteOptions): Promise<ExecutionRecord[]>;
}

export function createExecutor(dependencies: ExecutorDependencies): Executor {
  const settings = dependencies.settings ?? DEFAULT_EXECUTOR_SETTINGS;
  const now = dependencies.now ?? (() => performance.now());

  async function execute(invocation: unknown, options: ExecuteOptions = {}, planErrors: ToolError[] = []): Promise<ExecutionRecord> {
    const started = now();
    const envelope = typeof invocation === 'object' && invocation !== null && !Array.isArray(invocation) ? (invocation as Record<string, unknown>) : {};
    const requestId = typeof envelope.request_id === 'string' ? envelope.request_id : null;
    const toolName = typeof envelope.tool_name === 'string' ? envelope.tool_name : null;
    const validation = validateInvocation(invocation, { registry: dependencies.registry, catalog: dependencies.catalog, settings });
    if (!validation.ok || planErrors.length > 0) {
      return {
        requestId,
        toolName,
        resolvedVersion: validation.tool?.manifest.version ?? null,
        phase: 'validation',
        result: validationFailure([...planErrors, ...(validation.ok ? [] : validation.errors)], validation.warnings),
        durationMs: now() - started,
      };
    }
    const { request, tool } = validation;
    const { runner } = dependencies;
    if (!runner.reportsStart) options.onStarted?.();
    const response = await runner.run(request, {
      onProgress: options.onProgress,
      signal: options.signal,
      ...(options.requestedAt === undefined ? {} : { requestedAt: options.requestedAt }),
      ...(runner.reportsStart && options.onStarted ? { onStarted: options.onStarted } : {}),
    });
    const result = await finalizeResult(response, tool.manifest, request.timeoutMs, validation.warnings);
    return { requestId, toolName, resolvedVersion: request.toolVersion, phase: 'execution', result, durationMs: now() - started };
  }

  /**
   * `execute` that never throws (issue 14): whatever escapes validation, the runner or the
   * result checks becomes an `EXECUTION_ERROR` record with a one-line message.
   */
  async function executeSafely(invocation: unknown, options: ExecuteOptions = {}, planErrors: ToolError[] = []): Promise<ExecutionRecord> {
    const started = now();
    try {
      return await execute(invocation, options, planErrors);
    } catch (error) {
      const envelope = typeof invocation === 'object' && invocation !== null && !Array.isArray(invocation) ? (invocation as Record<string, unknown>) : {};
      return {
        requestId: typeof envelope.request_id === 'string' ? envelope.request_id : null,
        toolName: typeof envelope.tool_name === 'string' ? envelope.tool_name : null,
        resolvedVersion: null,
        phase: 'execution',
        result: { status: 'error', summary: 'The invocation failed unexpectedly.', warnings: [], errors: [toolError('EXECUTION_ERROR', '', cleanMessage(error))], confidence: 0 },
        durationMs: now() - started,
      };
    }
  }

  /** No message of a record is longer than the guard (issue 24, D6), whichever code wrote it. */
  async function executeCapped(invocation: unknown, options: ExecuteOptions = {}, planErrors: ToolError[] = []): Promise<ExecutionRecord> {
    const record = await executeSafely(invocation, options, planErrors);
    const capped = (list: ReadonlyArray<{ message: string }>) => list.some((entry) => entry.message.length > MAX_ERROR_MESSAGE_CHARS);
    if (!capped(record.result.errors) && !capped(record.result.warnings)) return record;
    return {
      ...record,
      result: {
        ...record.result,
        errors: record.result.errors.map((error) => ({ ...error, message: capMessage(error.message) })),
        warnings: record.result.warnings.map((warning) => ({ ...warning, message: capMessage(warning.message) })),
      },
    };
  }

  return {
    execute: (invocation, options) => executeCapped(invocation, options),
    async executePlan(plan, options = {}) {
      const records: ExecutionRecord[] = [];
      // tool-contract.md §3: a request_id is unique per invocation attempt, so a step repeating an
      // earlier step's id is refused (the earlier step still runs).
      const seen = new Map<string, number>();
      // After a cancel, the remaining steps still get a record: the runner reports them cancelled.
      for (const [index, step] of plan.entries()) {
        const id = typeof step === 'object' && step !== null && !Array.isArray(step) ? (step as Record<string, unknown>).request_id : undefined;
        const planErrors: ToolError[] = [];
        if (typeof id === 'string') {
          const earlier = seen.get(id);
          if (earlier !== undefined) {
            planErrors.push(toolError('INVALID_INVOCATION', 'request_id', `request_id '${id.slice(0, 200)}' is already used by step ${earlier + 1} of this plan; each invocation needs its own`));
          } else seen.set(id, index);
        }
        records.push(await executeCapped(step, options, planErrors));
      }
      return records;
    },
  };
}
