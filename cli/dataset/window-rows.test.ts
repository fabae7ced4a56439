import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromArrays } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateBleScenario } from '../../src/core/index.ts';
import { ANALYSIS_MEMORY_LIMIT, DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { runCli as run } from './run-cli.ts';
import { commitTable } from './table-into-dataset.ts';
import { analyseWindowRows, rowsByCapture } from './window-rows.ts';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sextant-window-rows-'));
});

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('analyze-dataset --window in three steps (plan-windows, analyze-window, stitch-windows)', () => {
  it('writes the files analyze-dataset --window writes, from windows analysed from their rows alone', async () => {
    const scenario = generateBleScenario({ seed: 3, scenario: 'fast_rotation', layout: 'combined' });
    if (!scenario.ok) throw new Error(scenario.error.message);
    const [capture] = scenario.value.captures;
    const root = join(work, 'dataset');
    await commitTable(root, capture.info.id, capture.table);
    const whole = join(work, 'analyze-dataset');
    const analysed = await run(['analyze-dataset', root, '--out', whole, '--window', '10m', '--overlap', '4m']);
    expect(analysed.code).toBe(0);

    const bounds = JSON.parse((await run(['query', root, 'SELECT min(ts_ms), max(ts_ms), count(*) FROM packets'])).stdout) as { rows: number[][] };
    const [[first, last, rows]] = bounds.rows;
    const planned = await run(['plan-windows', '--first-ms', String(first), '--last-ms', String(last), '--window', '10m', '--overlap', '4m']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as { window_ms: number; overlap_ms: number; tool_arguments: object; timeout_ms: number; windows: Array<{ index: number; from_ms: number; end_ms: number; to_ms: number }> };
    // The plan analyze-dataset made.
    const analysis = JSON.parse(analysed.stdout) as { windows: Array<{ index: number; from_ms: number; end_ms: number; to_ms: number }> };
    expect(plan.windows).toEqual(analysis.windows.map(({ index, from_ms, end_ms, to_ms }) => ({ index, from_ms, end_ms, to_ms })));
    expect(plan.tool_arguments).toEqual(DEFAULT_ARGUMENTS);

    // Each window from rows alone (here all of them: the window's bounds select, as on an executor that got only its own).
    const lines: string[] = [];
    for (const window of plan.windows) {
      const outcome = await analyseWindowRows(capture.table, {
        plan: { index: window.index, fromMs: window.from_ms, endMs: window.end_ms, toMs: window.to_ms },
        toolArguments: DEFAULT_ARGUMENTS,
        timeoutMs: plan.timeout_ms,
        maxPackets: rows,
        memoryLimit: ANALYSIS_MEMORY_LIMIT,
      });
      if (outcome.kind !== 'done') throw new Error(outcome.message);
      lines.push(JSON.stringify(outcome.output));
    }
    const planFile = join(work, 'plan.json');
    const manifest = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')) as { sources: Array<{ capture_id: string; file: string; sha256: string; rows: number }> };
    await writeFile(
      planFile,
      JSON.stringify({
        format: 'sextant-window-plan/1',
        dataset: root,
        window_ms: plan.window_ms,
        overlap_ms: plan.overlap_ms,
        tool_arguments: plan.tool_arguments,
        timeout_ms: plan.timeout_ms,
        captures: [{ capture_id: capture.info.id, rows, first_ms: first, last_ms: last }],
        sources: manifest.sources.map(({ capture_id, file, sha256 }) => ({ capture_id, file, sha256 })),
      }),
    );
    const windowsFile = join(work, 'windows.jsonl');
    // In any order, as executors answer.
    await writeFile(windowsFile, `${lines.reverse().join('\n')}\n`);
    const stitchedOut = join(work, 'stitched');
    const stitched = await run(['stitch-windows', '--plan', planFile, '--windows', windowsFile, '--out', stitchedOut]);
    expect(stitched.stderr).toBe('');
    expect(stitched.code).toBe(0);

    const files = await filesUnder(whole);
    expect(await filesUnder(stitchedOut)).toEqual(files);
    expect(files).toContain('clusters.jsonl');
    for (const file of files) {
      const [ours, theirs] = [await readFile(join(whole, file), 'utf8'), await readFile(join(stitchedOut, file), 'utf8')];
      if (file !== 'analysis.json') {
        expect(theirs, file).toBe(ours);
        continue;
      }
      // analysis.json: equal but for the times the analyses took.
      const withoutTimings = (text: string): unknown => {
        const value = JSON.parse(text) as { duration_ms?: number; windows: Array<{ duration_ms?: number }> };
        delete value.duration_ms;
        for (const window of value.windows) delete window.duration_ms;
        return value;
      };
      expect(withoutTimings(theirs)).toEqual(withoutTimings(ours));
    }

    // A window line that is not one of the planned windows is refused.
    await writeFile(windowsFile, `${JSON.stringify({ ...JSON.parse(lines[0]) as object, from_ms: 1 })}\n`);
    const mismatched = await run(['stitch-windows', '--plan', planFile, '--windows', windowsFile, '--out', join(work, 'mismatched')]);
    expect(mismatched.code).toBe(4);
    expect(mismatched.stderr).toContain('[WINDOWS_MISMATCH]');
  }, 240_000);

  it('groups rows by capture id wherever they are in the stream, and refuses rows without one', () => {
    const table = tableFromArrays({ capture_id: ['a', 'a', 'b', 'a', 'b'], ts_ms: Float64Array.from([1, 2, 3, 4, 5]) });
    const grouped = rowsByCapture(table);
    if (typeof grouped === 'string') throw new Error(grouped);
    expect([...grouped.keys()]).toEqual(['a', 'b']);
    expect([...grouped.get('a')!.getChild('ts_ms')!.toArray()]).toEqual([1, 2, 4]);
    expect([...grouped.get('b')!.getChild('ts_ms')!.toArray()]).toEqual([3, 5]);
    expect(rowsByCapture(tableFromArrays({ ts_ms: Float64Array.from([1]) }))).toContain("no 'capture_id'");
  });

  it('analyze-window refuses input that is not Arrow rows of packets, and a window over --max-packets', async () => {
    const text = join(work, 'not-arrow.txt');
    await writeFile(text, 'ts_ms,advertiser_addr\n1,aa\n');
    const window = ['--index', '0', '--from-ms', '0', '--end-ms', '10', '--to-ms', '20', '--arguments-json', JSON.stringify(DEFAULT_ARGUMENTS)];
    const notArrow = await run(['analyze-window', ...window, '--rows', text]);
    expect(notArrow.code).toBe(4);
    expect(notArrow.stderr).toContain('[ROWS_NOT_PACKETS]');
    // An empty input is no rows' schema either (Arrow reads it as a table without columns).
    const empty = join(work, 'empty.arrow');
    await writeFile(empty, '');
    const nothing = await run(['analyze-window', ...window, '--rows', empty]);
    expect(nothing.code).toBe(4);
    expect(nothing.stderr).toContain('(0 bytes without a schema) [ROWS_NOT_PACKETS]');
    const outcome = await analyseWindowRows(tableFromArrays({ capture_id: ['a', 'a'], ts_ms: Float64Array.from([1, 2]) }), {
      plan: { index: 0, fromMs: 0, endMs: 10, toMs: 20 },
      toolArguments: DEFAULT_ARGUMENTS,
      timeoutMs: 1000,
      maxPackets: 1,
      memoryLimit: ANALYSIS_MEMORY_LIMIT,
    });
    expect(outcome).toMatchObject({ kind: 'refused', code: 'WINDOW_TOO_LARGE' });
    const badWindow = await run(['analyze-window', '--index', '0', '--from-ms', '10', '--end-ms', '5', '--to-ms', '20', '--arguments-json', '{}']);
    expect(badWindow.code).toBe(4);
  });
});

describe("the analyzer's arguments, checked before any data is read", () => {
  it('refuses arguments that fail the input schema with exit 5, each problem with its field and code', async () => {
    const file = join(work, 'bad-arguments.json');
    await writeFile(file, JSON.stringify({ mode: 'everything', linkage_window_s: 'long' }));
    // The dataset does not exist: exit 5, not 4, shows the arguments were judged first.
    const analysed = await run(['analyze-dataset', join(work, 'no-such-dataset'), '--out', join(work, 'never'), '--window', '10m', '--arguments', file]);
    expect(analysed.code).toBe(5);
    expect(analysed.stderr).toMatch(/arguments\.mode: .*\[UNKNOWN_ARGUMENT\]/);
    // The windows' capture selection is the command's to make: not asked of the arguments.
    expect(analysed.stderr).not.toMatch(/^sextant: analyze-dataset: capture_selection/m);
    expect(analysed.stderr).toMatch(/arguments\.linkage_window_s: .*\[INVALID_TYPE\]/);
    await expect(readdir(join(work, 'never'))).rejects.toThrow();
    const planned = await run(['plan-windows', '--first-ms', '0', '--last-ms', '3600000', '--window', '10m', '--arguments', file]);
    expect(planned.code).toBe(5);
    expect(planned.stdout).toBe('');
    expect(planned.stderr).toMatch(/sextant: plan-windows: arguments\.linkage_window_s: .*\[INVALID_TYPE\]/);
  });

  it('plans a range as analyze-dataset --from/--to does, and stitch-windows refuses a malformed range', async () => {
    const planned = await run(['plan-windows', '--first-ms', '0', '--last-ms', '3600000', '--window', '10m', '--overlap', '4m', '--from-ms', '120000', '--to-ms', '1920000']);
    expect(planned.code).toBe(0);
    const plan = JSON.parse(planned.stdout) as { from_ms: number; to_ms: number; windows: Array<{ from_ms: number; end_ms: number; to_ms: number }> };
    expect([plan.from_ms, plan.to_ms]).toEqual([120_000, 1_920_000]);
    expect(plan.windows.map((window) => [window.from_ms, window.end_ms, window.to_ms])).toEqual([
      [120_000, 720_000, 960_000],
      [720_000, 1_320_000, 1_560_000],
      [1_320_000, 1_920_000, 1_920_000],
    ]);
    const planFile = join(work, 'ranged-plan.json');
    const windowsFile = join(work, 'ranged-windows.jsonl');
    await writeFile(windowsFile, '');
    const base = { format: 'sextant-window-plan/1', dataset: work, window_ms: 600_000, overlap_ms: 240_000, tool_arguments: DEFAULT_ARGUMENTS, timeout_ms: 1000, captures: [{ capture_id: 'c', rows: 1, first_ms: 0, last_ms: 1 }], sources: [] };
    await writeFile(planFile, JSON.stringify({ ...base, range: { from_ms: 'noon', to_ms: null, capture_ids: [] } }));
    const refused = await run(['stitch-windows', '--plan', planFile, '--windows', windowsFile, '--out', join(work, 'ranged-out')]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/"range" must be .*\[WINDOWS_MISMATCH\]/);
  });
});
