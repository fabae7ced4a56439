// The README's screenshots of a real capture's journey (issue 23), taken from the running app at
// 1280 px: `npm run screenshots` writes docs/screenshots/*.png. The capture is the nRF sniffer
// capture `tesi` from ../shared/captures/ble (SEXTANT_SHARED_DIR points elsewhere, as in e2e/).
// Each step waits for what its picture must show, so a picture of a broken page fails the run.

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { BleResultObject, expect, test } from '../../e2e/fixtures/workbench.ts';

const shared = (name: string) =>
  process.env.SEXTANT_SHARED_DIR ? `${process.env.SEXTANT_SHARED_DIR}/captures/ble/${name}` : fileURLToPath(new URL(`../../../shared/captures/ble/${name}`, import.meta.url));
const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/**
 * A picture 1280 px wide and `height` tall of the page with `top` at the top of the view (the
 * page's top when null).
 */
async function shoot(page: Page, top: Locator | null, name: string, height = 800) {
  await page.setViewportSize({ width: 1280, height });
  if (top) await top.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  else await page.evaluate(() => window.scrollTo(0, 0));
  // Let the scroll settle and any progressive mount draw before the picture.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: `${OUT}${name}.png`, animations: 'disabled', caret: 'hide' });
}

test('a real capture, from import to a cluster\'s packets', async ({ tools, page }) => {
  mkdirSync(OUT, { recursive: true });

  // 1. Captures: tesi imported, its integrity verdict in words.
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(shared('tesi-ble_nrf_capture.pcapng'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ hasText: 'tesi_ble_nrf_capture' }).click();
  await expect(page.getByTestId('capture.import-verdict')).toContainText('83 % usable');
  await expect(page.getByTestId('capture.record-row').first()).toBeVisible();
  await shoot(page, null, 'captures-real-capture', 900);

  // 2. Use in a tool: the BLE analyzer's form, filled from the capture.
  await page.getByTestId('capture.use-in-tool').click();
  await expect(page.getByTestId('invocation-form.tool')).toHaveValue('bluetooth_address_analyzer');
  await expect(page.getByTestId('invocation-form.argument.address_columns.advertiser_addr')).toHaveValue('advertiser_addr');
  await expect(page.getByTestId('invocation-form.arguments').locator('.field__error')).toHaveCount(0);
  // Tall enough for the whole form, the Capture fieldset and every argument.
  await shoot(page, null, 'ble-analyzer-form', 1500);

  // 3. The result: a cluster selected, its links in the heatmap.
  await tools.run();
  const ble = new BleResultObject(page);
  await expect(page.getByTestId('results').getByTestId('result').first().getByTestId('result.status')).toHaveText(/^(ok|partial)$/, { timeout: 120_000 });
  await expect(ble.view()).toHaveAttribute('data-mount', 'complete', { timeout: 120_000 });
  const cluster = page.getByTestId('ble.cluster').first();
  await cluster.locator('.ble-cluster__select').click();
  await expect(cluster.getByRole('button', { pressed: true })).toBeVisible();
  await expect(ble.heatmap()).toBeVisible();
  await shoot(page, page.locator('#ble-clusters-heading'), 'ble-result-clusters');
  // Every linked address in the heatmap, labelled on both axes.
  await page.getByRole('button', { name: 'All linked addresses' }).click();
  await shoot(page, page.locator('#ble-heatmap-heading'), 'ble-result-heatmap', 900);
  await page.getByRole('button', { name: 'Selected cluster' }).click();

  // 4. Packets: the cluster's packets on the Captures page, one opened in the details pane.
  const addresses = (await cluster.getByRole('list', { name: /^Addresses of / }).locator('code').allTextContents()).map((text) => text.trim());
  await cluster.getByRole('button', { name: `Packets of ${addresses[0]}` }).click();
  await expect(page).toHaveURL(/#\/captures/);
  const count = page.getByTestId('capture.filter-count');
  await expect(count).toHaveText(/^[1-9][\d,]* of 14,843 rows$/);
  const oneAddress = await count.innerText();
  // Every address of the cluster: more records than its first address alone.
  await page.getByTestId('capture.filter').fill(`advertiser_addr IN (${addresses.map((address) => `'${address}'`).join(', ')})`);
  await expect(count).not.toHaveText(oneAddress);
  await expect(count).toHaveText(/^[1-9][\d,]* of 14,843 rows$/);
  await expect(page.getByTestId('capture.stale-view')).toHaveCount(0);
  await page.getByTestId('capture.record-row').first().click();
  await expect(page.getByTestId('capture.packet-details')).toContainText('Packet details: record 1');
  await shoot(page, page.getByText('Filter (same language as tool invocations)'), 'packets-of-a-cluster', 1250);
});
