import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CaptureCatalog,
  ToolRegistry,
  bleAddressAnalyzerManifest,
  builtinTools,
  createExecutor,
  createInProcessRunner,
  generateBleScenario,
  openStitchedAnalysis,
  parseWindowResult,
  readCaptureFile,
  toolResultSchema,
  validateAgainstSchema,
  type Capture,
  type StitchedCluster,
  type ToolResult,
} from '../../src/core/index.ts';
import { defaultCaptureId } from '../capture-files.ts';
import { DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { DatasetEngine } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';
import { commitTable } from './table-into-dataset.ts';
import { windowCaptures } from './window-captures.ts';

const CAPTURES = fileURLToPath(new URL('../../../shared/captures/ble/', import.meta.url));

const run = runCli;

const template = {
  tool_name: bleAddressAnalyzerManifest.name,
  tool_version: bleAddressAnalyzerManifest.version,
  arguments: DEFAULT_ARGUMENTS,
  request_id: 'compare',
  timeout_ms: 300_000,
};

/** The analyzer's whole ToolResult on one capture, in this thread. */
async function analyse(capture: Capture, invocation: unknown): Promise<unknown> {
  const registry = new ToolRegistry(builtinTools({ testTools: false }));
  const catalog = new CaptureCatalog([capture]);
  const executor = createExecutor({ registry, catalog, runner: createInProcessRunner({ registry, capture: (id) => catalog.capture(id) }) });
  const { result } = await executor.execute(invocation);
  return result;
}

interface Analysis {
  invocation: Record<string, unknown>;
  captures: Array<{ capture_id: string; rows: number; sha256: string }>;
  status: string;
}

/** The dataset of every real capture, imported once for the whole file. */
let work: string;
let root: string;
let files: string[];
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sextant-analyze-dataset-'));
  root = join(work, 'ds');
  files = (await readdir(CAPTURES)).filter((name) => /\.(pcap|pcapng|log|snoop)$/.test(name)).sort();
  const imported = await run(['import', ...files.map((name) => join(CAPTURES, name)), '--dataset', root, '--jobs', '2']);
  expect(imported.stderr).toBe('');
  expect(imported.code).toBe(0);
});

