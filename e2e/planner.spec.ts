import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures/workbench.ts';

// The Planner journeys: the offline demo (scripted provider + offline repairer, no network), and
// runs against the loopback mock LLM server (e2e/fixtures/mock-llm-server.mjs, port 4177) as an
// OpenAI-compatible and as an Anthropic target.

const MOCK = 'http://127.0.0.1:4177';

/** The specification's corrected regression (tool-contract.md), as a model sends it: no tool_name, no request_id. */
const regressionArguments = {
  tool_version: '1.2.0',
  capture_selection: {
    capture_id: 'cap_2026_03_14_a',
    selectors: { time_range: { start_ms: 0, end_ms: 120000 }, channels: ['ch1', 'ch2'], filters: [] },
  },
  arguments: { operation: 'linear_regression', target: 'latency_ms', features: ['snr', 'jitter', 'packet_loss'] },
  timeout_ms: 45000,
};

const finalReportStep = (content: string) => ({
  tool_calls: [{ id: 'call_final', name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: content, encoding: 'raw' } }],
  usage: { input_tokens: 2100, output_tokens: 80 },
});

const regressionStep = {
  text: 'Fitting latency against snr, jitter and packet loss.',
  tool_calls: [{ id: 'call_regression', name: 'statistical_regression_tool', arguments: regressionArguments }],
  usage: { input_tokens: 1500, output_tokens: 120 },
};

async function scriptMock(request: APIRequestContext, steps: unknown[], config: Record<string, unknown> = {}): Promise<void> {
  expect((await request.post(`${MOCK}/__mock/reset`)).ok()).toBe(true);
  if (Object.keys(config).length > 0) expect((await request.post(`${MOCK}/__mock/config`, { data: config })).ok()).toBe(true);
  expect((await request.post(`${MOCK}/__mock/script`, { data: steps })).ok()).toBe(true);
}

async function mockRequests(request: APIRequestContext): Promise<Array<{ path: string; headers: Record<string, string>; outcome: string }>> {
  return (await (await request.get(`${MOCK}/__mock/requests`)).json()) as Array<{ path: string; headers: Record<string, string>; outcome: string }>;
}

