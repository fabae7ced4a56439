import { expect, test } from './fixtures/workbench.ts';

const openAiDefinition = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

test('paste an OpenAI definition, open the draft manifest, see a lint error, and export it to Anthropic and MCP', async ({ page }) => {
  const external: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') external.push(request.url());
  });
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 20_000 });

  await page.getByTestId('manifest-import.input').fill(JSON.stringify(openAiDefinition));
  await page.getByTestId('manifest-import.convert').click();
  await expect(page.getByTestId('manifest-import.format')).toHaveText('openai');
  await page.getByTestId('manifest-import.open').click();
  await expect(page.getByTestId('manifest-problems.clean')).toBeVisible();

  await page.getByTestId('manifest-export.anthropic').click();
  await expect(page.getByTestId('manifest-export.output')).toContainText('"input_schema"');
  await page.getByTestId('manifest-export.mcp').click();
  await expect(page.getByTestId('manifest-export.output')).toContainText('"inputSchema"');

  // Break the manifest in the editor: a name that is not snake_case.
  await page.getByTestId('manifest-editor').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('{"name": "Get-Weather"');
  await expect(page.getByTestId('manifest-problems.item').first()).toBeVisible();
  await expect(page.getByTestId('manifest-export')).toContainText("Fix the manifest's errors");
  expect(external).toEqual([]);
});

test('the conformance check runs every generated case of an installed tool through the executor', async ({ page }) => {
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: /statistical_regression_tool/ }).click();
  await page.getByTestId('conformance.run').click();
  const summary = page.getByTestId('conformance.summary');
  await expect(summary).toContainText(/(\d+) of \1 passed/, { timeout: 30_000 });
  await expect(page.getByTestId('conformance.table').locator('tbody tr').filter({ hasText: 'MISSING_REQUIRED_ARGUMENT' }).first()).toContainText('✓');
});
