import { describe, expect, it } from 'vitest';
import { textLines } from '../../../util/text-lines.ts';
import { openStitchedAnalysis, type AnalysisFiles } from './open-stitched-analysis.ts';
import { parseWindowResult } from './stitched-output.ts';

const encoder = new TextEncoder();

/** Files of an output directory from texts; `bytes` hands each file over in chunks of `chunk` bytes. */
function filesOf(texts: Record<string, string>, chunk = 7): AnalysisFiles {
  return {
    text: (path) => (path in texts ? Promise.resolve(texts[path]) : undefined),
    bytes(path) {
      if (!(path in texts)) return undefined;
      const bytes = encoder.encode(texts[path]);
      return (async function* () {
        for (let start = 0; start < bytes.length; start += chunk) yield bytes.subarray(start, start + chunk);
      })();
    },
  };
}

const window = (index: number) => ({
  index,
  from_ms: 1_700_000_000_000 + index * 600_000,
  end_ms: 1_700_000_600_000 + index * 600_000,
  to_ms: 1_700_000_840_000 + index * 600_000,
  rows: 1000,
  captures: [{ capture_id: 'rx_1', rows: 1000 }],
  status: 'ok',
  confidence: 0.9,
  result: `windows/${index}/result.json`,
});

const overview = {
  dataset: '/data/scene',
  window: { from_ms: null, to_ms: null },
  windowing: { window_ms: 600_000, overlap_ms: 240_000, window: '10m', overlap: '4m' },
  captures: [{ capture_id: 'rx_1', rows: 2000, file: 'rx_1.pcap', sha256: 'a'.repeat(64) }],
  invocation: { tool_name: 'bluetooth_address_analyzer', tool_version: '1.2.0', arguments: {}, timeout_ms: 1000 },
  windows: [window(0), window(1)],
  stitched: { windows_stitched: 2, devices: 3, multi_address_devices: 2, spanning_devices: 1, joins: 1, conflicts: 1, absorbed: 0 },
  status: 'ok',
  summary: 'Analysed 2,000 packets',
  result: 'result.json',
};

const device = (id: string, addresses: string[], windows: number[], extra: object = {}) =>
  JSON.stringify({
    id,
    addresses,
    first_seen: '2023-11-14T22:13:20.000Z',
    last_seen: '2023-11-14T22:30:00.000Z',
    windows,
    window_clusters: windows.map((index) => ({ window: index, cluster_id: addresses.length > 1 ? `cluster_${id}` : null })),
    confidence: 0.8,
    conflicts: 0,
    ...extra,
  });

const clusters = [
  device('device_000001', ['4E:2D:A0:7B:82:74', '60:C6:D1:15:E0:8C'], [0, 1], { confidence: 0.62 }),
  device('device_000002', ['C0:FF:EE:00:00:01'], [0], { tracker_kind: 'smarttag' }),
  device('device_000003', ['51:8F:62:24:E2:AF', '4E:2D:00:00:00:01', '58:41:6E:15:D7:99'], [1], { conflicts: 1 }),
].join('\r\n');
const relations = JSON.stringify({ window: 0, device_a: 'device_000001', device_b: 'device_000002', probability: 0.97, start_ts: '2023-11-14T22:13:20.000Z', end_ts: '2023-11-14T22:20:00.000Z', duration_s: 400, tracker_kind: 'smarttag' });
const conflicts = JSON.stringify({
  window: 0,
  cluster_id: 'cluster_a',
  other_window: 1,
  other_cluster_id: 'cluster_b',
  shared_addresses: ['51:8F:62:24:E2:AF'],
  kept_apart_in_window: 1,
  kept_apart: ['cluster_b', 'cluster_c'],
  devices: ['device_000003', 'device_000001'],
});

const output = (changes: Record<string, string | undefined> = {}) => {
  const texts: Record<string, string> = { 'analysis.json': JSON.stringify(overview), 'clusters.jsonl': `${clusters}\n`, 'relations.jsonl': `${relations}\n`, 'conflicts.jsonl': `${conflicts}\n`, ...changes } as Record<string, string>;
  for (const [path, text] of Object.entries(changes)) if (text === undefined) delete texts[path];
  return filesOf(texts);
};

