import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BleResultObject, expect, test } from './fixtures/workbench.ts';

const CLI = new URL('../cli/sextant.mjs', import.meta.url).pathname;

interface Generated {
  files: Array<{ path: string; capture_id: string; bounds: { start_ms: number; end_ms: number } }>;
}

interface Output {
  probabilistic_links: Array<{ cluster_id: string; addresses: string[]; parallel_chains?: string[][] }>;
  travelled_together?: Array<{ probability: number; duration_s: number }>;
}

// The companions scenario: multi-set Android-like phones, and phones carrying a watch, earbuds or a tag.
test('a multi-set cluster shows its parallel chains in the timeline, and companions show as travelled together', async ({ tools, page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-e2e-ble-multi-'));
  const out = join(dir, 'ble_companions_s1.arrow');
  const { files } = JSON.parse(execFileSync(process.execPath, [CLI, 'generate', 'ble', '--seed', '1', '--scenario', 'companions', '--out', out], { encoding: 'utf8' })) as Generated;
  const ble = new BleResultObject(page);

  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles(files.map((file) => file.path));
  const jobs = page.getByTestId('captures.import-job');
  await expect(jobs).toHaveCount(files.length);
  for (let index = 0; index < files.length; index++) await expect(jobs.nth(index)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  await tools.open();
  await tools.writeJson({
    tool_name: 'bluetooth_address_analyzer',
    tool_version: '1.1.0',
    capture_selection: {
      capture_ids: files.map((file) => file.capture_id),
      time_window: { start_ms: Math.min(...files.map((file) => file.bounds.start_ms)), end_ms: Math.max(...files.map((file) => file.bounds.end_ms)) },
    },
    arguments: {
      address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
      analysis_mode: 'both',
      linkage_window_s: 180,
      min_observation_count: 25,
      rpa_rotation_model: 'spec_default',
    },
    request_id: 'req-bt-multi-set',
    timeout_ms: 60000,
  });
  await tools.run();
  const result = tools.results().first();
  await expect(result).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 120_000 });
  await expect(ble.view()).toBeVisible();
  const output = (JSON.parse((await result.getByTestId('result.raw-json').textContent()) ?? '{}') as { structured_output: Output }).structured_output;

  const multi = output.probabilistic_links.find((link) => (link.parallel_chains?.length ?? 0) > 1);
  expect(multi, 'a cluster made of several advertising sets').toBeDefined();
  await ble.selectCluster(multi!.cluster_id);
  // Every chain of the cluster is drawn on its own lanes, labelled with its set.
  for (const [chainIndex, chain] of multi!.parallel_chains!.entries()) {
    for (const address of chain) {
      const lane = page.locator(`[data-testid="ble.timeline.lane"][data-address="${address}"]`);
      await expect(lane).toHaveAttribute('data-chain', String(chainIndex));
      await expect(lane.getByTestId('ble.timeline.chain')).toHaveText(`set ${chainIndex + 1}`);
    }
  }

  // The travelled-together relation, as sentences with their probability.
  expect(output.travelled_together?.length ?? 0).toBeGreaterThan(0);
  const rows = page.getByTestId('ble.travel.row');
  await expect(rows).toHaveCount(output.travelled_together!.length);
  await expect(rows.first()).toContainText(/moved with .+ for \d+ (minutes?|seconds)/);
  await expect(rows.first()).toContainText('probability');
});
