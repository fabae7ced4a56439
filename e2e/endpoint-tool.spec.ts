import { expect, test } from './fixtures/workbench.ts';

const remoteManifest = (name: string) => ({
  name,
  version: '1.0.0',
  description: 'Echoes text from a server, for the endpoint-bound tool journey.',
  capabilities: ['echo'],
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  output_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execution_constraints: { max_timeout_ms: 60000, max_payload_bytes: 4096, supports_streaming: false, side_effects: 'none' },
  cost_hint: { unit: 'call', estimated_cost: 0, currency: 'USD' },
  deterministic: true,
});

const invocation = (name: string, port = 4175) => ({
  tool_name: name,
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'cap_2026_03_14_a' },
  arguments: { text: 'over the wire' },
  request_id: `req-${name}-${port}`,
  timeout_ms: 60000,
});

async function saveBound(page: import('@playwright/test').Page, name: string, endpoint: string): Promise<void> {
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // The paste is retried until the editor shows it: under load the editor can take the keys
  // before it has focus, and the manifest shown before would then be saved instead.
  await expect(async () => {
    await page.evaluate((value) => navigator.clipboard.writeText(value), JSON.stringify(remoteManifest(name), null, 2));
    await page.getByTestId('manifest-editor').locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('ControlOrMeta+v');
    // The editor shows the end of the pasted text, where this manifest's payload limit stands.
    await expect(page.getByTestId('manifest-editor').locator('.view-lines')).toContainText('"max_payload_bytes": 4096', { timeout: 10_000 });
  }).toPass({ timeout: 120_000 });
  await expect(page.getByTestId('manifest-problems.clean')).toBeVisible();
  await page.getByTestId('manifest-save.endpoint').fill(endpoint);
  await page.getByTestId('manifest-save').click();
  await expect(page.getByTestId('manifest-save.message')).toHaveAttribute('data-ok', 'true');
}

test('a saved manifest bound to an endpoint runs there; a reply that breaks the contract and an unreachable server are reported', async ({ tools, page }) => {
  await saveBound(page, 'remote_echo', 'http://127.0.0.1:4175/tools/remote_echo');
  await saveBound(page, 'broken_echo', 'http://127.0.0.1:4175/tools/broken');
  await saveBound(page, 'offline_echo', 'http://127.0.0.1:4176/tools/remote_echo');

  await tools.open();
  await tools.writeJson(invocation('remote_echo'));
  await tools.run();
  await expect(tools.results().first().getByTestId('result.summary')).toHaveText('remote echo: over the wire (req-remote_echo-4175)');

  await tools.writeJson(invocation('broken_echo'));
  await tools.run();
  await expect(tools.results().first().getByTestId('result.error').first()).toHaveAttribute('data-code', 'OUTPUT_SCHEMA_VIOLATION');

  await tools.writeJson(invocation('offline_echo'));
  await tools.run();
  const offline = tools.results().first().getByTestId('result.error');
  await expect(offline).toHaveAttribute('data-code', 'EXECUTION_ERROR');
  await expect(offline).toContainText('Access-Control-Allow-Origin');
});
