import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/workbench.ts';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** axe-core on the page as shown: no serious or critical violation, and one level-one heading. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  // The plots' thousands of SVG points are excluded (each chart is checked as a whole through its
  // container's label); walking them node by node takes axe minutes on a busy two-core machine.
  const results = await new AxeBuilder({ page }).exclude('.recharts-surface > g').analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`);
  expect(serious, `axe on ${where}`).toEqual([]);
  await expect(page.getByRole('heading', { level: 1 }), `one h1 on ${where}`).toHaveCount(1);
}

test('the start, manifests, runs and settings pages', async ({ page }) => {
  await page.goto('/');
  await expectAccessible(page, 'the start page');
  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await expectAccessible(page, 'the manifests page');
  await page.goto('/#/settings');
  await expectAccessible(page, 'the settings page');
});

test('the Tools page with a BLE analysis', async ({ tools, page }) => {
  // axe walks the whole result (classification table, clusters, timeline): slower than a journey.
  test.setTimeout(120_000);
  await tools.open();
  await tools.loadExample('ble-analyzer');
  await tools.run();
  await expect(tools.results().first()).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 60_000 });
  await expect(page.getByTestId('ble.view')).toBeVisible();
  await expectAccessible(page, 'the BLE analysis');
});

test('the Tools page with a regression', async ({ tools, page }) => {
  test.setTimeout(120_000);
  await tools.open();
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.coefficient-table')).toBeVisible({ timeout: 120_000 });
  await expectAccessible(page, 'the regression result');
});

test('the Runs page with a run open', async ({ tools, page }) => {
  test.setTimeout(120_000);
  await tools.open();
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });
  await page.goto('/#/runs');
  await page.getByRole('button', { name: 'Open' }).first().click();
  await expectAccessible(page, 'the runs page');
});

test('the Planner page with the offline demo', async ({ planner, page }) => {
  // axe walks the demo's BLE result (now with the heatmap's axis labels) and the timeline: 50–70 s on a loaded two-core machine.
  test.setTimeout(120_000);
  await planner.open();
  await planner.runDemo();
  expect(await planner.finished()).toBe('success');
  await expectAccessible(page, 'the planner demo');
});

test('the Captures page after an import', async ({ page }) => {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(fixture('lab-floor.csv'));
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(page.getByTestId('capture.detail')).toBeVisible();
  await expectAccessible(page, 'the captures page');
});

test('keyboard only: from the start page to a BLE analysis, then into the heatmap', async ({ tools, page }) => {
  await page.goto('/');
  let reached = false;
  for (let presses = 0; presses < 15 && !reached; presses++) {
    await page.keyboard.press('Tab');
    reached = (await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === 'start.ble-analysis';
  }
  expect(reached, 'the BLE journey is reachable with Tab').toBe(true);
  await page.keyboard.press('Enter');
  await expect(tools.results().first()).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 60_000 });
  // After navigating, focus is on the page's content, so Tab continues from there.
  await expect(page.locator('#main-content')).toBeFocused();
  // The heatmap is operable with the arrow keys: a cell and its probability, then Escape.
  const heatmap = page.getByTestId('ble.heatmap');
  await heatmap.focus();
  // Focusing may scroll the canvas into view, and the view hides its tooltip on scroll: let the
  // scroll event of that (dispatched with the next frame) pass before the key, as it does for a person.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('ble.heatmap.tooltip')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('ble.heatmap.tooltip')).toHaveCount(0);
});
