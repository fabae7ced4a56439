import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/workbench.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** The saved-manifest list as stored in the page's workspace database. */
function readSavedManifests(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(
    () =>
      new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
        const request = indexedDB.open('sextant-workspace');
        request.onerror = () => reject(new Error('no workspace database'));
        request.onsuccess = () => {
          const get = request.result.transaction('settings').objectStore('settings').get('manifests.v1');
          get.onsuccess = () => resolve((get.result as { value: Array<Record<string, unknown>> } | undefined)?.value ?? []);
          get.onerror = () => reject(new Error('no settings'));
        };
      }),
  );
}

test('captures and runs survive a reload', async ({ tools, page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  await tools.open();
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });

  await page.reload();
  await page.goto('/#/captures');
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toBeVisible({ timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) }).click();
  await expect(page.getByTestId('capture.filter-count')).toHaveText('300 of 300 rows');

  await page.goto('/#/runs');
  const rows = page.getByTestId('runs.table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('statistical_regression_tool');
  await rows.first().getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('result.coefficient-table')).toBeVisible();

  await page.goto('/#/captures');
  await page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) }).click();
  await page.getByTestId('capture.delete').click();
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('captures.card')).toHaveCount(3);
});

test('a file without ts_ms goes through the column-mapping step', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('sniffer-export.csv'));
  const job = page.getByTestId('captures.import-job');
  await expect(job).toHaveAttribute('data-state', 'needs-mapping', { timeout: 120_000 });
  await page.getByTestId('mapping.time').selectOption('time_s');
  await page.getByTestId('mapping.time-unit').selectOption('s');
  await page.getByTestId('mapping.channel').selectOption('chan');
  await page.getByTestId('mapping.advertiser_addr').selectOption('mac');
  await page.getByTestId('mapping.apply').click();
  await expect(job).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('capture.filter-count')).toHaveText('60 of 60 rows');
  const addresses = page.getByTestId('capture.advertisers');
  await expect(addresses).toContainText('AA:BB:CC:00:00:01');
  await expect(addresses).toContainText('AA:BB:CC:00:00:02');
  await expect(page.getByTestId('capture.detail')).toContainText('2024-04-03T08:00:00.000Z');
});

test('the workspace exports to one file, and a malformed workspace file is rejected without losing anything', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  await page.goto('/#/settings');
  await expect(page.getByTestId('settings.storage-usage')).toContainText('Using');
  const download = page.waitForEvent('download');
  await page.getByTestId('settings.export-workspace').click();
  expect((await download).suggestedFilename()).toBe('sextant-workspace.sextant-workspace');

  await page.getByTestId('settings.import-workspace').setInputFiles({ name: 'broken.sextant-workspace', mimeType: 'application/octet-stream', buffer: Buffer.from('not a workspace at all') });
  await expect(page.getByTestId('settings.workspace-message')).toContainText('NOT_A_WORKSPACE_FILE');
  await page.reload();
  await page.goto('/#/captures');
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toBeVisible({ timeout: 120_000 });
});

