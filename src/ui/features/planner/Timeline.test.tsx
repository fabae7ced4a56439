import { type TimelineStep } from '../../../core/index.ts';
// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Timeline } from './Timeline.tsx';
import { createLiveOutput, LIVE_FLUSH_MS } from './live-output.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('<Timeline>', () => {
  it('renders a final report and model text as text, never as HTML', () => {
    const hostile = '# Report\n<img src=x onerror="window.pwned=1"><b>bold</b><script>window.pwned=2</script>';
    const steps: TimelineStep[] = [
      { kind: 'llm-request', turn: 1, attempt: 1, provider: 'openai', model: 'm', status: 'ok', latencyMs: 5, inputTokens: 1, outputTokens: 1, cachedTokens: 0, text: '<i>hi</i>' },
      { kind: 'final-report', status: 'success', format: 'markdown', content: hostile },
    ];
    render(<Timeline steps={steps} running={false} />);
    const content = screen.getByTestId('planner.final.content');
    // The markdown heading is an element; the raw HTML is its own source text, inert.
    expect(content.querySelector('h4')?.textContent).toBe('Report');
    expect(content.textContent).toContain('<img src=x onerror="window.pwned=1"><b>bold</b><script>window.pwned=2</script>');
    expect(content.querySelector('img, b, script')).toBeNull();
    expect(screen.getByTestId('planner.llm.text').querySelector('i')).toBeNull();
  });

  it('renders markdown structure (lists, emphasis, code, tables) and keeps links inert', () => {
    const markdown = '## Findings\n\n- **3** clusters & `RPA` rotation\n- see [docs](javascript:alert(1))\n\n| a | b |\n|---|---|\n| 1 | <i>2</i> |\n\n![x](http://example.com/x.png)';
    render(<Timeline steps={[{ kind: 'final-report', status: 'success', format: 'markdown', content: markdown }]} running={false} />);
    const content = screen.getByTestId('planner.final.content');
    expect(content.querySelector('h5')?.textContent).toBe('Findings');
    expect([...content.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['3 clusters & RPA rotation', 'see docs (javascript:alert(1))']);
    expect(content.querySelector('strong')?.textContent).toBe('3');
    expect(content.querySelector('code')?.textContent).toBe('RPA');
    expect(content.querySelector('td:last-child')?.textContent).toBe('<i>2</i>');
    expect(content.querySelector('a, img, i')).toBeNull();
    expect(content.textContent).toContain('[image: x]');
  });

  it('shows a failed request with its class and explanation, and the wait before the retry', () => {
    const steps: TimelineStep[] = [
      {
        kind: 'llm-request',
        turn: 1,
        attempt: 1,
        provider: 'openai-compatible',
        model: 'mock',
        status: 'failed',
        latencyMs: 12,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        failure: { kind: 'rate_limit', message: 'Rate limited; retrying after the delay the server asked for.', httpStatus: 429, retryAfterMs: 1000 },
        waitMs: 1000,
      },
    ];
    render(<Timeline steps={steps} running />);
    const failure = screen.getByTestId('planner.llm.failure');
    expect(failure.getAttribute('data-kind')).toBe('rate_limit');
    expect(failure.textContent).toContain('HTTP 429');
    expect(screen.getByTestId('planner.llm.wait').textContent).toContain('1000 ms');
    expect(screen.getByTestId('planner.step.pending')).toBeTruthy();
  });

  it('shows what the request in flight streams, as text, with reasoning labelled and tool calls as they begin', () => {
    vi.useFakeTimers();
    const live = createLiveOutput();
    const pending: TimelineStep[] = [
      { kind: 'llm-request', turn: 1, attempt: 1, provider: 'openai', model: 'm', status: 'pending', latencyMs: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
    ];
    render(<Timeline steps={pending} running live={live} />);
    const item = screen.getByTestId('planner.step.pending');
    expect(item.textContent).toBe('Working…');

    act(() => {
      live.requestStarted();
      live.delta({ kind: 'reasoning', text: 'The user wants <b>a fit</b>.' });
      live.delta({ kind: 'text', text: 'Fitting <img src=x onerror="window.pwned=1">' });
      live.delta({ kind: 'text', text: ' latency.' });
    });
    // Batched: nothing shows before the flush interval.
    expect(screen.queryByTestId('planner.live.text')).toBeNull();
    act(() => void vi.advanceTimersByTime(LIVE_FLUSH_MS));
    expect(screen.getByTestId('planner.live.text').textContent).toBe('Fitting <img src=x onerror="window.pwned=1"> latency.');
    expect(screen.getByTestId('planner.live.reasoning').textContent).toBe('The user wants <b>a fit</b>.');
    expect(item.textContent).toContain('Reasoning, streaming');
    expect(item.querySelector('img, b')).toBeNull();

    act(() => {
      live.delta({ kind: 'tool_call', id: 'call_1', name: 'statistical_regression_tool' });
      vi.advanceTimersByTime(LIVE_FLUSH_MS);
    });
    expect(screen.getByTestId('planner.live.tool-call').textContent).toBe('calling statistical_regression_tool…');

    // A new request starts from nothing.
    act(() => live.requestStarted());
    expect(screen.queryByTestId('planner.live.text')).toBeNull();
    expect(screen.queryByTestId('planner.live.reasoning')).toBeNull();
    expect(screen.queryByTestId('planner.live.tool-call')).toBeNull();
    act(() => {
      live.delta({ kind: 'text', text: 'Second answer' });
      vi.advanceTimersByTime(LIVE_FLUSH_MS);
    });
    expect(screen.getByTestId('planner.live.text').textContent).toBe('Second answer');

    // The response is recorded: the live text goes, the recorded step shows it.
    act(() => live.requestEnded());
    expect(screen.queryByTestId('planner.live.text')).toBeNull();
    expect(screen.getByTestId('planner.step.pending').textContent).toBe('Working…');
  });
});
