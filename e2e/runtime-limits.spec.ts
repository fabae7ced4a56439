import { expect, test } from './fixtures/workbench.ts';

const echo = (args: Record<string, unknown>, timeout_ms: number) => ({
  tool_name: 'test_echo',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: args,
  request_id: `req-e2e-${timeout_ms}`,
  timeout_ms,
});

test.beforeEach(async ({ page, tools }) => {
  await page.goto('/#/settings');
  await page.getByTestId('settings.test-tools').check();
  await tools.open();
});

test('a tool that overruns its timeout is stopped, and the next run gets a fresh worker', async ({ tools }) => {
  await tools.writeJson(echo({ sleep_ms: 600_000 }, 1500));
  await tools.run();
  const stopped = tools.results().first();
  await expect(stopped.getByTestId('result.error')).toHaveAttribute('data-code', 'TIMEOUT', { timeout: 120_000 });

  await tools.writeJson(echo({ text: 'worker replaced and answering' }, 5000));
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('worker replaced and answering');
});

test('cancel stops a long run for real and shows its progress first', async ({ tools, page }) => {
  await tools.writeJson(echo({ sleep_ms: 600_000 }, 60_000));
  await tools.run();
  await expect(page.getByTestId('run.progress')).toBeVisible();
  await page.getByTestId('invocation-editor.cancel').click();
  const result = tools.results().first();
  await expect(result.getByTestId('result.error')).toHaveAttribute('data-code', 'EXECUTION_ERROR');
  await expect(result.getByTestId('result.error')).toContainText('cancelled');

  await tools.writeJson(echo({ text: 'after cancel' }, 5000));
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('after cancel');
});