test('importing a workspace file shows what it changes first; its endpoint bindings stay disabled and failing manifests are left out', async ({ page }) => {
  const manifest = (name: string) => ({
    name,
    version: '1.0.0',
    description: 'A tool a foreign workspace file binds to its own server.',
    capabilities: ['echo'],
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
    output_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execution_constraints: { max_timeout_ms: 10000, max_payload_bytes: 4096, supports_streaming: false, side_effects: 'none' },
    cost_hint: { unit: 'call', estimated_cost: 0, currency: 'USD' },
    deterministic: true,
  });
  const header = Buffer.from(
    JSON.stringify({
      format: 'sextant-workspace',
      version: 1,
      exportedAt: '2026-11-01T00:00:00.000Z',
      payloadBytes: 0,
      captures: [],
      runs: [],
      settings: [
        {
          key: 'manifests.v1',
          value: [
            { manifest: manifest('foreign_echo'), savedAt: '2026-11-01T00:00:00.000Z', endpoint: 'https://203.0.113.7/run' },
            { manifest: { ...manifest('broken_echo'), input_schema: { type: 'array' } }, savedAt: '2026-11-01T00:00:00.000Z' },
          ],
        },
      ],
    }),
  );
  const prefix = Buffer.alloc(16);
  prefix.write('SXTWKSP1', 0, 'ascii');
  prefix.writeUInt32LE(1, 8);
  prefix.writeUInt32LE(header.length, 12);

  await page.goto('/#/settings');
  await page.getByTestId('settings.import-workspace').setInputFiles({ name: 'foreign.sextant-workspace', mimeType: 'application/octet-stream', buffer: Buffer.concat([prefix, header]) });
  const review = page.getByTestId('settings.import-review');
  await expect(review).toBeVisible();
  const rows = review.getByTestId('settings.import-manifest');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('https://203.0.113.7/run');
  await expect(rows.nth(0).getByTestId('settings.import-endpoint')).not.toBeChecked();
  await expect(rows.nth(1)).toContainText('not imported');
  await review.getByTestId('settings.import-confirm').click();
  await expect(page.getByTestId('settings.workspace-message')).toContainText('Imported');

  const stored = await readSavedManifests(page);
  expect(stored).toEqual([expect.objectContaining({ pendingEndpoint: 'https://203.0.113.7/run', manifest: expect.objectContaining({ name: 'foreign_echo' }) })]);
  expect(stored[0].endpoint).toBeUndefined();

  // The Manifests page shows the disabled endpoint as text; enabling it asks first, then binds it.
  await page.goto('/#/manifests');
  const pending = page.getByTestId('pending-endpoints.item').filter({ hasText: 'foreign_echo' });
  await expect(pending).toContainText('Imported endpoint, not enabled: https://203.0.113.7/run');
  await expect(pending.getByRole('link')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('[data-testid="pending-endpoints"]').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await pending.getByRole('button', { name: 'Enable endpoint of foreign_echo 1.0.0' }).click();
  await expect(pending).toContainText('will be sent to this server: https://203.0.113.7/run');
  await pending.getByRole('button', { name: 'Send invocations there' }).click();
  await expect(page.getByTestId('pending-endpoints.message')).toContainText('Enabled the endpoint of foreign_echo 1.0.0');
  await expect(page.getByTestId('pending-endpoints.item')).toHaveCount(0);
  expect(await readSavedManifests(page)).toEqual([
    expect.objectContaining({ endpoint: 'https://203.0.113.7/run', manifest: expect.objectContaining({ name: 'foreign_echo' }) }),
  ]);
  expect((await readSavedManifests(page))[0].pendingEndpoint).toBeUndefined();
});

test('a workspace file imported into another browser is usable at once: its captures and runs show without a reload', async ({ tools, page, browser }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await tools.open();
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });
  await page.goto('/#/settings');
  const download = page.waitForEvent('download');
  await page.getByTestId('settings.export-workspace').click();
  const file = await (await download).path();

  // A fresh browser profile: nothing stored yet.
  const context = await browser.newContext();
  const other = await context.newPage();
  try {
    await other.goto(new URL('/#/captures', page.url()).href);
    await expect(other.getByTestId('captures.card')).toHaveCount(3, { timeout: 120_000 });
    await other.goto(new URL('/#/settings', page.url()).href);
    await other.getByTestId('settings.import-workspace').setInputFiles(file);
    await other.getByTestId('settings.import-confirm').click();
    await expect(other.getByTestId('settings.workspace-message')).toContainText('Imported 1 captures and 1 runs. They are ready to use.');

    await other.goto(new URL('/#/captures', page.url()).href);
    const card = other.getByTestId('captures.card').filter({ has: other.getByText('lab_floor', { exact: true }) });
    await card.click();
    await expect(other.getByTestId('capture.filter-count')).toHaveText('300 of 300 rows');
    await other.goto(new URL('/#/runs', page.url()).href);
    const rows = other.getByTestId('runs.table').locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await rows.first().getByRole('button', { name: 'Open' }).click();
    await expect(other.getByTestId('result.coefficient-table')).toBeVisible();
  } finally {
    await context.close();
  }
});
