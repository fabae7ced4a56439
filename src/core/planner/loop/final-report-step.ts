import type { JsonObject } from '../../util/json.ts';
import type { LlmResponse, ProviderFailure } from '../provider-types.ts';
import { acceptFinalReport, makeFinalReport } from './final-report.ts';
import type { SessionCore } from './session-core.ts';
import type { PlannerFinalReport } from './session-types.ts';
import { parseToolArguments } from './tool-arguments.ts';
import { FINAL_REPORT_TOOL } from './tool-definitions.ts';
import { unclosedFinalDecision, type XmlParseResult } from './xml-transport.ts';

/** A call as the loop sees it, whichever transport carried it. */
export interface PlannedCall {
  id: string;
  name: string;
  rawArguments: string;
  viaXml: boolean;
}

function accepted(core: SessionCore, report: PlannerFinalReport): PlannerFinalReport {
  core.emit({ type: 'final_report', report });
  return report;
}

/** A rejected final report collapses the remaining turns into one last, final-report-only turn. */
function collapseAfterRejection(core: SessionCore): void {
  core.finalReportRejectedInTurn = core.turn;
  if (core.forcedFinal !== 'context') core.forcedFinal = 'final_report_failed';
}

/** Text on the forced final turn of the native transport is the report (agent-contract.md §5). */
export function textFallbackReport(core: SessionCore, text: string): PlannerFinalReport {
  return accepted(core, makeFinalReport('text_fallback', core.settings.reportFormat, text, core.now(), {}));
}

/** The runtime's own failure report (status failure: its source is synthetic). */
export function syntheticReport(core: SessionCore, reason: string, message: string, lastFailure: ProviderFailure | null): PlannerFinalReport {
  const metadata: JsonObject = { reason };
  if (lastFailure) metadata.last_provider_failure = { kind: lastFailure.kind, message: lastFailure.message };
  return accepted(core, makeFinalReport('synthetic', core.settings.reportFormat, `Session failed: ${message}`, core.now(), metadata));
}

/** `agent__final_report` as a native call; other calls of the message are dropped or answered. */
export function nativeFinalReport(core: SessionCore, call: PlannedCall, calls: ReadonlyArray<PlannedCall>, commitToolOutput: (call: PlannedCall, content: string) => void): PlannerFinalReport | null {
  const started = core.now();
  const parsed = parseToolArguments(call.rawArguments);
  const outcome = parsed.ok ? acceptFinalReport(parsed.value, core.settings.reportFormat, started, 'tool') : { ok: false as const, errors: [parsed.message] };
  const others = calls.filter((other) => other !== call);
  if (outcome.ok) {
    for (const warning of outcome.warnings) core.emit({ type: 'warning', turn: core.turn, message: `${FINAL_REPORT_TOOL}: ${warning}` });
    if (others.length > 0) core.emit({ type: 'calls_dropped', turn: core.turn, calls: others.map((other) => ({ id: other.id, name: other.name, reason: `not executed: ${FINAL_REPORT_TOOL} ended the session` })) });
    core.accounting.tool(FINAL_REPORT_TOOL, started, call.rawArguments.length, outcome.report.content.length, 'native');
    return accepted(core, outcome.report);
  }
  // A rejected final report: the model is told why, and the remaining turns collapse into one last try.
  const content = `(tool failed: ${FINAL_REPORT_TOOL} rejected: ${outcome.errors.join('; ')})`;
  core.accounting.tool(FINAL_REPORT_TOOL, started, call.rawArguments.length, content.length, 'native', { error: outcome.errors.join('; ') });
  core.emit({ type: 'final_report_rejected', turn: core.turn, callId: call.id, errors: outcome.errors, payload: parsed.ok ? parsed.value : call.rawArguments });
  for (const other of calls) commitToolOutput(other, other === call ? content : `(tool failed: not executed: ${FINAL_REPORT_TOOL} was in the same message)`);
  collapseAfterRejection(core);
  return null;
}

/** The FINAL slot of the XML transports (§11: `format` is its only attribute; the runtime sets the status). */
export function xmlFinalReport(core: SessionCore, final: NonNullable<XmlParseResult['final']>, response: LlmResponse, calls: ReadonlyArray<PlannedCall>): PlannerFinalReport | null {
  const started = core.now();
  if (!final.closed && unclosedFinalDecision(response.stopReason) === 'accept_with_warning') {
    core.emit({ type: 'warning', turn: core.turn, message: `The FINAL slot has no closing tag (stop reason ${response.stopReason}); its content is accepted.` });
  }
  const args: JsonObject = core.settings.reportFormat === 'json' ? { content_json: final.content } : { report_content: final.content };
  if (final.format !== null) args.report_format = final.format;
  const outcome = acceptFinalReport(args, core.settings.reportFormat, started, 'xml');
  if (outcome.ok) {
    for (const warning of outcome.warnings) core.emit({ type: 'warning', turn: core.turn, message: `${FINAL_REPORT_TOOL}: ${warning}` });
    if (calls.length > 0) core.emit({ type: 'calls_dropped', turn: core.turn, calls: calls.map((call) => ({ id: call.id, name: call.name, reason: 'not executed: the FINAL slot ended the session' })) });
    core.accounting.tool(`${FINAL_REPORT_TOOL}_xml`, started, final.content.length, outcome.report.content.length, 'xml');
    return accepted(core, outcome.report);
  }
  const message = `(tool failed: ${FINAL_REPORT_TOOL} rejected: ${outcome.errors.join('; ')})`;
  core.accounting.tool(`${FINAL_REPORT_TOOL}_xml`, started, final.content.length, message.length, 'xml', { error: outcome.errors.join('; ') });
  core.emit({ type: 'final_report_rejected', turn: core.turn, callId: `${core.nonce}-FINAL`, errors: outcome.errors, payload: final.content });
  core.commit({ role: 'user', content: `System Notice: tool response for ${core.nonce}-FINAL (${FINAL_REPORT_TOOL})\n${message}` });
  collapseAfterRejection(core);
  return null;
}