test.describe('the offline demo', () => {
  test('plays the invalid plan, its two coded errors, the offline repair, the corrected result and the final report', async ({ planner, page }) => {
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('http://127.0.0.1:4173')) external.push(request.url());
    });
    await planner.open();
    await planner.runDemo();
    expect(await planner.finished()).toBe('success');

    const rejected = planner.steps('invocation').filter({ has: page.getByTestId('planner.invocation.validation').getByText('invalid') });
    await expect(rejected).toHaveCount(1);
    const errors = rejected.getByTestId('result.error');
    await expect(errors).toHaveCount(2);
    await expect(errors.nth(0)).toHaveAttribute('data-code', 'MISSING_REQUIRED_ARGUMENT');
    await expect(errors.nth(1)).toHaveAttribute('data-code', 'UNSUPPORTED_TIME_RANGE');
    await expect(errors.nth(1)).toContainText('Requested 0-999999ms but capture cap_2026_03_14_a supports 0-120000ms');

    const diff = planner.current().getByTestId('planner.repair-diff');
    await expect(diff).toHaveAttribute('data-source', 'offline-repairer');
    await expect(diff.getByTestId('planner.repair-source')).toHaveText('offline repairer');
    await expect(diff.locator('[data-path="arguments.target"]')).toHaveAttribute('data-kind', 'added');
    await expect(diff.locator('[data-path="arguments.target"]')).toContainText('"latency_ms"');
    await expect(diff.locator('[data-path="capture_selection.selectors.time_range.end_ms"] td')).toHaveText(['999999', '120000']);

    const regression = planner.steps('execution').filter({ hasText: 'statistical_regression_tool' });
    await expect(regression.getByTestId('result.status')).toHaveText('ok');
    await expect(regression.getByTestId('result.coefficient-table')).toBeVisible();

    await expect(page.getByTestId('planner.demo.ble-off')).toHaveCount(0);
    const ble = planner.steps('execution').filter({ hasText: 'bluetooth_address_analyzer' });
    await expect(ble.getByTestId('result.status')).toHaveText(/^(ok|partial)$/);
    await expect(ble.getByTestId('ble.view')).toBeVisible();
    // The planner's execution knows its invocation, so an address jumps to its packets.
    await expect(ble.getByRole('button', { name: /^Packets of / }).first()).toBeEnabled();

    await expect(planner.current().getByTestId('planner.final.status')).toHaveText('success');
    await expect(planner.current().getByTestId('planner.final.content')).toContainText('offline repairer');
    await expect(planner.current().getByTestId('planner.accounting.row').filter({ hasText: 'LLM request' })).toHaveCount(3);
    expect(external).toEqual([]);
  });

  test('a saved demo run replays from its recording, re-runs only its failed step, and compares with another run', async ({ planner, page }) => {
    await planner.open();
    await planner.runDemo();
    expect(await planner.finished()).toBe('success');

    await page.reload();
    await expect(page.getByTestId('planner.history.row')).toHaveCount(1, { timeout: 120_000 });
    await page.getByTestId('planner.history.open').click();
    await planner.current().getByTestId('planner.run.replay').click();
    await page.getByTestId('planner.replay.play').click(); // pause the autoplay
    await expect(page.getByTestId('planner.replay.position')).toContainText(/event \d+ of \d+/);
    const position = async () => Number((await page.getByTestId('planner.replay.position').textContent())!.match(/event (\d+)/)![1]);
    const before = await position();
    await page.getByTestId('planner.replay.next').click();
    expect(await position()).toBe(before + 1);
    await page.getByTestId('planner.replay.close').click();

    await expect(planner.current().getByTestId('planner.run.rerun-failed')).toHaveText('Re-run failed steps (1)');
    await planner.current().getByTestId('planner.run.rerun-failed').click();
    const rerun = planner.current().getByTestId('planner.rerun');
    await expect(rerun.getByTestId('result.error')).toHaveCount(2);
    await expect(rerun).not.toContainText('req-invalid-001');

    await planner.runDemo();
    expect(await planner.finished()).toBe('success');
    await expect(page.getByTestId('planner.history.row')).toHaveCount(2);
    for (const box of await page.getByTestId('planner.history.compare').all()) await box.check();
    const compare = page.getByTestId('planner.compare');
    await expect(compare.getByTestId('planner.compare.column')).toHaveCount(2);
    await expect(compare).toContainText('Repairs');
  });

  test('Ctrl+Enter runs the question with a pasted script; model text is shown as text, never HTML', async ({ planner, page }) => {
    await planner.open();
    await page.getByTestId('planner.target.script-pasted').check();
    const hostile = '# Done\n<img src=x onerror="window.__pwned = 1"><b>bold?</b>';
    await page.getByTestId('planner.target.script').fill(JSON.stringify([finalReportStep(hostile)]));
    await planner.ask('Say done.');
    await page.getByTestId('planner.question').press('Control+Enter');
    expect(await planner.finished()).toBe('success');
    // Markdown is rendered (the heading), the raw HTML shown as its text.
    await expect(planner.current().getByTestId('planner.final.content').getByRole('heading', { name: 'Done' })).toBeVisible();
    await expect(planner.current().getByTestId('planner.final.content')).toContainText('<img src=x onerror="window.__pwned = 1"><b>bold?</b>');
    await expect(planner.current().getByTestId('planner.final.content').locator('img, b')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

// One scripted queue on the mock server: these run one at a time.
test.describe('against the mock LLM server', () => {
  test.describe.configure({ mode: 'serial' });

  test('an OpenAI-compatible target: a tool call, then the final report; the key reaches only the provider, never an export', async ({ planner, page, request }) => {
    const key = 'sk-e2e-openai-compatible-0123456789';
    await scriptMock(request, [regressionStep, finalReportStep('Jitter explains part of the latency.')]);
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'mock-model', `${MOCK}/v1`);
    await planner.setKey(key);
    await planner.ask('Does jitter explain latency on ch1 and ch2 of cap_2026_03_14_a?');
    await planner.run();
    expect(await planner.finished()).toBe('success');

    await expect(planner.steps('llm-request')).toHaveCount(2);
    await expect(planner.steps('llm-request').first().getByTestId('planner.llm.target')).toHaveText('openai-compatible:mock-model');
    await expect(planner.steps('llm-request').first()).toContainText('1,500 in / 120 out');
    await expect(planner.steps('execution').getByTestId('result.status')).toHaveText('ok');
    await expect(planner.current().getByTestId('planner.final.content')).toHaveText('Jitter explains part of the latency.');

    const sent = await mockRequests(request);
    expect(sent.map((entry) => entry.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    expect(sent.every((entry) => /^Bearer sha256:[0-9a-f]{16}$/.test(entry.headers.authorization ?? ''))).toBe(true);

    const exported = await planner.exportRun();
    expect(exported.text).not.toContain(key);
    expect(exported.text).not.toMatch(/"apiKey"/i);
    expect(exported.json).toMatchObject({ question: 'Does jitter explain latency on ch1 and ch2 of cap_2026_03_14_a?', targets: [{ provider: 'openai-compatible', model: 'mock-model' }] });

    await page.goto('/#/settings');
    const download = page.waitForEvent('download');
    await page.getByTestId('settings.export-workspace').click();
    const workspaceFile = await (await download).path();
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(workspaceFile);
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.includes(Buffer.from('mock-model'))).toBe(true);
  });

  test('a local model (Ollama-style stream): <think> blocks and tool calls written as text complete a run', async ({ planner, request }) => {
    const usage = { input_tokens: 1800, output_tokens: 90 };
    await scriptMock(request, [
      {
        text:
          '<think>The question is about jitter. Later I could write <ai-agent-0000-FINAL> but not yet.</think>\n' +
          `\`\`\`json\n${JSON.stringify({ name: 'statistical_regression_tool', arguments: regressionArguments })}\n\`\`\``,
        usage,
      },
      {
        text: `<think>R² is about 0.78; jitter is significant.</think>${JSON.stringify({ name: 'agent__final_report', arguments: { report_format: 'markdown', report_content: 'Jitter explains part of the latency (local model).' } })}`,
        usage,
      },
    ]);
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'qwen3:8b', `${MOCK}/ollama/v1`);
    await planner.ask('Does jitter explain latency on ch1 and ch2 of cap_2026_03_14_a?');
    await planner.run();
    expect(await planner.finished()).toBe('success');
    await expect(planner.steps('execution').getByTestId('result.status')).toHaveText('ok');
    await expect(planner.current().getByTestId('planner.final.content')).toHaveText('Jitter explains part of the latency (local model).');
    await expect(planner.current().getByTestId('planner.notice').filter({ hasText: 'extracted from the reply' })).toHaveCount(2);
    // What the model received: the digest and its size, next to the full result.
    const received = planner.steps('execution').getByTestId('planner.execution.model-content');
    await expect(received.getByTestId('planner.execution.model-bytes')).toHaveText(/^\d+(\.\d)? (bytes|KB)/);
    await received.locator('summary').click();
    await expect(received.locator('pre')).toContainText('"coefficients"');
    const sent = await mockRequests(request);
    expect(sent.map((entry) => entry.path)).toEqual(['/ollama/v1/chat/completions', '/ollama/v1/chat/completions']);
  });

  test('an Anthropic target: a tool call, then the final report', async ({ planner, request }) => {
    await scriptMock(request, [regressionStep, finalReportStep('Done through the Messages API.')]);
    await planner.open();
    await planner.useSingleTarget('anthropic', 'claude-sonnet-4-5', MOCK);
    await planner.setKey('sk-ant-e2e-0123456789');
    await planner.ask('Does jitter explain latency on cap_2026_03_14_a?');
    await planner.run();
    expect(await planner.finished()).toBe('success');
    await expect(planner.steps('llm-request').first().getByTestId('planner.llm.target')).toHaveText('anthropic:claude-sonnet-4-5');
    await expect(planner.steps('execution').getByTestId('result.status')).toHaveText('ok');
    await expect(planner.current().getByTestId('planner.final.content')).toHaveText('Done through the Messages API.');
    const sent = await mockRequests(request);
    expect(sent.map((entry) => [entry.path, entry.outcome.startsWith('anthropic-browser') ? 'refused' : 'ok'])).toEqual([
      ['/v1/messages', 'ok'],
      ['/v1/messages', 'ok'],
    ]);
    expect(sent[0].headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(sent[0].headers['x-api-key']).toMatch(/^sha256:/);
    // A known model: the accounting prices it.
    await expect(planner.current().getByTestId('planner.accounting.totals')).toContainText('$');
  });

  test('a 429 with Retry-After is retried after the wait, then succeeds', async ({ planner, request }) => {
    await scriptMock(request, [{ failure: { kind: 'rate_limit', retry_after: '1' } }, finalReportStep('Answered on the second attempt.')], { exposeHeaders: true });
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'mock-model', `${MOCK}/v1`);
    await planner.setKey('sk-e2e-rate-limit-0123456789');
    await planner.ask('Anything.');
    await planner.run();
    expect(await planner.finished()).toBe('success');
    const attempts = planner.steps('llm-request');
    await expect(attempts).toHaveCount(2);
    await expect(attempts.nth(0).getByTestId('planner.llm.status')).toHaveText('failed');
    await expect(attempts.nth(0).getByTestId('planner.llm.failure')).toHaveAttribute('data-kind', 'rate_limit');
    await expect(attempts.nth(0).getByTestId('planner.llm.failure')).toContainText('HTTP 429');
    await expect(attempts.nth(0).getByTestId('planner.llm.wait')).toContainText('1000 ms');
    await expect(attempts.nth(1).getByTestId('planner.llm.status')).toHaveText('ok');
    await expect(attempts.nth(1)).toContainText('attempt 2');
    await expect(planner.current().getByTestId('planner.accounting.row').filter({ hasText: 'LLM request' })).toHaveCount(2);
  });

  test('a 401 ends the session with the auth explanation and no retry', async ({ planner, request }) => {
    await scriptMock(request, [{ failure: { kind: 'auth' } }, finalReportStep('must never be reached')]);
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'mock-model', `${MOCK}/v1`);
    await planner.setKey('sk-e2e-wrong-key-0123456789');
    await planner.ask('Anything.');
    await planner.run();
    expect(await planner.finished()).toBe('failure');
    await expect(planner.steps('llm-request')).toHaveCount(1);
    const failure = planner.steps('llm-request').getByTestId('planner.llm.failure');
    await expect(failure).toHaveAttribute('data-kind', 'auth');
    await expect(failure).toContainText('did not accept the API key');
    await expect(failure).toContainText('Not retried');
    await expect(planner.current().getByTestId('planner.run.error')).toContainText('API key');
    await expect(planner.current()).not.toContainText('sk-e2e-wrong-key-0123456789');
    expect(await mockRequests(request)).toHaveLength(1);
  });

  test('the pending step shows the answer as it streams, resets at the next request, and gives way to the recorded step', async ({ planner, request }) => {
    const plan =
      'Fitting latency against snr, jitter and packet loss on both channels of the capture, over its whole time range, ' +
      'to see whether jitter still explains the latency spikes once the other two features are held fixed.';
    await scriptMock(request, [
      // A slow stream: a 40-character fragment every 300 ms (the text, then the call's arguments).
      { ...regressionStep, text: plan, chunk_size: 40, chunk_delay_ms: 300 },
      { ...finalReportStep('Jitter explains part of the latency.'), text: 'Writing the report.', chunk_size: 40, chunk_delay_ms: 300, delay_ms: 800 },
    ]);
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'mock-model', `${MOCK}/v1`);
    await planner.setKey('sk-e2e-stream-0123456789');
    await planner.ask('Does jitter explain latency on ch1 and ch2 of cap_2026_03_14_a?');
    await planner.run();

    const pending = planner.steps('pending');
    const live = pending.getByTestId('planner.live.text');
    // Seen before the text is complete, while the run is still going.
    let partial = '';
    await expect.poll(async () => (partial = (await live.count()) > 0 ? ((await live.textContent()) ?? '') : ''), { intervals: [50], timeout: 120_000 }).not.toBe('');
    expect(plan.startsWith(partial)).toBe(true);
    expect(partial.length).toBeLessThan(plan.length);
    await expect(planner.current()).toHaveAttribute('data-state', 'running');
    await expect(pending.getByTestId('planner.live.tool-call')).toHaveText('calling statistical_regression_tool…');
    await expect(live).toHaveText(plan);

    // The next request starts from nothing: only its own text and call. Between the two the
    // regression runs in a worker, which a loaded two-core machine can stretch past 15 s.
    await expect(pending.getByTestId('planner.live.tool-call')).toHaveText('calling agent__final_report…', { timeout: 120_000 });
    await expect(live).toHaveText('Writing the report.');

    expect(await planner.finished()).toBe('success');
    await expect(pending).toHaveCount(0);
    await expect(planner.current().getByTestId('planner.live.text')).toHaveCount(0);
    await expect(planner.steps('llm-request').first().getByTestId('planner.llm.text')).toHaveText(plan);
    await expect(planner.steps('llm-request').nth(1).getByTestId('planner.llm.text')).toHaveText('Writing the report.');
  });

  test('Stop ends a run while the provider is still answering', async ({ planner, page, request }) => {
    await scriptMock(request, [{ ...finalReportStep('too late'), delay_ms: 20_000 }]);
    await planner.open();
    await planner.useSingleTarget('openai-compatible', 'mock-model', `${MOCK}/v1`);
    await planner.setKey('sk-e2e-stop-0123456789');
    await planner.ask('Anything.');
    await planner.run();
    await expect(planner.steps('llm-request')).toHaveCount(1);
    await expect(page.getByTestId('planner.stop')).toBeEnabled();
    await planner.stop();
    expect(await planner.finished(10_000)).toBe('stopped');
    await expect(planner.current().getByTestId('planner.final.content')).toHaveCount(0);
    await expect(page.getByTestId('planner.run-button')).toBeEnabled();
  });
});
