import { canonicalize, toManifest, type ToolManifest } from '../src/core/index.ts';
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
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });

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
  await replaceEditorText(page, JSON.stringify({ name: 'Get-Weather' }));
  await expect(page.getByTestId('manifest-problems.item').filter({ hasText: '$.name' }).first()).toBeVisible();
  await expect(page.getByTestId('manifest-export')).toContainText("Fix the manifest's errors");
  expect(external).toEqual([]);
});

test('the conformance check runs every generated case of an installed tool through the executor', async ({ page }) => {
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await page.getByTestId('manifest-list.item').filter({ hasText: 'statistical_regression_tool' }).click();
  await page.getByTestId('conformance.run').click();
  const summary = page.getByTestId('conformance.summary');
  await expect(summary).toContainText(/(\d+) of \1 passed/, { timeout: 120_000 });
  await expect(page.getByTestId('conformance.table').locator('tbody tr').filter({ hasText: 'MISSING_REQUIRED_ARGUMENT' }).first()).toContainText('✓');
});

/** Replaces the editor's text the way a person would: select all, paste (typing would auto-close brackets). */
async function replaceEditorText(page: import('@playwright/test').Page, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.getByTestId('manifest-editor').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+v');
}

test('fix a lint error, save, check conformance, and see a breaking change refused without a major bump', async ({ page }) => {
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  const broken = { ...openAiDefinition, function: { ...openAiDefinition.function, parameters: { ...openAiDefinition.function.parameters, required: ['city', 'unit'] } } };
  await page.getByTestId('manifest-import.input').fill(JSON.stringify(broken));
  await page.getByTestId('manifest-import.convert').click();
  await page.getByTestId('manifest-import.open').click();
  await expect(page.getByTestId('manifest-problems.item').filter({ hasText: 'REQUIRED_NOT_DECLARED' })).toBeVisible();
  await expect(page.getByTestId('manifest-save')).toBeDisabled();

  // The fix: declare `unit`.
  // The same draft the page made, computed by the same core (Monaco only renders visible lines).
  const draft = toManifest(canonicalize(broken).tool).manifest as ToolManifest & { input_schema: { properties: Record<string, unknown>; required: string[] } };
  draft.input_schema.properties.unit = { type: 'string', enum: ['C', 'F'] };
  await replaceEditorText(page, JSON.stringify(draft, null, 2));
  await expect(page.getByTestId('manifest-problems.clean')).toBeVisible();
  await page.getByTestId('manifest-save').click();
  await expect(page.getByTestId('manifest-save.message')).toHaveAttribute('data-ok', 'true');

  await page.getByTestId('conformance.run').click();
  await expect(page.getByTestId('conformance.summary')).toContainText('passed', { timeout: 120_000 });
  await expect(page.getByTestId('conformance.table').locator('tbody tr').filter({ hasText: 'MISSING_REQUIRED_ARGUMENT' }).first()).toContainText('✓');

  await page.getByTestId('manifest-export.anthropic').click();
  await expect(page.getByTestId('manifest-export.output')).toContainText('"get_weather"');

  // A new required argument is breaking: a minor bump is refused, a major one is accepted.
  const breaking = { ...draft, version: '1.1.0', input_schema: { ...draft.input_schema, required: ['city', 'unit', 'country'], properties: { ...draft.input_schema.properties, country: { type: 'string' } } } };
  await replaceEditorText(page, JSON.stringify(breaking, null, 2));
  await expect(page.getByTestId('manifest-problems.clean')).toBeVisible();
  await page.getByTestId('manifest-save').click();
  const refusal = page.getByTestId('manifest-save.message');
  await expect(refusal).toHaveAttribute('data-ok', 'false');
  await expect(refusal).toContainText('major');
  await expect(refusal).toContainText('country');

  await replaceEditorText(page, JSON.stringify({ ...breaking, version: '2.0.0' }, null, 2));
  await page.getByTestId('manifest-save').click();
  await expect(refusal).toHaveAttribute('data-ok', 'true');
  await page.getByTestId('manifest-list.compare').first().click();
  await expect(page.getByTestId('manifest-diff')).toContainText('1.0.0 → 2.0.0');
});
