import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, test } from './fixtures/workbench.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

test('a first visit lands on the start page, with one level-one heading and the three journeys', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sextant');
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2 })).toContainText(['Analyse a capture', 'Author a manifest', 'Watch the planner repair']);
  await expect(page.getByTestId('start.ble-analysis')).toBeVisible();
});

test('one click on the manifest journey opens the editor', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('start.manifest').click();
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
});

test('one click on "Import a tool definition" lands in the paste box, focused and in view', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('start.import-definition').click();
  const paste = page.getByTestId('manifest-import').getByRole('textbox', { name: 'Tool definition JSON' });
  await expect(paste).toBeFocused();
  await expect(paste).toBeInViewport();
  // Typing goes straight into it, with the editor (Monaco) loaded meanwhile.
  await expect(page.getByTestId('manifest-editor').locator('.monaco-editor')).toBeVisible({ timeout: 120_000 });
  await page.keyboard.type('{"name": "get_weather"');
  await expect(paste).toHaveValue('{"name": "get_weather"');
});

test('one click on the planner journey runs the offline demo; its report and run file export', async ({ planner, page }, testInfo) => {
  await page.goto('/');
  await page.getByTestId('start.planner-demo').click();
  expect(await planner.finished()).toBe('success');
  await expect(planner.current().getByTestId('planner.final.status')).toHaveText('success');

  const saved: string[] = [];
  page.on('download', (download) => {
    const path = testInfo.outputPath(download.suggestedFilename());
    saved.push(path);
    void download.saveAs(path);
  });
  await page.getByTestId('report.export').click();
  await expect.poll(() => saved.length).toBe(2);
  const htmlPath = saved.find((path) => path.endsWith('.html'))!;
  await expect.poll(async () => (await readFile(htmlPath, 'utf8').catch(() => '')).includes('</html>')).toBe(true);
  const html = await readFile(htmlPath, 'utf8');
  expect(html).toContain('Step timeline');
  expect(html).toContain('offline repairer');
  expect(html).toContain('MISSING_REQUIRED_ARGUMENT');

  // The app's run file goes through the runner's `sextant report` too.
  await page.getByTestId('report.export-run').click();
  await expect.poll(() => saved.length).toBe(3);
  const runPath = saved[2];
  await expect.poll(async () => (await readFile(runPath, 'utf8').catch(() => '')).endsWith('}\n')).toBe(true);
  const out = testInfo.outputPath('from-runner.html');
  await run('node', ['cli/sextant.mjs', 'report', runPath, '--out', out], { cwd: root });
  expect(await readFile(out, 'utf8')).toContain('cap_2026_03_14_a');
});

test('one click analyses the BLE demo captures; the result has room and exports a self-contained report that verifies', async ({ tools, page, browser }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByTestId('start.ble-analysis').click();
  const result = tools.results().first();
  await expect(result).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 60_000 });
  await expect(page.getByTestId('ble.view')).toBeVisible();
  // Results with room: the invocation folds to a summary line and the result takes the page's width.
  await expect(page.getByTestId('invocation-summary')).toContainText('bluetooth_address_analyzer');
  const width = (await page.getByTestId('results').boundingBox())!.width;
  expect(width).toBeGreaterThan(0.6 * 1440);

  const downloads: Array<{ name: string; path: string }> = [];
  page.on('download', (download) => {
    const path = testInfo.outputPath(download.suggestedFilename());
    downloads.push({ name: download.suggestedFilename(), path });
    void download.saveAs(path);
  });
  await page.getByTestId('report.export').click();
  await expect(page.getByTestId('results').getByRole('status')).toContainText('Report written', { timeout: 120_000 });
  await expect.poll(() => downloads.length).toBe(2);
  const html = downloads.find((entry) => entry.name.endsWith('.html'))!;
  const json = downloads.find((entry) => entry.name.endsWith('.json'))!;
  await expect.poll(async () => (await readFile(json.path, 'utf8').catch(() => '')).length > 0).toBe(true);
  await expect.poll(async () => (await readFile(html.path, 'utf8').catch(() => '')).includes('</html>')).toBe(true);
  const report = JSON.parse(await readFile(json.path, 'utf8')) as { captures: Array<{ id: string; sha256: string; hash_basis: string }> };
  expect(report.captures.map((capture) => capture.id)).toEqual(['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b']);
  for (const capture of report.captures) {
    expect(capture.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(capture.hash_basis).toBe('arrow-ipc');
  }

  // The HTML opens with every request refused, and holds the hashes, the heatmap image and the caveats.
  const offline = await browser.newContext();
  const requests: string[] = [];
  await offline.route('**/*', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  const view = await offline.newPage();
  await view.goto(`file://${html.path}`);
  await expect(view.getByRole('heading', { level: 1 })).toContainText('bluetooth_address_analyzer');
  for (const capture of report.captures) await expect(view.locator(`[data-sha256="${capture.sha256}"]`)).toHaveText(capture.sha256);
  await expect(view.locator('svg.report-heatmap').first()).toBeVisible();
  await expect(view.locator('svg.report-timeline')).toBeVisible();
  await expect(view.locator('.caveats')).toContainText('Similar traffic profiles from nearby devices can inflate linkage probabilities.');
  expect(requests).toEqual([]);
  await offline.close();

  // The runner re-runs the report's invocation on the same (built-in) captures and agrees.
  const verified = await run('node', ['cli/sextant.mjs', 'report', 'verify', json.path], { cwd: root });
  expect(verified.stdout).toContain('VERIFIED: every capture hash and every result matches the report.');
});
