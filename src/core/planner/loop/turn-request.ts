import { PROVIDER_INTERFACE_VERSION, type LlmProvider, type LlmResponse, type ProviderFailure } from '../provider-types.ts';
import { turnPreflight } from './context-guard.ts';
import { extractTextToolCalls, withReasoningSeparated } from './local-model-output.ts';
import { RetryPolicy } from './retry-policy.ts';
import type { SessionCore } from './session-core.ts';
import { EMPTY_RESPONSE_NOTICE } from './system-prompt.ts';
import { estimateJsonTokens, estimateTokens } from './tool-definitions.ts';
import { readXml } from './transports.ts';
import { unclosedFinalDecision, type XmlParseResult } from './xml-transport.ts';

export type TurnRequestOutcome =
  | { kind: 'response'; response: LlmResponse; xml: XmlParseResult | null }
  | { kind: 'failed'; failure: ProviderFailure | null }
  | { kind: 'fatal'; failure: ProviderFailure }
  | { kind: 'cancelled' };

const UNREADABLE_NOTICE = 'System notice: the previous reply could not be read. Answer again.';
const CUT_OFF_NOTICE = 'System notice: your final report was cut off before its closing tag (output limit). Write it again, shorter, and close the tag.';

export function staleProvider(targets: ReadonlyArray<LlmProvider>): LlmProvider | undefined {
  return targets.find((provider) => provider.interfaceVersion !== PROVIDER_INTERFACE_VERSION);
}

/** What a local model's reply means: reasoning separated first, then tool calls written as text. */
function normalizeReply(core: SessionCore, raw: LlmResponse, offered: ReadonlyArray<{ name: string }>, textCalls: { count: number }): { response: LlmResponse; extracted: string[] } {
  let response = withReasoningSeparated(raw);
  if (response.toolCalls.length > 0 || core.settings.transport === 'xml') return { response, extracted: [] };
  const found = extractTextToolCalls(response.text, new Set(offered.map((tool) => tool.name)), textCalls.count + 1);
  if (!found) return { response, extracted: [] };
  textCalls.count += found.calls.length;
  response = { ...response, text: found.text, toolCalls: found.calls };
  return { response, extracted: found.calls.map((call) => call.id) };
}

/**
 * One turn's LLM request with its retries: up to `maxRetries` attempts cycling over the targets
 * (the retry policy decides waits), each request sized by the context guard. Empty replies and
 * cut-off FINAL tags are retried with a notice and never enter the conversation.
 */
