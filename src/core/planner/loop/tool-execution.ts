import type { ToolError } from '../../contract/tool-error.ts';
import type { ToolResult } from '../../contract/types.ts';
import type { ExecutionRecord } from '../../executor/executor.ts';
import { DEFAULT_EXECUTOR_SETTINGS } from '../../executor/validate-invocation.ts';
import { runWithDeadline } from '../../util/deadline.ts';
import { QueueSet, type QueueAdmission } from '../../util/work-queue.ts';
import type { JsonObject } from '../../util/json.ts';
import { CONTEXT_BUDGET_STUB, toolPreflight } from './context-guard.ts';
import type { PlannedCall } from './final-report-step.ts';
import type { RepairChange } from './offline-repairer.ts';
import type { SessionCore } from './session-core.ts';
import { parseToolArguments } from './tool-arguments.ts';
import { estimateJsonTokens, utf8ByteLength } from './tool-definitions.ts';
import { errorList, failureResult, invocationKey, isTimeout, modelContentOf } from './tool-results.ts';
import { isOffered, offeredDefinitions } from './transports.ts';
import { truncateToolResponse } from './truncate-response.ts';
import { xmlPastMessage, type XmlPastEntry } from './xml-transport.ts';

/** A call's outcome as the model will see it. */
interface CallOutcome {
  content: string;
  status: string;
  durationMs: number;
  request: string;
}

/** A failed invocation waiting for the model to regenerate it. */
interface OutstandingFailure {
  toolName: string;
  callId: string;
  invocation: JsonObject;
  errors: ToolError[];
}

function describeChanges(changes: ReadonlyArray<RepairChange>): string {
  return changes.map((change) => `${change.field}: ${JSON.stringify(change.from)} -> ${JSON.stringify(change.to)} (${change.reason})`).join('; ');
}

/**
 * Plan → Validate → Execute → Repair for the calls of one message: the envelope filled by the
 * runtime, `maxToolCallsPerTurn`, dedup (an invocation identical to one that passed is never run
 * again), the offline repairer, `toolTimeout` as the planner's own deadline, the digest the model
 * reads, truncation and the context guard's `tool_preflight`.
 */
export class ToolExecution {
  private readonly passed = new Map<string, { requestId: string; turn: number; result: ToolResult }>();
  private outstanding: OutstandingFailure[] = [];

  private readonly queues: QueueSet;

  constructor(private readonly core: SessionCore) {
    const built = core.options.queues ?? QueueSet.create({}, [], { defaultConcurrent: 1, now: () => core.options.clock.now() });
    if (built instanceof QueueSet) this.queues = built;
    else if (built.ok) this.queues = built.queues;
    else throw new Error(built.message);
  }

  commitToolOutput(call: PlannedCall, content: string): void {
    if (call.viaXml) return;
    this.core.commit({ role: 'tool', tool_call_id: call.id, name: call.name, content });
  }

  async runCalls(calls: ReadonlyArray<PlannedCall>): Promise<void> {
    const { core } = this;
    const limit = core.settings.maxToolCallsPerTurn;
    const kept = calls.slice(0, limit);
    const excess = calls.slice(limit);
    const pendingRepairs = [...this.outstanding];
    const outcomes: Array<[PlannedCall, CallOutcome]> = [];
    for (const call of kept) {
      // Cancelled: the calls not started are not run; the loop returns the session's result.
      if (core.cancelled()) return;
      const outcome = await this.runCall(call, pendingRepairs);
      outcomes.push([call, outcome]);
      this.commitToolOutput(call, outcome.content);
    }
    if (excess.length > 0) {
      core.emit({ type: 'calls_dropped', turn: core.turn, calls: excess.map((call) => ({ id: call.id, name: call.name, reason: `over maxToolCallsPerTurn (${limit})` })) });
      const content = `(tool failed: dropped: at most ${limit} tool calls run per turn (maxToolCallsPerTurn); this call and ${excess.length - 1} other excess call(s) were not executed. Send them again in a later turn if they are still needed.)`;
      for (const call of excess) {
        outcomes.push([call, { content, status: 'dropped', durationMs: 0, request: call.rawArguments }]);
        this.commitToolOutput(call, content);
      }
    }
    if (calls.some((call) => call.viaXml)) {
      const entries: XmlPastEntry[] = outcomes.map(([call, outcome]) => ({ slotId: call.id, tool: call.name, status: outcome.status, durationMs: outcome.durationMs, request: outcome.request, response: outcome.content }));
      core.commit({ role: 'user', content: xmlPastMessage(entries) });
    }
  }

