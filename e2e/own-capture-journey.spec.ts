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

test('tesi: import → Use in a tool → form only → Run, in the BLE shape and in the generic selection shape', async ({ tools, page }) => {
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

  // The same capture through the generic {capture_id, selectors} selection.
  await page.getByTestId('invocation-form.shape.generic').check();
  await expect(page.getByTestId('invocation-form.capture-id')).toHaveValue('tesi_ble_nrf_capture');
  await expect(capture.getByLabel('end_ms')).toHaveValue('1755939660722');
  // The first run's result gives way to the new run's. The gap can be shorter than a poll of the
  // DOM on a quiet machine, so an observer installed before Run notes it.
  await page.evaluate(() => {
    const results = document.querySelector('[data-testid="results"]');
    const marks = window as unknown as { __firstResultGone?: boolean };
    marks.__firstResultGone = false;
    if (!results) return;
    new MutationObserver(() => {
      if (!results.querySelector('[data-testid="result"]')) marks.__firstResultGone = true;
    }).observe(results, { childList: true, subtree: true });
  });
  await tools.run();
  await page.waitForFunction(() => (window as unknown as { __firstResultGone?: boolean }).__firstResultGone === true, undefined, { timeout: 60_000 });
  await expectUsableResult(page);
  expect(await page.getByTestId('invocation-editor.json').count()).toBe(0);
});
