import type { ToolError } from '../../contract/tool-error.ts';
import type { ToolResult } from '../../contract/types.ts';
import type { CaptureInfo } from '../../data/capture.ts';
import type { ExecutionRecord, Executor } from '../../executor/executor.ts';
import { DEFAULT_EXECUTOR_SETTINGS } from '../../executor/validate-invocation.ts';
import { digestToolResultText, type DigestingTool } from '../../tools/result-digest.ts';
import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import type { ToolManifest } from '../../contract/types.ts';
import { isJsonObject, type JsonObject, type JsonValue } from '../../util/json.ts';
import { estimateCostUsd } from '../providers/pricing.ts';
import {
  PROVIDER_INTERFACE_VERSION,
  type ChatMessage,
  type ChatToolCall,
  type LlmProvider,
  type LlmResponse,
  type PlannerClock,
  type ProviderFailure,
  type StreamDelta,
} from '../provider-types.ts';
import { acceptFinalReport, makeFinalReport } from './final-report.ts';
import type { InvocationRepairer, RepairChange } from './offline-repairer.ts';
import { contextWindowFor, plannerSettingsWith, type PlannerSettings } from './planner-settings.ts';
import type {
  AccountingEntry,
  ForcedFinalReason,
  PlannerEvent,
  PlannerFinalReport,
  PlannerSessionResult,
  ToolAccountingEntry,
} from './session-types.ts';
import { EMPTY_RESPONSE_NOTICE, continueNotice, forcedFinalNotice, plannerSystemPrompt } from './system-prompt.ts';
import { extractTextToolCalls, withReasoningSeparated } from './local-model-output.ts';
import { parseToolArguments } from './tool-arguments.ts';
import { FINAL_REPORT_TOOL, discoverTools, estimateJsonTokens, estimateTokens, utf8ByteLength, type ToolDiscovery } from './tool-definitions.ts';
import { truncateToolResponse } from './truncate-response.ts';
import { parseXmlReply, unclosedFinalDecision, xmlNextMessage, xmlPastMessage, type XmlParseResult, type XmlPastEntry } from './xml-transport.ts';

/** The deterministic stub for a tool output the context guard dropped. */
export const CONTEXT_BUDGET_STUB = '(tool failed: context window budget exceeded)';
/** What the model receives for a tool that ran out of time. */
export const TOOL_TIMEOUT_MESSAGE = '(tool failed: timeout)';

const MAX_BACKOFF_MS = 60_000;
const FIRST_BACKOFF_MS = 1_000;
const EXECUTOR_NAME = 'sextant';

/** Everything one planner session needs. The core reads no clock, timer or environment of its own. */
export interface PlannerSessionOptions {
  question: string;
  /** The provider targets, in order: attempt N of a turn goes to `targets[(N-1) % length]`. */
  targets: ReadonlyArray<LlmProvider>;
  executor: Executor;
  /** The installed manifests (every version); each name becomes one tool. */
  manifests: ReadonlyArray<ToolManifest>;
  /** The discovered captures: shown to the model as data, and used by the offline repairer. */
  captures: ReadonlyArray<CaptureInfo>;
  settings?: Partial<PlannerSettings>;
  clock: PlannerClock;
  signal?: AbortSignal;
  /** The step recording, event by event (a throwing listener is ignored). */
  onEvent?: (event: PlannerEvent) => void;
  /** Streaming output of the current request, for a live view. */
  onDelta?: (delta: StreamDelta) => void;
  /** Fixes failed invocations before the model sees them (the offline repairer). */
  repairer?: InvocationRepairer;
  /** Session nonce (8 hex digits by default, random); tests fix it. */
  nonce?: string;
  /** A tool's digest by name (the registry's newest implementation); the generic digest otherwise. */
  digestFor?: (toolName: string) => DigestingTool | undefined;
  /** The executor's minimum `timeout_ms` (default: the runtime's 1000 ms). */
  minTimeoutMs?: number;
}

/** One call the model made, whichever transport carried it. */
interface PlannedCall {
  id: string;
  name: string;
  rawArguments: string;
  viaXml: boolean;
}

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

type TurnRequestOutcome =
  | { kind: 'response'; response: LlmResponse; xml: XmlParseResult | null }
  | { kind: 'failed'; failure: ProviderFailure | null }
  | { kind: 'fatal'; failure: ProviderFailure };

class SessionEnd {
  constructor(readonly result: PlannerSessionResult) {}
}