  /** One call: parse, fill the envelope, validate and execute (with the repairer), digest, truncate, guard. */
  private async runCall(call: PlannedCall, pendingRepairs: OutstandingFailure[]): Promise<CallOutcome> {
    const { core } = this;
    const turn = core.turn;
    const dropped = (reason: string, content: string): CallOutcome => {
      core.emit({ type: 'calls_dropped', turn, calls: [{ id: call.id, name: call.name, reason, rawArguments: call.rawArguments }] });
      return { content, status: 'dropped', durationMs: 0, request: call.rawArguments };
    };
    if (core.toolBudgetExceeded) return dropped('context window budget exceeded: no new tools may start', CONTEXT_BUDGET_STUB);

    const parsed = parseToolArguments(call.rawArguments);
    if (!parsed.ok) {
      this.outstanding.push({ toolName: call.name, callId: call.id, invocation: {}, errors: [{ code: 'INVALID_INVOCATION', field: '', message: parsed.message }] });
      return dropped(
        `unreadable arguments: ${parsed.message}`,
        `(tool failed: the arguments could not be parsed as JSON, even after repair: ${parsed.message}. The call was dropped; send it again with a JSON object as arguments.)`,
      );
    }
    const invocation = this.fillEnvelope(call.name, parsed.value);
    const requestId = invocation.request_id as string;
    core.emit({
      type: 'invocation',
      turn,
      callId: call.id,
      requestId,
      toolName: call.name,
      invocation,
      source: 'model',
      argumentsRepaired: parsed.repaired,
      ...(parsed.repaired ? { rawArguments: call.rawArguments, repairedArguments: parsed.repairedText } : {}),
    });
    const earlier = pendingRepairs.findIndex((failure) => failure.toolName === call.name);
    if (earlier >= 0) {
      const [failure] = pendingRepairs.splice(earlier, 1);
      this.outstanding = this.outstanding.filter((item) => item !== failure);
      core.emit({ type: 'repair', turn, callId: call.id, failed: failure.invocation, regenerated: invocation, errors: failure.errors, source: 'model', changes: [] });
    }

    if (!isOffered(core, call.name)) {
      const offered = offeredDefinitions(core, core.forcedFinal).map((tool) => tool.name);
      const error: ToolError = {
        code: 'UNKNOWN_TOOL',
        field: 'tool_name',
        message: `No tool named '${call.name}' is offered ${core.forcedFinal ? 'on this turn' : 'in this session'}; offered: ${offered.join(', ')}`,
      };
      core.emit({ type: 'validation', turn, callId: call.id, requestId, validation: { ok: false, errors: [error], warnings: [] } });
      this.outstanding.push({ toolName: call.name, callId: call.id, invocation, errors: [error] });
      return this.deliver(call, invocation, null, failureResult('Invocation failed validation.', [error]), { reusedFrom: null });
    }

    const reuse = this.passed.get(invocationKey(invocation));
    if (reuse) {
      core.emit({ type: 'validation', turn, callId: call.id, requestId, validation: { ok: true, warnings: [] } });
      const content = `(already executed: identical to ${reuse.requestId} in turn ${reuse.turn}; its result is reused, not run again)\n${this.modelContent(call.name, reuse.result)}`;
      return this.deliver(call, invocation, null, reuse.result, { reusedFrom: reuse.requestId, content });
    }

    const record = await this.executeAndRecord(call, invocation);
    if (record.phase === 'validation' && core.options.repairer) {
      const repaired = await this.repairOffline(call, invocation, record);
      if (repaired) return repaired;
    }
    this.remember(call, invocation, record);
    return this.deliver(call, invocation, record, record.result, { reusedFrom: null, accounted: true });
  }

