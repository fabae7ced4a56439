import { describe, expect, it } from 'vitest';
import type { RunRequest, RunnerResponse, ToolRunner } from '../../executor/runner.ts';
import type { JsonValue } from '../../util/json.ts';
import type { ChatMessage, LlmProvider, LlmRequest } from '../provider-types.ts';
import { ECHO_SELECTION, echoCall, eventsOf, finalCall, runSession, startSession, turnOf } from './loop-test-support.ts';
import { CONTEXT_BUDGET_STUB, TOOL_TIMEOUT_MESSAGE } from './planner-session.ts';
import { createScriptedProvider } from './scripted-provider.ts';
import { MIN_TOOL_RESPONSE_MAX_BYTES, resolvePlannerConfig } from './planner-settings.ts';

/**
 * The contract edges found by replaying the peer project's agent-contract scenarios through
 * `sextant plan`, each replayed here as the session saw it.
 */

const toolMessages = (conversation: ReadonlyArray<ChatMessage>) => conversation.filter((message) => message.role === 'tool');
const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

async function untilTrue(check: () => boolean): Promise<void> {
  for (let spin = 0; spin < 400 && !check(); spin += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('edge 1: an XML final tag with the wrong nonce', () => {
  it('is ignored as a tag, and its text never becomes a successful report (§11)', async () => {
    const wrong = '<ai-agent-deadbeef-FINAL tool="agent__final_report" format="markdown">All is well.</ai-agent-deadbeef-FINAL>';
    const { result, events } = await runSession({ scripts: [[{ text: wrong }, { text: wrong }]], settings: { transport: 'xml', maxTurns: 2 } });
    expect(result.success).toBe(false);
    expect(result.finalReport).toMatchObject({ status: 'failure', source: 'synthetic' });
    expect(result.finalReport!.content).not.toContain('All is well.');
    expect(eventsOf(events, 'warning').some((event) => event.message.includes("ai-agent-deadbeef-FINAL") && event.message.includes('nonce'))).toBe(true);
  });

  it('xml-final: the same on the forced final turn', async () => {
    const wrong = '<ai-agent-00000000-FINAL tool="agent__final_report">Done.</ai-agent-00000000-FINAL>';
    const { result } = await runSession({ scripts: [[{ text: wrong }]], settings: { transport: 'xml-final', maxTurns: 1 } });
    expect(result.success).toBe(false);
    expect(result.finalReport?.source).toBe('synthetic');
  });
});

describe('edge 2: a FINAL slot with format (and status) but no tool attribute', () => {
  it('is accepted: §11 lists only format as a tag attribute; the status attribute is ignored', async () => {
    const { result, events } = await runSession({
      scripts: [[{ text: '<ai-agent-c0ffee42-FINAL format="markdown" status="failure">Report body.</ai-agent-c0ffee42-FINAL>' }]],
      settings: { transport: 'xml' },
    });
    expect(result.success).toBe(true);
    expect(result.finalReport).toMatchObject({ status: 'success', source: 'xml', content: 'Report body.', format: 'markdown' });
    expect(eventsOf(events, 'warning').some((event) => event.message.includes('status'))).toBe(true);
  });

  it('still ignores a FINAL slot naming another tool', async () => {
    const { result } = await runSession({
      scripts: [[{ text: '<ai-agent-c0ffee42-FINAL tool="test_echo">x</ai-agent-c0ffee42-FINAL>' }]],
      settings: { transport: 'xml', maxTurns: 1 },
    });
    expect(result.success).toBe(false);
  });
});

describe('edge 3: toolTimeout is the planner’s own deadline', () => {
  it('below the runtime minimum it times the tool out instead of failing validation, counted from the request (a cold start-up is inside it)', async () => {
    const requests: RunRequest[] = [];
    let aborted = false;
    // A cold worker whose start-up never ends: the caller's deadline still holds (issue 24, D4).
    const cold: ToolRunner = {
      reportsStart: true,
      run: async (request, options) => {
        requests.push(request);
        return new Promise<RunnerResponse>((resolve) =>
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            resolve({ kind: 'cancelled' });
          }),
        );
      },
    };
    const session = startSession({ scripts: [[turnOf(echoCall('slow')), turnOf(finalCall('f'))]], runner: cold, settings: { toolTimeout: 300 } });
    await untilTrue(() => requests.length > 0 && session.clock.pending() > 0);
    // The invocation keeps the runtime minimum; nothing failed validation.
    expect(requests[0].timeoutMs).toBe(1000);
    session.clock.advance(299);
    expect(aborted).toBe(false);
    session.clock.advance(1);
    const { result, events } = await session.done;
    expect(aborted).toBe(true);
    expect(eventsOf(events, 'validation')[0].validation.ok).toBe(true);
    expect(toolMessages(result.conversation)[0].content).toBe(TOOL_TIMEOUT_MESSAGE);
  });

  it('a model that writes its own timeout_ms below the minimum still gets the runtime’s validation error', async () => {
    const { result } = await runSession({ scripts: [[turnOf(echoCall('t', {}, { timeout_ms: 10 })), turnOf(finalCall('f'))]] });
    expect(toolMessages(result.conversation)[0].content).toContain('TIMEOUT_BELOW_MINIMUM');
  });
});