export async function requestTurn(core: SessionCore, retry: RetryPolicy, textCalls: { count: number }): Promise<TurnRequestOutcome> {
  const { settings, options } = core;
  let notices = [...core.nextNotices];
  core.nextNotices = [];
  let lastFailure: ProviderFailure | null = null;
  retry.startTurn();
  for (let attempt = 1; attempt <= settings.maxRetries; attempt += 1) {
    if (core.cancelled()) return { kind: 'cancelled' };
    const index = retry.targetOf(attempt);
    const provider = options.targets[index];
    const wait = retry.waitBefore(index, core.now());
    if (wait > 0) {
      await options.clock.sleep(wait, options.signal);
      if (core.cancelled()) return { kind: 'cancelled' };
    }

    const plan = turnPreflight(core, provider, notices);
    const target = core.label(provider);
    const accountingTarget = { provider: provider.target.provider, model: provider.target.model, label: target };
    core.emit({
      type: 'llm_request',
      turn: core.turn,
      attempt,
      target,
      provider: provider.target.provider,
      model: provider.target.model,
      tools: plan.tools.map((tool) => tool.name),
      ctxTokens: core.ctxTokens,
      pendingTokens: plan.pendingTokens,
      schemaTokens: plan.schemaTokens,
      expectedTokens: core.ctxTokens + plan.pendingTokens + plan.schemaTokens,
      notices: plan.ephemeral.map((message) => message.content),
    });

    const started = core.now();
    const outcome = await provider.complete({
      messages: [...core.conversation, ...plan.ephemeral],
      tools: plan.tools,
      maxOutputTokens: settings.maxOutputTokens,
      signal: options.signal,
      timeoutMs: settings.llmTimeout,
      idleTimeoutMs: settings.llmIdleTimeout,
      maxResponseBytes: settings.llmResponseMaxBytes,
      ...(options.onDelta ? { onDelta: options.onDelta } : {}),
    });
    const latency = core.now() - started;

    if (!outcome.ok) {
      const failure = outcome.failure;
      core.accounting.llm(accountingTarget, started, latency, { failure });
      if (failure.kind === 'cancelled' || core.cancelled()) return { kind: 'cancelled' };
      const fatal = RetryPolicy.isFatal(failure);
      const waitMs = retry.onFailure(index, failure, core.now());
      core.emit({ type: 'llm_failure', turn: core.turn, attempt, target, latencyMs: latency, failure, fatal, waitMs });
      if (fatal) return { kind: 'fatal', failure };
      lastFailure = failure;
      if (failure.kind === 'invalid_response') notices = [...notices.filter((notice) => notice !== UNREADABLE_NOTICE), UNREADABLE_NOTICE];
      continue;
    }

    const { response, extracted } = normalizeReply(core, outcome.response, plan.tools, textCalls);
    const xml = readXml(core, response);
    const hasCalls = response.toolCalls.length > 0 || (xml !== null && (xml.calls.length > 0 || xml.final !== null));
    // Reasoning alone is an empty response (§11: reasoning-only output is missing output).
    let ignored: 'empty' | 'xml_final_truncated' | undefined;
    if (!hasCalls && response.text.trim() === '') ignored = 'empty';
    else if (xml?.final && !xml.final.closed && unclosedFinalDecision(response.stopReason) === 'retry') ignored = 'xml_final_truncated';
    core.emit({
      type: 'llm_response',
      turn: core.turn,
      attempt,
      target,
      model: response.model,
      latencyMs: latency,
      usage: response.usage,
      stopReason: response.stopReason,
      text: response.text,
      ...(response.reasoning ? { reasoning: response.reasoning } : {}),
      toolCalls: response.toolCalls,
      ...(extracted.length > 0 ? { extractedFromText: extracted } : {}),
      ...(ignored ? { ignored } : {}),
    });
    if (ignored) {
      core.accounting.llm(accountingTarget, started, latency, { response, error: ignored === 'empty' ? 'empty response' : 'final report cut off (stop reason length)' });
      // Not added to the conversation; the retry carries the notice once.
      const notice = ignored === 'empty' ? EMPTY_RESPONSE_NOTICE : CUT_OFF_NOTICE;
      notices = [...notices.filter((existing) => existing !== notice), notice];
      lastFailure = { kind: 'invalid_response', message: ignored === 'empty' ? 'The model sent an empty response.' : 'The final report was cut off.' };
      continue;
    }
    if (extracted.length > 0) {
      core.emit({ type: 'warning', turn: core.turn, message: `Tool call(s) extracted from the reply's text (no native tool calls): ${response.toolCalls.map((call) => call.name).join(', ')}` });
    }
    if (xml && xml.ignored.length > 0) core.emit({ type: 'warning', turn: core.turn, message: `Ignored XML tags: ${xml.ignored.join('; ')}` });
    const unseen = provider.target.provider === 'scripted' ? null : toolsNotInPrompt(core, plan, response);
    if (unseen) core.emit({ type: 'warning', turn: core.turn, message: unseen });
    core.accounting.llm(accountingTarget, started, latency, { response });
    const reported = response.usage.inputTokens + response.usage.outputTokens;
    core.ctxTokens =
      response.usageReported === false || reported === 0 ? core.ctxTokens + core.pendingTokens + estimateTokens(response.text) + estimateJsonTokens(response.toolCalls) : reported;
    core.pendingTokens = 0;
    return { kind: 'response', response, xml };
  }
  return { kind: 'failed', failure: lastFailure };
}

/**
 * A server that never showed the model its tools: llama.cpp leaves `tools` out, without a word,
 * when the model's chat template has no tool section (SmolLM2-135M-Instruct, issue 24's
 * check:local-model). Its reported prompt then holds the messages and less than a quarter of
 * the definitions' estimate (a server that renders tools compactly, as OpenAI does, stays well
 * above that). Native transport only: the XML ones put the tools in the messages. Not for
 * scripted targets, whose usage is whatever the script says.
 */
function toolsNotInPrompt(core: SessionCore, plan: { pendingTokens: number; schemaTokens: number }, response: LlmResponse): string | null {
  if (core.settings.transport !== 'native' || response.usageReported === false || plan.schemaTokens === 0) return null;
  const reported = response.usage.inputTokens;
  const floor = core.ctxTokens + plan.pendingTokens + Math.floor(plan.schemaTokens / 4);
  if (reported === 0 || reported >= floor) return null;
  return (
    `The server counted ${reported} prompt tokens where the messages and the tool definitions come to about ${core.ctxTokens + plan.pendingTokens + plan.schemaTokens}: ` +
    'it probably did not show the tools to the model (a chat template without tools?). The xml transport puts them in the prompt text.'
  );
}