  /** The offline repairer's turn at a failed invocation; null when it cannot fix it. */
  private async repairOffline(call: PlannedCall, failed: JsonObject, record: ExecutionRecord): Promise<CallOutcome | null> {
    const { core } = this;
    const repairer = core.options.repairer!;
    const toolName = typeof failed.tool_name === 'string' ? failed.tool_name : call.name;
    const proposal = repairer(failed, record.result.errors, { question: core.options.question, captures: core.options.captures, manifest: core.discovery.manifests[toolName] });
    if (!proposal) return null;
    const regenerated: JsonObject = { ...proposal.invocation, request_id: core.newRequestId() };
    core.emit({ type: 'repair', turn: core.turn, callId: call.id, failed, regenerated, errors: record.result.errors, source: 'offline_repairer', changes: proposal.changes });
    core.emit({ type: 'invocation', turn: core.turn, callId: call.id, requestId: regenerated.request_id as string, toolName, invocation: regenerated, source: 'offline_repairer', argumentsRepaired: false });
    const second = await this.executeAndRecord(call, regenerated);
    this.remember(call, regenerated, second);
    const content = [
      `[offline_repairer] ${failed.request_id as string} failed validation: ${errorList(record.result.errors)}.`,
      `The offline repairer (no model) regenerated it as ${regenerated.request_id as string}: ${describeChanges(proposal.changes)}`,
      `Regenerated invocation: ${JSON.stringify(regenerated)}`,
      `Result of ${regenerated.request_id as string}:`,
      this.modelContent(toolName, second.result),
    ].join('\n');
    return this.deliver(call, regenerated, second, second.result, { reusedFrom: null, content, accounted: true });
  }

  /** Keeps what passed (never re-executed) and what failed (for the model to regenerate). */
  private remember(call: PlannedCall, invocation: JsonObject, record: ExecutionRecord): void {
    if (record.result.status === 'error') {
      this.outstanding.push({ toolName: call.name, callId: call.id, invocation, errors: record.result.errors });
    } else {
      this.passed.set(invocationKey(invocation), { requestId: invocation.request_id as string, turn: this.core.turn, result: record.result });
    }
  }

  /**
   * Validates and executes through the executor. `toolTimeout` is the planner's own deadline,
   * counted from the request (a wait for a free slot or a cold worker's start-up is inside it),
   * whatever `timeout_ms` the invocation carries.
   */
  private async executeAndRecord(call: PlannedCall, invocation: JsonObject): Promise<ExecutionRecord> {
    const { core } = this;
    const { clock, executor, signal } = core.options;
    const started = clock.now();
    const timeoutMs = core.settings.toolTimeout;
    const stopped = (summary: string, error: ToolError): ExecutionRecord => ({
      requestId: invocation.request_id as string,
      toolName: call.name,
      resolvedVersion: null,
      phase: 'execution',
      durationMs: clock.now() - started,
      result: failureResult(summary, [error]),
    });
    // The deadline counts from the request: the wait for a queue slot is inside it.
    const queue = this.queues.get(core.options.queueFor?.(call.name));
    const waited: { admission: QueueAdmission | null } = { admission: null };
    const outcome = await runWithDeadline(
      async (runSignal) => {
        const ran = await queue.run(async (admitted) => {
          waited.admission = admitted;
          return executor.execute(invocation, { signal: runSignal, requestedAt: started }).catch((error: unknown) =>
            stopped(`${call.name} failed while running.`, { code: 'EXECUTION_ERROR', field: '', message: error instanceof Error ? error.message : String(error) }),
          );
        }, runSignal);
        // Aborted while waiting: the deadline's outcome (timeout or cancelled) is what counts.
        return ran?.value ?? stopped(`${call.name} was stopped while waiting in queue ${queue.name}.`, { code: 'EXECUTION_ERROR', field: '', message: 'stopped before a slot was free' });
      },
      { clock, totalMs: timeoutMs, signal, startedAt: started },
    );
    const queued = waited.admission;
    const record =
      outcome.kind === 'done'
        ? outcome.value
        : outcome.kind === 'timeout'
          ? stopped(`${call.name} was stopped after ${timeoutMs} ms (toolTimeout).`, { code: 'TIMEOUT', field: 'timeout_ms', message: `${call.name} did not finish within toolTimeout ${timeoutMs} ms and was aborted` })
          : stopped(`${call.name} was stopped: the session was cancelled.`, { code: 'EXECUTION_ERROR', field: '', message: 'cancelled by the caller' });
    const validation =
      record.phase === 'validation' ? { ok: false as const, errors: record.result.errors, warnings: record.result.warnings } : { ok: true as const, warnings: record.result.warnings };
    core.emit({ type: 'validation', turn: core.turn, callId: call.id, requestId: invocation.request_id as string, validation });
    const failed = record.result.status === 'error';
    core.accounting.tool(call.name, started, JSON.stringify(invocation).length, 0, call.viaXml ? 'xml' : 'native', {
      ...(failed ? { error: errorList(record.result.errors) } : {}),
      requestId: invocation.request_id as string,
      latency: record.durationMs,
      ...(queued ? { queue: queued.queue, queueDepth: queued.depth, queueWaitMs: queued.waitedMs } : {}),
    });
    return record;
  }

