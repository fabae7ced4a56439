import { expect, test } from './fixtures/workbench.ts';

// Real captures from ../shared/captures/ble (see SOURCES.md there); expected counts are tshark's,
// recorded in src/core/data/ble/__fixtures__/tshark-expected.json.
const shared = (name: string) => new URL(`../../shared/captures/ble/${name}`, import.meta.url).pathname;

test('imports real sniffer and phone captures at once, with tshark-equal counts, and filters them', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles([shared('tesi-ble_nrf_capture.pcapng'), shared('horizon74_btsnoop_hci.log')]);
  const jobs = page.getByTestId('captures.import-job');
  await expect(jobs).toHaveCount(2);
  await expect(jobs.nth(0)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(jobs.nth(1)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  await page.getByTestId('captures.card').filter({ hasText: 'tesi_ble_nrf_capture' }).click();
  await expect(page.getByTestId('capture.filter-count')).toHaveText('14,843 of 14,843 rows');
  const report = page.getByTestId('capture.import-report');
  await expect(report).toContainText('272');
  await expect(report).toContainText('14,843');
  await page.getByTestId('capture.filter').fill('crc_ok = TRUE AND channel IN (37, 38, 39)');
  await expect(page.getByTestId('capture.filter-count')).toHaveText(/^[\d,]+ of 14,843 rows$/);
  await expect(page.getByTestId('capture.advertisers').locator('tbody tr').first()).toContainText(/[0-9A-F]{2}(:[0-9A-F]{2}){5}/);

  await page.getByTestId('captures.card').filter({ hasText: 'horizon74_btsnoop_hci' }).click();
  await expect(page.getByTestId('capture.filter-count')).toHaveText('412 of 412 rows');
  await expect(page.getByTestId('capture.detail')).toContainText('2021-02-01T03:27');
});
