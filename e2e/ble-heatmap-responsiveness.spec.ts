import { BLOCKING_BOUND_MS, describeHeatmap, measureHeatmap, workerRuns } from './fixtures/ui-measure.ts';
import { expect, test } from './fixtures/workbench.ts';

// A HiDPI screen is the stricter case for the canvas. No Playwright trace: its DOM snapshot around
// every action runs on the page's main thread (about 50 ms for this page), and the observer would
// count it against the page.
test.use({ deviceScaleFactor: 2, trace: 'off' });

// What this asserts holds at any machine speed (issue 27); the 50 ms goal for each figure printed
// here is checked by `npm run bench -- ui`.
test('a 500+ address analysis mounts progressively, follows the pointer, and runs in a worker', async ({ tools: _offline, page }) => {
  test.setTimeout(20 * 60_000);
  const figures = await measureHeatmap(page);
  console.log(describeHeatmap(figures));
  // The view paints its first piece (caveats, counts) before the rest is in: it mounts over
  // frames, not in one commit.
  expect(figures.mountFrames, 'frames between the view\'s first section and its last').toBeGreaterThan(1);
  expect(figures.firstPaintMs).toBeLessThan(figures.completeMs);
  expect(figures.longestOverallMs, 'longest main-thread task from Run to the end of the hover sweep').toBeLessThan(BLOCKING_BOUND_MS);
  // The analysis ran in a tools worker, never on the page's main thread.
  expect(figures.census.mainThread?.tool_run ?? 0, 'tool runs on the main thread').toBe(0);
  expect(workerRuns(figures.census, 'tool_run'), 'tool runs in the workers').toBeGreaterThanOrEqual(1);
});
