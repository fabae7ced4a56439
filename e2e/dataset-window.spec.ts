import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from './fixtures/workbench.ts';

// A dataset (issue 25) opened in the app: `sextant import --dataset` writes it from real captures
// (../shared/captures/ble), the analyst picks its directory and a time window, and the window
// becomes a capture like an imported file.
const CLI = new URL('../cli/sextant.mjs', import.meta.url).pathname;
const shared = (name: string) =>
  process.env.SEXTANT_SHARED_DIR ? `${process.env.SEXTANT_SHARED_DIR}/captures/ble/${name}` : new URL(`../../shared/captures/ble/${name}`, import.meta.url).pathname;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

test('a window of a dataset opens as a capture with exactly its packets, and a tool runs on it', async ({ tools, page }) => {
  const root = join(mkdtempSync(join(tmpdir(), 'sextant-e2e-dataset-')), 'two-sniffers');
  execFileSync(process.execPath, [CLI, 'import', shared('tesi-ble_nrf_capture.pcapng'), shared('boston-hackrf_take3_adv38_2.pcap'), '--dataset', root], { encoding: 'utf8' });
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { sources: Array<{ capture_id: string; bounds: { start_ms: number } }> };
  const start = manifest.sources.find((source) => source.capture_id === 'tesi-ble_nrf_capture')!.bounds.start_ms;
  // Whole seconds, as the form reads them: a minute from 30 s in (the capture spans 125 s, across an hour boundary).
  const fromMs = Math.ceil(start / 1000) * 1000 + 30_000;
  const toMs = fromMs + 60_000;
  const counted = JSON.parse(
    execFileSync(process.execPath, [CLI, 'query', root, `SELECT count(*) AS n FROM packets WHERE capture_id = 'tesi-ble_nrf_capture' AND ts_ms >= ${fromMs} AND ts_ms < ${toMs}`], { encoding: 'utf8' }),
  ) as { rows: number[][] };
  const expected = counted.rows[0][0];
  expect(expected).toBeGreaterThan(1_000);

  await page.goto('/#/captures');
  // The dataset's parent picked by mistake: the one dataset in it is opened.
  await page.getByTestId('captures.dataset-input').setInputFiles(dirname(root));
  await expect(page.getByTestId('captures.dataset-summary')).toContainText('two-sniffers: 2 captures, 22,825 packets');
  // The first capture is proposed; the analyst takes tesi instead.
  const captures = page.getByTestId('captures.dataset-captures');
  await expect(captures.getByRole('checkbox', { name: /boston-hackrf_take3_adv38_2/ })).toBeChecked();
  await captures.getByRole('checkbox', { name: /boston-hackrf_take3_adv38_2/ }).uncheck();
  await captures.getByRole('checkbox', { name: /tesi-ble_nrf_capture/ }).check();
  await page.getByTestId('captures.dataset-from').fill(iso(fromMs).replace('Z', ''));
  await expect(page.getByText('add the zone: Z for UTC')).toBeVisible();
  await expect(page.getByTestId('captures.dataset-open')).toBeDisabled();
  await page.getByTestId('captures.dataset-from').fill(iso(fromMs));
  await page.getByTestId('captures.dataset-to').fill(iso(toMs));
  await expect(page.getByTestId('captures.dataset-estimate')).toContainText('packets at most');
  await page.getByTestId('captures.dataset-open').click();

  const job = page.getByTestId('captures.import-job').first();
  await expect(job).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  const id = `tesi_ble_nrf_capture_${iso(fromMs).slice(0, 16).replace(/[-:]/g, '').toLowerCase()}`;
  await expect(job).toContainText(`Imported as ${id}`);
  await expect(page.getByTestId('capture.detail')).toContainText(id);
  await expect(page.getByTestId('capture.filter-count')).toHaveText(`${expected.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} rows`);
  await expect(page.getByTestId('capture.dataset-window')).toContainText(`A window of tesi-ble_nrf_capture in a dataset: ${iso(fromMs)} – ${iso(toMs)}, ${expected.toLocaleString('en-US')} of the`);

  await page.getByTestId('capture.use-in-tool').click();
  await expect(page).toHaveURL(/#\/tools/);
  await expect(page.getByTestId('invocation-form.tool')).toHaveValue('bluetooth_address_analyzer');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText(/^(ok|partial)$/, { timeout: 120_000 });
});

test('a directory that is no dataset is refused with a code, and the app keeps working', async ({ page }) => {
  const root = mkdtempSync(join(tmpdir(), 'sextant-e2e-not-dataset-'));
  writeFileSync(join(root, 'notes.txt'), 'not a dataset');
  await page.goto('/#/captures');
  await page.getByTestId('captures.dataset-input').setInputFiles(root);
  await expect(page.getByTestId('captures.dataset-problem')).toContainText('DATASET_NOT_FOUND');
  await expect(page.getByTestId('captures.dataset-problem')).toContainText('no manifest.json');

  writeFileSync(join(root, 'manifest.json'), '{"format":"sextant-dataset/1"');
  await page.getByTestId('captures.dataset-input').setInputFiles(root);
  await expect(page.getByTestId('captures.dataset-problem')).toContainText('DATASET_MANIFEST_INVALID');
  await expect(page.getByTestId('captures.card')).toHaveCount(3);
});
