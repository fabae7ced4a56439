import { expect, test } from './fixtures/workbench.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

test('imports a CSV capture, filters it with the filter language and starts a tool on it', async ({ tools, page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('captures.card').filter({ has: page.getByText('lab_floor', { exact: true }) })).toBeVisible();

  const detail = page.getByTestId('capture.detail');
  await expect(detail).toContainText('lab_floor');
  await expect(page.getByTestId('capture.filter-count')).toHaveText('300 of 300 rows');
  await expect(page.getByTestId('capture.advertisers').locator('tbody tr')).toHaveCount(3);

  await page.getByTestId('capture.filter').fill('channel = 37 AND rssi >');
  await expect(page.getByTestId('capture.filter-error')).toContainText('position 23');

  await page.getByTestId('capture.filter').fill('channel = 37');
  await expect(page.getByTestId('capture.filter-count')).toHaveText('100 of 300 rows');
  await expect(page.getByTestId('capture.records').getByRole('row').nth(1)).toContainText('37');

  await page.getByTestId('capture.use-in-tool').click();
  await expect(page).toHaveURL(/#\/tools/);
  await tools.run();
  const result = tools.results().first();
  await expect(result.getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });
  await expect(result).toContainText('rssi');
});

test('a file that is not a capture fails with a coded error and the app keeps working', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
  const job = page.getByTestId('captures.import-job');
  await expect(job).toHaveAttribute('data-state', 'failed');
  await expect(job).toContainText('EMPTY_FILE');
  await expect(page.getByTestId('captures.card')).toHaveCount(3);
});
