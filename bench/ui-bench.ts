// `npm run bench -- ui`: the app's responsiveness goals (issue 27). Builds the app, serves it on a
// free loopback port, and drives Debian's Chromium through the same scenarios as the
// responsiveness specs (e2e/fixtures/ui-measure.ts); each goal becomes a row with the figure
// measured and the load average it was taken at. The specs only check what holds at any speed.
import { chromium, type Browser, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import type { BenchRow } from './bench-row.ts';
import {
  describeHeatmap,
  describeImport,
  describePlannerDemo,
  LONG_TASK_GOAL_MS,
  measureHeatmap,
  measureImport,
  measurePlannerDemo,
  type LoadAtMeasurement,
} from '../e2e/fixtures/ui-measure.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A row for one goal: ours is the figure, the peer is the goal, the ratio is goal / figure (at least 1 when met). */
function goalRow(name: string, figureMs: number, goalMs: number, load: LoadAtMeasurement, params: Record<string, unknown>): BenchRow {
  const ours = Math.round(figureMs);
  return {
    name,
    ours_ms: ours,
    peer: `goal ${goalMs} ms`,
    peer_ms: goalMs,
    ratio: ours > 0 ? Math.round((goalMs / ours) * 100) / 100 : null,
    peak_rss_mb: Math.round(process.memoryUsage().rss / (1 << 20)),
    params: { goal_ms: goalMs, met: figureMs <= goalMs, ...load, ...params },
  };
}

/** A fresh page that reaches only the loopback app (Sextant works offline; a stray request fails loudly). */
async function openPage(browser: Browser, baseURL: string, deviceScaleFactor = 1): Promise<Page> {
  const context = await browser.newContext({ baseURL, deviceScaleFactor });
  // tsx compiles this bench with esbuild's keepNames, which wraps the page functions' inner
  // functions in a `__name` helper that exists only in Node; the page gets a stand-in.
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
  return context.newPage();
}

export async function runUiBench(): Promise<BenchRow[]> {
  await build({ logLevel: 'warn' });
  const server = await preview({ preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
  const baseURL = server.resolvedUrls?.local[0];
  if (!baseURL) throw new Error('vite preview did not report its address');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const rows: BenchRow[] = [];
  try {
    const heatmap = await measureHeatmap(await openPage(browser, baseURL, 2));
    console.log(describeHeatmap(heatmap));
    const heatmapParams = { matrix: heatmap.matrixSize, clusters: heatmap.clusters, device_scale_factor: 2, first_paint_ms: Math.round(heatmap.firstPaintMs), complete_ms: Math.round(heatmap.completeMs), mount_frames: heatmap.mountFrames };
    rows.push(goalRow('ui_ble_heatmap_longest_task_to_first_paint', heatmap.longestBeforePaintMs, LONG_TASK_GOAL_MS, heatmap.load, heatmapParams));
    rows.push(goalRow('ui_ble_heatmap_longest_task_while_mounting', heatmap.longestWhileMountingMs, LONG_TASK_GOAL_MS, heatmap.load, { ...heatmapParams, long_tasks: heatmap.mountLongTasks }));
    rows.push(
      goalRow('ui_ble_heatmap_longest_task_hover_sweep', heatmap.sweep.longestMs, LONG_TASK_GOAL_MS, heatmap.load, {
        matrix: heatmap.matrixSize,
        moves: heatmap.sweep.moves,
        sweep_ms: heatmap.sweep.ms,
        long_tasks: heatmap.sweep.longTasks,
        frame_gap_median_ms: Math.round(heatmap.sweep.gapMedianMs * 10) / 10,
        frame_gap_p90_ms: Math.round(heatmap.sweep.gapP90Ms * 10) / 10,
      }),
    );

    const imported = await measureImport(await openPage(browser, baseURL));
    console.log(describeImport(imported));
    rows.push(goalRow('ui_import_400k_csv_longest_task', imported.longestMs, LONG_TASK_GOAL_MS, imported.load, { rows: imported.rows, import_ms: imported.importMs, long_tasks: imported.longTasks }));

    const demo = await measurePlannerDemo(await openPage(browser, baseURL));
    console.log(describePlannerDemo(demo));
    rows.push(goalRow('ui_planner_demo_longest_task', demo.longestMs, LONG_TASK_GOAL_MS, demo.load, { done_ms: Math.round(demo.doneMs), mount_frames: demo.mountFrames, long_tasks: demo.longTasks }));
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}
