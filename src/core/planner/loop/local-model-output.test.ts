import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHttpProvider } from '../providers/http-provider.ts';
import { cannedResponse, fakeFetch } from '../providers/test-support.ts';
import { ECHO_SELECTION, eventsOf, runSession } from './loop-test-support.ts';
import { extractTextToolCalls, separateReasoning } from './local-model-output.ts';
import { EMPTY_RESPONSE_NOTICE } from './system-prompt.ts';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const TOOLS = new Set(['test_echo', 'agent__final_report']);

describe('separateReasoning', () => {
  it.each([
    ['<think>plan</think>\nAnswer.', 'Answer.', 'plan'],
    ['<THINKING>a</THINKING>b<think>c</think>d', 'bd', 'a\n\nc'],
    ['<think>cut off mid-thought', '', 'cut off mid-thought'],
    // A template that opened <think> in the prompt: the output starts inside the thought.
    ['already thinking</think>The answer.', 'The answer.', 'already thinking'],
    ['No reasoning here.', 'No reasoning here.', ''],
    ['<reasoning>r</reasoning>x', 'x', 'r'],
  ])('%j → content %j, reasoning %j', (text, content, reasoning) => {
    expect(separateReasoning(text)).toEqual({ content, reasoning });
  });

  it('never parses inside a thought: a tag mentioned there stays in the reasoning', () => {
    const text = '<think>I could write <ai-agent-c0ffee42-FINAL tool="agent__final_report">done</ai-agent-c0ffee42-FINAL> now.</think>Real text.';
    const out = separateReasoning(text);
    expect(out.content).toBe('Real text.');
    expect(out.reasoning).toContain('ai-agent-c0ffee42-FINAL');
  });
});

describe('extractTextToolCalls', () => {
  const args = JSON.stringify({ capture_selection: ECHO_SELECTION, arguments: { text: 'hi' } });
  it.each([
    ['a bare object', `{"name": "test_echo", "arguments": ${args}}`],
    ['a fenced block', `Calling it:\n\`\`\`json\n{"name": "test_echo", "arguments": ${args}}\n\`\`\``],
    ['parameters (Llama 3.1)', `{"name": "test_echo", "parameters": ${args}}`],
    ['a function wrapper', `{"type": "function", "function": {"name": "test_echo", "arguments": ${JSON.stringify(args)}}}`],
    ['Qwen/Hermes <tool_call>', `<tool_call>\n{"name": "test_echo", "arguments": ${args}}\n</tool_call>`],
    ['a tool_calls list', `{"tool_calls": [{"name": "test_echo", "arguments": ${args}}]}`],
  ])('finds %s', (_shape, text) => {
    const found = extractTextToolCalls(text, TOOLS);
    expect(found?.calls).toEqual([{ id: 'text-call-1', name: 'test_echo', arguments: args }]);
    expect(found?.text).not.toContain('test_echo');
  });

  it('finds several, numbering from the given id, and keeps the surrounding prose', () => {
    const found = extractTextToolCalls(`First {"name":"test_echo","arguments":{}} then {"name":"agent__final_report","arguments":{"report_content":"x"}} end`, TOOLS, 4);
    expect(found?.calls.map((call) => [call.id, call.name])).toEqual([
      ['text-call-4', 'test_echo'],
      ['text-call-5', 'agent__final_report'],
    ]);
    expect(found?.text).toBe('First  then  end');
  });

  it('leaves ordinary JSON and unknown tools alone', () => {
    expect(extractTextToolCalls('The result was {"r2": 0.78, "name": "fit"}.', TOOLS)).toBeNull();
    expect(extractTextToolCalls('{"name": "rm_rf", "arguments": {}}', TOOLS)).toBeNull();
    expect(extractTextToolCalls('braces { inside prose } and {"name": "test_echo"', TOOLS)).toBeNull();
  });
});

