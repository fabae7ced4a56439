import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { generateBleScenario } from '../../src/core/index.ts';
import { ANALYSIS_MEMORY_LIMIT, DEFAULT_ARGUMENTS } from '../commands/analyze-dataset-command.ts';
import { analyseWindowRows } from './window-rows.ts';

const SEXTANT = fileURLToPath(new URL('../sextant.mjs', import.meta.url));

/** `sextant analyze-window --serve` fed `input` whole: its exit code and answer lines. */
function served(input: Uint8Array[]): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SEXTANT, 'analyze-window', '--serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, lines: stdout.split('\n').filter((line) => line !== ''), stderr }));
    for (const bytes of input) child.stdin.write(bytes);
    child.stdin.end();
  });
}

function request(fields: object, rows: Uint8Array): Uint8Array[] {
  return [new TextEncoder().encode(`${JSON.stringify({ ...fields, rows_bytes: rows.length })}\n`), rows];
}

/** A window's answer without its timing, the one field that differs between runs. */
function untimed(line: string): unknown {
  const { duration_ms: _, ...rest } = JSON.parse(line) as { duration_ms: number };
  return rest;
}

describe('analyze-window --serve', () => {
  it('answers each window as one-shot analyze-window does, in order, refusals included, with one runner', async () => {
    const scenario = generateBleScenario({ seed: 3, scenario: 'fast_rotation', layout: 'combined' });
    if (!scenario.ok) throw new Error(scenario.error.message);
    const [capture] = scenario.value.captures;
    const times = capture.table.getChild('ts_ms')!.toArray() as Float64Array;
    const first = Math.floor(times.reduce((low, time) => Math.min(low, time), Infinity));
    const half = 60_000;
    const windows = [
      { index: 0, from_ms: first, end_ms: first + half, to_ms: first + 2 * half },
      { index: 1, from_ms: first + half, end_ms: first + 3 * half, to_ms: first + 4 * half },
    ];
    const rows = tableToIPC(capture.table, 'stream');
    const input = [
      ...request({ ...windows[0], arguments: DEFAULT_ARGUMENTS }, rows),
      // Not Arrow: refused, and the next request is still served.
      ...request({ index: 7, from_ms: 0, end_ms: 1, to_ms: 2, arguments: DEFAULT_ARGUMENTS }, new TextEncoder().encode('not arrow')),
      ...request({ ...windows[1], arguments: DEFAULT_ARGUMENTS, max_packets: capture.table.numRows }, rows),
      ...request({ ...windows[1], arguments: DEFAULT_ARGUMENTS, max_packets: 10 }, rows),
      // Too short for Arrow to fail on (it reads them as a table without columns): refused too.
      ...request({ index: 8, from_ms: 0, end_ms: 1, to_ms: 2, arguments: DEFAULT_ARGUMENTS }, new TextEncoder().encode('bad')),
    ];
    const answer = await served(input);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.lines).toHaveLength(5);

    const oneShot = async (window: (typeof windows)[number]) => {
      const outcome = await analyseWindowRows(capture.table, {
        plan: { index: window.index, fromMs: window.from_ms, endMs: window.end_ms, toMs: window.to_ms },
        toolArguments: DEFAULT_ARGUMENTS,
        timeoutMs: 120_000,
        maxPackets: capture.table.numRows,
        memoryLimit: ANALYSIS_MEMORY_LIMIT,
      });
      if (outcome.kind !== 'done') throw new Error(outcome.message);
      return untimed(JSON.stringify(outcome.output));
    };
    const expected0 = await oneShot(windows[0]);
    // An analysed window (partial: the analyzer's warnings about a two-minute slice), not a failure.
    expect(['ok', 'partial']).toContain((expected0 as { result: { status: string } }).result.status);
    expect(untimed(answer.lines[0])).toEqual(expected0);
    expect(JSON.parse(answer.lines[1])).toMatchObject({ format: 'sextant-window-refusal/1', index: 7, code: 'ROWS_NOT_PACKETS' });
    expect(untimed(answer.lines[2])).toEqual(await oneShot(windows[1]));
    expect(JSON.parse(answer.lines[3])).toMatchObject({ format: 'sextant-window-refusal/1', index: 1, code: 'WINDOW_TOO_LARGE' });
    expect(JSON.parse(answer.lines[4])).toMatchObject({ index: 8, code: 'ROWS_NOT_PACKETS', message: expect.stringContaining('3 bytes without a schema') });
  });

  it('stops at a request it cannot read, saying why, with exit 4', async () => {
    const notJson = await served([new TextEncoder().encode('{"index": 0\n')]);
    expect(notJson.code).toBe(4);
    expect(notJson.lines.map((line) => JSON.parse(line) as object)).toEqual([{ format: 'sextant-window-refusal/1', index: null, code: 'BAD_WINDOW_REQUEST', message: expect.stringContaining('one JSON object') }]);

    const cut = await served([new TextEncoder().encode(`${JSON.stringify({ index: 2, from_ms: 0, end_ms: 1, to_ms: 2, arguments: {}, rows_bytes: 1000 })}\nshort`)]);
    expect(cut.code).toBe(4);
    expect(JSON.parse(cut.lines[0])).toMatchObject({ index: 2, code: 'BAD_WINDOW_REQUEST', message: expect.stringContaining('ended inside window 2') });

    const reversed = await served([new TextEncoder().encode(`${JSON.stringify({ index: 3, from_ms: 5, end_ms: 1, to_ms: 2, arguments: {}, rows_bytes: 0 })}\n`)]);
    expect(reversed.code).toBe(4);
    expect(JSON.parse(reversed.lines[0])).toMatchObject({ code: 'BAD_WINDOW_REQUEST', message: 'window 3 needs from_ms < end_ms ≤ to_ms' });
  });
});