describe('sextant analyze-dataset', () => {
  it('gives every real capture the result the in-memory analyzer gives its file', async () => {
    expect(files.length).toBeGreaterThanOrEqual(15);
    const opened = await DatasetEngine.open(root);
    if (!opened.ok) throw new Error(opened.error.message);
    const engine = opened.value;
    const mismatches: string[] = [];
    let compared = 0;
    const statuses: string[] = [];
    try {
      for (const name of files) {
        const id = defaultCaptureId(name);
        const fromFile = await readCaptureFile(new Uint8Array(await readFile(join(CAPTURES, name))), { id, fileName: name });
        if (!fromFile.ok) throw new Error(fromFile.error.message);
        if (fromFile.value.info.rowCount === 0) continue;
        // Row groups of 4,096 rows: the larger captures are read back in several, each with its own dictionaries.
        const [fromDataset] = await windowCaptures(engine, { fromMs: null, toMs: null, captureIds: [id] }, [id], 4096);
        const { bounds } = fromDataset.capture.info;
        const invocation = { ...template, capture_selection: { capture_ids: [id], time_window: { start_ms: bounds!.start_ms, end_ms: bounds!.end_ms } } };
        const [expected, actual] = await Promise.all([analyse(fromFile.value, invocation), analyse(fromDataset.capture, invocation)]);
        compared++;
        statuses.push(`${name}: ${(expected as { status: string }).status} ${JSON.stringify((expected as { errors: unknown }).errors).slice(0, 200)}`);
        if (JSON.stringify(expected) !== JSON.stringify(actual)) mismatches.push(name);
      }
    } finally {
      engine.close();
    }
    expect(compared).toBeGreaterThanOrEqual(15);
    // Real analyses, not refusals compared with refusals (auracast's packets all fail their CRC: INSUFFICIENT_DATA either way).
    expect(statuses.filter((status) => status.includes(': error') && !status.includes('INSUFFICIENT_DATA')), statuses.join('\n')).toEqual([]);
    expect(statuses.filter((status) => status.includes(': error')).length).toBeLessThanOrEqual(1);
    expect(mismatches).toEqual([]);
  });

  it('analyses a time window, and refuses an empty window or one over --max-packets with a code', async () => {
    const id = 'tesi-ble_nrf_capture';
    const bounds = JSON.parse((await run(['query', root, `SELECT min(ts_ms), max(ts_ms) FROM packets WHERE capture_id = '${id}'`])).stdout) as { rows: number[][] };
    const [first, last] = bounds.rows[0];
    const middle = Math.round((first + last) / 2);
    const out = join(work, 'window');
    const windowed = await run(['analyze-dataset', root, '--out', out, '--capture', id, '--from', String(first), '--to', new Date(middle).toISOString()]);
    expect(windowed.code).toBe(0);
    const analysis = JSON.parse(windowed.stdout) as Analysis;
    const count = JSON.parse((await run(['query', root, `SELECT count(*) FROM packets WHERE capture_id = '${id}' AND ts_ms < ${new Date(new Date(middle).toISOString()).getTime()}`])).stdout) as { rows: number[][] };
    expect(analysis.captures[0].rows).toBe(count.rows[0][0]);
    expect(analysis.status).not.toBe('error');

    const empty = await run(['analyze-dataset', root, '--out', out, '--from', '2001-01-01T00:00Z', '--to', '2001-01-02T00:00Z']);
    expect(empty.code).toBe(4);
    expect(empty.stderr).toContain('[EMPTY_WINDOW]');
    const large = await run(['analyze-dataset', root, '--out', out, '--capture', id, '--max-packets', '100']);
    expect(large.code).toBe(4);
    expect(large.stderr).toContain('[WINDOW_TOO_LARGE]');
    const badTime = await run(['analyze-dataset', root, '--out', out, '--from', 'tuesday']);
    expect(badTime.code).toBe(4);
  });
});

/** The devices of a one-window result: its clusters, and every other address alone. */
function devicesOf(result: ToolResult): string[] {
  const output = result.structured_output as { address_classification: Array<{ address: string }>; probabilistic_links: Array<{ addresses: string[] }> };
  const clustered = new Set(output.probabilistic_links.flatMap((link) => link.addresses));
  const devices = [...output.probabilistic_links.map((link) => [...link.addresses].sort()), ...output.address_classification.filter(({ address }) => !clustered.has(address)).map(({ address }) => [address])];
  return devices.map((addresses) => addresses.join(' ')).sort();
}

