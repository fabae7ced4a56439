import { describe, expect, it } from 'vitest';
import type { RunRequest, RunnerResponse, ToolRunner } from '../../executor/runner.ts';
import type { ChatMessage } from '../provider-types.ts';
import { echoCall, eventsOf, finalCall, runSession, startSession, turnOf } from './loop-test-support.ts';
import { TOOL_TIMEOUT_MESSAGE } from './planner-session.ts';
import { MIN_TOOL_RESPONSE_MAX_BYTES, resolvePlannerConfig } from './planner-settings.ts';

/**
 * The four contract edges found by replaying the peer project's agent-contract scenarios through
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