  private modelContent(toolName: string, result: ToolResult): string {
    return modelContentOf(result, this.core.options.digestFor?.(toolName));
  }

  /** Truncates, guards (`tool_preflight`) and records the output the model will read. */
  private deliver(
    call: PlannedCall,
    invocation: JsonObject,
    record: ExecutionRecord | null,
    result: ToolResult,
    extra: { reusedFrom: string | null; content?: string; accounted?: boolean },
  ): CallOutcome {
    const { core } = this;
    const limit = core.settings.toolResponseMaxBytes;
    const truncation = truncateToolResponse(extra.content ?? this.modelContent(call.name, result), limit);
    if (truncation.truncated) {
      core.emit({ type: 'warning', turn: core.turn, message: `Tool response truncated: ${call.name}, ${truncation.originalBytes} bytes, limit ${limit} bytes.` });
    }
    const guarded = toolPreflight(core, truncation.text);
    const content = guarded.content;
    if (extra.accounted) {
      core.accounting.completeTool(invocation.request_id as string, {
        charactersOut: content.length,
        ...(guarded.dropped
          ? { status: 'failed' as const, error: 'context window budget exceeded', originalTokens: guarded.tokens, replacementTokens: estimateJsonTokens({ role: 'tool', content }) }
          : {}),
      });
    }
    core.emit({
      type: 'execution',
      turn: core.turn,
      callId: call.id,
      requestId: invocation.request_id as string,
      toolName: call.name,
      record,
      result,
      modelContent: content,
      modelContentBytes: utf8ByteLength(content),
      timedOut: isTimeout(result),
      truncated: truncation.truncated ? { originalBytes: truncation.originalBytes, limitBytes: limit } : null,
      reusedFrom: extra.reusedFrom,
      droppedForContext: guarded.dropped,
    });
    return { content, status: guarded.dropped ? 'dropped' : result.status, durationMs: record?.durationMs ?? 0, request: JSON.stringify(invocation) };
  }

  /** The envelope the executor sees: the runtime fills `tool_name`, a fresh `request_id`, `tool_version` and `timeout_ms`. */
  private fillEnvelope(name: string, args: JsonObject): JsonObject {
    const { core } = this;
    const { tool_name: _name, request_id: _id, ...rest } = args;
    const invocation: JsonObject = { tool_name: name, ...rest, request_id: core.newRequestId() };
    const versions = core.discovery.versions[name];
    if (invocation.tool_version === undefined && versions) invocation.tool_version = versions[0];
    // The invocation keeps the runtime's minimum; the planner's toolTimeout is enforced on its own.
    if (invocation.timeout_ms === undefined) invocation.timeout_ms = Math.max(core.settings.toolTimeout, core.options.minTimeoutMs ?? DEFAULT_EXECUTOR_SETTINGS.minTimeoutMs);
    return invocation;
  }
}
