import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { BleResultObject, expect, test } from './fixtures/workbench.ts';

// Issue 23, results with room and labels: the caveats beside (never over) the results from
// 1280 px, above them when narrower; the heatmap labelled with addresses on both axes; skip
// links so the keyboard reaches a section without walking every Packets button; dimmed lanes
// that keep their contrast.

interface Output {
  probabilistic_links: Array<{ cluster_id: string; addresses: string[] }>;
}

async function analyse(page: Page): Promise<Output> {
  await page.goto('/#/tools');
  await page.getByTestId('examples.ble-analyzer').click();
  await page.getByTestId('invocation-editor.run').click();
  const result = page.getByTestId('results').getByTestId('result').first();
  await expect(result).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 60_000 });
  await expect(page.getByTestId('ble.view')).toHaveAttribute('data-mount', 'complete', { timeout: 120_000 });
  return (JSON.parse((await result.getByTestId('result.raw-json').textContent()) ?? '{}') as { structured_output: Output }).structured_output;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not visible');
  return found;
}

for (const width of [1280, 1440]) {
  test(`at ${width} px the caveats sit in their own column beside the clusters and the heatmap`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await analyse(page);
    const caveats = await box(page.getByTestId('ble.caveats'));
    for (const section of [page.getByRole('list', { name: 'Clusters' }), page.getByTestId('ble.heatmap.frame'), page.getByRole('table', { name: 'Address classification' })]) {
      await section.scrollIntoViewIfNeeded();
      const sectionBox = await box(section);
      const caveatsNow = await box(page.getByTestId('ble.caveats'));
      // Beside, not over: the caveats start right of every results section, whatever the scroll.
      expect(caveatsNow.x, 'caveats right of the section').toBeGreaterThanOrEqual(sectionBox.x + sectionBox.width);
    }
    expect(caveats.width).toBeGreaterThan(200);
  });
}

test('below 1280 px the caveats come above the results', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 900 });
  await analyse(page);
  const caveats = await box(page.getByTestId('ble.caveats'));
  const clusters = await box(page.getByRole('list', { name: 'Clusters' }));
  expect(caveats.y + caveats.height).toBeLessThanOrEqual(clusters.y);
});

test('the heatmap is labelled with addresses on both axes, readable at every cluster size', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const output = await analyse(page);
  const ble = new BleResultObject(page);
  // The "all linked addresses" matrix of the demo is small enough to label address by address.
  const all = output.probabilistic_links.flatMap((link) => link.addresses);
  await expect(page.getByTestId('ble.heatmap.rows').locator('span')).toHaveText(all);
  await expect(page.getByTestId('ble.heatmap.columns').locator('span')).toHaveText(all);
  for (const link of output.probabilistic_links) {
    await ble.selectCluster(link.cluster_id);
    await expect(ble.heatmap()).toHaveAttribute('data-size', String(link.addresses.length));
    const rows = page.getByTestId('ble.heatmap.rows').locator('span');
    await expect(rows).toHaveText(link.addresses);
    await expect(page.getByTestId('ble.heatmap.columns').locator('span')).toHaveText(link.addresses);
    // Each row label is as tall as its row and wholly visible: text at 11 px, not clipped.
    const cell = Number(await ble.heatmap().getAttribute('data-cell'));
    expect(cell).toBeGreaterThanOrEqual(14);
    for (const label of await rows.all()) {
      const fits = await label.evaluate((element) => ({ clipped: element.scrollWidth > element.clientWidth, height: element.getBoundingClientRect().height, font: parseFloat(getComputedStyle(element).fontSize) }));
      expect(fits.clipped).toBe(false);
      expect(fits.font).toBeGreaterThanOrEqual(11);
      expect(Math.abs(fits.height - cell)).toBeLessThanOrEqual(1);
    }
  }
});

test('skip links reach the heatmap in a few Tabs; dimmed lanes keep their contrast', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const output = await analyse(page);
  const jump = page.getByRole('navigation', { name: 'Result sections' });
  await jump.getByRole('link', { name: 'Link probabilities' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#ble-heatmap-heading')).toBeFocused();
  let presses = 0;
  while (presses < 6 && (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) !== 'ble.heatmap') {
    await page.keyboard.press('Tab');
    presses++;
  }
  expect(presses, 'Tabs from the skip link to the heatmap').toBeLessThanOrEqual(3);

  // With a cluster selected, the other lanes are dimmed, by colour, so their labels stay legible.
  await new BleResultObject(page).selectCluster(output.probabilistic_links[0].cluster_id);
  await expect(page.locator('.ble-timeline__labels li.is-dimmed').first()).toBeVisible();
  const contrast = await new AxeBuilder({ page }).include('.ble-timeline').withRules(['color-contrast']).analyze();
  expect(contrast.violations.map((violation) => `${violation.id}: ${violation.nodes.length} nodes`)).toEqual([]);
});
