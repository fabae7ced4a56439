import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/workbench.ts';

// Issue 23: at a phone's 390 px every page is usable: the nav wraps, two-column pages stack,
// nothing scrolls the page sideways, and axe finds nothing serious.
test.use({ viewport: { width: 390, height: 844 } });

/** Elements wider than the viewport's right edge (the page's horizontal overflow), for the failure message. */
async function overflow(page: Page): Promise<{ width: number; culprits: string[] }> {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const rect = element.getBoundingClientRect();
      if (rect.right > limit + 1 && rect.width > 0) {
        // Only the outermost element that overflows on its own (its parent is still inside).
        const parent = element.parentElement?.getBoundingClientRect();
        if (!parent || parent.right <= limit + 1) culprits.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')} [${element.dataset.testid ?? ''}] right ${Math.round(rect.right)}`);
      }
    }
    return { width: document.documentElement.scrollWidth, culprits: culprits.slice(0, 8) };
  });
}

async function expectNarrowAndAccessible(page: Page, where: string): Promise<void> {
  const { width, culprits } = await overflow(page);
  expect(width, `${where}: page width at 390 px; overflowing: ${culprits.join(' | ')}`).toBeLessThanOrEqual(390);
  const results = await new AxeBuilder({ page }).exclude('.recharts-surface > g').analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(' | ')}`);
  expect(serious, `axe on ${where} at 390 px`).toEqual([]);
}

test('Start, Tools, Runs and Planner at 390 px', async ({ tools, page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNarrowAndAccessible(page, 'the start page');

  await tools.open();
  await expectNarrowAndAccessible(page, 'the tools page');
  await tools.loadExample('regression');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });

  await page.goto('/#/runs');
  await expect(page.getByTestId('runs.row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Open run' }).first().click();
  await expectNarrowAndAccessible(page, 'the runs page');

  await page.goto('/#/planner');
  await expect(page.getByRole('heading', { name: 'Planner', exact: true })).toBeVisible();
  await expectNarrowAndAccessible(page, 'the planner page');
});

test('Captures and Manifests (with its conformance table) at 390 px', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/#/captures');
  await expect(page.getByTestId('captures.card').first()).toBeVisible({ timeout: 120_000 });
  await page.getByTestId('captures.card').first().click();
  await expectNarrowAndAccessible(page, 'the captures page');

  await page.goto('/#/manifests');
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await expectNarrowAndAccessible(page, 'the manifests page');
  const conformance = page.getByTestId('conformance');
  await conformance.getByTestId('conformance.run').click();
  await expect(conformance.getByTestId('conformance.table')).toBeVisible({ timeout: 120_000 });
  await expectNarrowAndAccessible(page, 'the manifests page with conformance results');
});

test('MCP at 390 px', async ({ page }) => {
  await page.goto('/#/mcp');
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  const { width, culprits } = await overflow(page);
  expect(width, `the MCP page at 390 px; overflowing: ${culprits.join(' | ')}`).toBeLessThanOrEqual(390);
});
