import { expect, test } from './fixtures/workbench.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

test('captures and runs survive a reload', async ({ tools, page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });

  await tools.open();
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 30_000 });

  await page.reload();
  await page.goto('/#/captures');
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toBeVisible({ timeout: 20_000 });
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
  await expect(job).toHaveAttribute('data-state', 'needs-mapping', { timeout: 20_000 });
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
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });

  await page.goto('/#/settings');
  await expect(page.getByTestId('settings.storage-usage')).toContainText('Using');
  const download = page.waitForEvent('download');
  await page.getByTestId('settings.export-workspace').click();
  expect((await download).suggestedFilename()).toBe('sextant-workspace.sextant-workspace');

  await page.getByTestId('settings.import-workspace').setInputFiles({ name: 'broken.sextant-workspace', mimeType: 'application/octet-stream', buffer: Buffer.from('not a workspace at all') });
  await expect(page.getByTestId('settings.workspace-message')).toContainText('NOT_A_WORKSPACE_FILE');
  await page.reload();
  await page.goto('/#/captures');
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toBeVisible({ timeout: 20_000 });
});