describe('sextant analyze-dataset --window', () => {
  it('stitches 10-minute windows of a 30-minute scenario into the devices of the one-window analysis', async () => {
    // The default scenario: 25 devices over 30 min, phones rotating every 5–15 min, so hand-offs cross both window ends.
    const scenario = generateBleScenario({ seed: 1, scenario: 'default', layout: 'combined' });
    if (!scenario.ok) throw new Error(scenario.error.message);
    const [capture] = scenario.value.captures;
    const scenarioRoot = join(work, 'scenario');
    await commitTable(scenarioRoot, capture.info.id, capture.table);

    // The one-window analysis in this thread, over the rows' span as analyze-dataset selects it.
    const times = capture.table.getChild('ts_ms')!.toArray() as Float64Array;
    const span = { start_ms: Math.floor(Math.min(...times)), end_ms: Math.ceil(Math.max(...times)) };
    const one = (await analyse(capture, { ...template, capture_selection: { capture_ids: [capture.info.id], time_window: span } })) as ToolResult;

    const out = join(work, 'windows');
    const windowed = await run(['analyze-dataset', scenarioRoot, '--out', out, '--window', '10m', '--overlap', '4m']);
    expect(windowed.stderr).toBe('');
    expect(windowed.code).toBe(0);
    const analysis = JSON.parse(windowed.stdout) as { windows: Array<{ index: number; from_ms: number; to_ms: number; rows: number; status: string; result: string }>; stitched: Record<string, number> };
    // 10 minutes and the 4-minute overlap each, the last one clipped at the data's end.
    expect(analysis.windows.map(({ from_ms, to_ms }) => to_ms - from_ms).slice(0, 2)).toEqual([840_000, 840_000]);
    expect(analysis.windows).toHaveLength(3);
    expect(analysis.windows[1].from_ms - analysis.windows[0].from_ms).toBe(600_000);
    expect(analysis.windows.every((window) => window.status !== 'error' && window.rows > 0)).toBe(true);
    const clusters = (await readFile(join(out, 'clusters.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as StitchedCluster);
    // The same devices, address for address: every hand-off near a boundary seen whole by one window and joined through the overlap.
    expect(clusters.map((cluster) => cluster.addresses.join(' ')).sort()).toEqual(devicesOf(one));
    expect(analysis.stitched).toMatchObject({ windows_stitched: 3, devices: clusters.length, conflicts: 0 });
    expect(clusters.filter((cluster) => cluster.addresses.length > 1 && cluster.windows.length > 1).length).toBeGreaterThanOrEqual(5);
    expect(clusters.every((cluster) => cluster.confidence > 0 && cluster.confidence <= 1)).toBe(true);

    // Each window's ToolResult, and a summary ToolResult pointing to the files with their SHA-256.
    const first = JSON.parse(await readFile(join(out, analysis.windows[0].result), 'utf8')) as ToolResult;
    expect(first.structured_output).toHaveProperty('probabilistic_links');
    const summary = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ToolResult;
    expect(validateAgainstSchema(toolResultSchema, summary, { prefix: [], typeErrorCode: 'OUTPUT_SCHEMA_VIOLATION' })).toEqual([]);
    expect(summary.artifacts!.map((artifact) => artifact.uri)).toEqual(['clusters.jsonl', 'conflicts.jsonl', 'relations.jsonl']);
    for (const artifact of summary.artifacts!) expect(createHash('sha256').update(await readFile(join(out, artifact.uri))).digest('hex')).toBe(artifact.sha256);

    // The app's reader (Runs → Dataset analysis) takes the directory as written: every device, and each window's result.
    const opened = await openStitchedAnalysis({
      text: (path) => readFile(join(out, path), 'utf8'),
      bytes: (path) => createReadStream(join(out, path)),
    });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.devices!.query({ text: '', filter: 'all', order: 'first_seen', offset: 0, limit: 500 }).rows.map((row) => row.id)).toEqual(clusters.map((cluster) => cluster.id));
    for (const window of opened.value.overview.windows) expect(parseWindowResult(await readFile(join(out, window.result!), 'utf8'), window.result!).ok).toBe(true);

    // Windows analysed one at a time or three at once: the same files, byte for byte (stitched in window order either way).
    for (const jobs of ['1', '3']) {
      const other = join(work, `windows-jobs-${jobs}`);
      const again = await run(['analyze-dataset', scenarioRoot, '--out', other, '--window', '10m', '--overlap', '4m', '--jobs', jobs]);
      expect(again.code).toBe(0);
      for (const file of ['result.json', 'clusters.jsonl', 'conflicts.jsonl', 'relations.jsonl', ...analysis.windows.map((window) => window.result)]) {
        expect(await readFile(join(other, file), 'utf8'), `${file} with --jobs ${jobs}`).toBe(await readFile(join(out, file), 'utf8'));
      }
    }
  });

  it('analyses windows holding captures that start and end at different times', async () => {
    // Two receivers of one scenario; the second starts 12 minutes late and stops 5 minutes early, so windows hold captures of different extents.
    const scenario = generateBleScenario({ seed: 2, scenario: 'default', layout: 'per_receiver' });
    if (!scenario.ok) throw new Error(scenario.error.message);
    const [early, late] = scenario.value.captures;
    const start = scenario.value.captures[0].info.bounds.start_ms;
    const lateTimes = late.table.getChild('ts_ms')!.toArray() as Float64Array;
    const first = lateTimes.findIndex((time) => time >= start + 12 * 60_000);
    const last = lateTimes.findIndex((time) => time >= start + 25 * 60_000);
    const mixedRoot = join(work, 'mixed');
    await commitTable(mixedRoot, early.info.id, early.table);
    await commitTable(mixedRoot, late.info.id, late.table.slice(first, last));
    const windowed = await run(['analyze-dataset', mixedRoot, '--out', join(work, 'mixed-windows'), '--window', '10m', '--overlap', '4m']);
    expect(windowed.code, windowed.stderr).toBe(0);
    const analysis = JSON.parse(windowed.stdout) as { windows: Array<{ status: string; captures: Array<{ capture_id: string }> }> };
    expect(analysis.windows.map((window) => window.status)).not.toContain('error');
    expect(analysis.windows.filter((window) => window.captures.length === 2).length).toBeGreaterThanOrEqual(2);
    // And as one window: the invocation spans both captures, each declared over it.
    const whole = await run(['analyze-dataset', mixedRoot, '--out', join(work, 'mixed-whole')]);
    expect(whole.code, whole.stderr).toBe(0);
    expect((JSON.parse(whole.stdout) as { status: string }).status).not.toBe('error');
  });

  it('reports an empty window in the middle and goes on', async () => {
    // Two real captures 19 days apart, in windows of 6 days: the two in the middle hold nothing.
    const out = join(work, 'gap');
    const analysed = await run(['analyze-dataset', root, '--out', out, '--capture', 'boston-hackrf_take3_ble_all_adv_w_scan', '--capture', 'tesi-ble_nrf_capture', '--window', '6d', '--overlap', '1h']);
    expect(analysed.code).toBe(0);
    const analysis = JSON.parse(analysed.stdout) as { windows: Array<{ status: string; rows: number }>; status: string };
    expect(analysis.windows.map((window) => window.status === 'empty')).toEqual([false, true, true, false]);
    expect(analysis.windows.filter((window) => window.status === 'empty').every((window) => window.rows === 0)).toBe(true);
    const summary = JSON.parse(await readFile(join(out, 'result.json'), 'utf8')) as ToolResult;
    expect(summary.warnings.filter((warning) => warning.code === 'EMPTY_WINDOW')).toHaveLength(2);
  });

  it('refuses bad durations and an overlap the linkage window outlasts, with codes', async () => {
    const out = join(work, 'bad');
    const cases: Array<[string[], string]> = [
      [['--window', '10'], '[BAD_DURATION]'],
      [['--window', '1x'], '[BAD_DURATION]'],
      [['--window', '1h', '--overlap', 'soon'], '[BAD_DURATION]'],
      [['--window', '1h', '--overlap', '2m'], '[OVERLAP_TOO_SHORT]'],
      [['--window', '1h', '--overlap', '1h'], '[OVERLAP_NOT_SHORTER_THAN_WINDOW]'],
    ];
    for (const [flags, code] of cases) {
      const refused = await run(['analyze-dataset', root, '--out', out, ...flags]);
      expect(refused.code, flags.join(' ')).toBe(4);
      expect(refused.stderr, flags.join(' ')).toContain(code);
    }
    const overlapAlone = await run(['analyze-dataset', root, '--out', out, '--overlap', '10m']);
    expect(overlapAlone.code).toBe(4);
    expect(overlapAlone.stderr).toContain('--overlap needs --window');
    const jobsAlone = await run(['analyze-dataset', root, '--out', out, '--jobs', '2']);
    expect(jobsAlone.code).toBe(4);
    expect(jobsAlone.stderr).toContain('--jobs needs --window');
  });
});
