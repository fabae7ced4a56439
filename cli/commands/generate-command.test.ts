import { mkdtemp, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { BLE_RECORD_COLUMNS, BLE_TRUTH_FORMAT } from '../../src/core/index.ts';
import { main, type Io } from '../main.ts';
import { perReceiverPath } from './generate-command.ts';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: Io = { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), readStdin: async () => '' };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'sextant-generate-'));
}

describe('sextant generate ble', () => {
  it('writes one capture with a receiver column and its truth, and both load back', async () => {
    const out = join(await tempDir(), 'scenario.arrow');
    const { code, stdout, stderr } = await run(['generate', 'ble', '--seed', '7', '--scenario', 'gaps', '--out', out]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ scenario: 'gaps', seed: 7, layout: 'combined', truth: `${out}.truth.json` });
    expect(summary.files).toHaveLength(1);
    expect(summary.files[0].receivers).toEqual(['rx-1', 'rx-2']);

    const table = tableFromIPC(await readFile(out));
    expect(table.schema.fields.map((field) => field.name)).toEqual(BLE_RECORD_COLUMNS.map((column) => column.name));
    expect(table.numRows).toBe(summary.files[0].rows);
    const truth = JSON.parse(await readFile(`${out}.truth.json`, 'utf8'));
    expect(truth.format).toBe(BLE_TRUTH_FORMAT);
    expect(truth.counts.observations).toBe(table.numRows);
    expect(truth.receivers.every((receiver: { gaps: unknown[] }) => receiver.gaps.length === 9)).toBe(true);

    const imported = await run(['import', out, '--id', 'gen']);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ capture_id: 'gen', format: 'arrow', rows: table.numRows, time_column: 'ts_ms', channel_column: 'channel' });
    const listed = await run(['captures', '--capture', `gen=${out}`]);
    expect(listed.code).toBe(0);
    const capture = JSON.parse(listed.stdout).find((info: { id: string }) => info.id === 'gen');
    expect(capture.bounds).toEqual(summary.files[0].bounds);
    expect(capture.bounds_source).toBe('declared');
    expect(capture.channels).toEqual(['37', '38', '39']);
  });

  it('writes one file per receiver with --per-receiver, deterministically', async () => {
    const directory = await tempDir();
    const first = join(directory, 'a.arrow');
    const second = join(directory, 'b.arrow');
    expect((await run(['generate', 'ble', '--seed', '3', '--scenario', 'drift', '--out', first, '--per-receiver'])).code).toBe(0);
    expect((await run(['generate', 'ble', '--seed', '3', '--scenario', 'drift', '--out', second, '--per-receiver'])).code).toBe(0);
    for (const receiver of ['rx-1', 'rx-2', 'rx-3']) {
      expect(existsSync(perReceiverPath(first, receiver))).toBe(true);
      // Buffer.equals: a deep toEqual over megabytes of bytes is needlessly slow.
      expect((await readFile(perReceiverPath(first, receiver))).equals(await readFile(perReceiverPath(second, receiver)))).toBe(true);
    }
    expect(perReceiverPath(first, 'rx-1')).toBe(join(directory, 'a.rx-1.arrow'));
  });

  it('exits 4 with a clear message on bad arguments', async () => {
    const out = join(await tempDir(), 'x.arrow');
    const unknown = await run(['generate', 'ble', '--seed', '1', '--scenario', 'nope', '--out', out]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain("Unknown scenario 'nope'");
    expect(unknown.stderr).toContain('same_template_crowd');
    expect((await run(['generate', 'ble', '--seed', 'abc', '--out', out])).code).toBe(4);
    expect((await run(['generate', 'ble', '--out', out])).stderr).toContain('--seed N is required');
    expect((await run(['generate', 'ble', '--seed', '1'])).stderr).toContain('--out FILE is required');
    expect((await run(['generate', 'wifi', '--seed', '1', '--out', out])).stderr).toContain("unknown kind 'wifi'");
    expect((await run(['generate', 'ble', '--seed', '1', '--out', out, '--bogus'])).code).toBe(4);
    expect(existsSync(out)).toBe(false);
  });

  it('lists the scenarios', async () => {
    const { code, stdout } = await run(['generate', 'ble', '--list']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((entry: { name: string }) => entry.name)).toContain('android_multi_set');
  });
});
