import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from './fixtures/workbench.ts';

// The output of `sextant analyze-dataset --window` opened in the app (issue 25): the runner
// analyses a dataset in windows and stitches them; the analyst picks the output directory and
// browses the devices across the windows, what travelled together, and each window's result.
const CLI = new URL('../cli/sextant.mjs', import.meta.url).pathname;
const sextant = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

interface Device {
  id: string;
  addresses: string[];
  windows: number[];
  first_seen: string;
  last_seen: string;
}
interface Relation {
  device_a: string;
  device_b: string;
}
const jsonLines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);

/** A 30-minute scene of phones with their watches, earbuds and tags, analysed in 10-minute windows (once per worker). */
let scene: string | undefined;
function analysedScene(): string {
  scene ??= analyseScene();
  return scene;
}

function analyseScene(): string {
  const work = mkdtempSync(join(tmpdir(), 'sextant-e2e-analysis-'));
  sextant('generate', 'ble', '--seed', '1', '--scenario', 'companions', '--out', join(work, 'companions.pcap'));
  sextant('import', join(work, 'companions.pcap'), '--dataset', join(work, 'dataset'));
  sextant('analyze-dataset', join(work, 'dataset'), '--out', join(work, 'analysis'), '--window', '10m', '--overlap', '4m');
  return join(work, 'analysis');
}

test('a windowed dataset analysis opens: its windows, devices found by address, what travelled together, a window’s result', async ({ page }) => {
  const out = analysedScene();
  const devices = jsonLines<Device>(join(out, 'clusters.jsonl'));
  const relations = jsonLines<Relation>(join(out, 'relations.jsonl'));
  expect(relations.length).toBeGreaterThan(0);
  // A device seen in every window, with several addresses, that travelled with another device.
  const related = new Set(relations.flatMap((relation) => [relation.device_a, relation.device_b]));
  const device = devices.find((candidate) => candidate.windows.length === 3 && candidate.addresses.length > 2 && related.has(candidate.id))!;
  expect(device).toBeDefined();
  const partner = relations.map((relation) => (relation.device_a === device.id ? relation.device_b : relation.device_b === device.id ? relation.device_a : null)).find((id) => id !== null)!;

  await page.goto('/#/runs');
  await page.getByTestId('analysis.input').setInputFiles(out);
  await expect(page.getByTestId('analysis.summary')).toContainText(`in 3 window(s) of 10m overlapping by 4m`);
  await expect(page.getByTestId('analysis.summary')).toContainText(`stitched ${devices.length} device(s)`);
  await expect(page.getByTestId('analysis.window-row')).toHaveCount(3);
  // The run's warnings by code: each window's own (partial: CRC-bad packets left out, …) as one line.
  const warnings = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { warnings: Array<{ code: string }> };
  const partial = warnings.warnings.filter((warning) => warning.code === 'WINDOW_PARTIAL').length;
  expect(partial).toBe(3);
  await expect(page.getByTestId('analysis.warnings')).toContainText('WINDOW_PARTIAL ×3');
  await expect(page.getByTestId('analysis.warnings').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('analysis.device-count')).toHaveText(`1–50 of ${devices.length} devices`);
  await expect(page.getByTestId('analysis.device-row')).toHaveCount(50);
  await page.getByTestId('analysis.page-next').click();
  await expect(page.getByTestId('analysis.device-count')).toHaveText(`51–100 of ${devices.length} devices`);

  // An address typed as an analyst might: lower case, without colons; its device comes first.
  const address = device.addresses[1];
  await page.getByTestId('analysis.device-search').fill(address.replace(/:/g, '').toLowerCase());
  await expect(page.getByTestId('analysis.device-row').first()).toContainText(device.id);
  await page.getByTestId('analysis.device-row').first().getByRole('button', { name: device.id }).click();
  const detail = page.getByTestId('analysis.device-detail');
  await expect(detail).toContainText(`${device.addresses.length} addresses`);
  await expect(detail).toContainText('in 3 windows');
  // One line per window, however many of its nodes the stitching joined there.
  await expect(detail.getByRole('button', { name: /^Window \d+$/ })).toHaveCount(3);
  await expect(page.getByTestId('analysis.device-addresses')).toHaveText(device.addresses.join(' '));
  await expect(page.getByTestId('analysis.device-relations')).toContainText(`moved with ${partner}`);
  // Its packets open in the app once the dataset is picked on the Captures page.
  await expect(page.getByTestId('analysis.device-packets-hint')).toBeVisible();
  // The command it offers lists exactly the device's packets when the analyst runs it.
  const command = (await page.getByTestId('analysis.device-command').textContent())!;
  const sql = /"(SELECT .*)"/.exec(command)![1];
  expect(command.startsWith(`sextant query '${join(dirname(out), 'dataset')}' `)).toBe(true);
  const listed = JSON.parse(sextant('query', join(dirname(out), 'dataset'), sql, '--max-rows', '5000000')) as { columns: Array<{ name: string }>; rows: unknown[][] };
  const column = listed.columns.findIndex((entry) => entry.name === 'advertiser_addr');
  expect(new Set(listed.rows.map((row) => row[column]))).toEqual(new Set(device.addresses));
  const axe = await new AxeBuilder({ page }).include('.dataset-analysis').analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);

  // Its partner is one click away; the filter shows exactly the devices that travelled with another.
  await page.getByTestId('analysis.device-relations').getByRole('button', { name: partner }).first().click();
  await expect(detail.getByRole('heading', { level: 4 })).toContainText(partner);
  await page.getByTestId('analysis.device-search').fill('');
  await page.getByTestId('analysis.device-filter').selectOption('travelled_together');
  await expect(page.getByTestId('analysis.device-count')).toHaveText(`1–${Math.min(50, related.size)} of ${related.size} devices`);

  // A window's own result, in the analyzer's usual view.
  await detail.getByRole('button', { name: 'Window 0' }).first().click();
  const window = page.getByTestId('analysis.window');
  await expect(window.getByTestId('result.status')).toHaveText(/^(ok|partial)$/);
  await expect(window.getByTestId('ble.view')).toBeVisible();
  await expect(window.getByTestId('ble.travel')).toBeVisible();

  // The dataset picked on Captures; back on Runs (the analysis still open) the device's packets open as a window of it, filtered to the device.
  const dataset = join(dirname(out), 'dataset');
  await page.getByTestId('nav.captures').click();
  await page.getByTestId('captures.dataset-input').setInputFiles(dataset);
  await expect(page.getByTestId('captures.dataset-summary')).toBeVisible();
  await page.getByTestId('nav.runs').click();
  await page.getByTestId('analysis.device-search').fill(device.id);
  await page.getByTestId('analysis.device-row').first().getByRole('button', { name: device.id }).click();
  const fromMs = Date.parse(device.first_seen);
  const toMs = Date.parse(device.last_seen) + 1;
  const inSpan = JSON.parse(
    sextant('query', dataset, `SELECT count(*) FROM packets WHERE advertiser_addr IN (${device.addresses.map((entry) => `'${entry}'`).join(', ')}) AND ts_ms >= ${fromMs} AND ts_ms < ${toMs}`),
  ) as { rows: number[][] };
  await page.getByTestId('analysis.device-packets').click();
  await expect(page).toHaveURL(/#\/captures/);
  await expect(page.getByTestId('capture.filter-count')).toHaveText(new RegExp(`^${inSpan.rows[0][0].toLocaleString('en-US')} of `), { timeout: 60_000 });
});

