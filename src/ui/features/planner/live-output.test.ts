import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveOutput, LIVE_FLUSH_MS } from './live-output.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createLiveOutput', () => {
  it('batches a fast stream: one publication per flush interval, not one per token', () => {
    const live = createLiveOutput();
    const listener = vi.fn();
    live.subscribe(listener);
    live.requestStarted();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(live.get()).toEqual({ text: '', reasoning: '', toolCalls: [] });

    for (const token of ['The ', 'fit ', 'is ', 'good.']) live.delta({ kind: 'text', text: token });
    live.delta({ kind: 'reasoning', text: 'thinking' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(live.get()?.text).toBe('');

    vi.advanceTimersByTime(LIVE_FLUSH_MS);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(live.get()).toEqual({ text: 'The fit is good.', reasoning: 'thinking', toolCalls: [] });
    vi.advanceTimersByTime(LIVE_FLUSH_MS * 4);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('lists each tool call once, by id, and keeps a name that arrives late', () => {
    const live = createLiveOutput();
    live.requestStarted();
    live.delta({ kind: 'tool_call', id: 'a', name: '' });
    live.delta({ kind: 'tool_call', id: 'a', name: 'statistical_regression_tool' });
    live.delta({ kind: 'tool_call', id: 'b', name: 'agent__final_report' });
    live.delta({ kind: 'tool_call', id: 'b', name: 'agent__final_report' });
    vi.advanceTimersByTime(LIVE_FLUSH_MS);
    expect(live.get()?.toolCalls.map((call) => call.name)).toEqual(['statistical_regression_tool', 'agent__final_report']);
  });

  it('resets at a new request and clears at its end at once, dropping a pending batch and late deltas', () => {
    const live = createLiveOutput();
    live.requestStarted();
    live.delta({ kind: 'text', text: 'first answer' });
    vi.advanceTimersByTime(LIVE_FLUSH_MS);
    live.delta({ kind: 'text', text: ' more' });
    live.requestStarted();
    expect(live.get()).toEqual({ text: '', reasoning: '', toolCalls: [] });
    vi.advanceTimersByTime(LIVE_FLUSH_MS);
    expect(live.get()).toEqual({ text: '', reasoning: '', toolCalls: [] });

    live.delta({ kind: 'text', text: 'second' });
    live.requestEnded();
    expect(live.get()).toBeNull();
    live.delta({ kind: 'text', text: 'late' });
    vi.advanceTimersByTime(LIVE_FLUSH_MS);
    expect(live.get()).toBeNull();
  });
});