describe('openStitchedAnalysis', () => {
  it('reads the stitched devices and answers pages, searches and a device’s detail', async () => {
    const opened = await openStitchedAnalysis(output());
    if (!opened.ok) throw new Error(opened.error.message);
    const { overview: read, devices } = opened.value;
    expect(read.windowing?.window).toBe('10m');
    expect(read.windows.map((entry) => entry.result)).toEqual(['windows/0/result.json', 'windows/1/result.json']);
    expect(devices!.size).toBe(3);
    expect(devices!.filterCounts()).toEqual({ all: 3, several_addresses: 2, several_windows: 1, trackers: 1, travelled_together: 2, conflicts: 1 });

    const all = (text: string, extra: object = {}) => devices!.query({ text, filter: 'all', order: 'first_seen', offset: 0, limit: 50, ...extra });
    expect(all('').rows.map((row) => row.id)).toEqual(['device_000001', 'device_000002', 'device_000003']);
    // An address typed whole, in any case, with or without colons: its device first, then the ones it is part of.
    expect(all('4e2d00000002').rows.map((row) => row.id)).toEqual([]);
    expect(all('4e:2d:00:00:00:01').rows.map((row) => row.id)).toEqual(['device_000003']);
    expect(all('4E2D').rows.map((row) => row.id)).toEqual(['device_000001', 'device_000003']);
    expect(all('60c6d115e08c').rows.map((row) => row.id)).toEqual(['device_000001']);
    expect(all('device_000002').rows.map((row) => row.id)).toEqual(['device_000002']);
    expect(all('SmartTag').rows.map((row) => row.id)).toEqual(['device_000002']);
    // Orders, filters and pages.
    expect(all('', { order: 'addresses' }).rows.map((row) => row.id)).toEqual(['device_000003', 'device_000001', 'device_000002']);
    expect(all('', { order: 'confidence' }).rows[0].id).toBe('device_000001');
    expect(all('', { filter: 'travelled_together' }).rows.map((row) => row.relations)).toEqual([1, 1]);
    const second = all('', { offset: 1, limit: 1 });
    expect(second).toMatchObject({ total: 3, rows: [{ id: 'device_000002', tracker_kind: 'smarttag', address_count: 1 }] });

    const detail = devices!.detail('device_000001')!;
    expect(detail.relations).toHaveLength(1);
    expect(detail.conflicts.map((conflict) => conflict.devices)).toEqual([['device_000003', 'device_000001']]);
    expect(devices!.detail('device_999999')).toBeNull();
  });

  it('opens a one-window run without stitched files', async () => {
    // As analyze-dataset writes it without --window: no windowing, no windows, no stitched counts.
    const { windowing: _windowing, windows: _windows, stitched: _stitched, ...oneWindow } = overview;
    const opened = await openStitchedAnalysis(output({ 'analysis.json': JSON.stringify(oneWindow), 'clusters.jsonl': undefined }));
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.devices).toBeNull();
    expect(opened.value.overview).toMatchObject({ windowing: null, windows: [], stitched: null, result: 'result.json' });
  });

  it('refuses what is not an analysis, a missing file and a bad line, with codes, files and lines', async () => {
    const problem = async (changes: Record<string, string | undefined>) => {
      const opened = await openStitchedAnalysis(output(changes));
      if (opened.ok) throw new Error('opened');
      return opened.error;
    };
    expect(await problem({ 'analysis.json': undefined })).toMatchObject({ code: 'ANALYSIS_NOT_FOUND' });
    expect(await problem({ 'analysis.json': '{"dataset":' })).toMatchObject({ code: 'ANALYSIS_INVALID', path: 'analysis.json' });
    expect(await problem({ 'analysis.json': JSON.stringify({ ...overview, windows: [{ ...window(0), result: '../../etc/passwd' }] }) })).toMatchObject({
      code: 'ANALYSIS_INVALID',
      message: expect.stringContaining('windows[0]: result is not a path inside the output directory'),
    });
    expect(await problem({ 'analysis.json': JSON.stringify({ ...overview, invocation: { tool_name: 'linear_regression' } }) })).toMatchObject({ code: 'ANALYSIS_INVALID' });
    expect(await problem({ 'relations.jsonl': undefined })).toMatchObject({ code: 'ANALYSIS_FILE_MISSING', path: 'relations.jsonl' });
    expect(await problem({ 'clusters.jsonl': `${clusters}\n{"id":` })).toMatchObject({ code: 'ANALYSIS_LINE_INVALID', path: 'clusters.jsonl', line: 4 });
    expect(await problem({ 'conflicts.jsonl': '\n{"window":0}\n' })).toMatchObject({ code: 'ANALYSIS_LINE_INVALID', line: 2, message: expect.stringContaining('conflicts.jsonl line 2') });
    expect(await problem({ 'relations.jsonl': relations.replace('0.97', '1.5') })).toMatchObject({ message: 'relations.jsonl line 1: probability is not a probability' });
  });
});

describe('parseWindowResult', () => {
  it('takes a ToolResult and refuses anything else with the path', () => {
    const result = { status: 'error', summary: 'failed', warnings: [], errors: [{ code: 'TIMEOUT', field: 'timeout_ms', message: 'too slow' }], confidence: 0 };
    expect(parseWindowResult(JSON.stringify(result), 'windows/3/result.json')).toMatchObject({ ok: true });
    expect(parseWindowResult('{"status":"ok"}', 'windows/3/result.json')).toMatchObject({ ok: false, error: { code: 'WINDOW_RESULT_INVALID', path: 'windows/3/result.json' } });
    const wrongOutput = { ...result, status: 'ok', errors: [], confidence: 1, structured_output: { clusters: 'none' } };
    expect(parseWindowResult(JSON.stringify(wrongOutput), 'windows/3/result.json')).toMatchObject({ ok: false, error: { message: expect.stringContaining("not the address analyzer's output") } });
  });
});

describe('textLines', () => {
  it('splits chunks at any byte, multi-byte characters and CRLF included', async () => {
    const text = 'première ligne\r\nzweite Zeile — ü\n\nlast without end';
    const bytes = encoder.encode(text);
    for (const size of [1, 2, 3, 5, 64]) {
      const chunks = (async function* () {
        for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
      })();
      const lines: string[] = [];
      for await (const line of textLines(chunks)) lines.push(line);
      expect(lines, `chunks of ${size}`).toEqual(['première ligne', 'zweite Zeile — ü', '', 'last without end']);
    }
  });
});
