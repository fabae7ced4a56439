import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { BleResultObject, expect, test } from './fixtures/workbench.ts';

// The analyst's own capture, end to end (issue 23): a real nRF sniffer capture from
// ../shared/captures/ble (see SOURCES.md there), run through the form only, never the JSON editor.
// SEXTANT_SHARED_DIR points elsewhere when the repository is not beside shared/ (a git worktree).
const shared = (name: string) =>
  process.env.SEXTANT_SHARED_DIR ? `${process.env.SEXTANT_SHARED_DIR}/captures/ble/${name}` : new URL(`../../shared/captures/ble/${name}`, import.meta.url).pathname;

/** The result of the last run: enabled Packets buttons, RSSI traces for a cluster, a focusable timeline. */
async function expectUsableResult(page: Page) {
  const result = page.getByTestId('results').getByTestId('result').first();
  await expect(result.getByTestId('result.status')).toHaveText(/^(ok|partial)$/, { timeout: 90_000 });
  const ble = new BleResultObject(page);
  await expect(ble.view()).toHaveAttribute('data-mount', 'complete', { timeout: 120_000 });
  await expect(page.getByText('The invocation behind this result is not available here')).toHaveCount(0);
  const packets = ble.classificationTable().getByRole('button', { name: /^Packets of / });
  await expect(packets.first()).toBeEnabled();

  const clusters = page.getByRole('list', { name: 'Clusters' }).getByRole('button');
  await clusters.first().click();
  await expect(page.getByTestId('ble.rssi.receiver').first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('ble.rssi.receiver').first()).toContainText(/[\d,]+ packets/);

  const axe = await new AxeBuilder({ page }).include('[data-testid="ble.timeline"]').withRules(['scrollable-region-focusable']).analyze();
  expect(axe.violations).toEqual([]);
}

/**
 * From the selected (first) cluster: Packets of its first address opens Captures with the packets
 * the analysis read; a click on the first one shows its details (decoded fields, that address
 * among them, and the bytes section).
 */
async function expectPacketDetailsOfSelectedCluster(page: Page) {
  const cluster = page.getByTestId('ble.cluster').first();
  await expect(cluster.getByRole('button', { pressed: true })).toBeVisible();
  const address = (await cluster.getByRole('list', { name: /^Addresses of / }).locator('code').first().innerText()).trim();
  await cluster.getByRole('button', { name: `Packets of ${address}` }).click();
  await expect(page).toHaveURL(/#\/captures/);
  await expect(page.getByTestId('capture.filter')).toHaveValue(new RegExp(address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'));
  await expect(page.getByTestId('capture.filter-count')).toHaveText(/^[1-9][\d,]* of 14,843 rows$/, { timeout: 60_000 });
  const row = page.getByTestId('capture.record-row').first();
  await row.click();
  await expect(row).toHaveAttribute('aria-selected', 'true');
  const details = page.getByTestId('capture.packet-details');
  await expect(details).toContainText('Packet details: record 1');
  await expect(details).toContainText(new RegExp(`Advertiser address \\(AdvA\\)${address}`, 'i'));
  await expect(details).toContainText(new RegExp(`from ${address}`, 'i'));
  await expect(details.getByText('Bytes (hex)')).toBeVisible();
}

test('tesi: import → Use in a tool → form only → Run → a cluster\'s packet details, in the BLE shape and in the generic selection shape', async ({ tools, page }) => {
  void tools; // the fixture keeps the page offline
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(shared('tesi-ble_nrf_capture.pcapng'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ hasText: 'tesi_ble_nrf_capture' }).click();
  await page.getByTestId('capture.use-in-tool').click();
  await expect(page).toHaveURL(/#\/tools/);

  // The BLE analyzer, the capture and its bounds selected, every required argument suggested.
  await expect(page.getByTestId('invocation-form.tool')).toHaveValue('bluetooth_address_analyzer');
  await expect(page.getByTestId('invocation-form.shape.ble')).toBeChecked();
  const capture = page.getByTestId('invocation-form.capture');
  await expect(capture.getByRole('checkbox', { name: 'tesi_ble_nrf_capture' })).toBeChecked();
  await expect(capture.getByLabel('start_ms')).toHaveValue('1755939535722');
  const args = page.getByTestId('invocation-form.arguments');
  await expect(args).not.toContainText('capture_selection');
  await expect(page.getByTestId('invocation-form.argument.address_columns.advertiser_addr')).toHaveValue('advertiser_addr');
  await expect(page.getByTestId('invocation-form.argument.address_columns.initiator_addr')).toHaveValue('initiator_addr');
  await expect(page.getByTestId('invocation-form.argument.analysis_mode')).not.toHaveValue('');
  await expect(args.locator('.field__error')).toHaveCount(0);

  // A wrong value is marked at its field before Run, and fixing it clears the mark.
  const window = page.getByTestId('invocation-form.argument.linkage_window_s');
  await window.fill('0');
  await expect(args.locator('.field--invalid').filter({ has: window })).toContainText('INVALID_VALUE');
  await window.fill('60');
  await expect(args.locator('.field__error')).toHaveCount(0);

  await tools.run();
  await expectUsableResult(page);
  expect(await page.getByTestId('invocation-editor.json').count()).toBe(0);
  await expectPacketDetailsOfSelectedCluster(page);

  // The same capture through the generic {capture_id, selectors} selection, from Use in a tool
  // again: with the filter cleared first, since Use in a tool selects what the filter shows.
  await page.getByTestId('capture.filter').fill('');
  await expect(page.getByTestId('capture.filter-count')).toHaveText('14,843 of 14,843 rows');
  await page.getByTestId('capture.use-in-tool').click();
  await expect(page).toHaveURL(/#\/tools/);
  await expect(page.getByTestId('invocation-form.tool')).toHaveValue('bluetooth_address_analyzer');
  await page.getByTestId('invocation-form.shape.generic').check();
  await expect(page.getByTestId('invocation-form.capture-id')).toHaveValue('tesi_ble_nrf_capture');
  await expect(capture.getByLabel('end_ms')).toHaveValue('1755939660722');
  // The same arguments as the first run, so the two selection shapes analyse the same thing.
  await window.fill('60');
  await expect(args.locator('.field__error')).toHaveCount(0);
  await tools.run();
  await expectUsableResult(page);
  expect(await page.getByTestId('invocation-editor.json').count()).toBe(0);
  await expectPacketDetailsOfSelectedCluster(page);
});
