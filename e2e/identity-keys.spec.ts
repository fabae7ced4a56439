import { readFile } from 'node:fs/promises';
import { BleResultObject, expect, test } from './fixtures/workbench.ts';

// A real Android HCI log whose pairing carries the phone's IRK (SMP Identity Information, frame
// 14174; see ../shared/captures/ble/SOURCES.md), and a sniffer capture at a "scene"
// (e2e/fixtures/make-rpa-scene.ts) where that phone advertises through three RPAs of the key,
// minutes apart, which behaviour alone does not link.
const shared = (name: string) => new URL(`../../shared/captures/ble/${name}`, import.meta.url).pathname;
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

const IRK = '267483cba09b720412251bd6638d40b7';
const IRK_WIRESHARK = 'b7408d63d61b251204729ba0cb837426';
const LABEL = 'ec521_btsnoop_hci frame 14174 (SMP identity, 8C:1A:BF:39:FB:FD)';
const KEY_ID = 'capture:ec521_btsnoop_hci:14174:smp_identity_information';
const PHONE_RPAS = ['74:3C:CF:60:32:BC', '5D:2C:3B:52:19:0C', '45:A4:F1:62:3F:9D'];

const INVOCATION = {
  tool_name: 'bluetooth_address_analyzer',
  tool_version: '1.0.0',
  capture_selection: { capture_id: 'scene_rpas', selectors: {} },
  arguments: {
    address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr', scanner_addr: 'scanner_addr' },
    analysis_mode: 'both',
    linkage_window_s: 60,
    min_observation_count: 25,
    rpa_rotation_model: 'spec_default',
  },
  request_id: 'req-identity-keys',
  timeout_ms: 60000,
};

interface Link {
  cluster_id: string;
  addresses: string[];
  pairwise_probability_matrix: number[][];
  rationale: string[];
}

test('keys found in a phone log go on the keyring and resolve RPAs in another capture at p = 1', async ({ tools, page }) => {
  const ble = new BleResultObject(page);
  const consoleText: string[] = [];
  page.on('console', (message) => consoleText.push(message.text()));
  await page.goto('/#/captures');
  await page.getByTestId('captures.file-input').setInputFiles([shared('ec521_btsnoop_hci.log'), fixture('scene-rpas.pcap')]);
  const jobs = page.getByTestId('captures.import-job');
  await expect(jobs).toHaveCount(2);
  await expect(jobs.nth(0)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });
  await expect(jobs.nth(1)).toHaveAttribute('data-state', 'done', { timeout: 120_000 });

  // The import report lists the keys with their frames, MSB first (Wireshark prints b7408d63…).
  await page.getByTestId('captures.card').filter({ hasText: 'ec521_btsnoop_hci' }).click();
  const keys = page.getByTestId('capture.identity-keys').locator('tbody tr');
  await expect(keys).toHaveCount(2);
  await expect(keys.nth(0)).toContainText('14174');
  await expect(keys.nth(0)).toContainText('SMP identity');
  await expect(keys.nth(0)).toContainText('8C:1A:BF:39:FB:FD');
  await expect(keys.nth(0)).toContainText(IRK);
  await expect(keys.nth(1)).toContainText('14186');
  await expect(keys.nth(1)).toContainText('resolving list, local');

  // The keyring holds them, labelled by capture and frame, masked.
  await page.getByTestId('nav.settings').click();
  const entries = page.getByTestId('keyring').getByTestId('keyring.entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText(LABEL);
  await expect(entries.nth(0)).not.toContainText(IRK);

  // The analyzer's form offers the keyring: one click adds the ticked key with its label.
  await tools.open();
  await tools.writeJson(INVOCATION);
  await page.getByTestId('invocation-editor.form-tab').click();
  const offer = page.getByTestId('invocation-form.keyring');
  await offer.locator(`[data-key-id="${KEY_ID}"]`).check();
  await offer.getByTestId('invocation-form.keyring.add-selected').click();
  await expect(page.getByTestId('invocation-form.irk')).toHaveCount(1);
  await expect(page.getByTestId('invocation-form.irk')).toContainText(LABEL);
  await page.getByTestId('invocation-editor.json-tab').click();
  const sent = JSON.parse(await page.getByTestId('invocation-editor.json').inputValue()) as { arguments: { irks: unknown } };
  expect(sent.arguments.irks).toEqual([{ label: LABEL, irk: IRK }]);

  await tools.run();
  const result = tools.results().first();
  await expect(result).toHaveAttribute('data-status', 'ok', { timeout: 60_000 });
  const output = (JSON.parse((await result.getByTestId('result.raw-json').textContent()) ?? '{}') as { structured_output: { probabilistic_links: Link[] } })
    .structured_output;
  const cluster = output.probabilistic_links.find((link) => link.addresses.includes(PHONE_RPAS[0]));
  expect(cluster, 'the phone RPAs form one cluster').toBeDefined();
  expect([...cluster!.addresses].sort()).toEqual([...PHONE_RPAS].sort());
  expect(cluster!.pairwise_probability_matrix.flat().every((value) => value === 1)).toBe(true);

  // Read on the page: the cluster's rationale names the key, and a cell of its matrix reads 1.00.
  await ble.selectCluster(cluster!.cluster_id);
  await expect(page.getByRole('list', { name: `Rationale of ${cluster!.cluster_id}` })).toContainText(`IRK '${LABEL}'`);
  const tooltip = await ble.hoverCell(0, 2);
  await expect(tooltip.getByTestId('ble.heatmap.probability')).toHaveText('1.00');
  await expect(tooltip).toContainText(LABEL);

  // A workspace export holds the key only when the analyst ticks it (the run above used it).
  await page.getByTestId('nav.settings').click();
  const exportWorkspace = async () => {
    const download = page.waitForEvent('download');
    await page.getByTestId('settings.export-workspace').click();
    return readFile((await (await download).path())!);
  };
  const withoutKeys = await exportWorkspace();
  expect(withoutKeys.includes(LABEL)).toBe(true);
  expect(withoutKeys.includes(IRK)).toBe(false);
  expect(withoutKeys.includes(IRK_WIRESHARK)).toBe(false);
  await page.getByTestId('settings.export-identity-keys').check();
  expect((await exportWorkspace()).includes(IRK)).toBe(true);

  // Never logged.
  expect(consoleText.filter((text) => text.toLowerCase().includes(IRK) || text.toLowerCase().includes(IRK_WIRESHARK))).toEqual([]);
});
