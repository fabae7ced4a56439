import { BLOCKING_BOUND_MS, describeImport, measureImport } from './fixtures/ui-measure.ts';
import { expect, test } from './fixtures/workbench.ts';

// No Playwright trace here: its DOM snapshot around every action runs on the page's main thread
// and would be counted among the page's long tasks.
test.use({ trace: 'off' });

// What this asserts holds at any machine speed (issue 27); the 50 ms goal for the longest task is
// checked by `npm run bench -- ui`.
test('importing a large file happens in a worker and never freezes the page', async ({ page }) => {
  test.setTimeout(20 * 60_000);
  const figures = await measureImport(page);
  console.log(describeImport(figures));
  expect(figures.longestMs, 'longest main-thread task during the import').toBeLessThan(BLOCKING_BOUND_MS);
  // The file was parsed in an import worker the page started, never on its main thread.
  expect(figures.workersStarted.some((url) => /import\.worker/.test(url)), `an import worker among ${JSON.stringify(figures.workersStarted)}`).toBe(true);
  expect(figures.census.mainThread?.capture_import ?? 0, 'imports on the main thread').toBe(0);
});
