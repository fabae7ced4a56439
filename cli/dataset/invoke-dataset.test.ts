import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bleAddressAnalyzerManifest, type DatasetManifest } from '../../src/core/index.ts';
import { defaultCaptureId } from '../capture-files.ts';
import { DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { askedWindows } from './dataset-captures.ts';
import { runCli } from './run-cli.ts';

const CAPTURES = fileURLToPath(new URL('../../../shared/captures/ble/', import.meta.url));
const FILES = ['tesi-ble_nrf_capture.pcapng', 'boston-hackrf_take3_adv38_2.pcap'];

let work: string;
let root: string;
let bounds: Map<string, { start_ms: number; end_ms: number }>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sextant-invoke-dataset-'));
  root = join(work, 'ds');
  const imported = await runCli(['import', ...FILES.map((name) => join(CAPTURES, name)), '--dataset', root]);
  expect(imported.code).toBe(0);
  const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as DatasetManifest;
  bounds = new Map(manifest.sources.map((source) => [source.capture_id, source.bounds!]));
});

/** An analyzer invocation of `captureId` over [startMs, endMs], written to a file. */
async function invocationFile(name: string, captureId: string, startMs: number, endMs: number): Promise<string> {
  const path = join(work, `${name}.json`);
  const invocation = {
    tool_name: bleAddressAnalyzerManifest.name,
    tool_version: bleAddressAnalyzerManifest.version,
    capture_selection: { capture_ids: [captureId], time_window: { start_ms: startMs, end_ms: endMs } },
    arguments: DEFAULT_ARGUMENTS,
    request_id: name,
    timeout_ms: 300_000,
  };
  await writeFile(path, JSON.stringify(invocation));
  return path;
}

describe('sextant invoke --dataset', () => {
  it('gives an invocation of a dataset capture the result it gives the capture file, over the whole capture and over a window of it', async () => {
    const name = FILES[0];
    const id = defaultCaptureId(name);
    const whole = bounds.get(id)!;
    const windows = [
      [whole.start_ms, whole.end_ms],
      [whole.start_ms + 20_000, whole.start_ms + 80_000],
    ];
    for (const [index, [start, end]] of windows.entries()) {
      const path = await invocationFile(`window-${index}`, id, start, end);
      const fromFile = await runCli(['invoke', path, '--capture', `${id}=${join(CAPTURES, name)}`]);
      const fromDataset = await runCli(['invoke', path, '--dataset', root]);
      expect(fromFile.code).toBe(0);
      expect(fromDataset.stderr).toBe('');
      expect(fromDataset.code).toBe(0);
      expect(JSON.parse(fromDataset.stdout)).toEqual(JSON.parse(fromFile.stdout));
    }
  }, 120_000);

  it('pins the run to the source file by its hash, and refuses a selection larger than --max-packets or a directory that is no dataset', async () => {
    const name = FILES[1];
    const id = defaultCaptureId(name);
    const whole = bounds.get(id)!;
    const path = await invocationFile('pinned', id, whole.start_ms, whole.end_ms);
    const runOut = join(work, 'run.json');
    const pinned = await runCli(['invoke', path, '--dataset', root, '--run-out', runOut]);
    expect(pinned.code).toBe(0);
    const run = JSON.parse(await readFile(runOut, 'utf8')) as { captures: Array<{ id: string; sha256: string; hashBasis: string }> };
    const sha256 = createHash('sha256').update(await readFile(join(CAPTURES, name))).digest('hex');
    expect(run.captures).toEqual([expect.objectContaining({ id, sha256, hashBasis: 'source-file' })]);

    const tooLarge = await runCli(['invoke', path, '--dataset', root, '--max-packets', '10']);
    expect(tooLarge.code).toBe(4);
    expect(tooLarge.stderr).toMatch(/more than --max-packets 10: .*\[WINDOW_TOO_LARGE\]/);
    const noDataset = await runCli(['invoke', path, '--dataset', join(work, 'nowhere')]);
    expect(noDataset.code).toBe(4);
    expect(noDataset.stderr).toMatch(/\[DATASET_NOT_FOUND\]/);
    const stray = await runCli(['invoke', path, '--max-packets', '10']);
    expect(stray.code).toBe(4);
    expect(stray.stderr).toMatch(/--max-packets needs --dataset/);
  }, 120_000);

  it('reads of each capture the span of the windows a plan asks, in both selection shapes, and nothing of the rest', () => {
    const asked = askedWindows([
      { capture_selection: { capture_ids: ['a', 'b'], time_window: { start_ms: 100, end_ms: 200 } } },
      { capture_selection: { capture_ids: ['a'], time_window: { start_ms: 150, end_ms: 400 } } },
      { capture_selection: { capture_id: 'c', selectors: { time_range: { start_ms: 5, end_ms: 6 } } } },
      { capture_selection: { capture_id: 'd' } },
      { capture_selection: { capture_ids: ['b'], time_window: { start_ms: 300, end_ms: 'late' } } },
      { tool_name: 'no selection' },
      'not an invocation',
    ]);
    expect(Object.fromEntries(asked)).toEqual({ a: { startMs: 100, endMs: 400 }, b: null, c: { startMs: 5, endMs: 6 }, d: null });
  });
});
