import { describe, expect, it } from 'vitest';
import type { RunnerResponse, ToolRunner } from '../../executor/runner.ts';
import type { JsonObject } from '../../util/json.ts';
import type { ChatMessage } from '../provider-types.ts';
import { ECHO_SELECTION, FakeClock, TEST_TOOL_TIMEOUT, echoCall, eventsOf, finalCall, runSession, startSession, turnOf } from './loop-test-support.ts';
import { TOOL_TIMEOUT_MESSAGE } from './planner-session.ts';
import type { LlmAccountingEntry, PlannerSessionResult, ToolAccountingEntry } from './session-types.ts';
import { EMPTY_RESPONSE_NOTICE } from './system-prompt.ts';
import { estimateJsonTokens } from './tool-definitions.ts';

const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;
const llmEntries = (result: PlannerSessionResult) => result.accounting.filter((entry): entry is LlmAccountingEntry => entry.type === 'llm');
const toolEntries = (result: PlannerSessionResult) => result.accounting.filter((entry): entry is ToolAccountingEntry => entry.type === 'tool');
const toolMessages = (result: PlannerSessionResult) => result.conversation.filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool');
const assistants = (result: PlannerSessionResult) => result.conversation.filter((message) => message.role === 'assistant');
const failure = (kind: string, extra: JsonObject = {}): JsonObject => ({ failure: { kind, ...extra } });

