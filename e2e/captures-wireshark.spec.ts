import { existsSync, readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures/workbench.ts';

// Issue 23: the Captures page as a Wireshark user meets it, on real captures from ../shared/captures/ble
// (beside the repository; a worktree sits one level deeper).
const sharedDir = ['../../shared/captures/ble/', '../../../shared/captures/ble/'].map((relative) => new URL(relative, import.meta.url).pathname).find((path) => existsSync(path)) ?? '../../shared/captures/ble/';
const shared = (name: string) => `${sharedDir}${name}`;

test('real captures: an integrity verdict, case-blind address filters, Wireshark names, packet details and a narrow layout', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles([shared('tesi-ble_nrf_capture.pcapng'), shared('auracast-afit_trial1_filtered.pcapng')]);
  const jobs = page.getByTestId('captures.import-job');
  await expect(jobs.nth(0)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(jobs.nth(1)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  // The id as it is (ids are case-sensitive), not upper-cased by a badge.
  expect(await jobs.filter({ hasText: 'tesi-ble_nrf_capture.pcapng' }).innerText()).toContain('Imported as tesi_ble_nrf_capture');

  // auracast: no packet passes CRC, so the verdict says so and nothing says clean.
  await page.getByTestId('captures.card').filter({ hasText: 'auracast' }).click();
  const report = page.getByTestId('capture.import-report');
  await expect(page.getByTestId('capture.import-verdict')).toHaveText('0 % usable: 6,702 of 6,702 advertising packets failed CRC');
  await expect(page.getByTestId('capture.import-status')).toHaveText('unusable');
  await expect(report).toContainText('CRC failed: 6,702 (100 %)');
  expect(await report.innerText()).not.toMatch(/clean/i);

  // tesi: the CRC failure share and the reserved PDU types it carries.
  await page.getByTestId('captures.card').filter({ hasText: 'tesi_ble_nrf_capture' }).click();
  await expect(page.getByTestId('capture.import-verdict')).toContainText('83 % usable: 2,498 of 14,843 advertising packets failed CRC; 110 with reserved or unknown PDU types (RESERVED_9,');
  await expect(report).toContainText('RESERVED_15 3');

  // Times read as UTC clock time, never as a raw epoch number.
  const firstRow = page.getByTestId('capture.record-row').first();
  await expect(firstRow).toContainText('2025-08-23 ');
  await expect(firstRow).toContainText('UTC');
  await expect(page.getByTestId('capture.detail')).not.toContainText('e+12');
  await page.getByTestId('capture.time-relative').check();
  await expect(firstRow).toContainText(/\+0\.000\d{3} s/);

  // Addresses match whatever their case, also through Wireshark's field name and operators.
  const filter = page.getByTestId('capture.filter');
  const count = page.getByTestId('capture.filter-count');
  await filter.fill("advertiser_addr = '1E:BF:2D:60:14:65'");
  // 2,779: the records of the capture's busiest address (its advertiser table agrees).
  const upper = '2,779 of 14,843 rows';
  await expect(count).toHaveText(upper);
  await filter.fill("advertiser_addr = '1e:bf:2d:60:14:65'");
  await expect(count).toHaveText(upper);
  await filter.fill('btle.advertising_address == 1e:bf:2d:60:14:65');
  await expect(count).toHaveText(upper);
  // An OUI-style prefix: every 04:B9:E3 address, more than the 529 records of 04:B9:E3:12:5E:0F alone.
  await filter.fill("advertiser_addr LIKE '04:b9:e3%'");
  await expect(count).not.toHaveText(upper);
  await expect(count).toHaveText(/^[\d,]+ of 14,843 rows$/);
  expect(Number((await count.innerText()).split(' ')[0].replace(/,/g, ''))).toBeGreaterThan(529);

  // A Wireshark field Sextant does not know: the nearest columns are named, the last view stays.
  await filter.fill('btle.advertising_addres == 1e:bf:2d:60:14:65');
  await expect(page.getByTestId('capture.filter-error')).toContainText('nearest: advertiser_addr');
  await expect(page.getByTestId('capture.stale-view')).toContainText("advertiser_addr LIKE '04:b9:e3%'");
  await expect(page.getByTestId('capture.records')).toBeVisible();
  await expect(page.getByTestId('capture.record-row').first()).toContainText('04:B9:E3');

  // A packet's details: click a row, then move with the keyboard.
  await filter.fill("advertiser_addr = '1e:bf:2d:60:14:65' AND crc_ok = TRUE");
  await expect(page.getByTestId('capture.filter-count')).toBeVisible();
  await page.getByTestId('capture.record-row').first().click();
  const details = page.getByTestId('capture.packet-details');
  await expect(details).toContainText('Packet details: record 1');
  await expect(details).toContainText('Advertiser address (AdvA)1E:BF:2D:60:14:65');
  await expect(details).toContainText('CRCok');
  await page.getByTestId('capture.records-body').focus();
  await page.keyboard.press('ArrowDown');
  await expect(details).toContainText('Packet details: record 2');
  await expect(page.getByTestId('capture.record-row').nth(1)).toHaveAttribute('aria-selected', 'true');

  // The address columns come first.
  const headers = page.getByTestId('capture.records').getByRole('columnheader');
  await expect(headers.nth(1)).toHaveText('advertiser_addr');

  // Statistics → I/O graph: one line per filter on one time axis (all records, CRC failures by default).
  const ioGraph = page.getByTestId('capture.io-graph');
  await ioGraph.locator('summary').click();
  await expect(ioGraph.getByTestId('capture.io-count')).toHaveText(['14,843 records', '2,498 records']);
  await expect(ioGraph.locator('polyline')).toHaveCount(2);
  await ioGraph.getByRole('button', { name: 'Add a series' }).click();
  await ioGraph.getByTestId('capture.io-filter').nth(2).fill('btle.advertising_address == 1e:bf:2d:60:14:65');
  await ioGraph.getByTestId('capture.io-filter').nth(2).press('Enter');
  await expect(ioGraph.getByTestId('capture.io-count').nth(2)).toHaveText('2,779 records');
  await expect(ioGraph.locator('polyline')).toHaveCount(3);

  // With the details pane, column chooser and I/O graph open: no serious or critical axe violation.
  await page.getByTestId('capture.column-chooser').locator('summary').click();
  const results = await new AxeBuilder({ page }).include('[data-testid="capture.detail"]').analyze();
  expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);

  // At 390 px the page stacks: the detail gets the width, not a 30 px column.
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await page.getByTestId('capture.detail').boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(300);
});

test('a real capture downloads as Arrow and as Parquet, and the Parquet file imports back with the same rows', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(shared('tesi-ble_nrf_capture.pcapng'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ hasText: 'tesi_ble_nrf_capture' }).click();
  // Read once counted (the text shows a placeholder while the worker counts).
  await expect(page.getByTestId('capture.filter-count')).toHaveText(/^[\d,]+ of [\d,]+ rows$/);
  const rows = await page.getByTestId('capture.filter-count').innerText();

  const arrow = page.waitForEvent('download');
  await page.getByTestId('capture.download-arrow').click();
  expect((await arrow).suggestedFilename()).toBe('tesi_ble_nrf_capture.arrow');
  const parquet = page.waitForEvent('download');
  await page.getByTestId('capture.download-parquet').click();
  const download = await parquet;
  expect(download.suggestedFilename()).toBe('tesi_ble_nrf_capture.parquet');
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
  expect(bytes.subarray(bytes.length - 4).toString('latin1')).toBe('PAR1');

  // Imported back under another name: the same capture (its id comes from the file's metadata) with the same rows.
  await page.getByTestId('capture.delete').click();
  await page.getByTestId('captures.file-input').setInputFiles({ name: 'tesi-again.parquet', mimeType: 'application/vnd.apache.parquet', buffer: bytes });
  await expect(page.getByTestId('captures.import-job').last()).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ hasText: 'tesi' }).first().click();
  await expect(page.getByTestId('capture.filter-count')).toHaveText(rows);
});
