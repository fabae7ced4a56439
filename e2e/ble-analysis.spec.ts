import { BleResultObject, expect, test } from './fixtures/workbench.ts';

// tool-contract.md §7.4, verbatim.
const SPEC_INVOCATION = {
  tool_name: 'bluetooth_address_analyzer',
  tool_version: '1.0.0',
  capture_selection: {
    capture_ids: ['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b'],
    time_window: { start_ms: 1712131200000, end_ms: 1712133000000 },
    filter_expression: 'channel IN (37,38,39) AND rssi > -92',
  },
  arguments: {
    address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
    analysis_mode: 'both',
    linkage_window_s: 180,
    min_observation_count: 25,
    rpa_rotation_model: 'spec_default',
  },
  request_id: 'req-bt-71ac9d11',
  timeout_ms: 60000,
};

interface Output {
  address_classification: Array<{ address: string; type: string; confidence: number }>;
  probabilistic_links: Array<{ cluster_id: string; addresses: string[]; pairwise_probability_matrix: number[][]; rationale: string[] }>;
  timeline_segments: Array<{ address: string }>;
}

test('runs the §7.4 analysis on the demo captures and reads its table, matrix, timeline and packets', async ({ tools, page }) => {
  const ble = new BleResultObject(page);
  await tools.open();
  // The one-click example is the specification's invocation, verbatim.
  await tools.loadExample('ble-analyzer');
  await page.getByTestId('invocation-editor.json-tab').click();
  expect(JSON.parse(await page.getByTestId('invocation-editor.json').inputValue())).toEqual(SPEC_INVOCATION);
  await tools.run();
  const result = tools.results().first();
  await expect(result).toHaveAttribute('data-status', /^(ok|partial)$/, { timeout: 60_000 });
  await expect(ble.view()).toBeVisible();
  const output = (JSON.parse((await result.getByTestId('result.raw-json').textContent()) ?? '{}') as { structured_output: Output }).structured_output;

  // The caveats of §7.3 stay beside the results.
  await expect(page.getByRole('complementary', { name: 'How to read these results' })).toContainText('not proof');

  // Classification: the table shows the analyzer's rows (up to its first page of 100).
  const rows = await ble.classificationRows();
  expect(rows.length).toBe(Math.min(100, output.address_classification.length));
  const byAddress = new Map(output.address_classification.map((row) => [row.address, row]));
  for (const row of rows) {
    expect(row.address).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/);
    expect(row.type).toBe(byAddress.get(row.address)?.type);
    expect(Math.abs(row.confidence - byAddress.get(row.address)!.confidence)).toBeLessThanOrEqual(0.0051);
  }
  // Sorted by confidence, most confident first.
  expect(rows.map((row) => row.confidence)).toEqual([...rows.map((row) => row.confidence)].sort((a, b) => b - a));

  // The demo holds a device rotating through three RPAs: its cluster, and its matrix under the pointer.
  const cluster = output.probabilistic_links.find((link) => link.addresses.length >= 3);
  expect(cluster, 'a cluster of three or more addresses').toBeDefined();
  await ble.selectCluster(cluster!.cluster_id);
  await expect(ble.heatmap()).toHaveAttribute('data-size', String(cluster!.addresses.length));
  const tooltip = await ble.hoverCell(0, 1);
  await expect(tooltip).toContainText(`${cluster!.addresses[0]} × ${cluster!.addresses[1]}`);
  await expect(tooltip.getByTestId('ble.heatmap.probability')).toHaveText(cluster!.pairwise_probability_matrix[0][1].toFixed(2));
  await expect(tooltip).toContainText(cluster!.rationale[0]);
  // Whole, not clipped by the boxes around the canvas, even at the matrix's bottom-right corner.
  await expect(tooltip).toBeInViewport({ ratio: 1 });
  await expect(await ble.hoverCell(cluster!.addresses.length - 1, cluster!.addresses.length - 1)).toBeInViewport({ ratio: 1 });

  // Timeline: one swimlane per address with segments, only those in view in the DOM; the
  // cluster's hand-offs are marked.
  const laneAddresses = new Set(output.timeline_segments.map((segment) => segment.address));
  await expect(ble.timeline()).toHaveAttribute('data-lane-count', String(laneAddresses.size));
  const rendered = await ble.lanes().count();
  expect(rendered).toBeGreaterThan(0);
  expect(rendered).toBeLessThan(laneAddresses.size);
  // Scrolling to the end brings in the last lane; back at the top, the selected cluster's lanes.
  await ble.scrollLanes(1);
  await expect(ble.lanes().last()).toHaveAttribute('aria-posinset', String(laneAddresses.size));
  await ble.scrollLanes(0);
  await expect(ble.lanes().first()).toHaveAttribute('aria-posinset', '1');
  for (const address of cluster!.addresses) await expect(page.locator(`[data-testid="ble.timeline.lane"][data-address="${address}"]`)).toHaveCount(1);
  const clusterHandOffs = page.locator(`[data-testid="ble.timeline.handoff"][aria-label*="(${cluster!.cluster_id})"]`);
  await expect(clusterHandOffs).toHaveCount(cluster!.addresses.length - 1);
  await expect(ble.handOffs().first()).toHaveAttribute('aria-label', /^Hand-off [0-9A-F:]{17} → [0-9A-F:]{17} \(.+\), gap /);
  const before = await page.getByTestId('ble.timeline.window').textContent();
  await page.getByTestId('ble.timeline.zoom-in').click();
  await expect(page.getByTestId('ble.timeline.window')).not.toHaveText(before ?? '');

  // RSSI per receiver, read from both captures.
  await expect(page.getByTestId('ble.rssi.receiver').first()).toBeVisible({ timeout: 120_000 });

  // Jump to one address's packets in the capture table.
  const address = cluster!.addresses[0];
  await ble.openPackets(address);
  await expect(page).toHaveURL(/#\/captures$/);
  // The address within what the analysis read: its time window, channels and filter.
  await expect(page.getByTestId('capture.filter')).toHaveValue(new RegExp(`^advertiser_addr = '${address}' AND \\("ts_ms" BETWEEN \\d+ AND \\d+\\) AND \\(channel IN \\(37,38,39\\) AND rssi > -92\\)$`));
  await expect(page.getByTestId('capture.detail')).toContainText(/lab_floor_2026_04_03_[ab]/);
  await expect(page.getByTestId('capture.filter-count')).toHaveText(/^[1-9][\d,]* of [\d,]+ rows$/);
  await expect(page.getByTestId('capture.advertisers').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('capture.advertisers').locator('tbody tr').first()).toContainText(address);
});