describe('edge 4: toolResponseMaxBytes at and below the notice', () => {
  it.each([1, 10, 30, 64, 127])('refuses %i bytes: no room for the whole [TRUNCATED] notice (INVALID_SETTING)', (limit) => {
    const resolved = resolvePlannerConfig([{ name: 'run', values: { toolResponseMaxBytes: limit } }]);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) {
      expect(resolved.error).toMatchObject({ code: 'INVALID_SETTING', field: 'toolResponseMaxBytes' });
      expect(resolved.error.message).toContain(`>= ${MIN_TOOL_RESPONSE_MAX_BYTES}`);
    }
  });

  it('at the smallest accepted limit the tool message holds the whole notice and never exceeds the limit', async () => {
    const limit = MIN_TOOL_RESPONSE_MAX_BYTES;
    expect(resolvePlannerConfig([{ name: 'run', values: { toolResponseMaxBytes: limit } }]).ok).toBe(true);
    const { result } = await runSession({
      scripts: [[turnOf(echoCall('big', { text: 'é😀'.repeat(100) })), turnOf(finalCall('f'))]],
      settings: { toolResponseMaxBytes: limit },
    });
    const [message] = toolMessages(result.conversation);
    expect(bytes(message.content)).toBeLessThanOrEqual(limit);
    expect(message.content).toMatch(/^\[TRUNCATED\] Original size \d+ bytes; truncated to \d+ bytes\.\n./);
    expect(result.success).toBe(true);
  });
});

/** Scripted targets that keep every request they were sent (what the provider really received). */
function recordingTargets(scripts: JsonValue[][], contextWindows: Array<number | undefined> = []) {
  const requests: LlmRequest[] = [];
  const targets: LlmProvider[] = scripts.map((script, index) => {
    const provider = createScriptedProvider({ provider: 'scripted', model: `script-${index + 1}`, script, contextWindow: contextWindows[index] });
    return { ...provider, target: provider.target, complete: (request: LlmRequest) => (requests.push(request), provider.complete(request)) };
  });
  return { targets, requests };
}

const SLOT_IN_THOUGHT = `<ai-agent-c0ffee42-0001 tool="test_echo">${JSON.stringify({ capture_selection: ECHO_SELECTION, arguments: { text: 'only a thought' } })}</ai-agent-c0ffee42-0001>`;