describe('local models through the planner (recorded-shape streams)', () => {
  function localTarget(...bodies: string[]) {
    const fetch = fakeFetch(...bodies.map((body) => cannedResponse(body, { chunkSize: 97 })));
    return { fetch, provider: createHttpProvider({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' }, { fetch }) };
  }

  it('completes a run from <think> in content with a bare-object call, then reasoning_content with a fenced final report', async () => {
    const { provider } = localTarget(fixture('ollama-think-in-content.sse'), fixture('llamacpp-reasoning-content.sse'));
    const { result, events } = await runSession({ scripts: [], targets: [provider] });
    expect(result.success).toBe(true);
    expect(result.finalReport).toMatchObject({ status: 'success', content: 'Echoed **hello from qwen**.' });
    const responses = eventsOf(events, 'llm_response');
    expect(responses[0].reasoning).toContain('I could write <ai-agent-c0ffee42-FINAL> but not yet.');
    expect(responses[0].text).toBe('');
    expect(responses[0].extractedFromText).toEqual(['text-call-1']);
    expect(responses[1].reasoning).toContain('Now the final report.');
    expect(responses[1].extractedFromText).toEqual(['text-call-2']);
    const [execution] = eventsOf(events, 'execution');
    expect(execution.result.status).toBe('ok');
    expect(eventsOf(events, 'warning').filter((event) => event.message.startsWith('Tool call(s) extracted'))).toHaveLength(2);
    // The conversation carries the extracted call natively, so the tool message answers a real id.
    const assistant = result.conversation.find((message) => message.role === 'assistant');
    expect(assistant && 'tool_calls' in assistant ? assistant.tool_calls?.[0].id : null).toBe('text-call-1');
    expect(result.conversation.some((message) => message.content.includes('<think>'))).toBe(false);
  });

  it('counts a reply that is only a <think> block as an empty response', async () => {
    const { provider } = localTarget(fixture('ollama-think-only.sse'), fixture('llamacpp-reasoning-content.sse'));
    const { result, events } = await runSession({ scripts: [], targets: [provider] });
    expect(result.success).toBe(true);
    expect(eventsOf(events, 'llm_response')[0]).toMatchObject({ ignored: 'empty', reasoning: 'Still thinking about which tool to use.' });
    expect(eventsOf(events, 'llm_request')[1].notices).toContain(EMPTY_RESPONSE_NOTICE);
  });

  it('xml: a tag mentioned inside <think> does not corrupt the real call', async () => {
    const body = JSON.stringify({ capture_selection: ECHO_SELECTION, arguments: { text: 'real' } });
    const { result, events } = await runSession({
      scripts: [
        [
          { text: `<think>Maybe <ai-agent-c0ffee42-0001 tool="test_echo">{"arguments": {"text": "thought"}}</ai-agent-c0ffee42-0001>?</think><ai-agent-c0ffee42-0001 tool="test_echo">${body}</ai-agent-c0ffee42-0001>` },
          { text: '<think>done</think><ai-agent-c0ffee42-FINAL format="markdown">Echoed.</ai-agent-c0ffee42-FINAL>' },
        ],
      ],
      settings: { transport: 'xml' },
    });
    expect(result.success).toBe(true);
    const [invocation] = eventsOf(events, 'invocation');
    expect(invocation.invocation.arguments).toEqual({ text: 'real' });
    expect(eventsOf(events, 'execution')[0].result.status).toBe('ok');
  });
});

describe('a server that leaves the tools out of the prompt (issue 24, SmolLM2 behind llama.cpp)', () => {
  /** One streamed llama.cpp reply: text, or one tool call, then the usage it reports. */
  const reply = (promptTokens: number, content: { text?: string; call?: { name: string; arguments: unknown } }) => {
    const delta = content.call
      ? { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: content.call.name, arguments: JSON.stringify(content.call.arguments) } }] }
      : { content: content.text ?? '' };
    const chunks = [
      { choices: [{ index: 0, delta, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: content.call ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: promptTokens, completion_tokens: 9, total_tokens: promptTokens + 9 } },
    ];
    return cannedResponse(`${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`);
  };
  const final = { name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: 'Done.' } };
  const target = (...answers: Response[]) => createHttpProvider({ provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', model: 'smollm2' }, { fetch: fakeFetch(...answers) });
  const unseen = (events: Parameters<typeof eventsOf>[0]) => eventsOf(events, 'warning').filter((event) => event.message.includes('did not show the tools'));

  it('warns when the reported prompt is smaller than the messages and a quarter of the definitions', async () => {
    // What the real run measured: 1,300 prompt tokens where ~3,100 were offered.
    const { result, events } = await runSession({ scripts: [], targets: [target(reply(300, { text: 'Yes, jitter explains latency_ms.' }), reply(100_000, { call: final }))] });
    expect(result.success).toBe(true);
    const warnings = unseen(events);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].turn).toBe(1);
    expect(warnings[0].message).toMatch(/^The server counted 300 prompt tokens where the messages and the tool definitions come to about \d+:/);
  });

  it('stays quiet when the prompt holds the tools, and in the xml transport', async () => {
    const generous = await runSession({ scripts: [], targets: [target(reply(100_000, { call: final }))] });
    expect(generous.result.success).toBe(true);
    expect(unseen(generous.events)).toEqual([]);
    const xml = await runSession({ scripts: [], settings: { transport: 'xml' }, targets: [target(reply(1, { text: 'No slot here.' }), reply(1, { text: 'Still none.' }))] });
    expect(xml.events.some((event) => event.type === 'llm_response')).toBe(true);
    expect(unseen(xml.events)).toEqual([]);
  });
});