test('a directory that is no analysis, or a damaged one, is refused with a code and the line; a run without windows opens its result', async ({ page }) => {
  const empty = mkdtempSync(join(tmpdir(), 'sextant-e2e-no-analysis-'));
  writeFileSync(join(empty, 'notes.txt'), 'not an analysis');
  await page.goto('/#/runs');
  await page.getByTestId('analysis.input').setInputFiles(empty);
  await expect(page.getByTestId('analysis.problem')).toContainText('ANALYSIS_NOT_FOUND');

  // One device's confidence written as a word, on the third line.
  const damaged = join(mkdtempSync(join(tmpdir(), 'sextant-e2e-damaged-')), 'analysis');
  cpSync(analysedScene(), damaged, { recursive: true });
  const lines = readFileSync(join(damaged, 'clusters.jsonl'), 'utf8').split('\n');
  lines[2] = lines[2].replace(/"confidence":[0-9.]+/, '"confidence":"high"');
  writeFileSync(join(damaged, 'clusters.jsonl'), lines.join('\n'));
  await page.getByTestId('analysis.input').setInputFiles(damaged);
  await expect(page.getByTestId('analysis.problem')).toContainText('ANALYSIS_LINE_INVALID');
  await expect(page.getByTestId('analysis.problem')).toContainText('clusters.jsonl line 3: confidence is not a probability');
  // The page keeps working: the intact analysis opens after the damaged one.
  await page.getByTestId('analysis.input').setInputFiles(analysedScene());
  await expect(page.getByTestId('analysis.problem')).toHaveCount(0);
  await expect(page.getByTestId('analysis.summary')).toContainText('in 3 window(s)');

  // A run without --window has nothing stitched: its one result opens in the analyzer's view.
  const oneWindow = join(dirname(analysedScene()), 'one-window');
  sextant('analyze-dataset', join(dirname(analysedScene()), 'dataset'), '--out', oneWindow);
  await page.getByTestId('analysis.input').setInputFiles(oneWindow);
  await expect(page.getByTestId('analysis.window').getByTestId('ble.view')).toBeVisible();
  await expect(page.getByTestId('analysis.devices')).toHaveCount(0);
});
