import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { tableToIPC } from 'apache-arrow';
import { generateBleScenario, type BleScenarioTruth } from '../src/core/index.ts';
import { BleResultObject, expect, test } from './fixtures/workbench.ts';

// Issue 22 in the app: distinct devices that move together are a finding of their own (never one
// device), and a Find My-style tag stays one device across its daily address swap. The captures
// are the generator's (`sextant generate ble`), imported as an analyst imports an Arrow file.

function scenarioCapture(scenario: string, seed: number): { path: string; id: string; truth: BleScenarioTruth } {
  const generated = generateBleScenario({ seed, scenario, layout: 'combined' });
  if (!generated.ok) throw new Error(generated.error.message);
  const [capture] = generated.value.captures;
  const path = join(mkdtempSync(join(tmpdir(), 'sextant-e2e-')), `${capture.info.id}.arrow`);
  writeFileSync(path, tableToIPC(capture.table, 'file'));
  return { path, id: capture.info.id, truth: generated.value.truth };
}

/** Imports the capture, opens it in the BLE analyzer from the Captures page and runs it from the form. */
async function analyze(page: Page, capture: { path: string; id: string }, run: () => Promise<void>): Promise<BleResultObject> {
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(capture.path);
  await expect(page.getByTestId('captures.import-job')).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await page.getByTestId('captures.card').filter({ hasText: capture.id }).click();
  await page.getByTestId('capture.use-in-tool').click();
  await expect(page.getByTestId('invocation-form.tool')).toHaveValue('bluetooth_address_analyzer');
  await run();
  const result = page.getByTestId('results').getByTestId('result').first();
  await expect(result.getByTestId('result.status')).toHaveText(/^(ok|partial)$/, { timeout: 180_000 });
  const ble = new BleResultObject(page);
  await expect(ble.view()).toHaveAttribute('data-mount', 'complete', { timeout: 120_000 });
  return ble;
}

test('companions: a phone and the devices its owner carries are reported as travelled together, with what kept them apart', async ({ tools, page }) => {
  const capture = scenarioCapture('companions', 1);
  await analyze(page, capture, () => tools.run());
  const travel = page.getByTestId('ble.travel');
  await expect(travel.getByRole('heading', { name: 'Travelled together' })).toBeVisible();
  const rows = travel.getByTestId('ble.travel.row');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.first()).toContainText(/moved with .+ for \d+ minutes/);
  await expect(rows.first()).toContainText(/same device 0\.\d{3}/);
  await expect(rows.first().getByTestId('ble.travel.separated-by')).toContainText(/^Kept apart: \w/);
  // Never both: no relation joins two addresses the Clusters list shows as one device.
  const clusters = await page.getByTestId('ble.cluster').allInnerTexts();
  for (const text of await rows.allInnerTexts()) {
    const [first, second] = [...text.matchAll(/(?:[0-9A-F]{2}:){5}[0-9A-F]{2}/g)].map((match) => match[0]);
    if (first && second) expect(clusters.some((cluster) => cluster.includes(first) && cluster.includes(second))).toBe(false);
  }
});

test('trackers: a Find My-style tag is linked across its daily address swap, and is never folded into a phone', async ({ tools, page }) => {
  const capture = scenarioCapture('trackers', 1);
  const findMy = new Set(capture.truth.devices.filter((device) => device.profile === 'find_my_tag').map((device) => device.device_id));
  const swap = capture.truth.rotations.find((rotation) => findMy.has(rotation.device_id));
  expect(swap, 'the scenario has a Find My daily swap').toBeDefined();
  await analyze(page, capture, () => tools.run());
  const cluster = page.getByTestId('ble.cluster').filter({ hasText: swap!.from }).filter({ hasText: swap!.to });
  await expect(cluster).toHaveCount(1);
  await expect(cluster.getByTestId('ble.cluster.tracker')).toHaveText('Find My-style tag');
  // Every address of that cluster is the tag's own.
  const addresses = [...(await cluster.innerText()).matchAll(/(?:[0-9A-F]{2}:){5}[0-9A-F]{2}/g)].map((match) => match[0]);
  for (const address of addresses) expect(capture.truth.address_to_device[address]).toBe(swap!.device_id);
});
