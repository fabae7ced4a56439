import type { ChatToolCall, LlmResponse, ProviderFailure } from '../provider-types.ts';
import { PROVIDER_INTERFACE_VERSION } from '../provider-types.ts';
import { nativeFinalReport, syntheticReport, textFallbackReport, xmlFinalReport, type PlannedCall } from './final-report-step.ts';
import { RetryPolicy } from './retry-policy.ts';
import { SessionCore, type PlannerSessionOptions } from './session-core.ts';
import type { PlannerFinalReport, PlannerSessionResult } from './session-types.ts';
import { continueNotice, plannerSystemPrompt } from './system-prompt.ts';
import { FINAL_REPORT_TOOL } from './tool-definitions.ts';
import { ToolExecution } from './tool-execution.ts';
import { isOffered, offeredDefinitions } from './transports.ts';
import { requestTurn, staleProvider } from './turn-request.ts';
import type { XmlParseResult } from './xml-transport.ts';

export type { PlannerSessionOptions } from './session-core.ts';
export { CONTEXT_BUDGET_STUB } from './context-guard.ts';
export { TOOL_TIMEOUT_MESSAGE, modelContentOf } from './tool-results.ts';

/**
 * The planner session: Discover → Plan → Validate → Execute → Summarize → Repair, under every
 * guarantee of agent-contract.md. A thin loop over small modules — the turn request with its
 * retry policy (`turn-request.ts`, `retry-policy.ts`), the context guard (`context-guard.ts`), the
 * transports (`transports.ts`, `xml-transport.ts`), final reports (`final-report-step.ts`), tool
 * execution and dedup (`tool-execution.ts`), accounting (`accounting.ts`) and the one deadline
 * helper (`deadline.ts`). It never throws: every outcome, cancellation included, is a result.
 */
export async function runPlannerSession(options: PlannerSessionOptions): Promise<PlannerSessionResult> {
  const core = new SessionCore(options);
  try {
    return await runLoop(core);
  } catch (error) {
    return fail(core, `Internal error: ${error instanceof Error ? error.message : String(error)}`, 'invalid_response');
  }
}

function finish(core: SessionCore, report: PlannerFinalReport): PlannerSessionResult {
  const result = core.result({ success: report.status === 'success', finalReport: report });
  core.emit({ type: 'session_finished', success: result.success, turns: result.turns });
  return result;
}

function fail(core: SessionCore, message: string, kind: NonNullable<PlannerSessionResult['errorKind']>): PlannerSessionResult {
  const result = core.result({ success: false, error: message, errorKind: kind });
  core.emit({ type: 'session_finished', success: false, turns: result.turns, error: message });
  return result;
}

const cancelledResult = (core: SessionCore) => fail(core, 'The session was cancelled.', 'cancelled');