function randomNonce(): string {
  const bytes = new Uint8Array(4);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** JSON with sorted keys: identical invocations compare equal whatever order the model wrote. */
function canonicalJson(value: JsonValue | undefined): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function errorList(errors: ReadonlyArray<ToolError>): string {
  return errors.map((error) => `${error.code} at ${error.field || '(envelope)'}: ${error.message}`).join('; ');
}

function failureResult(summary: string, errors: ToolError[]): ToolResult {
  return { status: 'error', summary, warnings: [], errors, confidence: 0 };
}

function isTimeout(result: ToolResult): boolean {
  return result.status === 'error' && result.errors.some((error) => error.code === 'TIMEOUT');
}

/**
 * A result as the model reads it: the tool's digest of the ToolResult (compact JSON; the full
 * result stays in the record), with failures led by `(tool failed: ...)`.
 */
export function modelContentOf(result: ToolResult, tool?: DigestingTool): string {
  if (isTimeout(result)) return TOOL_TIMEOUT_MESSAGE;
  const shown = digestToolResultText(result, tool);
  return result.status === 'error' ? `(tool failed: ${errorList(result.errors)})\n${shown}` : shown;
}

/**
 * The planner session: Discover → Plan → Validate → Execute → Summarize → Repair, under every
 * guarantee of agent-contract.md. It never throws: every outcome is a `PlannerSessionResult`.
 */
export async function runPlannerSession(options: PlannerSessionOptions): Promise<PlannerSessionResult> {
  const session = new PlannerSession(options);
  try {
    return await session.run();
  } catch (error) {
    if (error instanceof SessionEnd) return error.result;
    return session.fail(`Internal error: ${error instanceof Error ? error.message : String(error)}`, 'invalid_response');
  }
}

class PlannerSession {
  private readonly settings: PlannerSettings;
  private readonly nonce: string;
  private readonly discovery: ToolDiscovery;
  private readonly conversation: ChatMessage[] = [];
  private readonly accounting: AccountingEntry[] = [];
  private seq = 0;
  private requestCount = 0;
  private turn = 0;
  /** Provider-reported context after the last response (input + output tokens). */
  private ctxTokens = 0;
  /** Estimated tokens of messages appended since the last request. */
  private pendingTokens = 0;
  private forcedFinal: ForcedFinalReason | null = null;
  private toolBudgetExceeded = false;
  private nextSlot = 1;
  private nextNotices: string[] = [];
  private readonly notBefore = new Map<number, number>();
  private readonly passed = new Map<string, { requestId: string; turn: number; result: ToolResult }>();
  private outstanding: OutstandingFailure[] = [];
  private finalReportRejectedInTurn = 0;
  /** Tool calls extracted from text so far (their ids are `text-call-N`). */
  private textCalls = 0;

  constructor(private readonly options: PlannerSessionOptions) {
    this.settings = plannerSettingsWith(options.settings);
    this.nonce = options.nonce ?? randomNonce();
    this.discovery = discoverTools(options.manifests, { toolTimeoutMs: this.settings.toolTimeout, reportFormat: this.settings.reportFormat });
  }

  // ---------------------------------------------------------------------------------------
  // The session

  async run(): Promise<PlannerSessionResult> {
    const { options, settings } = this;
    this.emit({ type: 'session_started', question: options.question, settings, targets: options.targets.map((provider) => this.label(provider)), nonce: this.nonce });
    if (options.targets.length === 0) return this.fail('No provider target is configured: add at least one.', 'no_targets');
    const stale = options.targets.find((provider) => provider.interfaceVersion !== PROVIDER_INTERFACE_VERSION);
    if (stale) {
      return this.fail(`${this.label(stale)} implements provider interface ${String(stale.interfaceVersion)}; this planner speaks ${PROVIDER_INTERFACE_VERSION}.`, 'unsupported_provider');
    }
    this.emit({
      type: 'discover',
      definitions: this.offeredDefinitions(null),
      tokenEstimate: this.discovery.tokenEstimate,
      estimator: 'ceil(UTF-8 bytes of the definitions JSON / 4)',
      captures: options.captures.map((capture) => capture.id),
      problems: this.discovery.problems,
    });
    this.commit({
      role: 'system',
      content: plannerSystemPrompt({ captures: options.captures, transport: settings.transport, maxToolCallsPerTurn: settings.maxToolCallsPerTurn, reportFormat: settings.reportFormat }),
    });
    this.commit({ role: 'user', content: options.question });

    let lastFailure: ProviderFailure | null = null;
    for (this.turn = 1; this.turn <= settings.maxTurns; this.turn += 1) {
      this.checkCancelled();
      if (this.turn === settings.maxTurns && this.forcedFinal === null) this.forcedFinal = 'max_turns';
      this.emit({ type: 'turn_started', turn: this.turn, forcedFinal: this.forcedFinal, tools: this.offeredDefinitions(this.forcedFinal).map((tool) => tool.name) });
      const outcome = await this.requestTurn();
      const forcedThisTurn = this.forcedFinal;
      if (outcome.kind === 'fatal') return this.fail(outcome.failure.message, outcome.failure.kind);
      if (outcome.kind === 'failed') {
        lastFailure = outcome.failure ?? lastFailure;
      } else {
        const report = await this.handleResponse(outcome.response, outcome.xml);
        if (report) return this.finish(report);
      }
      if (forcedThisTurn === 'context') return this.finish(this.synthetic('context_window_exceeded', 'The context window budget was used up before a final report was written.', lastFailure));
      if (forcedThisTurn === 'final_report_failed') {
        return this.finish(this.synthetic('final_report_failed', 'The final report was rejected and the last try did not produce a valid one.', lastFailure));
      }
    }
    if (this.finalReportRejectedInTurn === settings.maxTurns) {
      return this.finish(this.synthetic('final_report_failed', 'The final report was rejected on the last turn.', lastFailure));
    }
    return this.finish(this.synthetic('max_turns_exhausted', `The session reached maxTurns (${settings.maxTurns}) without a final report.`, lastFailure));
  }

  // ---------------------------------------------------------------------------------------
  // One turn's LLM request, with retries cycling through the targets

  private async requestTurn(): Promise<TurnRequestOutcome> {
    const { settings, options } = this;
    let notices = [...this.nextNotices];
    this.nextNotices = [];
    let lastFailure: ProviderFailure | null = null;
    const rateLimitedThisCycle = new Set<number>();
    let rateLimits = 0;
    for (let attempt = 1; attempt <= settings.maxRetries; attempt += 1) {
      this.checkCancelled();
      const index = (attempt - 1) % options.targets.length;
      const provider = options.targets[index];
      if (index === 0) rateLimitedThisCycle.clear();
      const wait = (this.notBefore.get(index) ?? 0) - options.clock.now();
      if (wait > 0) {
        await options.clock.sleep(wait, options.signal);
        this.checkCancelled();
      }

      const guard = this.turnPreflight(provider, notices);
      const messages = [...this.conversation, ...guard.ephemeral];
      const tools = guard.tools;
      this.emit({
        type: 'llm_request',
        turn: this.turn,
        attempt,
        target: this.label(provider),
        provider: provider.target.provider,
        model: provider.target.model,
        tools: tools.map((tool) => tool.name),
        ctxTokens: this.ctxTokens,
        pendingTokens: guard.pendingTokens,
        schemaTokens: guard.schemaTokens,
        expectedTokens: this.ctxTokens + guard.pendingTokens + guard.schemaTokens,
        notices: guard.ephemeral.map((message) => message.content),
      });

      const started = options.clock.now();
      const outcome = await provider.complete({
        messages,
        tools,
        maxOutputTokens: settings.maxOutputTokens,
        signal: options.signal,
        ...(options.onDelta ? { onDelta: options.onDelta } : {}),
      });
      const latency = options.clock.now() - started;

      if (!outcome.ok) {
        const failure = outcome.failure;
        this.accountLlm(provider, started, latency, { failure });
        if (failure.kind === 'cancelled' || options.signal?.aborted) this.checkCancelled(true);
        const fatal = failure.kind === 'auth' || failure.kind === 'quota';
        let waitMs = 0;
        if (failure.kind === 'rate_limit') {
          // Retry-After wins; else exponential backoff 1 s → 60 s, and the maximum when every target of the cycle was limited.
          rateLimits += 1;
          rateLimitedThisCycle.add(index);
          const everyTargetLimited = options.targets.length > 1 && rateLimitedThisCycle.size === options.targets.length;
          const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (rateLimits - 1));
          waitMs = failure.retryAfterMs ?? (everyTargetLimited ? MAX_BACKOFF_MS : backoff);
          const until = options.clock.now() + waitMs;
          const limited = everyTargetLimited && failure.retryAfterMs === undefined ? options.targets.map((_, target) => target) : [index];
          for (const target of limited) this.notBefore.set(target, Math.max(this.notBefore.get(target) ?? 0, until));
        }
        this.emit({ type: 'llm_failure', turn: this.turn, attempt, target: this.label(provider), latencyMs: latency, failure, fatal, waitMs });
        if (fatal) return { kind: 'fatal', failure };
        lastFailure = failure;
        if (failure.kind === 'invalid_response') {
          notices = [...notices.filter((notice) => !notice.startsWith('System notice: the previous reply')), 'System notice: the previous reply could not be read. Answer again.'];
        }
        continue;
      }

      // Reasoning blocks leave the content before anything parses it; then tool calls written as text.
      let response = withReasoningSeparated(outcome.response);
      let extractedFromText: string[] = [];
      if (response.toolCalls.length === 0 && settings.transport !== 'xml') {
        const names = new Set(guard.tools.map((tool) => tool.name));
        const found = extractTextToolCalls(response.text, names, this.textCalls + 1);
        if (found) {
          this.textCalls += found.calls.length;
          extractedFromText = found.calls.map((call) => call.id);
          response = { ...response, text: found.text, toolCalls: found.calls };
        }
      }
      const xml = settings.transport === 'native' ? null : parseXmlReply(response.text, this.nonce, { firstFreeSlot: this.nextSlot, numberedSlots: settings.transport === 'xml' && this.forcedFinal === null });
      const hasCalls = response.toolCalls.length > 0 || (xml !== null && (xml.calls.length > 0 || xml.final !== null));
      // Reasoning alone is an empty response (agent-contract.md §11: reasoning-only output is missing output).
      const empty = !hasCalls && response.text.trim() === '';
      let ignored: string | undefined;
      if (empty) ignored = 'empty';
      else if (xml?.final && !xml.final.closed && unclosedFinalDecision(response.stopReason) === 'retry') ignored = 'xml_final_truncated';
      this.emit({
        type: 'llm_response',
        turn: this.turn,
        attempt,
        target: this.label(provider),
        model: response.model,
        latencyMs: latency,
        usage: response.usage,
        stopReason: response.stopReason,
        text: response.text,
        ...(response.reasoning ? { reasoning: response.reasoning } : {}),
        toolCalls: response.toolCalls,
        ...(extractedFromText.length > 0 ? { extractedFromText } : {}),
        ...(ignored ? { ignored } : {}),
      });
      if (ignored) {
        this.accountLlm(provider, started, latency, { response, error: ignored === 'empty' ? 'empty response' : 'final report cut off (stop reason length)' });
        // Not added to the conversation; the retry carries the notice once.
        const notice =
          ignored === 'empty' ? EMPTY_RESPONSE_NOTICE : 'System notice: your final report was cut off before its closing tag (output limit). Write it again, shorter, and close the tag.';
        notices = [...notices.filter((existing) => existing !== notice), notice];
        lastFailure = { kind: 'invalid_response', message: ignored === 'empty' ? 'The model sent an empty response.' : 'The final report was cut off.' };
        continue;
      }
      if (extractedFromText.length > 0) {
        this.emit({ type: 'warning', turn: this.turn, message: `Tool call(s) extracted from the reply's text (no native tool calls): ${response.toolCalls.map((call) => call.name).join(', ')}` });
      }
      if (xml && xml.ignored.length > 0) this.emit({ type: 'warning', turn: this.turn, message: `Ignored XML tags: ${xml.ignored.join('; ')}` });
      this.accountLlm(provider, started, latency, { response });
      const reported = response.usage.inputTokens + response.usage.outputTokens;
      this.ctxTokens = response.usageReported === false || reported === 0 ? this.ctxTokens + this.pendingTokens + estimateTokens(response.text) + estimateJsonTokens(response.toolCalls) : reported;
      this.pendingTokens = 0;
      return { kind: 'response', response, xml };
    }
    return { kind: 'failed', failure: lastFailure };
  }

  /** The ephemeral messages of a request: the forced-final instruction, retry notices, XML-NEXT. Never stored. */
  private ephemeralMessages(notices: ReadonlyArray<string>): ChatMessage[] {
    const messages: ChatMessage[] = [];
    if (this.forcedFinal && this.settings.transport === 'native') messages.push({ role: 'system', content: forcedFinalNotice(this.forcedFinal) });
    for (const notice of notices) messages.push({ role: 'user', content: notice });
    if (this.settings.transport !== 'native') {
      messages.push({
        role: 'user',
        content: xmlNextMessage({
          mode: this.settings.transport,
          nonce: this.nonce,
          firstFreeSlot: this.nextSlot,
          slotCount: this.settings.maxToolCallsPerTurn,
          tools: this.discovery.definitions,
          reportFormat: this.settings.reportFormat,
          forcedFinal: this.forcedFinal !== null,
        }),
      });
    }
    return messages;
  }

  /**
   * `turn_preflight`: projected = ctx + pending + schema must fit `contextWindow -
   * contextWindowBufferTokens - maxOutputTokens` of this target; otherwise the turn becomes the
   * forced final one (tools cut to the final report, schema recomputed, re-checked once).
   */
  private turnPreflight(provider: LlmProvider, notices: ReadonlyArray<string>): { tools: InternalToolDefinition[]; ephemeral: ChatMessage[]; pendingTokens: number; schemaTokens: number } {
    let ephemeral = this.ephemeralMessages(notices);
    let tools = this.providerTools();
    const measure = () => {
      const pendingTokens = this.pendingTokens + estimateJsonTokens(ephemeral);
      const schemaTokens = estimateJsonTokens(tools);
      return { pendingTokens, schemaTokens, projected: this.ctxTokens + pendingTokens + schemaTokens };
    };
    let numbers = measure();
    const limit = this.limitFor(provider);
    if (numbers.projected > limit) {
      const alreadyForced = this.forcedFinal !== null;
      this.emit({ type: 'context_guard', turn: this.turn, where: 'turn_preflight', projectedTokens: numbers.projected, limitTokens: limit, target: this.label(provider), action: alreadyForced ? 'proceed_best_effort' : 'forced_final' });
      if (!alreadyForced) {
        this.forcedFinal = 'context';
        ephemeral = this.ephemeralMessages(notices);
        tools = this.providerTools();
        numbers = measure();
        if (numbers.projected > limit) {
          this.emit({ type: 'context_guard', turn: this.turn, where: 'post_shrink', projectedTokens: numbers.projected, limitTokens: limit, target: this.label(provider), action: 'proceed_best_effort' });
          this.emit({ type: 'warning', turn: this.turn, message: `Context still over the limit after restricting tools to ${FINAL_REPORT_TOOL} (${numbers.projected} > ${limit} tokens); proceeding best effort.` });
        }
      }
    }
    return { tools, ephemeral, pendingTokens: numbers.pendingTokens, schemaTokens: numbers.schemaTokens };
  }

  private limitFor(provider: LlmProvider): number {
    return contextWindowFor(provider.target, this.settings) - this.settings.contextWindowBufferTokens - this.settings.maxOutputTokens;
  }

  /** The tools offered on a request given the forced-final state (the set itself is fixed at discovery). */
  private offeredDefinitions(forced: ForcedFinalReason | null): InternalToolDefinition[] {
    return forced ? [this.discovery.finalReport] : [...this.discovery.definitions, this.discovery.finalReport];
  }

  /** What goes in the request's `tools`: none in xml mode, no final report in xml-final mode. */
  private providerTools(): InternalToolDefinition[] {
    if (this.settings.transport === 'xml') return [];
    if (this.settings.transport === 'xml-final') return this.forcedFinal ? [] : [...this.discovery.definitions];
    return this.offeredDefinitions(this.forcedFinal);
  }

  private isOffered(name: string): boolean {
    if (name === FINAL_REPORT_TOOL) return this.settings.transport === 'native';
    return this.forcedFinal === null && this.discovery.definitions.some((definition) => definition.name === name);
  }

  // ---------------------------------------------------------------------------------------
  // Summarize: what the model answered

  /** Handles a response; returns the final report when the session is over. */
  private async handleResponse(response: LlmResponse, xml: XmlParseResult | null): Promise<PlannerFinalReport | null> {
    const viaXml = this.settings.transport === 'xml';
    const calls: PlannedCall[] = viaXml
      ? (xml?.calls ?? []).map((call) => ({ id: call.slotId, name: call.tool, rawArguments: call.payload, viaXml: true }))
      : response.toolCalls.map((call) => ({ ...call, rawArguments: call.arguments, viaXml: false }));
    const toolCalls: ChatToolCall[] = viaXml ? [] : response.toolCalls;
    const text = response.text;
    this.commit({ role: 'assistant', content: text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
    if (xml && xml.calls.length > 0) this.nextSlot = Math.max(...xml.calls.map((call) => call.slot)) + 1;

    if (xml?.final) return this.xmlFinalReport(xml.final, response, calls);
    const finalCall = calls.find((call) => call.name === FINAL_REPORT_TOOL && !call.viaXml);
    if (finalCall && this.isOffered(FINAL_REPORT_TOOL)) return this.nativeFinalReport(finalCall, calls);

    if (calls.length === 0) {
      // Only in the native transport: in the XML modes text outside matched tags is ignored (§11),
      // so a reply whose only "report" is outside a valid FINAL tag never ends the run as a success.
      if (this.forcedFinal && text.trim() !== '' && this.settings.transport === 'native') {
        // Text on the final turn is the report (agent-contract.md §5, text extraction fallback).
        return this.reportAccepted(makeFinalReport('text_fallback', this.settings.reportFormat, text, this.options.clock.now(), {}));
      }
      this.nextNotices.push(continueNotice(this.settings.transport));
      return null;
    }
    await this.runCalls(calls);
    return null;
  }

  private reportAccepted(report: PlannerFinalReport): PlannerFinalReport {
    this.emit({ type: 'final_report', report });
    return report;
  }

  private async nativeFinalReport(call: PlannedCall, calls: PlannedCall[]): Promise<PlannerFinalReport | null> {
    const started = this.options.clock.now();
    const parsed = parseToolArguments(call.rawArguments);
    const outcome = parsed.ok ? acceptFinalReport(parsed.value, this.settings.reportFormat, started, 'tool') : { ok: false as const, errors: [parsed.message] };
    const others = calls.filter((other) => other !== call);
    if (outcome.ok) {
      for (const warning of outcome.warnings) this.emit({ type: 'warning', turn: this.turn, message: `${FINAL_REPORT_TOOL}: ${warning}` });
      if (others.length > 0) this.emit({ type: 'calls_dropped', turn: this.turn, calls: others.map((other) => ({ id: other.id, name: other.name, reason: `not executed: ${FINAL_REPORT_TOOL} ended the session` })) });
      this.accountTool(FINAL_REPORT_TOOL, started, call.rawArguments.length, outcome.report.content.length, 'native', {});
      return this.reportAccepted(outcome.report);
    }
    // A rejected final report: the model is told why, and the remaining turns collapse into one last try.
    const content = `(tool failed: ${FINAL_REPORT_TOOL} rejected: ${outcome.errors.join('; ')})`;
    this.accountTool(FINAL_REPORT_TOOL, started, call.rawArguments.length, content.length, 'native', { error: outcome.errors.join('; ') });
    this.emit({ type: 'final_report_rejected', turn: this.turn, callId: call.id, errors: outcome.errors, payload: parsed.ok ? parsed.value : call.rawArguments });
    for (const other of calls) {
      this.commitToolOutput(other, other === call ? content : `(tool failed: not executed: ${FINAL_REPORT_TOOL} was in the same message)`);
    }
    this.collapseAfterFinalReportFailure();
    return null;
  }

  private xmlFinalReport(final: NonNullable<XmlParseResult['final']>, response: LlmResponse, calls: PlannedCall[]): PlannerFinalReport | null {
    const started = this.options.clock.now();
    if (!final.closed && unclosedFinalDecision(response.stopReason) === 'accept_with_warning') {
      this.emit({ type: 'warning', turn: this.turn, message: `The FINAL slot has no closing tag (stop reason ${response.stopReason}); its content is accepted.` });
    }
    const args: JsonObject = this.settings.reportFormat === 'json' ? { content_json: final.content } : { report_content: final.content };
    if (final.format !== null) args.report_format = final.format;
    const outcome = acceptFinalReport(args, this.settings.reportFormat, started, 'xml');
    if (outcome.ok) {
      for (const warning of outcome.warnings) this.emit({ type: 'warning', turn: this.turn, message: `${FINAL_REPORT_TOOL}: ${warning}` });
      if (calls.length > 0) this.emit({ type: 'calls_dropped', turn: this.turn, calls: calls.map((call) => ({ id: call.id, name: call.name, reason: `not executed: the FINAL slot ended the session` })) });
      this.accountTool(`${FINAL_REPORT_TOOL}_xml`, started, final.content.length, outcome.report.content.length, 'xml', {});
      return this.reportAccepted(outcome.report);
    }
    const message = `(tool failed: ${FINAL_REPORT_TOOL} rejected: ${outcome.errors.join('; ')})`;
    this.accountTool(`${FINAL_REPORT_TOOL}_xml`, started, final.content.length, message.length, 'xml', { error: outcome.errors.join('; ') });
    this.emit({ type: 'final_report_rejected', turn: this.turn, callId: `${this.nonce}-FINAL`, errors: outcome.errors, payload: final.content });
    this.commit({ role: 'user', content: `System Notice: tool response for ${this.nonce}-FINAL (${FINAL_REPORT_TOOL})\n${message}` });
    this.collapseAfterFinalReportFailure();
    return null;
  }

  /** A rejected final report collapses the remaining turns into one last, final-report-only turn. */
  private collapseAfterFinalReportFailure(): void {
    this.finalReportRejectedInTurn = this.turn;
    if (this.forcedFinal !== 'context') this.forcedFinal = 'final_report_failed';
  }

  // ---------------------------------------------------------------------------------------
  // Plan → Validate → Execute → Repair for the calls of one message

  private async runCalls(calls: PlannedCall[]): Promise<void> {
    const limit = this.settings.maxToolCallsPerTurn;
    const kept = calls.slice(0, limit);
    const excess = calls.slice(limit);
    const pendingRepairs = [...this.outstanding];
    const outcomes: Array<[PlannedCall, CallOutcome]> = [];
    for (const call of kept) {
      const outcome = await this.runCall(call, pendingRepairs);
      outcomes.push([call, outcome]);
      if (!call.viaXml) this.commitToolOutput(call, outcome.content);
    }
    if (excess.length > 0) {
      this.emit({ type: 'calls_dropped', turn: this.turn, calls: excess.map((call) => ({ id: call.id, name: call.name, reason: `over maxToolCallsPerTurn (${limit})` })) });
      const content = `(tool failed: dropped: at most ${limit} tool calls run per turn (maxToolCallsPerTurn); this call and ${excess.length - 1} other excess call(s) were not executed. Send them again in a later turn if they are still needed.)`;
      for (const call of excess) {
        outcomes.push([call, { content, status: 'dropped', durationMs: 0, request: call.rawArguments }]);
        if (!call.viaXml) this.commitToolOutput(call, content);
      }
    }
    if (calls.some((call) => call.viaXml)) {
      const entries: XmlPastEntry[] = outcomes.map(([call, outcome]) => ({
        slotId: call.id,
        tool: call.name,
        status: outcome.status,
        durationMs: outcome.durationMs,
        request: outcome.request,
        response: outcome.content,
      }));
      this.commit({ role: 'user', content: xmlPastMessage(entries) });
    }
  }

  private commitToolOutput(call: PlannedCall, content: string): void {
    if (call.viaXml) return;
    this.commit({ role: 'tool', tool_call_id: call.id, name: call.name, content });
  }

  /** One call: parse, fill the envelope, validate and execute (with the repairer), truncate, guard. */
  private async runCall(call: PlannedCall, pendingRepairs: OutstandingFailure[]): Promise<CallOutcome> {
    const turn = this.turn;
    const started = this.options.clock.now();
    const dropped = (reason: string, content: string): CallOutcome => {
      this.emit({ type: 'calls_dropped', turn, calls: [{ id: call.id, name: call.name, reason, rawArguments: call.rawArguments }] });
      return { content, status: 'dropped', durationMs: 0, request: call.rawArguments };
    };
    if (this.toolBudgetExceeded) return dropped('context window budget exceeded: no new tools may start', CONTEXT_BUDGET_STUB);

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
    this.emit({
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
      this.emit({ type: 'repair', turn, callId: call.id, failed: failure.invocation, regenerated: invocation, errors: failure.errors, source: 'model', changes: [] });
    }

    if (!this.isOffered(call.name)) {
      const offered = this.offeredDefinitions(this.forcedFinal).map((tool) => tool.name);
      const error: ToolError = {
        code: 'UNKNOWN_TOOL',
        field: 'tool_name',
        message: `No tool named '${call.name}' is offered ${this.forcedFinal ? 'on this turn' : 'in this session'}; offered: ${offered.join(', ')}`,
      };
      const result = failureResult('Invocation failed validation.', [error]);
      this.emit({ type: 'validation', turn, callId: call.id, requestId, validation: { ok: false, errors: [error], warnings: [] } });
      this.outstanding.push({ toolName: call.name, callId: call.id, invocation, errors: [error] });
      return this.deliver(call, invocation, null, result, started, { reusedFrom: null });
    }

    const key = this.invocationKey(invocation);
    const reuse = this.passed.get(key);
    if (reuse) {
      this.emit({ type: 'validation', turn, callId: call.id, requestId, validation: { ok: true, warnings: [] } });
      const content = `(already executed: identical to ${reuse.requestId} in turn ${reuse.turn}; its result is reused, not run again)\n${this.modelContent(call.name, reuse.result)}`;
      return this.deliver(call, invocation, null, reuse.result, started, { reusedFrom: reuse.requestId, content });
    }

    const record = await this.executeAndRecord(call, invocation);
    if (record.phase === 'validation' && this.options.repairer) {
      const repaired = await this.repairOffline(call, invocation, record);
      if (repaired) return repaired;
    }
    this.remember(call, invocation, record);
    return this.deliver(call, invocation, record, record.result, started, { reusedFrom: null, accounted: true });
  }

  /** The offline repairer's turn at a failed invocation; null when it cannot fix it. */
  private async repairOffline(call: PlannedCall, failed: JsonObject, record: ExecutionRecord): Promise<CallOutcome | null> {
    const repairer = this.options.repairer!;
    const toolName = typeof failed.tool_name === 'string' ? failed.tool_name : call.name;
    const proposal = repairer(failed, record.result.errors, { question: this.options.question, captures: this.options.captures, manifest: this.discovery.manifests[toolName] });
    if (!proposal) return null;
    const started = this.options.clock.now();
    const regenerated: JsonObject = { ...proposal.invocation, request_id: this.newRequestId() };
    this.emit({ type: 'repair', turn: this.turn, callId: call.id, failed, regenerated, errors: record.result.errors, source: 'offline_repairer', changes: proposal.changes });
    this.emit({ type: 'invocation', turn: this.turn, callId: call.id, requestId: regenerated.request_id as string, toolName, invocation: regenerated, source: 'offline_repairer', argumentsRepaired: false });
    const second = await this.executeAndRecord(call, regenerated);
    this.remember(call, regenerated, second);
    const content = [
      `[offline_repairer] ${failed.request_id as string} failed validation: ${errorList(record.result.errors)}.`,
      `The offline repairer (no model) regenerated it as ${regenerated.request_id as string}: ${describeChanges(proposal.changes)}`,
      `Regenerated invocation: ${JSON.stringify(regenerated)}`,
      `Result of ${regenerated.request_id as string}:`,
      this.modelContent(toolName, second.result),
    ].join('\n');
    return this.deliver(call, regenerated, second, second.result, started, { reusedFrom: null, content, accounted: true });
  }

  /** Keeps what passed (never re-executed) and what failed (for the model to regenerate). */
  private remember(call: PlannedCall, invocation: JsonObject, record: ExecutionRecord): void {
    if (record.result.status === 'error') {
      this.outstanding.push({ toolName: call.name, callId: call.id, invocation, errors: record.result.errors });
    } else {
      this.passed.set(this.invocationKey(invocation), { requestId: invocation.request_id as string, turn: this.turn, result: record.result });
    }
  }

  /** Validates and executes through the executor, with `toolTimeout` enforced by aborting the run. */
  private async executeAndRecord(call: PlannedCall, invocation: JsonObject): Promise<ExecutionRecord> {
    const { clock, executor, signal } = this.options;
    const started = clock.now();
    const run = new AbortController();
    const stopTimer = new AbortController();
    const onAbort = () => run.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeoutMs = this.settings.toolTimeout;
    // toolTimeout is the planner's own deadline, counted from the moment the tool starts (a cold
    // worker's start-up is outside it), whatever timeout_ms the invocation carries.
    let markStarted = () => {};
    const toolStarted = new Promise<void>((resolve) => (markStarted = resolve));
    const execution = executor.execute(invocation, { signal: run.signal, onStarted: () => markStarted() }).then(
      (record) => ({ record }),
      (error: unknown) => ({
        record: {
          requestId: invocation.request_id as string,
          toolName: call.name,
          resolvedVersion: null,
          phase: 'execution' as const,
          durationMs: clock.now() - started,
          result: failureResult(`${call.name} failed while running.`, [{ code: 'EXECUTION_ERROR', field: '', message: error instanceof Error ? error.message : String(error) }]),
        },
      }),
    );
    const timer = toolStarted.then(() => (stopTimer.signal.aborted ? undefined : clock.sleep(timeoutMs, stopTimer.signal))).then(() => 'timeout' as const);
    let record: ExecutionRecord;
    try {
      const winner = await Promise.race([execution, timer]);
      if (winner === 'timeout' && !stopTimer.signal.aborted) {
        run.abort();
        record = {
          requestId: invocation.request_id as string,
          toolName: call.name,
          resolvedVersion: null,
          phase: 'execution',
          durationMs: clock.now() - started,
          result: failureResult(`${call.name} was stopped after ${timeoutMs} ms (toolTimeout).`, [
            { code: 'TIMEOUT', field: 'timeout_ms', message: `${call.name} did not finish within toolTimeout ${timeoutMs} ms and was aborted` },
          ]),
        };
      } else {
        record = (winner as { record: ExecutionRecord }).record;
      }
    } finally {
      stopTimer.abort();
      signal?.removeEventListener('abort', onAbort);
    }
    this.checkCancelled();
    const validation =
      record.phase === 'validation'
        ? { ok: false as const, errors: record.result.errors, warnings: record.result.warnings }
        : { ok: true as const, warnings: record.result.warnings };
    this.emit({ type: 'validation', turn: this.turn, callId: call.id, requestId: invocation.request_id as string, validation });
    const failed = record.result.status === 'error';
    this.accountTool(call.name, started, JSON.stringify(invocation).length, 0, call.viaXml ? 'xml' : 'native', {
      ...(failed ? { error: errorList(record.result.errors) } : {}),
      requestId: invocation.request_id as string,
      latency: record.durationMs,
    });
    return record;
  }

  /** Truncates, guards (`tool_preflight`) and records the output the model will read. */
  private deliver(
    call: PlannedCall,
    invocation: JsonObject,
    record: ExecutionRecord | null,
    result: ToolResult,
    started: number,
    extra: { reusedFrom: string | null; content?: string; accounted?: boolean },
  ): CallOutcome {
    const raw = extra.content ?? this.modelContent(call.name, result);
    const truncation = truncateToolResponse(raw, this.settings.toolResponseMaxBytes);
    let content = truncation.text;
    if (truncation.truncated) {
      this.emit({
        type: 'warning',
        turn: this.turn,
        message: `Tool response truncated: ${call.name}, ${truncation.originalBytes} bytes, limit ${this.settings.toolResponseMaxBytes} bytes.`,
      });
    }
    let droppedForContext = false;
    const tokens = estimateJsonTokens({ role: 'tool', content });
    const schemaTokens = estimateJsonTokens(this.providerTools());
    const projected = this.ctxTokens + this.pendingTokens + tokens + schemaTokens;
    const [limit, target] = this.tightestLimit();
    if (projected > limit) {
      droppedForContext = true;
      this.toolBudgetExceeded = true;
      if (this.forcedFinal === null || this.forcedFinal === 'max_turns') this.forcedFinal = 'context';
      this.emit({ type: 'context_guard', turn: this.turn, where: 'tool_preflight', projectedTokens: projected, limitTokens: limit, target, action: 'tool_dropped' });
      content = CONTEXT_BUDGET_STUB;
    }
    if (extra.accounted) {
      this.completeToolAccounting(invocation.request_id as string, {
        charactersOut: content.length,
        ...(droppedForContext
          ? { status: 'failed' as const, error: 'context window budget exceeded', originalTokens: tokens, replacementTokens: estimateJsonTokens({ role: 'tool', content }) }
          : {}),
      });
    }
    this.emit({
      type: 'execution',
      turn: this.turn,
      callId: call.id,
      requestId: invocation.request_id as string,
      toolName: call.name,
      record,
      result,
      modelContent: content,
      modelContentBytes: utf8ByteLength(content),
      timedOut: isTimeout(result),
      truncated: truncation.truncated ? { originalBytes: truncation.originalBytes, limitBytes: this.settings.toolResponseMaxBytes } : null,
      reusedFrom: extra.reusedFrom,
      droppedForContext,
    });
    return {
      content,
      status: droppedForContext ? 'dropped' : result.status,
      durationMs: record?.durationMs ?? 0,
      request: JSON.stringify(invocation),
    };
  }

  private modelContent(toolName: string, result: ToolResult): string {
    return modelContentOf(result, this.options.digestFor?.(toolName));
  }

  private tightestLimit(): [number, string] {
    let best: [number, string] = [Number.POSITIVE_INFINITY, ''];
    for (const provider of this.options.targets) {
      const limit = this.limitFor(provider);
      if (limit < best[0]) best = [limit, this.label(provider)];
    }
    return best;
  }

  /** The envelope the executor sees: the runtime fills `tool_name`, a fresh `request_id`, `tool_version` and `timeout_ms`. */
  private fillEnvelope(name: string, args: JsonObject): JsonObject {
    const { tool_name: _name, request_id: _id, ...rest } = args;
    const invocation: JsonObject = { tool_name: name, ...rest, request_id: this.newRequestId() };
    const versions = this.discovery.versions[name];
    if (invocation.tool_version === undefined && versions) invocation.tool_version = versions[0];
    // The invocation keeps the runtime's minimum; the planner's toolTimeout is enforced on its own.
    if (invocation.timeout_ms === undefined) invocation.timeout_ms = Math.max(this.settings.toolTimeout, this.options.minTimeoutMs ?? DEFAULT_EXECUTOR_SETTINGS.minTimeoutMs);
    return invocation;
  }

  private invocationKey(invocation: JsonObject): string {
    return canonicalJson({
      tool_name: invocation.tool_name ?? null,
      tool_version: invocation.tool_version ?? null,
      capture_selection: invocation.capture_selection ?? null,
      arguments: invocation.arguments ?? null,
    });
  }

  private newRequestId(): string {
    this.requestCount += 1;
    return `req-${this.nonce}-${String(this.requestCount).padStart(4, '0')}`;
  }

  // ---------------------------------------------------------------------------------------
  // Bookkeeping

  private commit(message: ChatMessage): void {
    this.conversation.push(message);
    // The system prompt and the question count as pending for the first request; later the
    // assistant's own message is inside the provider's output count.
    if (message.role !== 'assistant') this.pendingTokens += estimateJsonTokens(message);
  }

  private emit(event: DistributiveOmit<PlannerEvent, 'seq' | 'ts'>): void {
    this.seq += 1;
    const full = { ...event, seq: this.seq, ts: this.options.clock.now() } as PlannerEvent;
    try {
      this.options.onEvent?.(full);
    } catch {
      // A listener's failure must not end the session.
    }
  }

  private label(provider: LlmProvider): string {
    return provider.target.label ?? `${provider.target.provider}:${provider.target.model}`;
  }

  private accountLlm(provider: LlmProvider, started: number, latency: number, outcome: { failure?: ProviderFailure; response?: LlmResponse; error?: string }): void {
    const usage = outcome.response?.usage;
    const error = outcome.failure ? `${outcome.failure.kind}: ${outcome.failure.message}` : outcome.error;
    const entry: AccountingEntry = {
      type: 'llm',
      provider: provider.target.provider,
      model: provider.target.model,
      target: this.label(provider),
      status: error ? 'failed' : 'ok',
      latency,
      tokens: {
        inputTokens: usage?.inputTokens ?? 0,
        outputTokens: usage?.outputTokens ?? 0,
        ...(usage && usage.cacheReadTokens > 0 ? { cachedTokens: usage.cacheReadTokens } : {}),
        totalTokens: (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
      },
      timestamp: started,
      ...(error ? { error } : {}),
    };
    if (outcome.response) {
      entry.stopReason = outcome.response.stopReason;
      if (outcome.response.model && outcome.response.model !== provider.target.model) entry.actualModel = outcome.response.model;
      const cost = outcome.response.usageReported === false ? null : estimateCostUsd(outcome.response.model || provider.target.model, outcome.response.usage);
      if (cost !== null) entry.costUsd = cost;
    }
    this.accounting.push(entry);
  }

  private accountTool(
    command: string,
    started: number,
    charactersIn: number,
    charactersOut: number,
    source: 'native' | 'xml',
    extra: { error?: string; requestId?: string; latency?: number; originalTokens?: number; replacementTokens?: number },
  ): void {
    const { latency, ...rest } = extra;
    this.accounting.push({
      type: 'tool',
      mcpServer: EXECUTOR_NAME,
      command,
      status: extra.error ? 'failed' : 'ok',
      latency: latency ?? this.options.clock.now() - started,
      timestamp: started,
      charactersIn,
      charactersOut,
      source,
      ...rest,
    });
  }

  /** Completes a request's execution entry once the model's text is known (its size; a context drop). */
  private completeToolAccounting(requestId: string, patch: Partial<ToolAccountingEntry>): void {
    for (let index = this.accounting.length - 1; index >= 0; index -= 1) {
      const entry = this.accounting[index];
      if (entry.type === 'tool' && entry.requestId === requestId) {
        Object.assign(entry, patch);
        return;
      }
    }
  }

  private synthetic(reason: string, message: string, lastFailure: ProviderFailure | null): PlannerFinalReport {
    const metadata: JsonObject = { reason };
    if (lastFailure) metadata.last_provider_failure = { kind: lastFailure.kind, message: lastFailure.message };
    const report = makeFinalReport('synthetic', this.settings.reportFormat, `Session failed: ${message}`, this.options.clock.now(), metadata);
    this.emit({ type: 'final_report', report });
    return report;
  }

  private result(partial: Partial<PlannerSessionResult>): PlannerSessionResult {
    return {
      success: false,
      conversation: this.conversation,
      accounting: this.accounting,
      turns: Math.min(this.turn, this.settings.maxTurns),
      nonce: this.nonce,
      ...partial,
    };
  }

  finish(report: PlannerFinalReport): PlannerSessionResult {
    const result = this.result({ success: report.status === 'success', finalReport: report });
    this.emit({ type: 'session_finished', success: result.success, turns: result.turns });
    return result;
  }

  fail(message: string, kind: NonNullable<PlannerSessionResult['errorKind']>): PlannerSessionResult {
    const result = this.result({ success: false, error: message, errorKind: kind });
    this.emit({ type: 'session_finished', success: false, turns: result.turns, error: message });
    return result;
  }

  /** Ends the session at once when the caller stopped it. */
  private checkCancelled(force = false): void {
    if (force || this.options.signal?.aborted) throw new SessionEnd(this.fail('The session was cancelled.', 'cancelled'));
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function describeChanges(changes: ReadonlyArray<RepairChange>): string {
  return changes.map((change) => `${change.field}: ${JSON.stringify(change.from)} -> ${JSON.stringify(change.to)} (${change.reason})`).join('; ');
}
