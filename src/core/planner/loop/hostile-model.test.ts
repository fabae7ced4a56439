// Issue 24: what a hostile (or broken) model sends must end in a coded refusal, never a crash.
import { describe, expect, it } from 'vitest';
import { finalCall, runSession, turnOf } from './loop-test-support.ts';

describe('D2: tool-call arguments nested thousands deep', () => {
  it.each([1_000, 3_000, 100_000])('%i deep: the call is refused and the session ends with the model’s report', async (depth) => {
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    const raw = `{"capture_selection":{"capture_id":"cap_2026_03_14_a"},"arguments":{"text":${deep}}}`;
    const { result } = await runSession({ scripts: [[{ tool_calls: [{ id: 'deep', name: 'test_echo', arguments: raw }], usage: { input_tokens: 1, output_tokens: 1 } }, turnOf(finalCall('f'))]] });
    expect(result.error).toBeUndefined();
    expect(result.finalReport).toMatchObject({ status: 'success', source: 'tool' });
    const tool = result.conversation.find((message) => message.role === 'tool');
    expect(tool?.content).toMatch(/^\(tool failed: .*nested more than 100 levels deep/);
    expect(tool!.content.length).toBeLessThan(1_000);
  });
});
