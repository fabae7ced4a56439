// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Timeline } from './Timeline.tsx';
import type { TimelineStep } from './timeline-steps.ts';

afterEach(cleanup);

describe('<Timeline>', () => {
  it('renders a final report and model text as text, never as HTML', () => {
    const hostile = '# Report\n<img src=x onerror="window.pwned=1"><b>bold</b><script>window.pwned=2</script>';
    const steps: TimelineStep[] = [
      { kind: 'llm-request', turn: 1, attempt: 1, provider: 'openai', model: 'm', status: 'ok', latencyMs: 5, inputTokens: 1, outputTokens: 1, cachedTokens: 0, text: '<i>hi</i>' },
      { kind: 'final-report', status: 'success', format: 'markdown', content: hostile },
    ];
    render(<Timeline steps={steps} running={false} />);
    const content = screen.getByTestId('planner.final.content');
    expect(content.textContent).toBe(hostile);
    expect(content.querySelector('img, b, script')).toBeNull();
    expect(screen.getByTestId('planner.llm.text').querySelector('i')).toBeNull();
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
});
