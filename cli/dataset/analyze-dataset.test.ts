import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CaptureCatalog, ToolRegistry, bleAddressAnalyzerManifest, builtinTools, createExecutor, createInProcessRunner, readCaptureFile, type Capture } from '../../src/core/index.ts';
import { defaultCaptureId } from '../capture-files.ts';
import { DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { DatasetEngine } from './duckdb-engine.ts';
import { runCli } from './run-cli.ts';
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

describe('sextant analyze-dataset', () => {
  let root: string;
  let work: string;
  let files: string[];
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'sextant-analyze-dataset-'));
    root = join(work, 'ds');
    files = (await readdir(CAPTURES)).filter((name) => /\.(pcap|pcapng|log|snoop)$/.test(name)).sort();
    const imported = await run(['import', ...files.map((name) => join(CAPTURES, name)), '--dataset', root, '--jobs', '2']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
  });

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
        const [fromDataset] = await windowCaptures(engine, { fromMs: null, toMs: null, captureIds: [id] }, [id]);
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