async function runLoop(core: SessionCore): Promise<PlannerSessionResult> {
  const { options, settings } = core;
  core.emit({ type: 'session_started', question: options.question, settings, targets: options.targets.map((provider) => core.label(provider)), nonce: core.nonce });
  if (options.targets.length === 0) return fail(core, 'No provider target is configured: add at least one.', 'no_targets');
  const stale = staleProvider(options.targets);
  if (stale) {
    return fail(core, `${core.label(stale)} implements provider interface ${String(stale.interfaceVersion)}; this planner speaks ${PROVIDER_INTERFACE_VERSION}.`, 'unsupported_provider');
  }
  core.emit({
    type: 'discover',
    definitions: offeredDefinitions(core, null),
    tokenEstimate: core.discovery.tokenEstimate,
    estimator: 'ceil(UTF-8 bytes of the definitions JSON / 4)',
    captures: options.captures.map((capture) => capture.id),
    problems: core.discovery.problems,
  });
  core.commit({
    role: 'system',
    content: plannerSystemPrompt({ captures: options.captures, transport: settings.transport, maxToolCallsPerTurn: settings.maxToolCallsPerTurn, reportFormat: settings.reportFormat }),
  });
  core.commit({ role: 'user', content: options.question });

  const retry = new RetryPolicy(options.targets.length);
  const tools = new ToolExecution(core);
  const textCalls = { count: 0 };
  let lastFailure: ProviderFailure | null = null;
  for (core.turn = 1; core.turn <= settings.maxTurns; core.turn += 1) {
    if (core.cancelled()) return cancelledResult(core);
    if (core.turn === settings.maxTurns && core.forcedFinal === null) core.forcedFinal = 'max_turns';
    core.emit({ type: 'turn_started', turn: core.turn, forcedFinal: core.forcedFinal, tools: offeredDefinitions(core, core.forcedFinal).map((tool) => tool.name) });
    const outcome = await requestTurn(core, retry, textCalls);
    const forcedThisTurn = core.forcedFinal;
    if (outcome.kind === 'cancelled') return cancelledResult(core);
    if (outcome.kind === 'fatal') return fail(core, outcome.failure.message, outcome.failure.kind);
    if (outcome.kind === 'failed') {
      lastFailure = outcome.failure ?? lastFailure;
    } else {
      const report = await handleResponse(core, tools, outcome.response, outcome.xml);
      if (core.cancelled()) return cancelledResult(core);
      if (report) return finish(core, report);
    }
    if (forcedThisTurn === 'context') return finish(core, syntheticReport(core, 'context_window_exceeded', 'The context window budget was used up before a final report was written.', lastFailure));
    if (forcedThisTurn === 'final_report_failed') {
      return finish(core, syntheticReport(core, 'final_report_failed', 'The final report was rejected and the last try did not produce a valid one.', lastFailure));
    }
  }
  if (core.finalReportRejectedInTurn === settings.maxTurns) {
    return finish(core, syntheticReport(core, 'final_report_failed', 'The final report was rejected on the last turn.', lastFailure));
  }
  return finish(core, syntheticReport(core, 'max_turns_exhausted', `The session reached maxTurns (${settings.maxTurns}) without a final report.`, lastFailure));
}

/** Summarize what the model answered: a final report ends the session; tool calls run; text asks it to continue. */
async function handleResponse(core: SessionCore, tools: ToolExecution, response: LlmResponse, xml: XmlParseResult | null): Promise<PlannerFinalReport | null> {
  const viaXml = core.settings.transport === 'xml';
  const calls: PlannedCall[] = viaXml
    ? (xml?.calls ?? []).map((call) => ({ id: call.slotId, name: call.tool, rawArguments: call.payload, viaXml: true }))
    : response.toolCalls.map((call) => ({ id: call.id, name: call.name, rawArguments: call.arguments, viaXml: false }));
  const toolCalls: ChatToolCall[] = viaXml ? [] : response.toolCalls;
  const text = response.text;
  core.commit({ role: 'assistant', content: text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
  if (xml && xml.calls.length > 0) core.nextSlot = Math.max(...xml.calls.map((call) => call.slot)) + 1;

  if (xml?.final) return xmlFinalReport(core, xml.final, response, calls);
  const finalCall = calls.find((call) => call.name === FINAL_REPORT_TOOL && !call.viaXml);
  if (finalCall && isOffered(core, FINAL_REPORT_TOOL)) return nativeFinalReport(core, finalCall, calls, (call, content) => tools.commitToolOutput(call, content));

  if (calls.length === 0) {
    // Only in the native transport: in the XML modes text outside matched tags is ignored (§11),
    // so a reply whose only "report" is outside a valid FINAL tag never ends the run as a success.
    if (core.forcedFinal && text.trim() !== '' && core.settings.transport === 'native') return textFallbackReport(core, text);
    core.nextNotices.push(continueNotice(core.settings.transport));
    return null;
  }
  await tools.runCalls(calls);
  return null;
}
