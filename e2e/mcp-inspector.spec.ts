// The MCP page at MCP Inspector's level (issue 23): a token and a header per server, the call
// history (kept across a reload, re-run), Resources and Prompts tabs, the notifications pane, and
// Sextant's own `sextant mcp serve --http --allow-origin`.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/workbench.ts';

const EVERYTHING = 'http://127.0.0.1:4365/mcp';
/** Sextant's own server for the last journey (a port no other journey uses). Waits are deadlines for a starved CPU (issue 27), not speed checks. */
const SEXTANT_PORT = 4366;
const SEXTANT_TOKEN = 'e2e-sextant-token';
const SEXTANT_CLI = fileURLToPath(new URL('../cli/sextant.mjs', import.meta.url));

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`);
}

async function addServer(page: Page, url: string) {
  await page.goto('/#/mcp');
  await page.getByTestId('mcp.url').fill(url);
  await page.getByTestId('mcp.add').click();
  return page.getByTestId('mcp.server');
}

test('headers set, a call with progress, the history kept and re-run, a resource read, a prompt got, logging filtered; axe at 1280 and 390 px', async ({ page }) => {
  const sent: Array<Record<string, string>> = [];
  page.on('request', (request) => {
    if (request.url() === EVERYTHING && request.method() === 'POST') sent.push(request.headers());
  });
  const server = await addServer(page, EVERYTHING);
  await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });

  // A bearer token and a custom header, remembered on this device; applying them reconnects.
  await server.getByTestId('mcp.credentials').locator('summary').click();
  await server.getByTestId('mcp.token').fill('tok-e2e-123');
  await server.getByTestId('mcp.header-add').click();
  await server.getByTestId('mcp.header-name').fill('X-Sextant-Trace');
  await server.getByTestId('mcp.header-value').fill('trace-e2e');
  await server.getByTestId('mcp.credentials-remember').check();
  await server.getByTestId('mcp.credentials-apply').click();
  await expect(server.getByTestId('mcp.credentials-state')).toHaveText('bearer token, X-Sextant-Trace · remembered on this device');
  await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
  // A header the transport owns is refused at its field.
  await server.getByTestId('mcp.header-add').click();
  await server.getByTestId('mcp.header-name').fill('Mcp-Session-Id');
  await server.getByTestId('mcp.header-value').fill('x');
  await server.getByTestId('mcp.credentials-apply').click();
  await expect(server.getByTestId('mcp.credentials-problems')).toContainText('headers[0].name');
  await server.getByRole('button', { name: 'Remove header' }).click();

  // A call: the token and the header travel with it.
  const echo = server.getByTestId('mcp.tool.echo');
  await echo.getByRole('button', { name: /echo/ }).click();
  await echo.getByTestId('mcp.args').fill('{"message": "inspector"}');
  await echo.getByTestId('mcp.call').click();
  await expect(echo.getByTestId('mcp.result-summary')).toHaveText('Echo: inspector');
  const withCall = sent.filter((headers) => headers.authorization === 'Bearer tok-e2e-123');
  expect(withCall.length).toBeGreaterThan(0);
  expect(withCall.every((headers) => headers['x-sextant-trace'] === 'trace-e2e')).toBe(true);

  // Progress of a long call reaches the notifications pane, as text.
  const longRun = server.getByTestId('mcp.tool.trigger-long-running-operation');
  await longRun.getByRole('button', { name: /trigger-long-running-operation/ }).click();
  await longRun.getByTestId('mcp.args').fill('{"duration": 2, "steps": 4}');
  await longRun.getByTestId('mcp.call').click();
  await expect(longRun.getByTestId('mcp.result-status')).toHaveText('ok', { timeout: 120_000 });
  const log = server.getByTestId('mcp.notifications-log');
  await expect(log).toContainText('trigger-long-running-operation: progress');

  // Logging messages: the server's simulated logging, then the level filter.
  const logging = server.getByTestId('mcp.tool.toggle-simulated-logging');
  await logging.getByRole('button', { name: /toggle-simulated-logging/ }).click();
  await logging.getByTestId('mcp.call').click();
  await expect(logging.getByTestId('mcp.result-status')).toHaveText('ok');
  await expect(log.locator('[data-level]').first()).toBeVisible({ timeout: 120_000 });
  await server.getByTestId('mcp.notifications-level').selectOption('emergency');
  await expect(log.locator('[data-level]:not([data-level="emergency"])')).toHaveCount(0);
  await expect(log).toContainText('trigger-long-running-operation: progress');
  await logging.getByTestId('mcp.call').click(); // off again

  // Resources: list, read a static document, read a templated one, and a URI that is not one.
  await server.getByTestId('mcp.tab.resources').click();
  await server.getByTestId('mcp.resources-list').click();
  const features = server.getByTestId('mcp.resource').filter({ hasText: 'features.md' });
  await features.click();
  await expect(server.getByTestId('mcp.resource-text').first()).toContainText('Everything Server');
  await server.getByTestId('mcp.resource-uri').fill('demo://resource/dynamic/text/7');
  await server.getByTestId('mcp.resource-read').click();
  await expect(server.getByTestId('mcp.resource-contents')).toContainText('demo://resource/dynamic/text/7');
  await server.getByTestId('mcp.resource-uri').fill('no uri here');
  await server.getByTestId('mcp.resource-read').click();
  await expect(server.getByTestId('mcp.resource-error')).toContainText('INVALID_VALUE');

  // Prompts: a missing required argument is refused before sending; then the prompt with its argument.
  await server.getByTestId('mcp.tab.prompts').click();
  await server.getByTestId('mcp.prompts-list').click();
  const argsPrompt = server.getByTestId('mcp.prompt.args-prompt');
  await argsPrompt.getByRole('button', { name: /args-prompt/ }).click();
  await argsPrompt.getByTestId('mcp.prompt-get').click();
  await expect(argsPrompt.getByTestId('mcp.prompt-not-sent')).toBeVisible();
  await expect(argsPrompt.getByTestId('mcp.prompt-error')).toContainText('MISSING_REQUIRED_ARGUMENT');
  await expect(argsPrompt.getByTestId('mcp.prompt-error')).toContainText('arguments.city');
  await argsPrompt.getByTestId('mcp.prompt-arg.city').fill('Lisbon');
  await argsPrompt.getByTestId('mcp.prompt-get').click();
  await expect(argsPrompt.getByTestId('mcp.prompt-messages')).toContainText("What's weather in Lisbon?");
  // A prompt that errors on the server: its text, coded; then the same prompt with an embedded resource, as text.
  const resourcePrompt = server.getByTestId('mcp.prompt.resource-prompt');
  await resourcePrompt.getByRole('button', { name: /resource-prompt/ }).click();
  await resourcePrompt.getByTestId('mcp.prompt-arg.resourceType').fill('Text');
  await resourcePrompt.getByTestId('mcp.prompt-arg.resourceId').fill('abc');
  await resourcePrompt.getByTestId('mcp.prompt-get').click();
  await expect(resourcePrompt.getByTestId('mcp.prompt-error')).toContainText('Invalid resourceId: abc');
  await resourcePrompt.getByTestId('mcp.prompt-arg.resourceId').fill('2');
  await resourcePrompt.getByTestId('mcp.prompt-get').click();
  await expect(resourcePrompt.getByTestId('mcp.prompt-messages')).toContainText('(resource demo://resource/dynamic/text/2)');

  expect(await seriousAxeViolations(page), 'axe on the MCP page at 1280 px').toEqual([]);

  // The history survives a reload (the credentials too: they were remembered), and re-runs.
  await page.reload();
  const again = page.getByTestId('mcp.server');
  await expect(again.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
  await expect(again.getByTestId('mcp.credentials-state')).toContainText('remembered on this device');
  await again.getByTestId('mcp.tab.history').click();
  const entries = again.getByTestId('mcp.history-entry');
  await expect(entries.filter({ hasText: 'Echo: inspector' })).toHaveCount(1);
  const before = await entries.count();
  await entries.filter({ hasText: 'Echo: inspector' }).getByTestId('mcp.history-rerun').click();
  await expect(entries).toHaveCount(before + 1);
  await expect(entries.first().getByTestId('mcp.history-summary')).toHaveText('Echo: inspector');
  await expect(entries.first().getByTestId('mcp.history-status')).toHaveText('ok');
  // The history never holds the token.
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('sextant-workspace');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const names = [...db.objectStoreNames];
    const texts: string[] = [];
    for (const name of names) {
      const all = await new Promise<unknown[]>((resolve) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve([]);
      });
      texts.push(JSON.stringify(all, (_key, value) => (value instanceof Blob || value instanceof ArrayBuffer ? '[bytes]' : value)));
    }
    db.close();
    return texts.join('\n');
  });
  expect(stored).toContain('Echo: inspector');
  expect(stored).not.toContain('tok-e2e-123');
  expect(stored).not.toContain('trace-e2e');

  await page.setViewportSize({ width: 390, height: 844 });
  await again.getByTestId('mcp.history-entry').first().locator('summary').click();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'MCP page width at 390 px').toBeLessThanOrEqual(390);
  expect(await seriousAxeViolations(page), 'axe on the MCP page at 390 px').toEqual([]);
});

test('the call history bounds long arguments (that call cannot be re-run) and travels with the workspace file: exported, cleared, imported back without a reload', async ({ page }) => {
  const server = await addServer(page, EVERYTHING);
  await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
  const echo = server.getByTestId('mcp.tool.echo');
  await echo.getByRole('button', { name: /echo/ }).click();
  // 17,000 characters of message: more than the 16,384 characters of arguments an entry keeps.
  await echo.getByTestId('mcp.args').fill(JSON.stringify({ message: 'l'.repeat(17_000) }));
  await echo.getByTestId('mcp.call').click();
  await expect(echo.getByTestId('mcp.result-status')).toHaveText('ok', { timeout: 120_000 });
  await echo.getByTestId('mcp.args').fill('{"message": "short"}');
  await echo.getByTestId('mcp.call').click();
  await expect(echo.getByTestId('mcp.result-summary')).toHaveText('Echo: short');

  const checkHistory = async () => {
    const entries = page.getByTestId('mcp.server').getByTestId('mcp.history-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0).getByTestId('mcp.history-summary')).toHaveText('Echo: short');
    await expect(entries.nth(0).getByTestId('mcp.history-rerun')).toBeEnabled();
    await expect(entries.nth(1).getByTestId('mcp.history-rerun')).toBeDisabled();
    await expect(entries.nth(1).getByTestId('mcp.history-not-rerunnable')).toContainText('(17,014 characters) were longer than the history keeps (16,384)');
    await entries.nth(1).locator('summary').click();
    await expect(entries.nth(1).getByTestId('mcp.history-args')).toContainText('… [truncated: 630 more characters not kept]');
  };
  await server.getByTestId('mcp.tab.history').click();
  await checkHistory();

  await page.goto('/#/settings');
  const download = page.waitForEvent('download');
  await page.getByTestId('settings.export-workspace').click();
  const exported = await (await download).path();

  await page.goto('/#/mcp');
  await page.getByTestId('mcp.server').getByTestId('mcp.tab.history').click();
  await page.getByTestId('mcp.history-clear').click();
  await expect(page.getByTestId('mcp.history-entry')).toHaveCount(0);

  await page.goto('/#/settings');
  await page.getByTestId('settings.import-workspace').setInputFiles(exported);
  await expect(page.getByTestId('settings.import-mcp-history')).toContainText('2 MCP calls for the call history (2 new');
  await page.getByTestId('settings.import-confirm').click();
  await expect(page.getByTestId('settings.workspace-message')).toContainText('Imported');
  await page.goto('/#/mcp');
  await page.getByTestId('mcp.server').getByTestId('mcp.tab.history').click();
  await checkHistory();
});

test.describe('Sextant\'s own server, started with --allow-origin for this page and a token', () => {
  let child: ChildProcess | null = null;
  let stderr = '';
  test.beforeAll(async () => {
    child = spawn(process.execPath, [SEXTANT_CLI, 'mcp', 'serve', '--http', '--port', String(SEXTANT_PORT), '--token', SEXTANT_TOKEN, '--allow-origin', 'http://127.0.0.1:4173', '--enable-test-tools'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    await expect.poll(() => stderr, { timeout: 120_000 }).toContain('serving Streamable HTTP');
  });
  test.afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  test('refused without the token (the message says so), then tools, a call and a capture resource with it', async ({ page }) => {
    const server = await addServer(page, `http://127.0.0.1:${SEXTANT_PORT}/mcp`);
    await expect(server.getByTestId('mcp.status')).toHaveText('error', { timeout: 120_000 });
    await expect(server.getByTestId('mcp.error')).toContainText('HTTP 401');
    await expect(server.getByTestId('mcp.error')).toContainText('bearer token');

    await server.getByTestId('mcp.credentials').locator('summary').click();
    await server.getByTestId('mcp.token').fill(SEXTANT_TOKEN);
    await server.getByTestId('mcp.credentials-apply').click();
    await expect(server.getByTestId('mcp.status')).toHaveText('connected', { timeout: 120_000 });
    await expect(server.getByTestId('mcp.credentials-state')).toHaveText('bearer token · this tab only');

    const echo = server.getByTestId('mcp.tool.test_echo');
    await echo.getByRole('button', { name: /test_echo/ }).click();
    await echo.getByTestId('mcp.args').fill(JSON.stringify({ capture_selection: { capture_id: 'cap_2026_03_14_a' }, arguments: { text: 'from the page' } }));
    await echo.getByTestId('mcp.call').click();
    await expect(echo.getByTestId('mcp.result-status')).toHaveText('ok', { timeout: 60_000 });

    await server.getByTestId('mcp.tab.resources').click();
    await server.getByTestId('mcp.resources-list').click();
    await server.getByTestId('mcp.resource').filter({ hasText: 'sextant://captures/cap_2026_03_14_a' }).click();
    await expect(server.getByTestId('mcp.resource-text').first()).toContainText('"id": "cap_2026_03_14_a"');
  });
});
