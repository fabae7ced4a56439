import { expect, test } from './fixtures/workbench.ts';

// Issue 14 in the app's JSON path: the same executor as `sextant invoke`, validated on the page's thread.

const echo = (text: string, request_id: string) => ({
  tool_name: 'test_echo',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: { text },
  request_id,
  timeout_ms: 60000,
});

test.beforeEach(async ({ page, tools }) => {
  await page.goto('/#/settings');
  await page.getByTestId('settings.test-tools').check();
  await tools.open();
});

test('an invocation with a UTF-8 byte order mark runs', async ({ page, tools }) => {
  await page.getByTestId('invocation-editor.json-tab').click();
  await page.getByTestId('invocation-editor.json').fill(`\ufeff${JSON.stringify(echo('bom accepted', 'req-bom'))}`);
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('bom accepted');
});

test('an argument nested 6,000 arrays deep gets INVALID_INVOCATION, and the page keeps working', async ({ page, tools }) => {
  const deep = JSON.stringify(echo('x', 'req-deep')).replace('"text":"x"', `"text":${'['.repeat(6000)}"x"${']'.repeat(6000)}`);
  await page.getByTestId('invocation-editor.json-tab').click();
  await page.getByTestId('invocation-editor.json').fill(deep);
  await tools.run();
  const result = tools.results().first();
  await expect(result.getByTestId('result.error')).toHaveAttribute('data-code', 'INVALID_INVOCATION');
  await expect(result.getByTestId('result.error')).toContainText('nested more than 100 levels deep');

  await tools.writeJson(echo('still answering', 'req-after'));
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('still answering');
});
