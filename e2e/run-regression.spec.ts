import { expect, test } from './fixtures/workbench.ts';

test('runs the specification regression example in a worker and shows coefficients and plots', async ({ tools, page }) => {
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await tools.open();
  await tools.loadExample('regression');
  await tools.run();

  const result = tools.results().first();
  await expect(result.getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });
  await expect(result.getByTestId('result.summary')).toContainText(/Linear regression completed on 1\d,\d{3} samples/);
  const table = result.getByTestId('result.coefficient-table');
  for (const term of ['intercept', 'snr', 'jitter', 'packet_loss']) {
    await expect(table.getByRole('rowheader', { name: term, exact: true })).toBeVisible();
  }
  await expect(result.getByTestId('result.fitted-plot').locator('svg').first()).toBeVisible();
  await expect(result.getByTestId('result.residual-plot')).toBeVisible();
  expect(workers.some((url) => url.includes('tools.worker'))).toBe(true);

  const raw = JSON.parse((await result.getByTestId('result.raw-json').textContent()) ?? '{}');
  expect(raw.structured_output.coefficients.packet_loss).toBeCloseTo(1.44, 1);
  expect(raw.artifacts[0].sha256).toMatch(/^[0-9a-f]{64}$/);
});

test('the invalid plan shows both errors at their fields and executes nothing', async ({ tools }) => {
  await tools.open();
  await tools.loadExample('invalid-plan');
  await tools.run();

  const result = tools.results().first();
  await expect(result.getByTestId('result.status')).toHaveText('error');
  await expect(result.getByTestId('result.not-executed')).toBeVisible();
  const errors = result.getByTestId('result.error');
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0)).toHaveAttribute('data-code', 'MISSING_REQUIRED_ARGUMENT');
  await expect(errors.nth(0)).toHaveAttribute('data-field', 'arguments.target');
  await expect(errors.nth(0)).toContainText('arguments.target is required');
  await expect(errors.nth(1)).toHaveAttribute('data-code', 'UNSUPPORTED_TIME_RANGE');
  await expect(errors.nth(1)).toHaveAttribute('data-field', 'capture_selection.selectors.time_range');
  await expect(errors.nth(1)).toContainText('Requested 0-999999ms but capture cap_2026_03_14_a supports 0-120000ms');
  await expect(result.getByTestId('result.coefficient-table')).toHaveCount(0);
});

test('the corrected plan runs, and the runs page keeps both runs with their results', async ({ tools, page }) => {
  await tools.open();
  await tools.loadExample('invalid-plan');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('error');
  await tools.loadExample('corrected-plan');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('ok', { timeout: 120_000 });

  await page.getByTestId('nav.runs').click();
  const rows = page.getByTestId('runs.table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('ok');
  await expect(rows.nth(1)).toContainText('error');
  const download = page.waitForEvent('download');
  await rows.nth(0).getByRole('button', { name: 'Download JSON' }).click();
  expect((await download).suggestedFilename()).toMatch(/^sextant-run-\d+\.json$/);
});

test('the form shows an argument error next to its field', async ({ tools, page }) => {
  await tools.open();
  await tools.loadExample('regression');
  await page.getByTestId('invocation-form.argument.target').fill('');
  await tools.run();
  await expect(tools.results().first().getByTestId('result.status')).toHaveText('error');
  await expect(page.getByRole('alert').filter({ hasText: 'MISSING_REQUIRED_ARGUMENT' })).toBeVisible();
});