/** Waits until the loop has parked on the clock (the tool timer) or gives up. */
async function untilPending(clock: FakeClock): Promise<void> {
  for (let spin = 0; spin < 200 && clock.pending() === 0; spin += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the happy path', () => {
  it('discovers, plans, validates, executes and reports, with the contract names', async () => {
    const { result, events } = await runSession({ scripts: [[turnOf(echoCall('c1', { text: 'hello' })), turnOf(finalCall('f1', 'Echo said hello.'))]] });
    expect(result.success).toBe(true);
    expect(result.error).toBeUndefined();
    expect(result.finalReport).toMatchObject({ status: 'success', format: 'markdown', content: 'Echo said hello.', source: 'tool', metadata: {} });
    expect(typeof result.finalReport!.ts).toBe('number');
    expect(result.conversation.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    const [tool] = toolMessages(result);
    expect(tool.tool_call_id).toBe('c1');
    expect(JSON.parse(tool.content)).toMatchObject({ status: 'ok', summary: 'hello' });
    expect(assistants(result)[1]).toMatchObject({ tool_calls: [{ id: 'f1', name: 'agent__final_report' }] });

    const [discover] = eventsOf(events, 'discover');
    expect(discover.definitions.map((definition) => definition.name)).toEqual(['bluetooth_address_analyzer', 'statistical_regression_tool', 'test_echo', 'agent__final_report']);
    expect(discover.tokenEstimate).toBe(estimateJsonTokens(discover.definitions));
    const echo = discover.definitions.find((definition) => definition.name === 'test_echo')!;
    expect(Object.keys(echo.input_schema.properties as object)).toEqual(['capture_selection', 'arguments', 'tool_version', 'timeout_ms']);
    expect(echo.input_schema.required).toEqual(['capture_selection', 'arguments']);

    const [invocation] = eventsOf(events, 'invocation');
    expect(invocation.invocation).toEqual({
      tool_name: 'test_echo',
      capture_selection: ECHO_SELECTION,
      arguments: { text: 'hello' },
      request_id: 'req-c0ffee42-0001',
      tool_version: '1.0.0',
      timeout_ms: TEST_TOOL_TIMEOUT,
    });
    expect(eventsOf(events, 'validation')[0].validation.ok).toBe(true);
    expect(eventsOf(events, 'execution')[0].record?.phase).toBe('execution');

    const llm = llmEntries(result);
    expect(llm).toHaveLength(2);
    for (const entry of llm) {
      expect(entry).toMatchObject({ type: 'llm', provider: 'scripted', model: 'script-1', status: 'ok', tokens: { inputTokens: 100, outputTokens: 20, totalTokens: 120 } });
      expect(entry.timestamp).toBeGreaterThan(0);
      expect(entry.latency).toBeGreaterThanOrEqual(0);
    }
    const tools = toolEntries(result);
    expect(tools.map((entry) => [entry.command, entry.status])).toEqual([
      ['test_echo', 'ok'],
      ['agent__final_report', 'ok'],
    ]);
    expect(tools[0].charactersOut).toBe(tool.content.length);
    expect(tools[0].charactersIn).toBeGreaterThan(0);
    expect(events[events.length - 1]).toMatchObject({ type: 'session_finished', success: true, turns: 2 });
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
  });

  it('reports token accounting the guard uses: ctx 0 on turn 1, then the provider count', async () => {
    const { events } = await runSession({ scripts: [[turnOf(echoCall('c1')), turnOf(finalCall('f1'))]] });
    const requests = eventsOf(events, 'llm_request');
    expect(requests[0].ctxTokens).toBe(0);
    expect(requests[1].ctxTokens).toBe(120);
    for (const request of requests) expect(request.expectedTokens).toBe(request.ctxTokens + request.pendingTokens + request.schemaTokens);
  });
});

describe('maxTurns', () => {
  it('never exceeds the limit and ends with the synthetic failure report', async () => {
    const script = [1, 2, 3, 4].map((turn) => turnOf(echoCall(`c${turn}`, { text: `turn ${turn}` })));
    const { result, events } = await runSession({ scripts: [script], settings: { maxTurns: 3 } });
    expect(result.success).toBe(false);
    expect(result.finalReport).toMatchObject({ status: 'failure', source: 'synthetic', metadata: { reason: 'max_turns_exhausted' } });
    expect(assistants(result)).toHaveLength(3);
    expect(llmEntries(result)).toHaveLength(3);
    // The last turn offers only the final report, so its echo call runs nothing.
    expect(toolEntries(result).filter((entry) => entry.command === 'test_echo')).toHaveLength(2);
    expect(eventsOf(events, 'turn_started').map((event) => event.forcedFinal)).toEqual([null, null, 'max_turns']);
    expect(toolMessages(result)[2].content).toContain('UNKNOWN_TOOL');
  });

  it('accepts a final report on the last allowed turn', async () => {
    const { result } = await runSession({ scripts: [[turnOf(echoCall('c1')), turnOf(echoCall('c2', { text: 'x' })), turnOf(finalCall('f'))]], settings: { maxTurns: 3 } });
    expect(result.success).toBe(true);
    expect(result.turns).toBe(3);
  });

  it('takes text on the final turn as the report (text fallback, status success)', async () => {
    const { result } = await runSession({ scripts: [[turnOf(echoCall('c1')), { text: 'The answer is 42.' }]], settings: { maxTurns: 2 } });
    expect(result.finalReport).toMatchObject({ status: 'success', source: 'text_fallback', content: 'The answer is 42.' });
  });
});

describe('maxToolCallsPerTurn', () => {
  it('runs calls up to the limit', async () => {
    const { result } = await runSession({ scripts: [[turnOf(echoCall('a', { text: 'a' }), echoCall('b', { text: 'b' })), turnOf(finalCall('f'))]], settings: { maxToolCallsPerTurn: 2 } });
    expect(toolEntries(result).filter((entry) => entry.command === 'test_echo')).toHaveLength(2);
    expect(toolMessages(result).every((message) => !message.content.includes('maxToolCallsPerTurn'))).toBe(true);
  });

  it('drops the excess calls and tells the model', async () => {
    const { result, events } = await runSession({ scripts: [[turnOf(echoCall('a', { text: 'a' }), echoCall('b', { text: 'b' }), echoCall('c', { text: 'c' })), turnOf(finalCall('f'))]], settings: { maxToolCallsPerTurn: 2 } });
    expect(toolEntries(result).filter((entry) => entry.command === 'test_echo')).toHaveLength(2);
    const dropped = toolMessages(result).find((message) => message.tool_call_id === 'c')!;
    expect(dropped.content).toMatch(/^\(tool failed: dropped: at most 2 tool calls run per turn \(maxToolCallsPerTurn\)/);
    expect(eventsOf(events, 'calls_dropped')[0].calls.map((call) => call.id)).toEqual(['c']);
  });
});

describe('maxRetries and provider cycling', () => {
  it('cycles attempts through two targets round-robin within a turn', async () => {
    const { result } = await runSession({
      scripts: [
        [failure('network'), turnOf(finalCall('f'))],
        [failure('timeout')],
      ],
      settings: { maxRetries: 3 },
    });
    expect(result.success).toBe(true);
    expect(llmEntries(result).map((entry) => [entry.model, entry.status])).toEqual([
      ['script-1', 'failed'],
      ['script-2', 'failed'],
      ['script-1', 'ok'],
    ]);
  });

  it('fails the turn after maxRetries attempts and starts the next turn at targets[0]', async () => {
    const { result, events } = await runSession({
      scripts: [
        [failure('model_error'), turnOf(finalCall('f'))],
        [failure('invalid_response')],
      ],
      settings: { maxRetries: 2, maxTurns: 3 },
    });
    expect(result.success).toBe(true);
    expect(llmEntries(result).map((entry) => entry.model)).toEqual(['script-1', 'script-2', 'script-1']);
    expect(eventsOf(events, 'llm_request').map((event) => [event.turn, event.attempt])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ]);
  });

  it('maxRetries: 1 allows one attempt', async () => {
    const { result } = await runSession({ scripts: [[failure('network'), failure('network')]], settings: { maxRetries: 1, maxTurns: 2 } });
    expect(llmEntries(result)).toHaveLength(2);
    expect(result.finalReport?.metadata).toMatchObject({ reason: 'max_turns_exhausted', last_provider_failure: { kind: 'network' } });
  });
});

describe('failure classes', () => {
  for (const kind of ['auth', 'quota']) {
    it(`${kind} fails the session at once, without retry or a second target`, async () => {
      const { result } = await runSession({ scripts: [[failure(kind)], [turnOf(finalCall('f'))]], settings: { maxRetries: 3 } });
      expect(result.success).toBe(false);
      expect(result.errorKind).toBe(kind);
      expect(result.error).toMatch(/Scripted/);
      expect(result.finalReport).toBeUndefined();
      expect(llmEntries(result)).toHaveLength(1);
    });
  }

  it('honours Retry-After on a rate limit', async () => {
    const { result, clock } = await runSession({ scripts: [[failure('rate_limit', { retry_after_ms: 5000 }), turnOf(finalCall('f'))]] });
    expect(result.success).toBe(true);
    expect(clock.waits).toEqual([5000]);
  });

  it('backs off exponentially from 1 s without Retry-After', async () => {
    const { result, clock } = await runSession({ scripts: [[failure('rate_limit'), failure('rate_limit'), failure('rate_limit'), turnOf(finalCall('f'))]], settings: { maxRetries: 4 } });
    expect(result.success).toBe(true);
    expect(clock.waits).toEqual([1000, 2000, 4000]);
  });

  it('caps the backoff at 60 s', async () => {
    const script = [...Array.from({ length: 8 }, () => failure('rate_limit')), turnOf(finalCall('f'))];
    const { clock } = await runSession({ scripts: [script], settings: { maxRetries: 9 } });
    expect(clock.waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });

  it('waits the maximum backoff when every target was rate limited in the same cycle', async () => {
    const { result, clock } = await runSession({ scripts: [[failure('rate_limit'), turnOf(finalCall('f'))], [failure('rate_limit')]], settings: { maxRetries: 3 } });
    expect(result.success).toBe(true);
    expect(clock.waits).toEqual([60000]);
  });

  it('retries network, timeout, model errors and invalid responses at once, with no backoff', async () => {
    const { result, clock, events } = await runSession({
      scripts: [[failure('network'), failure('timeout'), failure('invalid_response'), failure('model_error'), turnOf(finalCall('f'))]],
      settings: { maxRetries: 5 },
    });
    expect(result.success).toBe(true);
    expect(clock.waits).toEqual([]);
    expect(llmEntries(result).map((entry) => entry.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'ok']);
    expect(llmEntries(result)[2].error).toMatch(/^invalid_response: /);
    // The invalid response's synthetic retry message rides along, once.
    expect(eventsOf(events, 'llm_request')[3].notices).toContain('System notice: the previous reply could not be read. Answer again.');
  });

  it('answers invalid_response when a scripted target runs out of entries', async () => {
    const { result } = await runSession({ scripts: [[turnOf(echoCall('a'))]], settings: { maxRetries: 1, maxTurns: 2 } });
    expect(llmEntries(result)[1]).toMatchObject({ status: 'failed' });
    expect(llmEntries(result)[1].error).toMatch(/no scripted response left/);
  });
});

describe('toolTimeout', () => {
  it('aborts a run that overruns and tells the model "(tool failed: timeout)"', async () => {
    let aborted = false;
    const hanging: ToolRunner = {
      run: (_request, options) =>
        new Promise<RunnerResponse>((resolve) => {
          options?.signal?.addEventListener('abort', () => {
            aborted = true;
            resolve({ kind: 'cancelled' });
          });
        }),
    };
    const session = startSession({ scripts: [[turnOf(echoCall('slow')), turnOf(finalCall('f'))]], runner: hanging });
    await untilPending(session.clock);
    session.clock.advance(TEST_TOOL_TIMEOUT - 1);
    expect(aborted).toBe(false);
    session.clock.advance(1);
    const { result, events } = await session.done;
    expect(aborted).toBe(true);
    expect(toolMessages(result)[0].content).toBe(TOOL_TIMEOUT_MESSAGE);
    expect(toolEntries(result)[0]).toMatchObject({ command: 'test_echo', status: 'failed' });
    expect(eventsOf(events, 'execution')[0].timedOut).toBe(true);
    expect(result.success).toBe(true);
  });

  it('reports a timeout the executor detects (test_echo busy-waiting past its limit) the same way', async () => {
    const { result } = await runSession({
      scripts: [[turnOf(echoCall('slow', { sleep_ms: 1150 })), turnOf(finalCall('f'))]],
      settings: { toolTimeout: 1000 },
    });
    expect(toolMessages(result)[0].content).toBe('(tool failed: timeout)');
    expect(toolEntries(result)[0].status).toBe('failed');
  });
});

describe('toolResponseMaxBytes', () => {
  it('truncates at a multi-byte boundary with the notice counted inside the limit', async () => {
    const limit = 300;
    const { result, events } = await runSession({ scripts: [[turnOf(echoCall('big', { text: 'é😀'.repeat(200) })), turnOf(finalCall('f'))]], settings: { toolResponseMaxBytes: limit } });
    const content = toolMessages(result)[0].content;
    const size = utf8Bytes(content);
    expect(size).toBeLessThanOrEqual(limit);
    const notice = /^\[TRUNCATED\] Original size (\d+) bytes; truncated to (\d+) bytes\.\n/.exec(content);
    expect(notice).not.toBeNull();
    expect(Number(notice![2])).toBe(size);
    const [execution] = eventsOf(events, 'execution');
    expect(Number(notice![1])).toBe(execution.truncated!.originalBytes);
    expect(execution.truncated!.limitBytes).toBe(limit);
    // No character is split: the text ends on a whole é or 😀 (never half a surrogate pair).
    expect(content).not.toMatch(/[\uD800-\uDBFF]$/);
    expect(new TextDecoder().decode(new TextEncoder().encode(content))).toBe(content);
    expect(eventsOf(events, 'warning').some((event) => event.message.includes('Tool response truncated: test_echo'))).toBe(true);
  });

  it('leaves a response at the limit untouched', async () => {
    const probe = await runSession({ scripts: [[turnOf(echoCall('x', { text: 'ok' })), turnOf(finalCall('f'))]] });
    const exact = utf8Bytes(toolMessages(probe.result)[0].content);
    const { result } = await runSession({ scripts: [[turnOf(echoCall('x', { text: 'ok' })), turnOf(finalCall('f'))]], settings: { toolResponseMaxBytes: exact } });
    expect(toolMessages(result)[0].content).toBe(toolMessages(probe.result)[0].content);
  });
});

describe('tool argument parsing', () => {
  it('repairs malformed JSON, flags it, and validates the repaired arguments', async () => {
    const raw = `{"capture_selection": {"capture_id": 'cap_2026_03_14_a'}, "arguments": {"text": 'repaired',},}`;
    const { result, events } = await runSession({ scripts: [[turnOf({ id: 'r', name: 'test_echo', arguments: raw }), turnOf(finalCall('f'))]] });
    const [invocation] = eventsOf(events, 'invocation');
    expect(invocation.argumentsRepaired).toBe(true);
    expect(invocation.rawArguments).toBe(raw);
    expect(JSON.parse(invocation.repairedArguments!)).toEqual({ capture_selection: ECHO_SELECTION, arguments: { text: 'repaired' } });
    expect(eventsOf(events, 'validation')[0].validation.ok).toBe(true);
    expect(JSON.parse(toolMessages(result)[0].content)).toMatchObject({ status: 'ok', summary: 'repaired' });
  });

  it('repaired arguments are validated again: a repaired but invalid call fails validation', async () => {
    const raw = `{capture_selection: {capture_id: 'cap_2026_03_14_a'}, arguments: {bytes: 'many'}}`;
    const { events } = await runSession({ scripts: [[turnOf({ id: 'r', name: 'test_echo', arguments: raw }), turnOf(finalCall('f'))]] });
    expect(eventsOf(events, 'invocation')[0].argumentsRepaired).toBe(true);
    const [validation] = eventsOf(events, 'validation');
    expect(validation.validation.ok).toBe(false);
    expect(validation.validation.ok === false && validation.validation.errors.map((error) => error.code)).toEqual(['INVALID_TYPE']);
  });

  it('drops unrepairable arguments and tells the model, while valid calls in the message proceed', async () => {
    const { result, events } = await runSession({ scripts: [[turnOf({ id: 'bad', name: 'test_echo', arguments: '}}}' }, echoCall('good', { text: 'fine' })), turnOf(finalCall('f'))]] });
    const [bad, good] = toolMessages(result);
    expect(bad.tool_call_id).toBe('bad');
    expect(bad.content).toMatch(/^\(tool failed: the arguments could not be parsed as JSON, even after repair: .*send it again/);
    expect(JSON.parse(good.content)).toMatchObject({ status: 'ok', summary: 'fine' });
    expect(eventsOf(events, 'calls_dropped')[0].calls[0]).toMatchObject({ id: 'bad', rawArguments: '}}}' });
    expect(toolEntries(result).filter((entry) => entry.command === 'test_echo')).toHaveLength(1);
  });
});

describe('empty and reasoning-only responses', () => {
  it('keeps an empty response out of the conversation and retries with the notice', async () => {
    const { result, events } = await runSession({ scripts: [[{}, turnOf(finalCall('f'))]] });
    expect(result.success).toBe(true);
    expect(assistants(result)).toHaveLength(1);
    const requests = eventsOf(events, 'llm_request');
    expect(requests.map((request) => request.attempt)).toEqual([1, 2]);
    expect(requests[1].notices).toEqual([EMPTY_RESPONSE_NOTICE]);
    expect(EMPTY_RESPONSE_NOTICE).toBe('System notice: plain text responses without tool calls are ignored. Use final_report to provide your answer.');
    expect(llmEntries(result)[0]).toMatchObject({ status: 'failed', error: 'empty response' });
    expect(result.conversation.some((message) => message.content === EMPTY_RESPONSE_NOTICE)).toBe(false);
  });

  it('counts an empty response as one attempt toward maxRetries', async () => {
    const { result } = await runSession({ scripts: [[{}, {}, turnOf(finalCall('f'))]], settings: { maxRetries: 2, maxTurns: 1 } });
    expect(result.success).toBe(false);
    expect(llmEntries(result)).toHaveLength(2);
  });

  it('counts a reasoning-only response as empty: retried with the notice, kept in the record, not in the conversation', async () => {
    const { result, events } = await runSession({ scripts: [[{ reasoning: 'I should echo first.' }, turnOf(finalCall('f'))]] });
    expect(result.success).toBe(true);
    const [first] = eventsOf(events, 'llm_response');
    expect(first).toMatchObject({ ignored: 'empty', reasoning: 'I should echo first.' });
    expect(assistants(result)).toHaveLength(1);
    expect(eventsOf(events, 'llm_request')[1].notices).toContain(EMPTY_RESPONSE_NOTICE);
  });
});