describe('edge 5: a <think> block that wraps a slot-like tag', () => {
  it('xml: the tag inside the thought is never a tool call; a reply that is only the thought is an empty response', async () => {
    const { result, events } = await runSession({
      scripts: [[{ text: `<think>I could write ${SLOT_IN_THOUGHT} next.</think>` }, { text: '<ai-agent-c0ffee42-FINAL format="markdown">Nothing ran.</ai-agent-c0ffee42-FINAL>' }]],
      settings: { transport: 'xml' },
    });
    expect(eventsOf(events, 'invocation')).toEqual([]);
    expect(eventsOf(events, 'execution')).toEqual([]);
    expect(eventsOf(events, 'llm_response')[0]).toMatchObject({ ignored: 'empty' });
    expect(result).toMatchObject({ success: true, finalReport: { content: 'Nothing ran.' } });
  });

  it('xml: nor when the thought is left open, opened by the template (only its closing tag is in the reply), or its tags carry attributes or spaces', async () => {
    const variants = [`<think>Plan: ${SLOT_IN_THOUGHT}`, `Plan: ${SLOT_IN_THOUGHT}</think>`, `<think type="plan">Plan: ${SLOT_IN_THOUGHT}</think >`, `<Thinking >${SLOT_IN_THOUGHT}</thinking>`];
    for (const text of variants) {
      const { events } = await runSession({
        scripts: [[{ text }, { text: '<ai-agent-c0ffee42-FINAL format="markdown">Done.</ai-agent-c0ffee42-FINAL>' }]],
        settings: { transport: 'xml' },
      });
      expect(eventsOf(events, 'invocation'), text).toEqual([]);
    }
  });

  it('xml: a FINAL tag inside a thought is not the report', async () => {
    const thought = '<think>Draft: <ai-agent-c0ffee42-FINAL format="markdown">All is well.</ai-agent-c0ffee42-FINAL></think>';
    const { result } = await runSession({ scripts: [[{ text: thought }, { text: thought }]], settings: { transport: 'xml', maxTurns: 1, maxRetries: 2 } });
    expect(result.success).toBe(false);
    expect(result.finalReport?.content ?? '').not.toContain('All is well.');
  });

  it('native: a JSON tool call written inside a thought is not extracted as a call', async () => {
    const call = JSON.stringify({ name: 'test_echo', arguments: { capture_selection: ECHO_SELECTION, arguments: { text: 'only a thought' } } });
    const { events } = await runSession({ scripts: [[{ text: `<think>Maybe ${call}</think>` }, turnOf(finalCall('f'))]] });
    expect(eventsOf(events, 'invocation')).toEqual([]);
  });
});

describe('edge 6: at the context limit only the final-report tool is offered next', () => {
  async function overflowing(transport: 'native' | 'xml') {
    const probe = await runSession({ scripts: [[turnOf(finalCall('f'))]], settings: { maxOutputTokens: 100, contextWindowBufferTokens: 0, transport } });
    const first = eventsOf(probe.events, 'llm_request')[0];
    const huge = transport === 'native' ? turnOf(echoCall('huge', { bytes: 40_000 })) : { text: `<ai-agent-c0ffee42-0001 tool="test_echo">${JSON.stringify({ capture_selection: ECHO_SELECTION, arguments: { bytes: 40_000 } })}</ai-agent-c0ffee42-0001>` };
    const final = transport === 'native' ? turnOf(finalCall('f', 'From what I had.')) : { text: '<ai-agent-c0ffee42-FINAL format="markdown">From what I had.</ai-agent-c0ffee42-FINAL>' };
    // Room for 60 tokens of tool output; the echo's digest is more, so it is dropped (tool_preflight).
    const { targets, requests } = recordingTargets([[{ ...huge, usage: { input_tokens: first.expectedTokens, output_tokens: 20 } }, final]], [first.expectedTokens + 160]);
    const run = await runSession({ scripts: [], targets, settings: { maxOutputTokens: 100, contextWindowBufferTokens: 0, toolResponseMaxBytes: 65_536, transport } });
    return { ...run, requests };
  }

  it('native: the dropped output is the stub, accounted as failed with both estimates, and the provider is sent only agent__final_report', async () => {
    const { result, requests } = await overflowing('native');
    expect(result.success).toBe(true);
    expect(toolMessages(result.conversation).map((message) => message.content)).toEqual([CONTEXT_BUDGET_STUB]);
    const [echo] = result.accounting.filter((entry) => entry.type === 'tool' && entry.command === 'test_echo');
    expect(echo).toMatchObject({ status: 'failed', error: 'context window budget exceeded' });
    expect(echo).toHaveProperty('originalTokens');
    expect(echo).toHaveProperty('replacementTokens');
    expect(requests).toHaveLength(2);
    expect(requests[0].tools.map((tool) => tool.name)).toContain('test_echo');
    expect(requests[1].tools.map((tool) => tool.name)).toEqual(['agent__final_report']);
  });

  it('xml: the next XML-NEXT advertises only the FINAL slot, and no tool schema', async () => {
    const { result, requests } = await overflowing('xml');
    expect(result.success).toBe(true);
    expect(requests).toHaveLength(2);
    const text = (request: LlmRequest) => request.messages.map((message) => message.content ?? '').join('\n');
    expect(text(requests[0])).toContain('test_echo');
    const next = requests[1];
    expect(next.tools).toEqual([]);
    const last = next.messages.at(-1)!.content ?? '';
    expect(last).toContain('ai-agent-c0ffee42-FINAL');
    expect(last).not.toContain('test_echo');
    expect(last).not.toMatch(/ai-agent-c0ffee42-000\d/);
  });
});
